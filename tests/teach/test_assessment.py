"""The assessment: its answers against independent computations (scipy's hypergeometric law, the closed forms the
solutions state, the distributions by hand), its points, and its two sheets in both languages."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import pytest
from scipy import stats

from dragonkit.rules import CardKind
from dragonkit.teach.assessment import (
    CHAIN_GEMS,
    FIRST_TURN,
    LATER_MEAN,
    LATER_SD,
    LATER_SIDES,
    LATER_TAKER,
    LATER_TURNS,
    PROBLEM_GEMS,
    answers,
    assessment_markdown,
    chain_items,
    items,
    later_items,
)

from ..english import english_words

#: The second turn's deck, counted by hand from the 51 cards of Dragon Stripes less the first turn's three.
FOOTPRINTS = {1: 14 - 1, 2: 12, 3: 8 - 1, 4: 4}
STOPS, DANGERS = 10 - 1, 3
CARDS = sum(FOOTPRINTS.values()) + STOPS + DANGERS


def test_the_first_turn_is_what_the_test_says():
    assert [c.kind for c in FIRST_TURN] == [CardKind.FOOTPRINT, CardKind.FOOTPRINT, CardKind.STOP]
    assert [c.steps for c in FIRST_TURN[:2]] == [1, 3]
    assert answers().cards == CARDS == 48 and answers().footprints == 36


def test_the_tests_chances_are_the_hypergeometric_and_binomial_laws():
    a = answers()
    f = sum(FOOTPRINTS.values())
    assert a.first_stop_or_danger == Fraction(STOPS + DANGERS, CARDS) == Fraction(1, 4)
    assert a.three_footprints == Fraction(f * (f - 1) * (f - 2), CARDS * (CARDS - 1) * (CARDS - 2))
    assert float(a.three_footprints) == pytest.approx(stats.hypergeom(CARDS, f, 3).pmf(3))
    assert float(a.three_footprints_with_replacement) == pytest.approx(stats.binom(3, f / CARDS).pmf(3))
    assert a.three_footprints < a.three_footprints_with_replacement


def test_one_card_then_hold_expected_value_and_variance_by_hand():
    penalty = 40 // 4  # a stop, or the first danger (stage 1, still a quarter)
    outcomes = {n: Fraction(count, CARDS) for n, count in FOOTPRINTS.items()}  # a footprint of n lands on stripe n
    outcomes[-penalty] = Fraction(STOPS + DANGERS, CARDS)
    mean = sum(x * p for x, p in outcomes.items())
    variance = sum(x * x * p for x, p in outcomes.items()) - mean**2
    assert answers().one_card_gain == mean == Fraction(-23, 24)
    assert answers().one_card_variance == variance == Fraction(16127, 576)


def test_one_more_card_after_a_three_step_footprint():
    left = dict(FOOTPRINTS) | {3: FOOTPRINTS[3] - 1}
    cards = CARDS - 1
    value = Fraction(sum(count * (3 + (3 + n)) for n, count in left.items()) - (STOPS + DANGERS) * 10, cards)
    assert answers().after_three_pot == 3 and answers().after_three_value == value == Fraction(161, 47)
    assert value > 3 and answers().after_three_action == "reveal"


def test_the_problems_closed_form_and_its_answers():
    gains = answers().gain_by_gems
    assert len(gains) == 41
    for g, gain in enumerate(gains):
        assert gain == Fraction(7 - 2 * (g // 4) - g, 8), g  # the formula of part a, for every g
        assert Fraction(7 - Fraction(3, 2) * g, 8) <= gain < Fraction(9 - Fraction(3, 2) * g, 8)  # part b
    assert all(b < a for a, b in itertools.pairwise(gains))  # strictly decreasing
    assert answers().largest_gems_at_least == 15 == max(g for g in range(41) if g + 2 * (g // 4) <= 23)
    g = PROBLEM_GEMS
    outcomes = {1: Fraction(3, 8), 2: Fraction(2, 8), -(g // 4): Fraction(2, 8), -g: Fraction(1, 8)}
    mean = sum(x * p for x, p in outcomes.items())
    assert answers().problem_variance == sum(x * x * p for x, p in outcomes.items()) - mean**2 == Fraction(3159, 64)
    assert answers().problem_loss == Fraction(3, 8)


def test_the_points_add_up():
    test, problem = items()
    assert sum(i.points for i in test) == 10 and sum(i.points for i in problem) == 20
    assert [i.label for i in test] == ["1a", "1b", "1c", "2", "3", "4"] and [i.label for i in problem] == list("abcd")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_teachers_sheet_gives_every_answer_and_the_students_none(lang):
    teacher, student = assessment_markdown(lang, teacher=True), assessment_markdown(lang)
    for shown in (r"\frac{1785}{4324}", r"-\frac{23}{24}", r"\frac{16127}{576}", r"\frac{161}{47}", r"\frac{3159}{64}"):
        assert shown in teacher and shown not in student
    assert "0 \\le g \\le 15" in teacher and "0 \\le g \\le 15" not in student
    point = "{,}" if lang == "it" else "."
    assert f"0{point}4128" in teacher and f"5{point}29" in teacher
    assert student.count("**") == teacher.count("**") - 0  # the same questions, bold labels alike
    assert len(re.findall(r"^\*\*(\d+[a-c]?|[a-d])\.\*\*", student, re.M)) == 21
    grid = [line for line in teacher.splitlines() if re.match(r"\| \w+ (\d+[a-c]?|[a-d]) \|", line)]
    assert len(grid) == 21 and sum(int(line.split("|")[2]) for line in grid) == 50
    for shown in (r"\frac{13}{8}", r"\frac{5}{14}", r"= \frac{2}{7}", r"\frac{4101}{196}", r"\frac{9}{14}"):
        assert shown in teacher and shown not in student
    assert "{" not in re.sub(r"\$[^$]*\$", "", teacher)  # every field filled


def test_the_italian_sheets_are_italian():
    for teacher in (False, True):
        text = assessment_markdown("it", teacher=teacher)
        text = re.sub(r"\$[^$]*\$|`[^`]*`", " ", text)
        assert english_words(text) == [], teacher
    assert "Verifica" in assessment_markdown("it") and "griglia di valutazione" in assessment_markdown("it", True)
    with pytest.raises(ValueError, match="speaks"):
        assessment_markdown("fr")


def test_the_fractions_are_in_lowest_terms_and_signed_in_front():
    from dragonkit.teach.assessment import _tex

    assert _tex(Fraction(-46, 48)) == r"-\frac{23}{24}" and _tex(Fraction(6, 3)) == "2"
    assert math.isclose(float(Fraction(1785, 4324)), 0.41281, abs_tol=1e-5)


def test_the_chain_test_by_hand():
    """The test after lessons 4-6, computed again by hand from the classroom deck's eight cards: the chain of *hold
    after two cards* (Q, N = (I - Q)^-1, t, the absorption probabilities), the push value by backward induction, the
    distribution of X with its mean and variance."""
    import numpy as np

    stop, danger = CHAIN_GEMS // 4, CHAIN_GEMS  # a quarter of the gems; the only danger, the final one, all
    deck = {1: 3, 2: 2, "stop": 2, "danger": 1}
    q = np.array([[0, 3 / 8, 2 / 8], [0, 0, 0], [0, 0, 0]])
    n = np.linalg.inv(np.eye(3) - q)
    assert np.allclose(q @ q, 0) and np.allclose(n, np.eye(3) + q)
    a = answers()
    assert a.chain_cards == Fraction(13, 8) and float(a.chain_cards) == pytest.approx(n.sum(axis=1)[0])
    outcomes: dict[int, Fraction] = {}
    for first in (1, 2, "stop", "danger"):
        p1 = Fraction(deck[first], 8)
        if first in ("stop", "danger"):
            outcomes[-stop if first == "stop" else -danger] = (
                outcomes.get(-stop if first == "stop" else -danger, 0) + p1
            )
            continue
        left = dict(deck) | {first: deck[first] - 1}
        for second in (1, 2, "stop", "danger"):
            p = p1 * Fraction(left[second], 7)
            if second in ("stop", "danger"):
                x = -stop if second == "stop" else -danger
            else:
                x = first + (first + second)  # the stripes landed on pay their values
            outcomes[x] = outcomes.get(x, 0) + p
    assert sum(outcomes.values()) == 1
    assert a.chain_stopped == outcomes[-stop] == Fraction(3, 7) and a.chain_danger == outcomes[-danger] == Fraction(
        3, 14
    )
    assert a.chain_held == sum(p for x, p in outcomes.items() if x > 0) == Fraction(5, 14)
    mean = sum(x * p for x, p in outcomes.items())
    assert a.chain_gain == mean == Fraction(-15, 14)
    assert a.chain_variance == sum(x * x * p for x, p in outcomes.items()) - mean**2 == Fraction(4101, 196)
    assert a.chain_loss == Fraction(9, 14)
    # backward induction after a 1-step footprint: holding at pots 3 and 4 (their push values below the pots)
    assert a.chain_push_after_one < 3 and a.chain_push_after_two < 4
    assert a.chain_push == Fraction(2 * 3 + 2 * 4 + 2 * (-stop) + 1 * (-danger), 7) == Fraction(2, 7) < 1
    assert a.chain_optimal == Fraction(3 * 1 + 2 * 2 - 2 * stop - danger, 8) == Fraction(-5, 8) > a.chain_gain
    assert sum(i.points for i in chain_items()) == 10 and [i.label for i in chain_items()] == [
        "5a",
        "5b",
        "6",
        "7a",
        "7b",
    ]


def test_the_test_after_lessons_7_to_10_by_hand():
    """The test after lessons 7-10, computed again by hand: the fair bounty when one card decides (two footprints to
    the head's 20 gems, two stops, the final danger), the interval and the turns that halve it, Drago Rosso's first
    card, and Pig's one more roll with an eight-sided die."""
    a = answers()
    left = LATER_TAKER - a.later_bounty
    assert a.later_bounty == 11 and left == 5
    assert a.later_value == Fraction(2 * 20 - 2 * (left // 4) - left, 5) == Fraction(33, 5)
    assert a.later_gain == a.later_value - 11 == Fraction(-22, 5) < 0
    half = 1.96 * LATER_SD / math.sqrt(LATER_TURNS)
    assert round(half, 2) == 0.98 and float(LATER_MEAN) - half < a.hold_20_value < float(LATER_MEAN) + half
    assert round(a.hold_20_value, 3) == -1.106 and 1.96 * LATER_SD / math.sqrt(4 * LATER_TURNS) == pytest.approx(
        half / 2
    )
    assert a.drago_first_ends == Fraction(11 + 2, 54) < a.dragon_first_ends == Fraction(13, 51)
    sides = LATER_SIDES
    for t in range(60):
        change = Fraction(-t, sides) + Fraction(sum(range(2, sides + 1)), sides)
        assert change == Fraction(35 - t, 8) and (change > 0) == (t < 35)
    assert a.pig_best == (35, 36)  # hold at 35 or 36: the one more roll at 35 changes nothing
    assert sum(i.points for i in later_items()) == 10
    teacher = assessment_markdown("it", teacher=True)
    for shown in (r"-\frac{22}{5}", r"\frac{13}{54}", "−2{,}48", "3600", r"\frac{35 - t}{8}"):
        assert shown in teacher, shown
