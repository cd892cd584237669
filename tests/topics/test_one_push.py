"""The domain functions behind lessons 1-3 (:mod:`dragonkit.analysis.deck`, :mod:`.walk`,
:mod:`.one_push`) against independent methods: counting the deck by hand, listing every
order of a small deck, and the engine's rule arithmetic."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from dragonkit import Ruleset
from dragonkit.analysis import TurnState
from dragonkit.analysis.deck import (
    cards_discarded,
    deck_after,
    ender_chance,
    ender_within,
    footprint_chance,
    most_discards,
    most_likely_card,
    run_factors,
    stop_chance,
)
from dragonkit.analysis.one_push import (
    advantage_curve,
    break_even_pot,
    compare_with_optimal,
    one_push,
    situation,
    story_state,
    with_pot,
)
from dragonkit.analysis.walk import after_cards, stop_penalty
from dragonkit.rules import DANGER_CARD, STOP_CARD, Card

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
        hit = sum(any(cards[i].kind != "footprint" for i in order) for order in orders)
        assert ender_within(deck, k) == Fraction(hit, len(orders))


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


def test_the_sliders_situation_keeps_the_bank_and_drops_revealed_dangers():
    base = story_state()
    moved = situation(base, position=3, pot=10, gems=70, stage=2)
    assert (moved.position, moved.pot, moved.gems, moved.dangers_revealed) == (3, 10, 70, 2)
    assert moved.bank == base.bank and moved.dangers == 1 and not moved.must_reveal
    assert moved.composition.stops == base.composition.stops


def test_the_advantage_curve_and_the_comparison_with_optimal_play():
    story = story_state()
    curve = advantage_curve(story, range(0, 30))
    assert curve == [one_push(with_pot(story, p)).advantage for p in range(0, 30)]
    point = break_even_pot(story)
    assert all((a > 0) == (p < point) for p, a in enumerate(curve))
    comparison = compare_with_optimal(story)
    assert comparison.state.position == 0 and comparison.state.pot == 0 and comparison.state.bank == story.bank
    assert comparison.reachable == int(comparison.advantage.notna().sum().sum())
    assert 0 < comparison.bolder <= comparison.disagree <= comparison.reachable
    assert comparison.hold_points == 0  # with 40 gems optimal play never holds on this board
    assert set(comparison.break_even) == {int(x) for x in comparison.advantage.columns}


def test_a_push_table_sums_its_contributions():
    push = one_push(story_state())
    assert sum(o.contribution for o in push.outcomes) == push.value
    assert [o.effect for o in push.outcomes] == [push.state.effect(o.card) for o in push.outcomes]
