"""Lesson 2, the next card: the deck and runs of footprints — counted card by card, by binomial
coefficients and by brute force; the explorer's sliders; the notebook's exercises and teacher's notes."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import matplotlib
import numpy as np
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.lessons import next_card
from dragonkit.lessons.next_card import DeckExplorer
from dragonkit.rules import Card, CardKind
from dragonkit.topics.deck import all_footprints, deck_after, run_table

from .helpers import _check, _prose, _run_notebook, _text

matplotlib.use("Agg")


DRAGON = Ruleset.preset("dragon-stripes")


MINI = Ruleset.preset("mini")


STOP, DANGER = Card("stop"), Card("danger")


def test_the_deck_after_the_discards_is_counted_card_by_card():
    deck = deck_after(DRAGON, next_card.EXERCISE_DISCARDS)
    assert deck.total == 51 - 11
    assert dict(deck.footprints) == {1: 11, 2: 10, 3: 7, 4: 3}
    assert (deck.stops, deck.dangers) == (7, 2)
    assert deck_after(DRAGON, {}) == DRAGON.composition


@pytest.mark.parametrize(
    "discards, error",
    [
        ({STOP: 11}, ValueError),
        ({Card.footprint(4): 5}, ValueError),
        ({STOP: -1}, ValueError),
        ({STOP: 1.5}, ValueError),
        ({"stop": 1}, TypeError),
    ],
)
def test_impossible_discards_are_refused(discards, error):
    with pytest.raises(error):
        deck_after(DRAGON, discards)
    with pytest.raises(error):
        DeckExplorer(discards=discards)


def test_runs_of_footprints_match_binomial_coefficients_and_a_brute_force_count():
    deck = MINI.composition  # 8 cards: every ordered draw can be listed
    cards = deck.cards()
    for k in range(0, deck.total + 1):
        draws = list(itertools.permutations(range(len(cards)), k))
        favourable = sum(all(cards[i].kind is CardKind.FOOTPRINT for i in draw) for draw in draws)
        assert all_footprints(deck, k) == Fraction(favourable, len(draws))
    rng = np.random.default_rng(3)
    for _ in range(40):
        discards = {card: int(rng.integers(0, count + 1)) for card, count in DRAGON.composition.counts()}
        discards[DANGER] = min(discards[DANGER], 2)
        left = deck_after(DRAGON, discards)
        n, f = left.total, sum(c for _s, c in left.footprints)
        for k in range(1, min(n, 12) + 1):
            assert all_footprints(left, k) == Fraction(math.comb(f, k), math.comb(n, k))
            assert all_footprints(left, k, replacement=True) == Fraction(f, n) ** k
            assert all_footprints(left, k) <= all_footprints(left, k, replacement=True)


def test_scipy_floats_agree_with_the_exact_fractions():
    for row in run_table(deck_after(DRAGON, next_card.EXERCISE_DISCARDS), 12):
        assert row["hypergeom"] == pytest.approx(float(row["without"]), rel=1e-12, abs=1e-15)
        assert row["binom"] == pytest.approx(float(row["with"]), rel=1e-12, abs=1e-15)
    with pytest.raises(ValueError):
        run_table(MINI.composition, 9)
    with pytest.raises(ValueError):
        all_footprints(MINI.composition, -1)


@pytest.mark.slow
def test_the_explorer_follows_its_sliders():
    explorer = DeckExplorer()
    assert "51 cards left (0 discarded), 38 of them footprints" in _text(explorer.summary.value)
    picture = explorer.picture.value
    explorer.set_discards(next_card.EXERCISE_DISCARDS)
    assert explorer.composition == deck_after(DRAGON, next_card.EXERCISE_DISCARDS)
    assert "40 cards left (11 discarded), 31 of them footprints" in _text(explorer.summary.value)
    table = _text(explorer.next_card.value)
    assert "31/40" in table and "7/40" in table and "1/20" in table  # footprints, stops, dangers
    assert explorer.picture.value != picture
    runs = _text(explorer.runs.value)
    assert str(Fraction(31 * 30 * 29, 40 * 39 * 38)) in runs and str(Fraction(31, 40) ** 3) in runs
    explorer.k_slider.value = 9
    assert explorer.runs.value.count("<tr>") == 1 + 9
    explorer.sliders[STOP].value = 4  # a slider alone redraws too
    assert "39 cards left (12 discarded)" in _text(explorer.summary.value)
    with pytest.raises(ValueError):
        explorer.set_discards({DANGER: 3})
    assert explorer.sliders[DANGER].value == 1
    assert explorer.sliders[DANGER].max == 2  # the third danger would end the game
    explorer.reset()
    assert explorer.composition == DRAGON.composition


def test_the_explorer_never_draws_more_cards_than_are_left():
    explorer = DeckExplorer(MINI, k_max=6)
    explorer.set_discards({card: slider.max for card, slider in explorer.sliders.items()})
    assert explorer.composition.total == 1  # the danger card: the only one that cannot be discarded
    assert explorer.k_max == 1 and explorer.runs.value.count("<tr>") == 2
    assert run_table(explorer.composition, 1)[0]["without"] == 0


def test_lesson_2_answers_by_hand():
    answers = next_card.answers()
    assert answers == {
        "cards": 40,
        "footprint": Fraction(31, 40),
        "stop": Fraction(7, 40),
        "three": Fraction(31 * 30 * 29, 40 * 39 * 38),
        "three_with": Fraction(31**3, 40**3),
        "ends": 1 - Fraction(math.comb(31, 3), math.comb(40, 3)),
    }


@pytest.mark.slow
def test_lesson_2_notebook_exercises_and_notes():
    exercises, notes = _run_notebook("02-the-next-card")
    a = next_card.answers()
    _check(exercises, [a["cards"], a["footprint"], a["stop"], a["three"], a["three_with"], a["ends"], 1], notes)
    deck = deck_after(DRAGON, next_card.EXERCISE_DISCARDS)
    ratio = {k: float(all_footprints(deck, k) / all_footprints(deck, k, True)) for k in (3, 10)}
    full = DRAGON.composition
    assert f"about ${ratio[3]:.2f}$" in notes and f"about ${ratio[10]:.2f}$" in notes
    assert f"about ${float(all_footprints(full, 6) / all_footprints(full, 6, True)):.2f}$" in notes
    assert f"{math.comb(38, 6) / math.comb(51, 6):.3f}" in notes


def test_only_the_ratio_of_the_two_products_falls_as_k_grows():
    """Review 1-5, items 7 and 15: with the exercise's deck (31 footprints of 40) the ratio without/with replacement
    falls with k, the difference does not; the two are equal for k = 1, or when F = N or F = 0."""
    ratio, difference = [], []
    for k in range(1, 32):
        without, with_ = Fraction(math.comb(31, k), math.comb(40, k)), Fraction(31, 40) ** k
        ratio.append(without / with_)
        difference.append(with_ - without)
    assert all(a > b for a, b in itertools.pairwise(ratio)) and ratio[0] == 1
    peak = difference.index(max(difference)) + 1
    assert peak == 8 and difference[2] < difference[7] and difference[9] > difference[30]  # up, then down
    for F, N in ((5, 5), (0, 5)):
        assert all(Fraction(math.comb(F, k), math.comb(N, k)) == Fraction(F, N) ** k for k in range(1, 4))
    english, italian_ = _prose("02-the-next-card"), _prose("02-the-next-card", "it")
    assert "its ratio to the product with replacement shrinks as k grows" in english and "more so as k" not in english
    assert "with equality only for $k = 1$, or when $F = N$ or $F = 0$" in english
    explanation = next(line for line in english.split('explanation="')[1:] if "ratio" in line).split('")')[0]
    assert "il suo rapporto con quello con reimmissione diminuisce al crescere di k" in i18n.tr(explanation, "it")
    assert "oppure se $F = N$ o $F = 0$" in italian_
