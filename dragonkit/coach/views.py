"""The coach's two views of a decision, as data: the turn's expected gems and the game's chance of winning.

For each option of the player to move the coach gives

* the **expected gems**: the change of the player's own gems to the end of the turn, playing the
  turn optimally and nobody taking over (RULES.md section 7), exact (:class:`~dragonkit.analysis.TurnOptions`,
  :func:`~dragonkit.analysis.takeover_gain`);
* the **chance of winning the game** after it, both players playing to win: in a two-player game of an
  edition whose final danger costs all the revealer's gems, from the race model's table
  (:func:`~dragonkit.analysis.win.race.win_table`); in the other two-player games, exact once few cards
  are left (:class:`~dragonkit.analysis.win.late.LateGame`) and from the gems model's table before
  (:func:`~dragonkit.analysis.win.gems.gems_win_table`); with more players, estimated by Monte Carlo from
  the public state (:func:`~dragonkit.simulate.estimate_win_chances`).

When the two views' best options differ, :func:`~dragonkit.coach.reasons.disagreement` says why.  Each app owns a
:class:`Coach`, which keeps what it solved between decisions (the last turns solved, the late game, the last Monte Carlo
estimates), so that two apps in one kernel never share nor evict each other's.  This module only asks the analysis,
the win model (:func:`~dragonkit.analysis.win.model.solver_for`) and the game's public state
(:class:`~dragonkit.game_state.GameState`), and never sees the order of the deck; the words are
:mod:`dragonkit.coach.words`'.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from ..analysis import TurnOptions
from ..analysis.win.late import LateGame
from ..analysis.win.model import TablePreparing, WinModel, solver_for
from ..engine import Game
from ..game_state import GameState
from ..simulate.win_chance import WinChanceEstimate, estimate_win_chances
from ..turn import Action
from .reasons import Reason, Values, disagreement, shown

__all__ = [
    "DEFAULT_ESTIMATE_GAMES",
    "ESTIMATE_GAMES",
    "ESTIMATE_SECONDS",
    "GAMES_VARIABLE",
    "Coach",
    "Option",
    "Source",
    "TwoViews",
    "Verdict",
    "estimate_games",
]

#: The environment variable that sets a kernel's :data:`ESTIMATE_GAMES` (``dragonkit serve --coach-games``).
GAMES_VARIABLE = "DRAGONKIT_COACH_GAMES"
#: Games per option of the Monte Carlo estimate where nothing else is asked: about ±2 percentage points at 95 %.
DEFAULT_ESTIMATE_GAMES = 2000


def estimate_games(environ: Mapping[str, str] = os.environ) -> int:
    """Games per option of the coach's Monte Carlo estimate: ``$DRAGONKIT_COACH_GAMES`` (which ``dragonkit serve
    --coach-games`` gives the server's kernels: a class's server on a small machine may ask fewer, at the cost of
    wider intervals), else :data:`DEFAULT_ESTIMATE_GAMES`.

    Parameters
    ----------
    environ : mapping of str to str
        The environment (default: this process's).

    Returns
    -------
    int
        A whole number of games, at least 1.

    Raises
    ------
    ValueError
        If the variable is set to anything but a whole number of at least 1.
    """
    given = environ.get(GAMES_VARIABLE, "").strip()
    if not given:
        return DEFAULT_ESTIMATE_GAMES
    if not given.isdigit() or int(given) < 1:
        raise ValueError(f"{GAMES_VARIABLE} must be a whole number of games, at least 1, not {given!r}")
    return int(given)


#: Games per option of the Monte Carlo estimate (:func:`estimate_games`, read when the kernel starts), and its time
#: budget (seconds): a budget of 1.5 s keeps the panel within 2 s on the 2-core test machine
#: (``benchmarks/bench_win_chance.py``).
ESTIMATE_GAMES = estimate_games()
ESTIMATE_SECONDS = 1.5
#: The Monte Carlo estimates a coach keeps: the last situations estimated.
KEEP_ESTIMATES = 32
#: The solved turns a coach keeps: the page's, and the one before it (the class's record asks about a decision just
#: made once the page has moved on, maybe to the next turn: :meth:`Coach.views_of`).
KEEP_TURNS = 2


class Source(StrEnum):
    """Where the coach's chances of winning come from when no win model gives them: where one does, the source is
    that model, a :class:`~dragonkit.analysis.win.model.WinModel` (:attr:`TwoViews.source`)."""

    #: A Monte Carlo estimate (:func:`~dragonkit.simulate.estimate_win_chances`).
    ESTIMATE = "estimate"
    #: A table being solved on this machine: no chance of winning yet.
    PREPARING = "preparing"


class Verdict(StrEnum):
    """What the two views say together."""

    #: One legal action (a compulsory reveal).
    SINGLE = "single"
    AGREE = "agree"
    DISAGREE = "disagree"
    #: An estimate that cannot tell the options apart at its confidence level.
    UNCLEAR = "unclear"
    #: No chances of winning (yet): the expected gems alone.
    NONE = "none"


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
class TwoViews:
    """The coach's two views of the decision at hand.

    Attributes
    ----------
    mover : int
        Seat of the player to move.
    options : tuple of Option
        In the order of the legal actions.
    source : WinModel, Source or None
        Where the chances of winning come from: the win model that gives them
        (:class:`~dragonkit.analysis.win.model.WinModel`: the race table, the late game, the gems table), an
        estimate or a table being solved (:class:`Source`); None where they are not computed.
    estimate : WinChanceEstimate or None
        The Monte Carlo run, where :attr:`source` is :attr:`Source.ESTIMATE`.
    best_gems, best_win : frozenset of Action
        The best options of each view (several on a tie; :attr:`best_win` is empty without chances of winning, and
        where an estimate cannot tell the options apart).
    verdict : Verdict
    reason : Reason or None
        Why, where the verdict is :attr:`Verdict.DISAGREE`.
    """

    mover: int
    options: tuple[Option, ...]
    source: WinModel | Source | None
    estimate: WinChanceEstimate | None
    best_gems: frozenset[Action]
    best_win: frozenset[Action]
    verdict: Verdict
    reason: Reason | None = None

    @property
    def compulsory(self) -> bool:
        """Whether the only legal action is a compulsory reveal."""
        return len(self.options) == 1


def _best(values: dict[Action, Fraction] | dict[Action, int]) -> frozenset[Action]:
    top = max(values.values())
    return frozenset(a for a, v in values.items() if v == top)


def _best_shown(wins: dict[Action, float]) -> frozenset[Action]:
    """The options of the highest chance of winning as the coach shows it (:func:`~dragonkit.coach.reasons.shown`):
    two chances shown alike are both best, two shown apart never are."""
    return _best({a: shown(v) for a, v in wins.items()})


class Coach:
    """The coach of one app: its two views of each decision, and what it keeps between decisions.

    It keeps the last :data:`KEEP_TURNS` turns it solved (the later decisions of the same turn are looked up in them,
    not solved again), the late game it solved (for the editions the race table does not model) and its last
    :data:`KEEP_ESTIMATES` Monte Carlo estimates, one per public state.  Nothing is shared between coaches.
    """

    def __init__(self) -> None:
        self._options = TurnOptions(keep=KEEP_TURNS)
        self._late_game = LateGame()
        self._estimates: OrderedDict[GameState, WinChanceEstimate] = OrderedDict()

    # -- the expected gems -------------------------------------------------------------------------------------

    def _gems_values(self, state: GameState) -> dict[Action, Fraction]:
        """Each legal action's expected gems for the player to move in ``state`` (exact;
        :class:`~dragonkit.analysis.TurnOptions`, which keeps the last :data:`KEEP_TURNS` turns solved)."""
        return self._options.values(state)

    # -- the chances of winning --------------------------------------------------------------------------------

    def _solver(self, state: GameState) -> tuple[Values | None, WinModel | Source | None]:
        """Where the chances of winning of ``state`` come from, when not from an estimate
        (:func:`~dragonkit.analysis.win.model.solver_for`, never waiting for a table): the solver and its model;
        no solver and :attr:`Source.PREPARING` while the table is being solved; ``(None, None)`` where no model
        answers."""
        try:
            found = solver_for(state, self._late_game, wait=False)
        except TablePreparing:
            return None, Source.PREPARING
        if found is None:
            return None, None
        solver, kind = found
        return solver.action_values, kind

    def cached_estimate(self, game: Game) -> WinChanceEstimate | None:
        """The estimate already made for the public state of ``game``, if any.

        Parameters
        ----------
        game : Game

        Returns
        -------
        WinChanceEstimate or None
        """
        return self._estimates.get(game.state)

    def estimate_needed(self, game: Game) -> bool:
        """Whether the coach would run a Monte Carlo estimate for ``game`` now: no model answers, the player to
        move has a choice, and this situation has not been estimated yet.

        Parameters
        ----------
        game : Game

        Returns
        -------
        bool
        """
        if game.is_over or len(game.legal_actions()) < 2:
            return False
        solved, source = self._solver(game.state)
        return solved is None and source is None and self.cached_estimate(game) is None

    def estimate_for(self, game: Game) -> WinChanceEstimate:
        """The Monte Carlo estimate for the public state of ``game``: made once (within :data:`ESTIMATE_SECONDS`),
        then kept for the same situation (a redraw, a change of language); the last :data:`KEEP_ESTIMATES`
        situations are kept.

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
        found = self._estimates.get(key)
        if found is None:
            found = estimate_win_chances(game, games=ESTIMATE_GAMES, seconds=ESTIMATE_SECONDS)
            self._estimates[key] = found
            while len(self._estimates) > KEEP_ESTIMATES:
                self._estimates.popitem(last=False)
        else:
            self._estimates.move_to_end(key)
        return found

    # -- both views --------------------------------------------------------------------------------------------

    def views(self, game: Game, estimate: bool = True) -> TwoViews:
        """The two views of the decision at hand in ``game``.

        Parameters
        ----------
        game : Game
            A game going on.
        estimate : bool
            Whether a Monte Carlo estimate may be made now, where no model applies (it takes up to
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
        made = (lambda: self.estimate_for(game)) if estimate else None
        return self._views(game.state, game.players, made)

    def views_of(self, state: GameState, players: Sequence[str]) -> TwoViews:
        """The two views of the decision at hand in the public state ``state``, a moment kept from a game (the
        situation before a move, for the class's record): as :meth:`views` without an estimate, the Monte Carlo
        estimate already made for this situation being used, if any.

        Parameters
        ----------
        state : GameState
            A game going on.
        players : sequence of str
            The players' names, by seat (a reason may name one).

        Returns
        -------
        TwoViews

        Raises
        ------
        ValueError
            If the game is over, or ``players`` does not name every seat.
        """
        if state.is_terminal():
            raise ValueError("the game is over: there is no decision")
        if len(players) != state.n_players:
            raise ValueError(f"{len(players)} names for {state.n_players} players")
        return self._views(state, tuple(players), None)

    def _views(
        self, state: GameState, players: tuple[str, ...], estimate: Callable[[], WinChanceEstimate] | None
    ) -> TwoViews:
        """The two views of ``state`` (a game going on); ``estimate`` makes the Monte Carlo estimate where one is
        needed and none was made (None: only one made already is used)."""
        mover = state.current_player()
        assert mover is not None
        gems = self._gems_values(state)
        best_gems = _best(gems)
        solved, source = self._solver(state)
        found: WinChanceEstimate | None = None
        wins: dict[Action, float] = {}
        cis: dict[Action, tuple[float, float]] = {}
        if solved is not None:
            wins = {a: float(v) for a, v in solved(state).items()}
        elif source is None and len(gems) > 1:
            found = self._estimates.get(state) if estimate is None else estimate()
            if found is not None:
                wins = {o.action: o.estimate for o in found.options}
                cis = {o.action: (o.ci_low, o.ci_high) for o in found.options}
                source = Source.ESTIMATE
        options = tuple(Option(a, gems[a], wins.get(a), cis.get(a)) for a in gems)
        if len(options) == 1:
            best_win = _best_shown(wins) if wins else frozenset()
            return TwoViews(mover, options, source, found, best_gems, best_win, Verdict.SINGLE)
        if not wins:
            kept = source if source is Source.PREPARING else None
            return TwoViews(mover, options, kept, None, best_gems, frozenset(), Verdict.NONE)
        if found is not None:
            leader = found.best
            other = next(a for a in gems if a != leader)
            _, low, _ = found.difference(leader, other)
            if low <= 0:  # the interval of the difference holds 0: the estimate cannot tell them apart, nor mark a best
                return TwoViews(mover, options, source, found, best_gems, frozenset(), Verdict.UNCLEAR)
            best_win = frozenset({leader})
        else:
            best_win = _best_shown(wins)
        if best_gems & best_win:
            return TwoViews(mover, options, source, found, best_gems, best_win, Verdict.AGREE)
        (winner,) = best_win  # disjoint from the gems' best: one option of two
        reason = disagreement(state, players, winner, solved)
        return TwoViews(mover, options, source, found, best_gems, best_win, Verdict.DISAGREE, reason)
