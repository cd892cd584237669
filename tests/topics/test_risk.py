"""Risk (dragonkit.topics.risk): a distribution's moments and tail probabilities, checked against a second
computation."""

from __future__ import annotations

from dragonkit.analysis import HoldAtPot, evaluate_policy
from dragonkit.analysis.turn.start import fresh_turn
from dragonkit.rules import Ruleset
from dragonkit.topics.risk import moment_sums, moments_table, probability_at_least

MINI = Ruleset.preset("mini")


def test_moments_and_tail_probabilities_of_a_distribution():
    e = evaluate_policy(fresh_turn(MINI), HoldAtPot(4), exact=True)
    sums = moment_sums(moments_table(e.distribution))
    assert sums["p"] == 1 and sums["xp"] == e.expected_gain and sums["x2p"] - sums["xp"] ** 2 == e.variance
    assert probability_at_least(e, 1, True) == sum(p for x, p in e.distribution.items() if x > 0)
    assert probability_at_least(e, -(10**6), True) == 1 and probability_at_least(e, 10**6, True) == 0
