"""The deck (dragonkit.topics.deck): the share of each kind of card still in it, as the board's meters
show it; the next card's chances counted by hand and by listing every order of a small deck; the longest draw."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from dragonkit import Game, Ruleset
from dragonkit.rules import DANGER_CARD, STOP_CARD, Card, CardKind, Composition
from dragonkit.topics.deck import (
    cards_discarded,
    deck_after,
    ender_chance,
    ender_within,
    footprint_chance,
    longest_draw,
    most_discards,
    most_likely_card,
    run_factors,
    shares_left,
    stop_chance,
)


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


DRAGON = Ruleset.preset("dragon-stripes")


MINI = Ruleset.preset("mini")


def test_next_card_chances_count_the_cards_by_hand():
    deck = deck_after(DRAGON, {Card.footprint(1): 2, STOP_CARD: 3, DANGER_CARD: 1})
    assert deck.total == 45 and cards_discarded(DRAGON, deck) == 6
    assert footprint_chance(deck) == Fraction(36, 45)
    assert stop_chance(deck) == Fraction(7, 45)
    assert ender_chance(deck) == Fraction(9, 45)
    assert footprint_chance(deck) + ender_chance(deck) == 1
    assert most_likely_card(DRAGON.composition) == Card.footprint(1)
    assert most_likely_card(deck) == Card.footprint(1)  # 12 one-step cards against 12 two-step: the first
    assert most_likely_card(deck_after(DRAGON, {Card.footprint(1): 3})) == Card.footprint(2)
    assert most_discards(DRAGON, DANGER_CARD) == 2 and most_discards(DRAGON, STOP_CARD) == 10
    assert run_factors(deck, 3) == [(36, 45), (35, 44), (34, 43)]
    with pytest.raises(ValueError):
        footprint_chance(deck_after(MINI, dict(MINI.composition.counts())))


def test_a_turn_ender_among_the_next_cards_by_listing_every_order():
    deck = MINI.composition
    cards = deck.cards()
    for k in range(1, 5):
        orders = list(itertools.permutations(range(len(cards)), k))
        hit = sum(any(cards[i].kind is not CardKind.FOOTPRINT for i in order) for order in orders)
        assert ender_within(deck, k) == Fraction(hit, len(orders))


STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")


def test_the_longest_draw_is_at_most_the_cards_left():
    deck = deck_after(MINI, {Card.footprint(1): 2, STOP_CARD: 1})
    assert longest_draw(deck, 3) == 3
    assert longest_draw(deck, 99) == deck.total == len(deck.cards())
