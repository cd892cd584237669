"""Lesson 7, the takeover market: the held turn, the fair bounty, the takeover gain and the
auction (:mod:`dragonkit.analysis.market`) against independent methods — a plain expectimax
over the deck, the engine playing the same cards, the policy's absorbing chain, hand
formulas — and the lesson's widgets (:mod:`dragonkit.lessons.market`)."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from dragonkit import Game, Ruleset, i18n
from dragonkit.analysis import TurnState, evaluate_policy, optimal_policy
from dragonkit.analysis.market import (
    break_even_bid,
    fair_bounty_curve,
    gaining_takers,
    held_turn,
    run_auction,
    takeover,
)
from dragonkit.lessons import market
from dragonkit.plots.market import auction_figure, takeover_figure
from dragonkit.simulate.takeover import mean_profit, play_takeover

MINI = Ruleset.preset("mini")
DRAGON = Ruleset.preset("dragon-stripes")


pytestmark = pytest.mark.usefixtures("english_widgets")


# -- an independent second method: expectimax over the deck ------------------------------------------------------


@cache
def expectimax(
    rules: Ruleset, deck, position: int, pot: int, gems: int, treasure: int, stage: int, must_reveal: bool
) -> Fraction:
    """The turn value by plain recursion over every card order (rules section 7), with the rules' card effects."""
    push = Fraction(0)
    for card, p in deck.outcomes():
        effect = rules.apply_card(
            card,
            position=position,
            pot=pot,
            gems=gems,
            treasure=treasure,
            dangers_revealed=stage,
            cards_left=deck.total - 1,
        )
        if effect.ends_turn:
            push += p * effect.gems_change
        else:
            push += p * expectimax(
                rules, deck.without(card), effect.position, effect.pot, gems, effect.treasure, stage, False
            )
    return push if must_reveal else max(Fraction(pot), push)


def brute_fair_bounty(state: TurnState, gems: int) -> Fraction:
    return expectimax(
        state.rules, state.composition, state.position, state.pot, gems, state.treasure, state.dangers_revealed, True
    )


# -- lesson 7: the takeover market ----------------------------------------------------------------------------------


def test_a_held_turn_is_where_the_engine_puts_the_knight_after_the_same_cards():
    found = 0
    for seed in range(300):
        game = Game(["Ann", "Bo"], rules=MINI, seed=seed)
        cards = [game.reveal()]
        if cards[0].kind == "footprint":
            cards.append(game.reveal())
        if game.is_over or any(c.kind != "footprint" for c in cards) or len(cards) < 2:
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


def test_the_answers_of_lesson_7():
    answer = market.answers()
    assert answer["fair_bounty"] == Fraction(22, 5) and answer["bounty"] == 9
    assert answer["net_gain"] == Fraction(37, 5) - 9 == Fraction(-8, 5)
    dan = held_turn(MINI, (1, 2))
    nets = [brute_fair_bounty(dan, g - 4) - 4 for g in market.TAKERS]
    assert nets == [Fraction(1, 6), Fraction(-5, 6), Fraction(-11, 6)]
    assert answer["who"] == 0
    assert break_even_bid(dan, 12) == answer["break_even"] == 1


@pytest.mark.slow
def test_the_explorer_shows_the_exact_verdict_and_keeps_the_last_valid_situation():
    explorer = market.TakeoverExplorer(edition="mini", drawn="1+2")
    assert explorer.holder_gems.value == 12 and explorer.taker_gems.value == 4
    assert "TAKE OVER" in explorer.verdict.value and "1/6" in explorer.verdict.value
    assert "Holding was right." in explorer.verdict.value  # Dan's push value with 12 gems is 7/6 < the pot, 4
    assert "Taking over pays for takers with 4 gems" in explorer.verdict.value
    explorer.taker_gems.value = 8
    assert "DECLINE" in explorer.verdict.value and "-5/6" in explorer.verdict.value
    explorer.taker_gems.value = 3
    assert "cannot pay the bounty" in explorer.verdict.value
    before, curve = explorer.state, explorer.curve
    explorer.drawn.value = "1+9"
    assert "no 9-step" in explorer.message.value and explorer.state is before and explorer.curve is curve
    explorer.drawn.value = "2+2"
    assert explorer.message.value == "" and explorer.state == held_turn(MINI, (2, 2))
    explorer.edition.value = "dragon-stripes"
    assert explorer.stage.options == (0, 1, 2) and explorer.treasure.value == 400
    assert explorer.state.rules.name == "dragon-stripes" and explorer.state.pot == 2 + 4
    assert explorer.holder_gems.max == 80 and explorer.holder_gems.value == 40


def test_the_explorer_speaks_italian_and_keeps_its_choices():
    explorer = market.TakeoverExplorer(edition="kali", drawn="1+2")
    i18n.set_language("it")
    assert explorer.edition.value == "kali" and explorer.state.rules.name == "kali"
    assert explorer.edition.description == "Edizione"
    assert "Chi si ferma" in explorer.verdict.value and "striscia 3" in explorer.situation.value
    explorer.drawn.value = "1+7"
    assert "Nel mazzo non restano impronte da 7 passi" in explorer.message.value


def test_bids_are_read_line_by_line_and_bad_lines_are_named():
    assert market.parse_bids("Ann 3\n\n  Bo: 5\nCy, 0\nDé = 40", 40) == [("Ann", 3), ("Bo", 5), ("Cy", 0), ("Dé", 40)]
    for text, problem in [
        ("", "at least one bid"),
        ("Ann 3\n42", "Line 2"),
        ("Ann 41", "from 0 to 40"),
        ("Ann 3\nann 4", "already bid"),
        ("Ann -2", "Line 1"),
        ("Ann 2.5", "whole number"),
        ("\n".join(f"P{chr(97 + i // 26)}{chr(97 + i % 26)} 1" for i in range(81)), "at most 80"),
    ]:
        with pytest.raises(ValueError, match=problem):
            market.parse_bids(text, 40)


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


@pytest.mark.slow
def test_the_auction_sheet_refuses_bad_bids_and_plays_the_turn_out_reproducibly():
    sheet = market.AuctionSheet(seed=7)
    assert sheet.play_button.disabled and sheet.result is None
    with pytest.raises(ValueError, match="reveal"):
        sheet.play_out()
    result = sheet.reveal("Ann 10\nBo 30", "first")
    assert result is sheet.result and result.winner == "Bo" and "winner's curse" in sheet.report.value
    assert sheet.reveal("Ann ten") is None and "Line 1" in sheet.message.value and sheet.result is result
    plays = [sheet.play_out() for _ in range(5)]
    start = dataclasses.replace(sheet.state, gems=10, must_reveal=True)
    support = set(evaluate_policy(start, optimal_policy(start)).distribution.index)
    assert all(gain in support and profit == gain - 30 for gain, profit in plays)
    again = market.AuctionSheet(seed=7)
    again.reveal("Ann 10\nBo 30", "first")
    assert [again.play_out() for _ in range(5)] == plays
    assert "Turns played out" in sheet.report.value
    i18n.set_language("it")
    assert "Turni giocati" in sheet.report.value and "maledizione del vincitore" in sheet.report.value
    assert sheet.price_rule.value == "first"


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


def test_the_takeover_figure_bands_the_gaining_takers():
    state = held_turn(MINI, (1, 2))
    curve = fair_bounty_curve(state, 12)
    figure = takeover_figure(curve, 4, 12, 4)
    assert gaining_takers(curve) == [4]
    assert len(figure.axes[0].patches) == 1
