"""Coverage (dragonkit.topics.coverage): an estimate against the exact mean, the coverage counts, and the
exact arithmetic of intervals."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dragonkit.analysis import HoldAtPot, evaluate_policy
from dragonkit.analysis.turn.start import fresh_turn
from dragonkit.rules import Ruleset
from dragonkit.simulate import simulate_turns
from dragonkit.topics.coverage import (
    check_estimate,
    coverage,
    exact_turn,
    expected_misses,
    standard_error,
    turns_to_shrink,
)

MINI = Ruleset.preset("mini")


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
