"""Lesson 7, the takeover market: the lesson's answers, the explorer and the auction sheet (the market's
numbers themselves: tests/topics/test_market.py)."""

from __future__ import annotations

import dataclasses
import itertools
import re
from fractions import Fraction

import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis import evaluate_policy, optimal_policy
from dragonkit.analysis.turn.market import break_even_bid, held_turn
from dragonkit.lessons import market

from ..expectimax import brute_fair_bounty
from ..notebooks import _cells
from .helpers import _notes_text, _notes_words, _prose

MINI = Ruleset.preset("mini")


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
    assert "DECLINE" in explorer.verdict.value and "−5/6" in explorer.verdict.value
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


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_second_price_still_curses_a_common_value(lang):
    """Thirty unbiased normal estimates of one common value: the second largest, the price at second price, lies
    about 1.6 standard deviations above the truth (the notes' figure), so bidding one's estimate loses on average."""
    from math import comb

    from scipy import integrate, stats

    n = 30

    def density(x):  # the (n-1)-th order statistic of n standard normals
        cdf = stats.norm.cdf(x)
        return n * comb(n - 1, 1) * cdf ** (n - 2) * (1 - cdf) * stats.norm.pdf(x)

    mean, _ = integrate.quad(lambda x: x * density(x), -10, 10)
    assert round(mean, 1) == 1.6
    notes = _notes_text("07-takeover-market", lang)
    assert ("1.6 standard deviations" if lang == "en" else "1,6 deviazioni standard") in notes
    assert "Vickrey" in notes and ("private values only" if lang == "en" else "valori privati") in notes


def test_the_notes_give_the_coach_bots_own_takeover_rule():
    """Review 6-10, item 2: the coach bot takes over exactly when F(g − b) − b > 0 (bots.CoachBot asks
    takeover_gain), not by the cautious shortcut F(g) > b; and exercise 2 is Cy's, who has 12 gems in exercise 3."""
    import inspect

    from dragonkit.bots import CoachBot

    assert "takeover_gain(" in inspect.getsource(CoachBot.choose)
    notes = _notes_words("07-takeover-market")
    assert "that is what the coach bot does: it takes over exactly when $F(g-b) - b > 0$" in notes
    assert 'the shortcut "take over when $F(g) > b$" would be safe but slightly cautious' in notes
    assert "| Cy's net gain, 12 gems, bounty 9 |" in notes
    italian_ = _notes_words("07-takeover-market", "it")
    assert "prende il posto esattamente quando $F(g-b) - b > 0$" in italian_
    header = _prose("07-takeover-market").split("**Prerequisites:**")[0]
    minutes = [int(m) for m in re.findall(r"(\d+) (?:for|to) ", header.split("**Time:**")[1])]
    assert minutes == [10, 10, 25, 5] and sum(minutes) == 50 and "**Time:** 50 minutes" in header  # a school hour


def test_round_2_is_played_at_second_price_on_a_turn_whose_value_round_1_did_not_reveal():
    """Issue 37, item 2: round 1's *Reveal the values* shows its turn's F(40) and break-even bid, so round 2 needs
    another turn: the lesson's second sheet, at second price, whose values (the notes') are the analysis'."""
    import ast

    from dragonkit.analysis.turn.market import takeover

    cells = _cells("07-takeover-market")
    calls = [
        "".join(c["source"])
        for c in cells
        if c["cell_type"] == "code" and "".join(c["source"]).startswith("AuctionSheet(")
    ]
    sheets = [
        eval(compile(ast.parse(call, mode="eval"), "cell", "eval"), {"AuctionSheet": market.AuctionSheet})
        for call in calls
    ]
    first, second = sheets
    assert (first.price_rule.value, second.price_rule.value) == ("first", "second")
    assert first.state != second.state and second.state.pot != first.state.pot
    assert (first.gems, second.gems) == (40, 40)
    offer = takeover(second.state, 40)
    assert offer.fair_bounty == Fraction(571, 42) and offer.bounty == 12 == second.state.pot
    assert break_even_bid(second.state, 40) == 15 != break_even_bid(first.state, 40) == 18
    profits = [takeover(second.state, 40 - b).fair_bounty - b for b in (15, 16)]
    assert [round(float(p), 2) for p in profits] == [0.35, -0.65]
    notes = _notes_words("07-takeover-market")
    assert "$F(40) = 571/42 \\approx 13.60$" in notes and "$b \\le 15$, the **break-even bid**" in notes
    assert "at 15 the expected profit is about +0.35, at 16 about −0.65" in notes
    assert "Round 2 on the same turn" not in notes and "on the second sheet's turn (4+4)" in notes
    italian_ = _notes_words("07-takeover-market", "it")
    assert "$F(40) = 571/42 \\approx 13{,}60$" in italian_ and "circa +0,35, con 16 circa −0,65" in italian_
    with pytest.raises(ValueError, match="price_rule"):
        market.AuctionSheet(price_rule="third")


def test_the_try_it_weighs_the_net_gain_not_the_turns_value_alone():
    """Issue 37, item 2: paying the bounty first leaves a turn worth at least F(g) (F never increases with the gems:
    checked on the mini turn held after 1+2), but the net gain F(g − b) − b decides, as the Try it now says."""
    from dragonkit.analysis.turn.market import takeover

    state = held_turn(MINI, (1, 2))
    values = [takeover(state, g).fair_bounty for g in range(25)]
    assert all(a >= b for a, b in itertools.pairwise(values))
    english, italian_ = _prose("07-takeover-market"), _prose("07-takeover-market", "it")
    assert "makes the turn *more* valuable" not in english and "what decides is the net gain $F(g-b) - b$" in english
    assert "rende il turno *più* prezioso" not in italian_ and "decide il guadagno netto $F(g-b) - b$" in italian_


def test_a_poorer_player_values_a_turn_at_least_as_much_not_always_more():
    """Third reading: with a penalty of ⌊g/4⌋, F is flat over each block of four gems (the auction turn's F(20) to
    F(23) are equal), so the lesson says 'at least as much'."""
    from dragonkit.analysis.turn.market import takeover

    auction = held_turn(Ruleset.preset("dragon-stripes"), (2, 3, 4), treasure=60)
    values = [takeover(auction, g).fair_bounty for g in range(20, 25)]
    assert values[0] == values[1] == values[2] == values[3] == Fraction(1757, 94) > values[4]
    english, italian_ = _prose("07-takeover-market"), _prose("07-takeover-market", "it")
    assert "**the same turn is worth at least as much to a poorer player** (more, as soon as" in english
    assert "almeno quanto per uno più ricco** (di più, appena la sua penalità è più piccola)" in italian_
