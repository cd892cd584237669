"""Lesson 10's numbers (dragonkit.topics.gems_or_wins): a typical deck, the two coaches' map (each coach
asked alone), where they part ways, the first player's chances against the exact solver, and Pig's ladder."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dragonkit.analysis import TurnState, solve_turn
from dragonkit.analysis.win.model import EQUAL
from dragonkit.analysis.win.race import win_table
from dragonkit.analysis.win.solver import WinSolver
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Card, CardKind, Ruleset
from dragonkit.topics import gems_or_wins as gw
from dragonkit.topics.pig import hold_at_expected_score, solve_pig
from dragonkit.turn import Action

MINI = Ruleset.preset("mini")


STRIPES = Ruleset.preset("dragon-stripes")


@pytest.fixture(scope="module")
def mini_solver() -> WinSolver:
    """The exact solver of two-player mini games, its memo shared by the module's tests (about 3 s)."""
    return WinSolver(exact=True)


@pytest.mark.parametrize("stage, cards", [(0, 51), (0, 20), (1, 9), (2, 25), (2, 8)])
def test_a_typical_deck_keeps_the_dangers_left_and_every_kinds_share(stage, cards):
    deck = gw.typical_deck(STRIPES, stage, cards)
    assert deck.total == cards and deck.dangers == STRIPES.danger_cards - stage
    full = STRIPES.composition
    others = full.total - full.dangers
    for card, count in deck.counts():
        if card.kind is not CardKind.DANGER:
            share = Fraction(full.count(card) * (cards - deck.dangers), others)
            assert abs(count - share) < 1, card
    assert gw.typical_deck(STRIPES, 0, 51) == full


@pytest.mark.parametrize("stage, cards", [(3, 20), (0, 3), (2, 50), (-1, 20), (0, 1.5)])
def test_a_deck_the_game_cannot_have_is_refused(stage, cards):
    with pytest.raises(ValueError):
        gw.typical_deck(STRIPES, stage, cards)


def test_a_situation_keeps_the_gems_of_the_game():
    deck = gw.typical_deck(STRIPES, 2, 25)
    state = gw.situation(STRIPES, deck, 2, (40, 30), 3, 10)
    assert sum(state.gems) + state.treasure + state.pot == gw.game_gems(STRIPES) == 480
    assert (state.phase, state.owner, state.active, state.position) == (Phase.CHOOSE, 0, 0, 3)
    with pytest.raises(ValueError, match="exceed"):
        gw.situation(STRIPES, deck, 2, (300, 200), 3, 10)


def test_the_coach_map_is_each_coach_asked_alone():
    """Every cell of a map against the gem coach's solve of the turn and the win table's best action, on states built
    here; where the win table's two values tie the cell takes the gem coach's advice."""
    cells = gw.coach_map(STRIPES, 2, 25, (40, 40))
    deck = gw.typical_deck(STRIPES, 2, 25)
    table = win_table(STRIPES)
    assert list(cells.columns) == list(range(1, STRIPES.n_stripes + 1)) and cells.index.max() == 80
    seen = set()
    rng = np.random.default_rng(10)
    filled = [(pot, position) for pot in cells.index for position in cells.columns if cells.at[pot, position]]
    for k in rng.choice(len(filled), 60, replace=False):
        pot, position = filled[k]
        footprints = dict(deck.footprints)
        turn = TurnState(STRIPES, footprints, deck.stops, deck.dangers, 2, 40, 400 - pot, position, pot, False)
        gem = solve_turn(turn).push_value > pot
        state = GameState(STRIPES, (40, 40), 400 - pot, deck, 2, phase=Phase.CHOOSE, position=position, pot=pot)
        values = table.action_values(state)
        tie = abs(values[Action.REVEAL] - values[Action.HOLD]) <= EQUAL
        win = gem if tie else table.best_action(state) is Action.REVEAL
        expected = {(True, True): "both reveal", (False, False): "both hold", (True, False): "win reveals"}
        assert cells.at[pot, position] == expected.get((win, gem), "win holds"), (pot, position)
        seen.add(cells.at[pot, position])
    assert {"both reveal", "win holds"} <= seen
    # an unreachable pot: more than every stripe up to the position pays, twice, at stage 2
    assert cells.at[3, 1] is None and cells.at[80, 17] is not None


def test_the_two_coaches_part_ways_as_the_lesson_says():
    early = gw.coach_map(STRIPES, 0, 20, (40, 40))
    late = gw.coach_map(STRIPES, 2, 25, (40, 40))
    count = lambda cells, kind: int((cells.to_numpy() == kind).sum())  # noqa: E731
    assert count(early, "win reveals") > 0 and count(early, "win holds") == 0  # stage 0: the win coach is bolder
    assert count(late, "win holds") > count(late, "win reveals")  # stage 2: it passes the danger
    assert count(gw.coach_map(STRIPES, 0, 48, (40, 40)), "both reveal") == int(early.notna().to_numpy().sum())


@pytest.mark.slow
def test_the_first_player_chances(mini_solver):
    chances = gw.first_player_chances()
    assert round(chances["pig"], 4) == 0.5306
    assert chances["mini"] == Fraction(1, 2) == mini_solver.win_probability(GameState.fresh(MINI))
    assert chances["dragon-stripes"] == win_table(STRIPES).win_probability(GameState.fresh(STRIPES))
    assert 0.5 < chances["dragon-stripes"] < 0.53


@pytest.mark.slow
def test_after_the_first_card_of_a_mini_game_the_exact_solver_agrees(mini_solver):
    start = GameState.fresh(MINI)
    solver = mini_solver
    after = gw.after_first_card(MINI)
    assert sum(p for p, _ in after.values()) == 1
    for card, (p, win) in after.items():
        assert p == dict(start.chance_outcomes())[card]
        assert win == solver.win_probabilities(start.child(card))[0]
    assert after[Card("danger")][1] == 0


def test_pig_ladder_and_the_best_rule():
    ladder = gw.hold_at_ladder([20, 21, 25])
    assert ladder[20][0] == ladder[21][0] == hold_at_expected_score(20) > ladder[25][0]
    assert ladder[20][1] == Fraction(9440899, 15116544)  # P(a hold-at-20 turn banks nothing), published 0.624541
    # one more roll at turn total k gains (20 - k)/6 points on average: the best rule holds from 20
    gains = {k: Fraction(-k, 6) + Fraction(2 + 3 + 4 + 5 + 6, 6) for k in range(40)}
    assert gw.best_hold_at() == min(k for k, g in gains.items() if g <= 0) == 20
    with pytest.raises(ValueError):
        gw.best_hold_at([])


def test_pig_is_solved_once_per_machine(tmp_path, monkeypatch):
    """The solution is written to the cache and read from it by the next process (here: after the cache is cleared)."""
    monkeypatch.setenv("DRAGONKIT_CACHE", str(tmp_path))
    small = solve_pig(5)
    monkeypatch.setattr(gw, "solve_pig", lambda goal: small)
    gw.pig_solution.cache_clear()
    try:
        assert np.array_equal(gw.pig_solution().win, small.win)  # solved, saved, and read back
        assert list(tmp_path.glob("pig-*.npz"))

        def unsolvable(goal):
            raise AssertionError("solved again")

        monkeypatch.setattr(gw, "solve_pig", unsolvable)
        gw.pig_solution.cache_clear()
        again = gw.pig_solution()
        assert np.array_equal(again.win, small.win) and np.array_equal(again.roll, small.roll)
        assert (again.iterations, again.residual) == (small.iterations, small.residual)
    finally:
        gw.pig_solution.cache_clear()
