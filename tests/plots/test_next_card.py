"""Lesson 2's figures (dragonkit.plots.next_card) in words: the deck's bars, the discards, each k without
and with replacement, in the page's language."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from dragonkit import Ruleset
from dragonkit.lessons.next_card import EXERCISE_DISCARDS
from dragonkit.plots.next_card import composition_figure, composition_figure_text, explorer_figure_text
from dragonkit.rules import Card
from dragonkit.topics.deck import deck_after

from .texts import _checked, _italian, _number

DRAGON = Ruleset.preset("dragon-stripes")


def test_the_deck_text_counts_the_bars():
    deck = DRAGON.composition
    text = _checked(composition_figure_text(deck, lang="en"))
    assert text.alt.startswith(
        "The deck: 51 cards: 38 footprints (1 step ×14, 2 steps ×12, 3 steps ×8, 4 steps ×4), 10 stops, 3 dangers."
    )
    assert "footprint with probability 38/51 ≈ 0.745, a stop or a danger with 13/51 ≈ 0.255" in text.alt
    assert text.columns == ("card", "left in the deck", "P(the next card is of that kind)")
    assert [row[:2] for row in text.rows] == [(card.describe("en"), str(n)) for card, n in deck.counts()]
    # the figure writes the same count/total over each bar
    labels = [t.get_text() for t in composition_figure(deck).axes[0].texts]
    assert labels == [row[2].split(" ≈")[0] for row in text.rows]


def test_the_deck_text_counts_the_discards_and_agrees_in_number():
    left = deck_after(DRAGON, EXERCISE_DISCARDS)
    text = _checked(composition_figure_text(left, DRAGON.composition, "en"))
    assert text.alt.startswith("The deck: 40 of 51 cards left: 31 footprints (1 step ×11, 2 steps ×10")
    assert text.columns[2] == "discarded"
    assert {row[0]: int(row[2]) for row in text.rows} == {c.describe("en"): n for c, n in EXERCISE_DISCARDS.items()}
    for row in text.rows:
        count, total = map(int, row[3].split(" ≈")[0].split("/"))
        assert (count, total) == (int(row[1]), 40)
        assert _number(row[3].split("≈ ")[1]) == pytest.approx(count / 40, abs=5e-4)
    lonely = deck_after(DRAGON, {Card("danger"): 2, Card("stop"): 9})
    assert "1 stop, 1 danger." in composition_figure_text(lonely, DRAGON.composition, "en").alt


def test_the_explorer_text_gives_each_k_without_and_with_replacement():
    left = deck_after(DRAGON, EXERCISE_DISCARDS)
    text = _checked(explorer_figure_text(left, DRAGON.composition, 6, "en"))
    n, f = 40, 31
    for k, (shown_k, without, with_) in enumerate(text.rows, start=1):
        assert int(shown_k) == k
        assert _number(without) == pytest.approx(float(math.prod(Fraction(f - i, n - i) for i in range(k))), abs=5e-5)
        assert _number(with_) == pytest.approx(float(Fraction(f, n) ** k), abs=5e-5)
    assert "falls from 0.7750 for k = 1 to 0.1918 for k = 6 without replacement, to 0.2167 with" in text.alt
    assert "31 footprints" in text.alt


@pytest.mark.slow
def test_the_deck_texts_speak_italian():
    left = deck_after(DRAGON, EXERCISE_DISCARDS)
    for text in (
        composition_figure_text(DRAGON.composition, lang="it"),
        composition_figure_text(left, DRAGON.composition, "it"),
        explorer_figure_text(left, DRAGON.composition, 6, "it"),
    ):
        _italian(_checked(text))
    assert "38 impronte (1 passo ×14, 2 passi ×12" in composition_figure_text(DRAGON.composition, lang="it").alt
