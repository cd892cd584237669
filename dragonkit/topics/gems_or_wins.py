r"""Gems or wins? (lesson 10): the policy that maximises a turn's expected gems against the policy that
maximises the probability of winning the game, in Pig and in Dragon Stripes.

Two value functions, two policies
---------------------------------
The *gem-optimal* policy of lesson 5 (:func:`~dragonkit.analysis.turn.optimal.solve_turn`,
:class:`~dragonkit.bots.CoachBot`) maximises the expected change of the active player's gems to the end of the
turn; the *win-optimal* policy maximises the probability of winning the game
(Pig: :func:`~.pig.solve_pig`; Dragon Stripes:
the race model of :mod:`dragonkit.analysis.win.race`, which :class:`~dragonkit.bots.WinBot` plays).  Where they choose
differently, the gem-optimal choice gives up some probability of winning, and the win-optimal choice
some expected gems.

* Pig: :func:`pig_solution` (solved once per process), :func:`pig_hold_table` (where the optimal player
  holds, by the two scores), :func:`hold_at_ladder`, :func:`best_holds_at` and :func:`best_hold_at` (the
  expected points of one "hold at :math:`t`" turn, largest at :math:`t = 20` and 21);
* Dragon Stripes: :func:`typical_deck` (a deck with some cards left, at a stage), :func:`situation`
  (a decision of a two-player game), :func:`gem_advice` and :func:`win_advice` (each coach's values
  there), :func:`coach_map` (where the two policies choose alike and where not, by knight position and
  pot), :func:`first_player_chances` (the first player's probability of winning) and
  :func:`after_first_card` (it again once the first card is known).

Every number comes from the solvers: no rule is written here.  The gems of a situation follow the
rules' conservation: the two players' gems, the treasure and the pot add up to the gems of the game
(:func:`game_gems`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np

from ..analysis.turn.optimal import TurnSolution, solve_turn
from ..analysis.turn.table import policy_map
from ..analysis.win.model import EQUAL
from ..analysis.win.race import WinTable, win_table
from ..analysis.win.solver import Probability
from ..cache import cached_file, computed_once
from ..game_state import GameState, Phase
from ..rules import Card, CardKind, Composition, Ruleset, whole_number
from ..turn import Action, TurnState
from .pig import PigSolution, hold_at_expected_score, hold_at_outcomes, solve_pig

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AGREEMENTS",
    "PIG_GOAL",
    "after_first_card",
    "agreement",
    "best_hold_at",
    "best_holds_at",
    "coach_map",
    "first_player_chances",
    "game_gems",
    "gem_advice",
    "hold_at_ladder",
    "pig_hold_table",
    "pig_solution",
    "situation",
    "typical_deck",
    "win_advice",
    "win_reveals",
]

#: Pig's goal (points), as Neller & Presser play it.
PIG_GOAL = 100

#: The cells of :func:`coach_map`: both coaches reveal, both hold, only the win coach reveals (the gem coach
#: holds), only the win coach holds (the gem coach reveals).
AGREEMENTS = ("both reveal", "both hold", "win reveals", "win holds")


# -- Pig ---------------------------------------------------------------------------------------------------------


@functools.cache
def pig_solution() -> PigSolution:
    """Pig to :data:`PIG_GOAL` with a six-sided die, solved for the probability of winning (:func:`~.pig.solve_pig`).

    Solved once per machine (about 3 s) and kept in the kit's cache (:func:`~dragonkit.cache.computed_once`),
    from which every later process reads it; where the cache cannot be written, solved once per process.
    """
    return computed_once(
        cached_file(f"pig-{PIG_GOAL}-6.npz", __name__), lambda: solve_pig(PIG_GOAL), _save_pig, _load_pig
    )


def _save_pig(solution: PigSolution, file: IO[bytes]) -> None:
    np.savez(file, win=solution.win, roll=solution.roll, iterations=solution.iterations, residual=solution.residual)


def _load_pig(path: Path) -> PigSolution:
    with np.load(path) as saved:
        return PigSolution(PIG_GOAL, 6, saved["win"], saved["roll"], int(saved["iterations"]), float(saved["residual"]))


def pig_hold_table(solution: PigSolution, scores: Sequence[int], opponents: Sequence[int]) -> list[list[int]]:
    """Where the win-optimal Pig player holds: the lowest turn total at which they hold (points).

    Parameters
    ----------
    solution : PigSolution
    scores : sequence of int
        The mover's scores (rows).
    opponents : sequence of int
        The opponent's scores (columns).

    Returns
    -------
    list of list of int
        ``table[r][c]``: :meth:`PigSolution.hold_at <.pig.PigSolution.hold_at>` of ``scores[r]`` against
        ``opponents[c]`` (``goal - score`` where the player rolls on to the goal).
    """
    boundary = solution.boundary()
    return [[int(boundary[i, j]) for j in opponents] for i in scores]


def hold_at_ladder(limits: Sequence[int], sides: int = 6) -> dict[int, tuple[Fraction, Fraction]]:
    """One "hold at :math:`t`" turn of Pig for each ``t`` in ``limits``: its expected points and the
    probability that it banks nothing, exactly (:func:`~.pig.hold_at_outcomes`).

    Returns
    -------
    dict
        ``t`` -> ``(expected points, P(0 points))``, as ``Fraction``\\ s.
    """
    ladder = {}
    for t in limits:
        outcomes = hold_at_outcomes(t, sides)
        ladder[t] = (hold_at_expected_score(t, sides), outcomes.get(0, Fraction(0)))
    return ladder


def best_holds_at(limits: Sequence[int] = range(1, 41), sides: int = 6) -> list[int]:
    """Every ``t`` among ``limits`` whose "hold at :math:`t`" turn of Pig has the most expected points, in
    increasing order (20 and 21 with a six-sided die: at a turn total of 20 one more roll gains nothing on
    average).

    Raises
    ------
    ValueError
        If ``limits`` is empty.
    """
    expected = {t: hold_at_expected_score(t, sides) for t in limits}
    if not expected:
        raise ValueError("limits must name at least one turn total")
    best = max(expected.values())
    return sorted(t for t, e in expected.items() if e == best)


def best_hold_at(limits: Sequence[int] = range(1, 41), sides: int = 6) -> int:
    """The smallest of :func:`best_holds_at`: the turn total from which one more roll stops adding points on
    average (20 with a six-sided die).

    Raises
    ------
    ValueError
        If ``limits`` is empty.
    """
    return best_holds_at(limits, sides)[0]


# -- Dragon Stripes: the situations ---------------------------------------------------------------------------


def game_gems(rules: Ruleset, players: int = 2) -> int:
    """Every gem of a game: the players' starting gems and the treasure, which a game never changes (gems)."""
    return players * rules.starting_gems + rules.treasure


def typical_deck(rules: Ruleset, stage: int, cards: int) -> Composition:
    """A deck at ``stage`` with ``cards`` cards left: the danger cards not yet revealed, and every other kind
    of card in its share of the full deck (rounded by largest remainders; on a tie the card listed first:
    footprints by steps, then stops).

    Parameters
    ----------
    rules : Ruleset
    stage : int
        Dangers revealed so far, 0 to ``rules.last_stage``.
    cards : int
        Cards left (cards): more than the dangers left, at most the full deck without the dangers revealed.

    Returns
    -------
    Composition

    Raises
    ------
    ValueError
        For a stage or a number of cards the deck cannot have.

    Examples
    --------
    >>> typical_deck(Ruleset.preset("dragon-stripes"), 2, 20)
    Composition(footprints=((1, 5), (2, 5), (3, 3), (4, 2)), stops=4, dangers=1)
    """
    stage = whole_number(stage, "stage", minimum=0, maximum=rules.last_stage)
    dangers = rules.danger_cards - stage
    others = [(card, count) for card, count in rules.composition.counts() if card.kind is not CardKind.DANGER]
    full = sum(count for _, count in others)
    cards = whole_number(cards, "cards", minimum=dangers + 1, maximum=dangers + full)
    quotas = [Fraction(count * (cards - dangers), full) for _, count in others]
    kept = [int(q) for q in quotas]
    by_remainder = sorted(range(len(others)), key=lambda k: (-(quotas[k] - kept[k]), k))
    for k in by_remainder[: cards - dangers - sum(kept)]:
        kept[k] += 1
    footprints = {card.steps: n for (card, _), n in zip(others, kept) if card.kind is CardKind.FOOTPRINT}
    stops = next(n for (card, _), n in zip(others, kept) if card.kind is CardKind.STOP)
    return Composition.of(footprints, stops, dangers)


def situation(
    rules: Ruleset, deck: Composition, stage: int, gems: tuple[int, int], position: int, pot: int
) -> GameState:
    """A decision of a two-player game: seat 0 owns the turn and has just revealed a footprint; the knight
    stands at ``position`` with ``pot`` gems beside it.

    Parameters
    ----------
    rules : Ruleset
    deck : Composition
        The cards left.
    stage : int
    gems : (int, int)
        The mover's gems and the opponent's (gems).
    position : int
        1 to the last stripe.
    pot : int
        Gems (gems); the treasure holds the rest of :func:`game_gems`.

    Raises
    ------
    ValueError
        For a situation the game cannot have (as :class:`~dragonkit.game_state.GameState` says), or more
        gems than the game holds.
    """
    treasure = game_gems(rules) - sum(gems) - pot
    if treasure < 0:
        raise ValueError(f"the players' gems and the pot ({sum(gems) + pot}) exceed the game's {game_gems(rules)}")
    return GameState(rules, tuple(gems), treasure, deck, stage=stage, phase=Phase.CHOOSE, position=position, pot=pot)


def gem_advice(state: GameState) -> TurnSolution:
    """The gem-optimal coach at ``state``: the turn's values for the mover (gems;
    :func:`~dragonkit.analysis.turn.optimal.solve_turn`)."""
    return solve_turn(state.turn())


def _table(rules: Ruleset, exact: bool) -> WinTable:
    return _exact_table(rules) if exact else win_table(rules)


@functools.cache
def _exact_table(rules: Ruleset) -> WinTable:
    return WinTable(rules, exact=True)


def win_advice(state: GameState, exact: bool = False) -> dict[Action, Probability]:
    """The win-optimal coach at ``state``: the mover's probability of winning after each legal action
    (:meth:`WinTable.action_values <.win.TwoPlayerWinSolver.action_values>`).

    Parameters
    ----------
    state : GameState
    exact : bool
        ``Fraction``\\ s from the exact table (small decks only: ``mini``), or floats from the cached one.
    """
    return _table(state.rules, exact).action_values(state)


def win_reveals(values: dict[Action, Probability]) -> bool | None:
    """Whether revealing is win-optimal by :func:`win_advice`'s ``values``: True, False, or None for a tie
    (within :data:`~dragonkit.analysis.win.model.EQUAL`, the float table's rounding: either action is win-optimal)."""
    difference = float(values[Action.REVEAL] - values[Action.HOLD])
    return None if abs(difference) <= EQUAL else difference > 0


def _agreement(gem: bool, win: bool | None) -> str:
    """The cell of two advices (True: reveal); a win coach's tie takes the gem coach's advice."""
    win = gem if win is None else win
    return AGREEMENTS[(0 if gem else 1) if win == gem else (2 if win else 3)]


def agreement(state: GameState) -> str:
    """What the two coaches advise at ``state``, one of :data:`AGREEMENTS`: the gem coach reveals where the
    push value beats the pot (a tie holds), the win coach where revealing wins more often (:func:`win_reveals`;
    on a tie, the gem coach's advice is win-optimal too)."""
    return _agreement(gem_advice(state).best_action is Action.REVEAL, win_reveals(win_advice(state)))


@functools.lru_cache(maxsize=32)
def coach_map(
    rules: Ruleset, stage: int, cards: int, gems: tuple[int, int] = (40, 40), max_pot: int = 80
) -> pd.DataFrame:
    """Where the gem-optimal and the win-optimal policies choose alike, and where not, with the deck
    :func:`typical_deck` of ``stage`` and ``cards``, by knight position and pot.

    Each cell is a :func:`situation` (seat 0 owns the turn).  The gem coach reveals where the push value
    beats the pot (:func:`~.table.policy_map`; a tie holds, as :class:`~dragonkit.bots.CoachBot`); the
    win coach reveals where the probability of winning is larger after a reveal (:func:`win_advice`).
    Where the two probabilities tie, either action is win-optimal and the cell takes the gem coach's.

    Parameters
    ----------
    rules : Ruleset
        A ruleset whose final danger costs all the revealer's gems (:class:`~dragonkit.analysis.win.race.WinTable`).
    stage, cards : int
        As :func:`typical_deck`.
    gems : (int, int)
        The mover's gems and the opponent's (gems).
    max_pot : int
        The largest pot mapped (gems).

    Returns
    -------
    pandas.DataFrame
        Index: pot (gems, increasing); columns: knight position (1 to the last stripe); cells: one of
        :data:`AGREEMENTS`, or None where the pot cannot be reached at that position.

    Raises
    ------
    ValueError
        As :func:`typical_deck` and :func:`situation`, or for a ruleset the win table refuses.
    """
    deck = typical_deck(rules, stage, cards)
    mover, other = gems
    bank = game_gems(rules) - mover - other
    turn = TurnState(rules, dict(deck.footprints), deck.stops, deck.dangers, stage, mover, bank, must_reveal=False)
    import pandas as pd

    grid = policy_map(turn).sort_index()  # push minus hold value (gems), NaN where the pot is out of reach
    pots = np.asarray(grid.index, dtype=int)
    positions = np.asarray(grid.columns, dtype=int)
    advantage = grid.to_numpy(dtype=float)
    rows, columns = np.flatnonzero(pots <= max_pot), np.flatnonzero(positions >= 1)
    cells: list[list[str | None]] = [[None] * len(columns) for _ in rows]
    for r, row in enumerate(rows):
        for c, column in enumerate(columns):
            if np.isnan(advantage[row, column]):
                continue
            state = situation(rules, deck, stage, gems, int(positions[column]), int(pots[row]))
            cells[r][c] = _agreement(bool(advantage[row, column] > 0), win_reveals(win_advice(state)))
    return pd.DataFrame(cells, index=pots[rows].tolist(), columns=positions[columns].tolist(), dtype=object)


# -- Dragon Stripes: the first player ----------------------------------------------------------------------------


def first_player_chances() -> dict[str, Probability]:
    """The first player's probability of winning under optimal play, from the start of a two-player game.

    Returns
    -------
    dict
        ``"pig"`` (Pig to 100, :func:`pig_solution`), ``"dragon-stripes"`` (the race model of
        :func:`~dragonkit.analysis.win.race.win_table`, a float) and ``"mini"`` (its exact table, a ``Fraction``).
    """
    stripes, mini = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")
    return {
        "pig": pig_solution().first_player_wins,
        "dragon-stripes": win_table(stripes).win_probability(GameState.fresh(stripes)),
        "mini": _exact_table(mini).win_probability(GameState.fresh(mini)),
    }


def after_first_card(rules: Ruleset, exact: bool = True) -> dict[Card, tuple[Fraction, Probability]]:
    """The first card of a two-player game, and the first player's probability of winning once it is seen.

    Returns
    -------
    dict
        Each card of the full deck -> (its probability, the first player's probability of winning after it),
        both players playing to win from there (:class:`~dragonkit.analysis.win.race.WinTable`).
    """
    start = GameState.fresh(rules)
    table = _table(rules, exact)
    return {card: (p, table.win_probabilities(start.child(card))[0]) for card, p in start.chance_outcomes()}
