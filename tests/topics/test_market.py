"""The takeover market (:mod:`dragonkit.analysis.turn.market`): the held turn, the fair bounty, the takeover gain
and the auction, against independent methods — a plain expectimax over the deck (tests/expectimax.py), the engine
playing the same cards, the policy's absorbing chain, hand formulas; and the takeover sliders' ranges."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from dragonkit import CardKind, Game, Ruleset
from dragonkit.analysis import TurnState, evaluate_policy, optimal_policy
from dragonkit.analysis.turn.market import (
    break_even_bid,
    fair_bounty_curve,
    gaining_takers,
    held_turn,
    run_auction,
    takeover,
)
from dragonkit.lessons import market
from dragonkit.plots.market import auction_figure
from dragonkit.topics.sliders import SliderRange, takeover_sliders

from ..expectimax import brute_fair_bounty

MINI = Ruleset.preset("mini")


DRAGON = Ruleset.preset("dragon-stripes")


def test_a_held_turn_is_where_the_engine_puts_the_knight_after_the_same_cards():
    found = 0
    for seed in range(300):
        game = Game(["Ann", "Bo"], rules=MINI, seed=seed)
        cards = [game.reveal()]
        if cards[0].kind is CardKind.FOOTPRINT:
            cards.append(game.reveal())
        if game.is_over or any(c.kind is not CardKind.FOOTPRINT for c in cards) or len(cards) < 2:
            continue
        drawn = "+".join(str(c.steps) for c in cards)
        assert held_turn(MINI, market.parse_drawn(drawn)) == TurnState.from_game(game), drawn
        found += 1
    assert found >= 10


def test_held_turn_refuses_impossible_turns_with_a_reason():
    with pytest.raises(ValueError, match="no 3-step"):
        held_turn(MINI, (1, 3))
    with pytest.raises(ValueError, match="no 2-step"):
        held_turn(MINI, (2, 2, 2))
    with pytest.raises(ValueError, match="head"):
        held_turn(MINI, (2, 2, 1, 1))
    with pytest.raises(ValueError, match="stage"):
        held_turn(MINI, (1,), stage=1)
    for text in ("", "  ", "1+x", "1.5", "-1"):
        with pytest.raises(ValueError, match="footprint"):
            market.parse_drawn(text)
    assert market.parse_drawn(" 1 + 2, 2 ") == (1, 2, 2)
    stage_two = held_turn(DRAGON, (4,), stage=2)
    assert (stage_two.dangers, stage_two.pot, stage_two.dangers_revealed) == (1, 4 * 2, 2)  # stripe 4, doubled


def test_the_fair_bounty_on_the_last_stripe_matches_the_one_card_formula():
    state = held_turn(MINI, (1, 2, 2))
    assert (state.position, state.pot, state.treasure, state.composition.total) == (5, 9, 11, 5)
    curve = fair_bounty_curve(state, 30)
    for g in range(31):  # 2 footprints reach the head (+20), 2 stops cost floor(g/4), the final danger all g
        assert curve.loc[g, "fair_bounty"] == Fraction(2 * 20 - 2 * (g // 4) - g, 5)
        if g >= 9:
            assert curve.loc[g, "net_gain"] == Fraction(2 * 20 - 2 * ((g - 9) // 4) - (g - 9), 5) - 9
        else:
            assert curve.loc[g, "net_gain"] is None
    assert gaining_takers(curve) == []


@pytest.mark.parametrize("drawn", ["1", "2", "1+2", "1+1", "2+1+1"])
def test_the_fair_bounty_agrees_with_a_brute_force_expectimax_and_with_the_policy_chain(drawn):
    state = held_turn(MINI, market.parse_drawn(drawn))
    curve = fair_bounty_curve(state, 16)
    bounty = MINI.bounty(state.pot)
    for g in range(17):
        assert curve.loc[g, "fair_bounty"] == brute_fair_bounty(state, g)
        offer = takeover(state, g)
        assert offer.fair_bounty == curve.loc[g, "fair_bounty"]
        if g >= bounty:
            start = dataclasses.replace(state, gems=g - bounty, must_reveal=True)
            chain = evaluate_policy(start, optimal_policy(start, exact=True), exact=True)
            assert offer.net_gain == chain.expected_gain - bounty == curve.loc[g, "net_gain"]
            assert offer.pays == (offer.net_gain > 0)
        else:
            assert not offer.affordable and not offer.pays


def test_a_turn_is_worth_more_to_a_poorer_player():
    state = held_turn(DRAGON, (1, 2, 3), treasure=60)
    values = list(fair_bounty_curve(state, 80)["fair_bounty"])
    assert all(a >= b for a, b in itertools.pairwise(values)) and values[0] > values[-1]


def test_an_auction_awards_the_turn_and_values_every_bid_exactly():
    state = held_turn(DRAGON, (2, 3, 4), treasure=60)
    curve = fair_bounty_curve(state, 40)
    fair = curve["fair_bounty"]
    assert fair[40] == Fraction(407, 24)
    bids = [("Ann", 12), ("Bo", 25), ("Cy", 25), ("Di", 3)]
    first = run_auction(state, 40, bids, "first")
    assert (first.winner, first.price) == ("Bo", 25) and first.cursed
    assert first.expected_profit == fair[15] - 25
    assert list(first.bids.index) == ["Bo", "Cy", "Ann", "Di"]
    assert all(first.bids.loc[n, "expected_profit"] == fair[40 - b] - b for n, b in bids)
    second = run_auction(state, 40, bids, "second")
    assert second.price == 25 and run_auction(state, 40, [("Ann", 12)], "second").price == 0
    even = break_even_bid(state, 40)
    assert even == 18 and fair[40 - even] - even >= 0 > fair[40 - even - 1] - (even + 1)
    with pytest.raises(ValueError):
        run_auction(state, 40, bids, "dutch")


def test_a_held_turn_refuses_no_cards_and_a_bad_stage_in_the_learners_language():
    with pytest.raises(ValueError, match="footprint cards of the turn"):
        held_turn(MINI, ())
    with pytest.raises(ValueError) as caught:
        held_turn(DRAGON, (1,), stage=3)
    assert "0 to 2" in str(caught.value.args[0].describe("en"))
    assert held_turn(DRAGON, (1,), stage=1).dangers == 2


def test_who_may_take_over_is_the_rules_decision():
    state = held_turn(MINI, (1, 2))  # pot 4: the bounty is 4
    for gems in range(9):
        offer = takeover(state, gems)
        assert offer.affordable == MINI.may_take_over(gems, state.pot) == (gems >= 4)
        assert (offer.value_after_paying is None) == (offer.net_gain is None) == (not offer.affordable)


def test_the_break_even_bid_is_the_last_bid_that_does_not_lose_by_brute_force():
    state = held_turn(MINI, (1, 2))
    for gems in (4, 8, 12):
        gains = [brute_fair_bounty(state, gems - b) - b for b in range(gems + 1)]
        good = [b for b, g in enumerate(gains) if g >= 0]
        assert break_even_bid(state, gems) == (max(good) if good else None)
    assert break_even_bid(held_turn(MINI, (1, 2, 2)), 30) is None  # F(30 - b) - b < 0 for every b


def test_an_auction_reports_its_mean_bid_and_losing_bids():
    state = held_turn(DRAGON, (2, 3, 4), treasure=60)
    result = run_auction(state, 40, [("Ann", 12), ("Bo", 25), ("Cy", 25), ("Di", 3)])
    assert result.mean_bid == (12 + 25 + 25 + 3) / 4
    assert result.losing_bids == sum(brute_fair_bounty(state, 40 - b) - b < 0 for b in (12, 25, 25, 3))
    with pytest.raises(ValueError):
        run_auction(state, 40, [])
    figure = auction_figure(result)
    assert len(figure.axes[0].patches) == 4


STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")


def test_the_takeover_sliders_show_the_holder_with_the_starting_gems():
    assert takeover_sliders(STRIPES) == (SliderRange(0, 80), 40, 13)
    assert takeover_sliders(MINI) == (SliderRange(0, 24), 12, 4)  # at least 24 gems
