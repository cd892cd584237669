"""The share of each kind of card still in the deck (dragonkit.analysis.deck), as the board's meters show it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dragonkit import Game, Ruleset
from dragonkit.analysis.deck import shares_left
from dragonkit.rules import DANGER_CARD, STOP_CARD, Card, Composition


def test_a_full_deck_is_all_there_and_an_empty_one_is_gone():
    full = Ruleset.preset("dragon-stripes").composition
    assert set(shares_left(full, full).values()) == {Fraction(1)}
    empty = Composition.of({steps: 0 for steps, _ in full.footprints}, 0, 0)
    assert set(shares_left(empty, full).values()) == {Fraction(0)}
    assert list(shares_left(full, full)) == [card for card, _ in full.counts()]  # footprints first


def test_the_shares_follow_a_game_card_by_card():
    rules = Ruleset.preset("mini")
    game = Game(["Ann", "Bea"], rules, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        shares = shares_left(game.remaining, rules.composition)
        for card, total in rules.composition.counts():
            gone = sum(1 for c in game.discards if c == card)
            assert shares[card] == Fraction(total - gone, total)
        game.apply("decline" if game.offer_to is not None else rng.choice([a.value for a in game.legal_actions()]))


def test_a_kind_the_deck_lacks_has_share_zero_and_too_many_cards_are_refused():
    full = Composition.of({1: 2}, 0, 1)
    assert shares_left(full, full) == {Card.footprint(1): 1, STOP_CARD: 0, DANGER_CARD: 1}
    with pytest.raises(ValueError, match="3 danger cards left of a deck that has 1"):
        shares_left(Composition.of({1: 2}, 0, 3), full)
