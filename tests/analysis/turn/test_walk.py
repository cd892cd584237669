"""Walking known cards (:mod:`dragonkit.analysis.turn.walk`) is what the rules say."""

from __future__ import annotations

import pytest

from dragonkit import Ruleset
from dragonkit.analysis import TurnState
from dragonkit.analysis.turn.walk import after_cards, stop_penalty
from dragonkit.rules import DANGER_CARD, Card

DRAGON = Ruleset.preset("dragon-stripes")


def test_walking_known_cards_is_what_the_rules_say():
    state = TurnState.fresh(DRAGON)
    after = after_cards(state, [Card.footprint(2), Card.footprint(3)])
    assert (after.position, after.pot, after.treasure, after.must_reveal) == (5, 2 + 5, 400 - 7, False)
    assert after.composition.total == 49
    assert after_cards(state, []) is state
    assert stop_penalty(state) == DRAGON.penalty(40, 0) == 10
    assert stop_penalty(state.replace(gems=7)) == 1
    with pytest.raises(ValueError, match="ends the turn"):
        after_cards(state, [DANGER_CARD])
