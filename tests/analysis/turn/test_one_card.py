"""The value of revealing one card, then holding (:mod:`dragonkit.analysis.turn.one_card`), against the
policy's absorbing chain."""

from __future__ import annotations

import random

import pytest

from dragonkit import Game, Phase, Ruleset
from dragonkit.analysis import HoldAfterReveals, TurnState, evaluate_policy
from dragonkit.analysis.turn.one_card import one_card_value


def test_one_card_value_agrees_with_the_policys_absorbing_chain():
    rng = random.Random(7)
    for preset in ("mini", "dragon-stripes", "kali", "drago-rosso"):
        rules = Ruleset.preset(preset)
        game = Game(["Ann", "Bea"], rules, seed=rng.randrange(2**32))
        for _ in range(40):
            if game.is_over:
                break
            state = TurnState.from_game(game)
            expected = evaluate_policy(state, HoldAfterReveals(1), exact=True).expected_gain
            assert one_card_value(state) == expected
            if game.phase is Phase.OFFER:
                game.apply("decline")
            else:
                game.apply("reveal" if rng.random() < 0.7 or game.phase is Phase.MUST_REVEAL else "hold")


def test_one_card_value_refuses_an_ended_turn():
    state = TurnState.fresh(Ruleset.preset("mini"))
    first = state.child(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="no card can be revealed"):
        one_card_value(first.child("hold"))
    with pytest.raises(ValueError, match="expected a TurnState"):
        one_card_value("not a state")
