"""A takeover played out (dragonkit.simulate.takeover): the price paid, and an end the turn model allows."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dragonkit import Ruleset
from dragonkit.analysis import evaluate_policy, optimal_policy
from dragonkit.analysis.turn.market import held_turn
from dragonkit.simulate.takeover import mean_profit, play_takeover

DRAGON = Ruleset.preset("dragon-stripes")


def test_a_played_out_takeover_pays_the_price_and_ends_as_the_turn_model_allows():
    state = held_turn(DRAGON, (2, 3, 4), treasure=60)
    rng = np.random.default_rng(3)
    plays = [play_takeover(state, 40, 30, rng) for _ in range(20)]
    start = dataclasses.replace(state, gems=10, must_reveal=True)
    support = set(evaluate_policy(start, optimal_policy(start)).distribution.index)
    assert all(p.gain in support and p.profit == p.gain - 30 for p in plays)
    assert mean_profit(plays) == pytest.approx(sum(p.profit for p in plays) / 20)
    with pytest.raises(ValueError):
        play_takeover(state, 40, 41, rng)
    with pytest.raises(ValueError):
        mean_profit([])
