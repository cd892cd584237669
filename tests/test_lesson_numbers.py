"""The numbers lessons 4-6 and 8 show, computed in the domain layers (dragonkit.analysis.start, thresholds,
named, risk, stopping, chain_tables and dragonkit.simulate.coverage), checked against second computations."""

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
from dragonkit.analysis.chain_tables import chain_matrices, threshold_chain
from dragonkit.analysis.named import NeverHold, menu_policy, named_policy
from dragonkit.analysis.risk import moment_sums, moments_table, probability_at_least
from dragonkit.analysis.start import fresh_turn
from dragonkit.analysis.stopping import hold_boundaries, point_value, solved_graph
from dragonkit.analysis.thresholds import best_thresholds, every_threshold, largest_pot, threshold_verdict
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

MINI = Ruleset.preset("mini")


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
