"""Lesson 7's figures (dragonkit.plots.market): who should take over and the auction, each told from its
own data; the takeover figure bands the gaining takers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dragonkit import Ruleset
from dragonkit.analysis import fair_bounty_curve, held_turn, run_auction
from dragonkit.analysis.turn.market import break_even_bid, gaining_takers
from dragonkit.i18n.numbers import ranges_text
from dragonkit.plots.market import auction_figure, auction_figure_text, takeover_figure, takeover_figure_text

from .texts import column, number, well_formed

MINI, DRAGON = Ruleset.preset("mini"), Ruleset.preset("dragon-stripes")


pytestmark = pytest.mark.usefixtures("lesson_widgets_closed")


def test_the_takeover_text_names_the_takers_for_whom_it_pays():
    state = held_turn(MINI, (1, 2))
    curve = fair_bounty_curve(state, 12)
    text = well_formed(takeover_figure_text(curve, 4, 12, 4))
    assert "Taking over pays for takers with 4 gems." in text.alt and gaining_takers(curve) == [4]
    assert "Dotted lines: holder: 12 gems; taker: 4 gems." in text.alt
    nets = column(text, "expected net gain, F(g − b) − b")
    assert nets[:4] == ["–"] * 4  # a taker with fewer gems than the bounty may not accept
    assert number(nets[4]) == round(Fraction(1, 6), 3) and number(nets[8]) == round(Fraction(-5, 6), 3)  # lesson 7
    assert len(text.rows) == 13
    ax = takeover_figure(curve, 4, 12, 4).axes[0]
    assert all(p.get_hatch() for p in ax.patches)  # the bands are hatched, not only green
    italian = well_formed(takeover_figure_text(curve, 4, None, None, "it"))
    assert "Prendere il posto conviene a chi ha 4 gemme." in italian.alt and "Linee" not in italian.alt
    assert ranges_text([1, 2, 3, 7, 1200, 1201], "it") == "1–3, 7, 1.200–1.201"


def test_the_auction_text_gives_the_winner_and_the_break_even_bid():
    state = held_turn(DRAGON, (2, 3, 4), treasure=60)
    result = run_auction(state, 40, [("Ann", 12), ("Bo", 25), ("Cy", 25), ("Di", 3)])
    text = well_formed(auction_figure_text(result))
    assert "Bo wins with a bid of 25 gems and pays 25 gems." in text.alt
    assert f"Break-even bid: {break_even_bid(state, 40)} gems; 2 of 4 bids lose gems on average." in text.alt
    assert column(text, "bidder") == ["Bo", "Cy", "Ann", "Di"]
    fair = fair_bounty_curve(state, 40)["fair_bounty"]
    assert [number(p) for p in column(text, "expected profit at one's own bid (gems)")] == [
        round(fair[40 - b] - b, 3) for b in (25, 25, 12, 3)
    ]
    ax = auction_figure(result).axes[0]
    assert [bool(p.get_hatch()) for p in ax.patches] == [True, True, False, False]  # the two losing bids
    assert "winner" in {t.get_text() for t in ax.texts}
    italian = well_formed(auction_figure_text(result, "it"))
    assert "Vince Bo con un'offerta di 25 gemme" in italian.alt and italian.columns[0] == "offerente"


def test_the_takeover_figure_bands_the_gaining_takers():
    state = held_turn(MINI, (1, 2))
    curve = fair_bounty_curve(state, 12)
    figure = takeover_figure(curve, 4, 12, 4)
    assert gaining_takers(curve) == [4]
    assert len(figure.axes[0].patches) == 1
