"""The named policies of the lessons (dragonkit.topics.named), evaluated as the analysis evaluates them."""

from __future__ import annotations

import pytest

from dragonkit.analysis import HoldAtPot, OptimalPolicy, evaluate_policy
from dragonkit.analysis.turn.policies import NeverHold
from dragonkit.analysis.turn.start import fresh_turn
from dragonkit.analysis.turn.thresholds import largest_pot
from dragonkit.rules import Ruleset
from dragonkit.topics.named import menu_policy, named_policy

MINI = Ruleset.preset("mini")


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
