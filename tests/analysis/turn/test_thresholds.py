"""Thresholds (:mod:`dragonkit.analysis.turn.thresholds`): the largest pot a turn reaches, the best thresholds
with their ties, and the verdict that reads the comparison."""

from __future__ import annotations

import pandas as pd

from dragonkit.analysis import HoldAtPot, compare_policies, evaluate_policy, solve_turn
from dragonkit.analysis.turn.start import fresh_turn
from dragonkit.analysis.turn.thresholds import best_thresholds, every_threshold, largest_pot, threshold_verdict
from dragonkit.rules import Card, Ruleset

MINI = Ruleset.preset("mini")


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
