"""The coach's two views of a decision, as data: the turn's expected gems and the game's chance of winning.

For each option of the player to move the coach gives

* the **expected gems**: the change of the player's own gems to the end of the turn, playing the
  turn optimally and nobody taking over (RULES.md section 7), exact (:class:`~dragonkit.analysis.SolvedTurn`,
  :func:`~dragonkit.analysis.takeover_gain`);
* the **chance of winning the game** after it, both players playing to win: in a two-player game of an
  edition whose final danger costs all the revealer's gems, from the race model's table
  (:func:`~dragonkit.analysis.win_table.win_table`); in the other two-player games, exact once few cards
  are left (:class:`~dragonkit.analysis.win_late.LateGame`) and from the gems model's table before
  (:func:`~dragonkit.analysis.win_gems.gems_win_table`); with more players, estimated by Monte Carlo from
  the public state (:func:`~dragonkit.simulate.estimate_win_chances`).

When the two views' best options differ, :func:`two_views` says why in terms of the situation: whether
the last danger card is still in the deck, who reveals the next card after each option, whether the other
player can pay the bounty and would take over, how far the head is.  The words are written by
:mod:`dragonkit.ui.coach`; this module only asks the analysis, the win model and the game's public
state (:class:`~dragonkit.game_state.GameState`), and never sees the order of the deck.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..analysis import SolvedTurn, TurnSolution, TurnState, takeover_gain
from ..analysis.win import Probability
from ..analysis.win_late import LateGame
from ..analysis.win_model import TablePreparing, WinModel, model_for, table
from ..engine import Game
from ..game_state import GameState, Phase
from ..simulate.win_chance import WinChanceEstimate, estimate_win_chances
from ..turn import Action

__all__ = [
    "ESTIMATE_GAMES",
    "ESTIMATE_SECONDS",
    "TIE",
    "Option",
    "Reason",
    "TwoViews",
    "cached_estimate",
    "estimate_for",
    "estimate_needed",
    "two_views",
]

#: Two chances of winning closer than this are equal for who takes a held turn over (a reason's words).
TIE = 0.0005
#: Games per option of the Monte Carlo estimate, and its time budget (seconds): a budget of 1.5 s keeps
#: the panel within 2 s on the 2-core test machine (``benchmarks/bench_win_chance.py``).
ESTIMATE_GAMES = 2000
ESTIMATE_SECONDS = 1.5


#: A source of chances of winning (the table's, or the late game's exact ones): the mover's after each legal action.
_Values = Callable[[GameState], Mapping[Action, Probability]]


@dataclass(frozen=True)
class Option:
    """One option of the player to move, in both views.

    Attributes
    ----------
    action : Action
    gems : Fraction
        The expected change of the player's gems to the end of the turn (gems).
    win : float or None
        The chance of winning the game after it; None where it is not computed.
    ci : tuple of two floats or None
        The confidence interval of an estimated :attr:`win`; None for the model's exact value.
    """

    action: Action
    gems: Fraction
    win: float | None = None
    ci: tuple[float, float] | None = None


@dataclass(frozen=True)
class Reason:
    """Why the views disagree: a kind and the facts its sentence names.

    Attributes
    ----------
    kind : str
        ``"last_danger_pass"`` (the option that wins more makes someone else reveal the next card while the
        last danger card is in the deck), ``"last_danger_twice"`` (the next turn is the player's anyway: every
        card revealed now is one more draw at the last danger), ``"head_hold"`` and ``"head_decline"`` (a chance
        at the head counts for more than the pot or the bounty, and holding or declining would give it away),
        ``"head_restart"`` (a chance at the head counts for more than the pot, and holding would start the
        player's next turn from the tail), ``"lead_bank"`` and ``"lead_short"`` (in an edition whose last
        danger card ends the game on the gems: banking the pot would put the player ahead, or would still leave
        them behind), or ``"general"``.
    action : Action
        The option of the better chance of winning.
    name : str or None
        The one player who would reveal the next card instead (taking over, or owning the next turn), where
        only one can; None where several might (more than two players).
    gems, pot, bounty, steps : int
        The mover's gems, the pot, the bounty and the knight's distance to the head.
    takes_over : bool
        Whether the player named would get there by taking the turn over.
    banked, rival : int
        For the ``"lead_*"`` kinds, the mover's gems with the pot banked and the most gems of another player then
        (the engine's own states after the hold); 0 for the other kinds.
    """

    kind: str
    action: Action
    name: str | None = None
    gems: int = 0
    pot: int = 0
    bounty: int = 0
    steps: int = 0
    takes_over: bool = False
    banked: int = 0
    rival: int = 0


@dataclass(frozen=True)
class TwoViews:
    """The coach's two views of the decision at hand.

    Attributes
    ----------
    mover : int
        Seat of the player to move.
    options : tuple of Option
        In the order of the legal actions.
    source : str or None
        Where the chances of winning come from: ``"table"`` (the race model), ``"exact"`` (the late game solved
        exactly), ``"model"`` (the gems model), ``"estimate"`` (Monte Carlo), ``"preparing"`` (a table being solved:
        no chance of winning yet) or None (not computed).
    estimate : WinChanceEstimate or None
        The Monte Carlo run, where :attr:`source` is ``"estimate"``.
    best_gems, best_win : frozenset of Action
        The best options of each view (several on a tie; :attr:`best_win` is empty without chances of winning, and
        where an estimate cannot tell the options apart).
    verdict : str
        ``"single"`` (one legal action), ``"agree"``, ``"disagree"``, ``"unclear"`` (an estimate that cannot tell
        the options apart at its confidence level) or ``"none"`` (no chances of winning).
    reason : Reason or None
        Why, where the verdict is ``"disagree"``.
    """

    mover: int
    options: tuple[Option, ...]
    source: str | None
    estimate: WinChanceEstimate | None
    best_gems: frozenset[Action]
    best_win: frozenset[Action]
    verdict: str
    reason: Reason | None = None

    @property
    def compulsory(self) -> bool:
        """Whether the only legal action is a compulsory reveal."""
        return len(self.options) == 1


# -- the expected gems -------------------------------------------------------------------------------------

#: The turn the coach solved last: later decisions of the same turn are looked up in it, not solved again.
_last_turn: list[SolvedTurn] = []
#: The late game solved last, for the editions the table does not model: later decisions are looked up.
_late_game = LateGame()


def _solution(state: TurnState) -> TurnSolution:
    """The exact solution at ``state``, from the turn solved last if ``state`` is one of its decisions."""
    found = _last_turn[0].solution(state) if _last_turn else None
    if found is None:  # a new turn: solve it once (exact arithmetic)
        _last_turn[:] = [SolvedTurn(state, exact=True)]
        found = _last_turn[0].solution(state)
        assert found is not None  # the state is its own graph's root
    return found


def _gems_values(game: Game) -> dict[Action, Fraction]:
    """Each legal action's expected gems for the player to move (exact)."""
    state = TurnState.from_game(game)
    taker = game.offer_to
    if taker is not None:
        return {
            Action.TAKE_OVER: Fraction(takeover_gain(state, game.gems[taker], game.bounty, exact=True)),
            Action.DECLINE: Fraction(0),
        }
    solved = _solution(state)
    values = {Action.REVEAL: Fraction(solved.push_value)}
    if Action.HOLD in game.legal_actions():
        values[Action.HOLD] = Fraction(solved.hold_value)
    return values


def _best(values: dict[Action, Fraction] | dict[Action, float] | dict[Action, int]) -> frozenset[Action]:
    top = max(values.values())
    return frozenset(a for a, v in values.items() if v == top)


def _best_shown(wins: dict[Action, float]) -> frozenset[Action]:
    """The options of the highest chance of winning as the coach shows it (to a tenth of a percentage point): two
    chances shown alike are both best, two shown apart never are."""
    return _best({a: round(1000 * v) for a, v in wins.items()})


# -- the Monte Carlo estimates, kept per public state --------------------------------------------------------

_estimates: OrderedDict[GameState, WinChanceEstimate] = OrderedDict()
_KEEP = 32


def cached_estimate(game: Game) -> WinChanceEstimate | None:
    """The estimate already made for the public state of ``game``, if any.

    Parameters
    ----------
    game : Game

    Returns
    -------
    WinChanceEstimate or None
    """
    return _estimates.get(game.state)


def estimate_needed(game: Game) -> bool:
    """Whether the coach would run a Monte Carlo estimate for ``game`` now: neither the table nor the late game's
    exact solution applies, the player to move has a choice, and this situation has not been estimated yet.

    Parameters
    ----------
    game : Game

    Returns
    -------
    bool
    """
    if game.is_over or len(game.legal_actions()) < 2:
        return False
    solved, source = _solver(game.state)
    return solved is None and source is None and cached_estimate(game) is None


def estimate_for(game: Game) -> WinChanceEstimate:
    """The Monte Carlo estimate for the public state of ``game``: made once (within :data:`ESTIMATE_SECONDS`),
    then kept for the same situation (a redraw, a change of language); the last 32 situations are kept.

    Parameters
    ----------
    game : Game
        A game going on, where the player to move has a choice.

    Returns
    -------
    WinChanceEstimate
        Of :data:`ESTIMATE_GAMES` games per option at most (:func:`~dragonkit.simulate.estimate_win_chances`).
    """
    key = game.state
    found = _estimates.get(key)
    if found is None:
        found = estimate_win_chances(game, games=ESTIMATE_GAMES, seconds=ESTIMATE_SECONDS)
        _estimates[key] = found
        while len(_estimates) > _KEEP:
            _estimates.popitem(last=False)
    else:
        _estimates.move_to_end(key)
    return found


# -- both views --------------------------------------------------------------------------------------------


def _solver(state: GameState) -> tuple[_Values | None, str | None]:
    """Where the chances of winning of ``state`` come from, when not from an estimate
    (:func:`~dragonkit.analysis.win_model.model_for`): the race model's table (``"table"``), the late game's exact
    solution (``"exact"``), the gems model's table (``"model"``); ``"preparing"`` without values while the table is
    being solved; ``(None, None)`` where no model answers."""
    kind = model_for(state)
    if kind is None:
        return None, None
    if kind is WinModel.LATE:
        return _late_game.action_values, kind.value
    try:
        return table(state.rules, wait=False).action_values, kind.value
    except TablePreparing:
        return None, "preparing"


def two_views(game: Game, estimate: bool = True) -> TwoViews:
    """The two views of the decision at hand in ``game``.

    Parameters
    ----------
    game : Game
        A game going on.
    estimate : bool
        Whether a Monte Carlo estimate may be made now, where the table does not apply (it takes up to
        :data:`ESTIMATE_SECONDS`); if False, only an estimate already made for this situation is used.

    Returns
    -------
    TwoViews

    Raises
    ------
    ValueError
        If the game is over.
    """
    if game.is_over:
        raise ValueError("the game is over: there is no decision")
    mover = game.to_move
    assert mover is not None
    gems = _gems_values(game)
    best_gems = _best(gems)
    state = game.state
    solved, source = _solver(state)
    found: WinChanceEstimate | None = None
    wins: dict[Action, float] = {}
    cis: dict[Action, tuple[float, float]] = {}
    if solved is not None:
        wins = {a: float(v) for a, v in solved(state).items()}
    elif source is None and len(gems) > 1:
        found = estimate_for(game) if estimate else cached_estimate(game)
        if found is not None:
            wins = {o.action: o.estimate for o in found.options}
            cis = {o.action: (o.ci_low, o.ci_high) for o in found.options}
            source = "estimate"
    options = tuple(Option(a, gems[a], wins.get(a), cis.get(a)) for a in gems)
    if len(options) == 1:
        best_win = _best_shown(wins) if wins else frozenset()
        return TwoViews(mover, options, source, found, best_gems, best_win, "single")
    if not wins:
        return TwoViews(mover, options, source if source == "preparing" else None, None, best_gems, frozenset(), "none")
    if found is not None:
        leader = found.best
        other = next(a for a in gems if a != leader)
        _, low, _ = found.difference(leader, other)
        if low <= 0:  # the interval of the difference holds 0: the estimate cannot tell them apart, nor mark a best
            return TwoViews(mover, options, source, found, best_gems, frozenset(), "unclear")
        best_win = frozenset({leader})
    else:
        best_win = _best_shown(wins)
    if best_gems & best_win:
        return TwoViews(mover, options, source, found, best_gems, best_win, "agree")
    (winner,) = best_win  # disjoint from the gems' best: one option of two
    reason = _reason(game, state, winner, solved)
    return TwoViews(mover, options, source, found, best_gems, best_win, "disagree", reason)


# -- why they disagree ---------------------------------------------------------------------------------------


def _next_revealers(after: GameState, solved: _Values | None) -> list[tuple[int, bool]]:
    """Who may reveal the next card from ``after`` (a hold or a decline just made), as ``(seat, takes_over)``
    pairs: each player asked who would or might take over (the exact chances say which, for two players;
    without them, anyone able to pay might), then the owner of the next turn if nobody does."""
    found: list[tuple[int, bool]] = []
    while after.phase is Phase.OFFER:
        taker = after.offer_to
        assert taker is not None
        if solved is not None:
            values = solved(after)
            if values[Action.TAKE_OVER] > values[Action.DECLINE] + TIE:
                return [*found, (taker, True)]  # they take over: nobody after them is asked
            if values[Action.TAKE_OVER] < values[Action.DECLINE] - TIE:
                after = after.child(Action.DECLINE)
                continue
        found.append((taker, True))  # they might
        after = after.child(Action.DECLINE)
    if not after.is_terminal():
        found.append((after.active, False))
    return found


def _hold_endings(state: GameState) -> list[GameState]:
    """The states a hold in ``state`` can lead to: a takeover by each player asked in turn, then the pot banked."""
    endings = []
    after = state.child(Action.HOLD)
    while after.phase is Phase.OFFER:
        endings.append(after.child(Action.TAKE_OVER))
        after = after.child(Action.DECLINE)
    return [*endings, after]


def _mover_and_rival(state: GameState, mover: int) -> tuple[int, int]:
    """``mover``'s gems in ``state`` and the most gems of another player."""
    return state.gems[mover], max(g for seat, g in enumerate(state.gems) if seat != mover)


def _reason(game: Game, state: GameState, winner: Action, solved: _Values | None) -> Reason:
    """Why the chance of winning prefers ``winner`` where the expected gems prefer the other option."""
    rules, mover, names = game.rules, game.to_move, game.players
    assert mover is not None

    def reason(kind: str, seats: list[tuple[int, bool]] | None = None) -> Reason:
        who = {seat for seat, _ in seats or ()}
        one = who.pop() if len(who) == 1 else None  # the one player who reveals next, whichever way
        return Reason(
            kind,
            winner,
            name=None if one is None else names[one],
            gems=game.gems[mover],
            pot=game.pot,
            bounty=game.bounty,
            steps=rules.head - game.position,
            takes_over=one is not None and all(takes for _, takes in seats or ()),
            banked=banked,
            rival=rival,
        )

    last_danger = state.last_danger_in_deck and rules.final_danger == "all_gems"
    banked, rival = 0, 0
    if state.last_danger_in_deck and rules.final_danger == "pot_only" and state.phase is Phase.CHOOSE:
        # the last danger card ends the game on the gems: the gems after a hold, by the engine, whoever takes over
        endings = _hold_endings(state)
        banked, rival = _mover_and_rival(endings[-1], mover)  # the pot banked
        ahead = all(a > r for a, r in (_mover_and_rival(e, mover) for e in endings))
        if winner is Action.HOLD and ahead:
            return reason("lead_bank")
        if winner is Action.REVEAL and banked <= rival:
            return reason("lead_short")
    if winner in (Action.HOLD, Action.DECLINE):  # the chance of winning prefers to let the turn go
        seats = _next_revealers(state.child(winner), solved)
        if last_danger and seats and all(seat != mover for seat, _ in seats):
            return reason("last_danger_pass", seats)
        if last_danger and seats and seats[-1] == (mover, False):  # whoever may take over, the next turn is theirs
            return reason("last_danger_twice")
        return reason("general")
    # the chance of winning prefers to go on: to reveal, or to take over
    seats = _next_revealers(state.child(Action.HOLD if winner is Action.REVEAL else Action.DECLINE), solved)
    if seats and all(seat != mover for seat, _ in seats):
        return reason("head_hold" if winner is Action.REVEAL else "head_decline", seats)
    if winner is Action.REVEAL and seats == [(mover, False)]:  # nobody can take over, the next turn is theirs
        return reason("head_restart")
    return reason("general")
