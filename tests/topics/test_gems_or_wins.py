"""The numbers lessons 4-6, 8 and 10 show, computed in the domain layers (dragonkit.analysis.start, thresholds,
named, risk, stopping, chain_tables, gems_or_wins and dragonkit.simulate.coverage), checked against second
computations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from dragonkit.analysis import (
    HoldAtPot,
    OptimalPolicy,
    TurnState,
    compare_policies,
    evaluate_policy,
    policy_shift,
    solve_turn,
)
from dragonkit.analysis import gems_or_wins as gw
from dragonkit.analysis.chain_tables import chain_matrices, threshold_chain
from dragonkit.analysis.named import NeverHold, menu_policy, named_policy
from dragonkit.analysis.pig import hold_at_expected_score, solve_pig
from dragonkit.analysis.risk import moment_sums, moments_table, probability_at_least
from dragonkit.analysis.start import fresh_turn
from dragonkit.analysis.stopping import hold_boundaries, point_value, solved_graph
from dragonkit.analysis.thresholds import best_thresholds, every_threshold, largest_pot, threshold_verdict
from dragonkit.analysis.win import WinSolver
from dragonkit.analysis.win_table import win_table
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Card, Ruleset
from dragonkit.simulate import simulate_turns
from dragonkit.simulate.coverage import (
    check_estimate,
    coverage,
    exact_turn,
    expected_misses,
    standard_error,
    turns_to_shrink,
)
from dragonkit.turn import Action

MINI = Ruleset.preset("mini")
STRIPES = Ruleset.preset("dragon-stripes")


def test_a_fresh_turn_at_a_stage_is_the_first_turn_without_its_dangers():
    stripes = Ruleset.preset("dragon-stripes")
    assert fresh_turn(stripes) == TurnState.fresh(stripes) == fresh_turn("dragon-stripes")
    later = fresh_turn(stripes, 2, gems=7, treasure=99)
    assert (later.dangers, later.dangers_revealed, later.gems, later.treasure) == (1, 2, 7, 99)
    for bad in (3, -1, True, 1.5):
        with pytest.raises(ValueError, match="stage"):
            fresh_turn(stripes, bad)


def test_the_largest_pot_is_every_stripe_ahead_within_the_treasure():
    state = fresh_turn(MINI)
    assert largest_pot(state) == min(state.treasure, sum(MINI.stripe_values))
    assert every_threshold(state) == range(1, largest_pot(state) + 2)
    moved = state.child(Card.footprint(2))
    ahead = sum(MINI.stripe_values[moved.position :])
    assert largest_pot(moved) == moved.pot + min(moved.treasure, ahead)
    poor = fresh_turn(MINI, treasure=3)
    assert largest_pot(poor) == 3


def test_best_thresholds_keep_every_tie_and_the_verdict_reads_the_comparison():
    assert best_thresholds(pd.Series({1: 2, 2: 5, 3: 5, 4: 1})) == [2, 3]
    state = fresh_turn(MINI, gems=0)
    table = compare_policies(state, every_threshold(state), exact=True)
    verdict = threshold_verdict(table, exact=True)
    gains = {t: evaluate_policy(state, HoldAtPot(t), exact=True).expected_gain for t in every_threshold(state)}
    top = max(gains.values())
    assert verdict.best == [t for t, g in gains.items() if g == top] and verdict.gain == top
    assert verdict.optimum == solve_turn(state, exact=True).value
    assert verdict.optimal == (verdict.optimum == top)


def test_the_named_policies():
    assert isinstance(named_policy("optimal"), OptimalPolicy) and named_policy("threshold", 3).threshold == 3
    assert named_policy("cautious").reveals == 1 and isinstance(named_policy("greedy"), NeverHold)
    assert isinstance(menu_policy("optimal"), OptimalPolicy) and menu_policy(20).threshold == 20
    with pytest.raises(ValueError):
        named_policy("bold")
    with pytest.raises(ValueError):
        menu_policy("bold")
    greedy = evaluate_policy(fresh_turn(MINI), NeverHold(), exact=True)
    never = evaluate_policy(fresh_turn(MINI), HoldAtPot(largest_pot(fresh_turn(MINI)) + 1), exact=True)
    assert greedy.expected_gain == never.expected_gain


def test_moments_and_tail_probabilities_of_a_distribution():
    e = evaluate_policy(fresh_turn(MINI), HoldAtPot(4), exact=True)
    sums = moment_sums(moments_table(e.distribution))
    assert sums["p"] == 1 and sums["xp"] == e.expected_gain and sums["x2p"] - sums["xp"] ** 2 == e.variance
    assert probability_at_least(e, 1, True) == sum(p for x, p in e.distribution.items() if x > 0)
    assert probability_at_least(e, -(10**6), True) == 1 and probability_at_least(e, 10**6, True) == 0


def test_bellman_values_and_where_holding_starts():
    state = fresh_turn(MINI, gems=4)
    _graph, values = solved_graph(state)
    assert point_value(values, 0, 0, "push") == solve_turn(state, exact=True).value
    stripes = fresh_turn("dragon-stripes", treasure=100)
    mapped = stripes.replace(gems=80, dangers_revealed=2, dangers=1)
    frame = hold_boundaries(mapped, stripes)
    assert list(frame.index) == ["reference", "gems", "stage", "both"]
    parts = policy_shift(stripes, gems=[80], stages=[2])
    for row, part in (("reference", "as is"), ("gems", "gems=80"), ("stage", "stage=2")):
        assert frame.loc[row].equals(parts.loc[part].rename(row))
    assert list(frame.loc["both"]) == list(policy_shift(mapped).loc["as is"])


def test_the_chain_tables_agree_with_each_other():
    chain = threshold_chain(fresh_turn(MINI), 4)
    m = chain_matrices(chain)
    n = np.array(m["N"].to_numpy(), dtype=object)
    assert all(m["t"]["t"].to_numpy() == n.sum(axis=1))
    assert (m["B"].to_numpy() == n.dot(m["R"].to_numpy())).all()


def test_an_estimate_against_the_exact_mean_and_the_coverage_counts():
    exact = exact_turn("mini", 4)
    assert exact.mean == evaluate_policy(fresh_turn(MINI), HoldAtPot(4), exact=True).expected_gain
    simulation = simulate_turns(exact.state, HoldAtPot(4), 400, rng=1)
    row = check_estimate(simulation, exact)
    assert row["error"] == row["estimate"] - float(exact.mean)
    assert row["covers"] == (row["ci_low"] <= exact.mean <= row["ci_high"])
    result = coverage(exact, 20, 50, 0.9, seed=2)
    assert result.experiments == 50 and result.covered == int(result.intervals["covers"].sum())
    assert result.expected_covered == pytest.approx(45) and result.covered_spread == pytest.approx(np.sqrt(4.5))


def test_the_exact_arithmetic_of_intervals():
    assert standard_error(12, 400) == Fraction(12, 20) and turns_to_shrink(400) == 1600
    assert turns_to_shrink(100, 3) == 900 and expected_misses(200, Fraction(95, 100)) == 10
    with pytest.raises(ValueError, match="perfect square"):
        standard_error(12, 401)


# -- lesson 10: gems or wins ----------------------------------------------------------------------------------------


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
        if card.kind != "danger":
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
        tie = abs(values[Action.REVEAL] - values[Action.HOLD]) <= gw.TIE
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
