"""The exercises (dragonkit.teach.exercises): answers read exactly, exercises judged and explained in both
languages."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dragonkit import i18n
from dragonkit.i18n import Gems
from dragonkit.rules import Message
from dragonkit.teach import ChoiceExercise, FractionExercise, exercises, parse_number


@pytest.mark.parametrize(
    "text, value",
    [
        ("13/47", Fraction(13, 47)),
        (" -11/8 ", Fraction(-11, 8)),
        ("0.25", Fraction(1, 4)),
        ("27.5%", Fraction(11, 40)),
        ("3", Fraction(3)),
        (".5", Fraction(1, 2)),
        ("1.5/3", Fraction(1, 2)),
        ("13 / 47", Fraction(13, 47)),
        ("50 %", Fraction(1, 2)),
    ],
)
def test_answers_are_read_exactly(text, value):
    assert parse_number(text, "en") == value


@pytest.mark.parametrize(
    "text", ["", "abc", "1e9999999", "1/0", "2/3/4", "0x10", "nan", "inf", "--1", "1" * 31, "1/2%%", "½"]
)
def test_unreadable_answers_are_refused_with_a_message(text):
    with pytest.raises(ValueError, match=r"Type a number|denominator"):
        parse_number(text, "en")


@given(st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**9))
def test_every_fraction_reads_back(value):
    assert parse_number(str(value), "en") == value


def test_a_fraction_exercise_judges_decimals_fractions_and_explains():
    ex = FractionExercise(
        "P(stop)?",
        Fraction(10, 51),
        hint=["count the stops", "10 of 51"],
        explanation="10 stops among 51 cards.",
    )
    assert not ex.check("1/5") and "too high" in ex.feedback.value and ex.attempts == 1
    assert not ex.check("0.15") and "too low" in ex.feedback.value
    assert not ex.check("ten") and ex.attempts == 2  # unreadable: not counted
    assert "Type a number" in ex.feedback.value
    assert ex.check("0.196") and ex.solved and "10/51" in ex.feedback.value and "10 stops" in ex.feedback.value
    assert ex.check("19.6%") and ex.check("20/102")
    assert not ex.check("0.19")  # outside the 0.5 % tolerance
    assert ex.hint_html.value == ""
    ex.hint_button.click()
    assert "count the stops" in ex.hint_html.value and "10 of 51" not in ex.hint_html.value
    ex.hint_button.click()
    ex.hint_button.click()  # no third hint: stays at two
    assert ex.hints_shown == 2 and "10 of 51" in ex.hint_html.value


def test_exact_exercises_want_the_fraction_and_typing_enter_checks():
    ex = FractionExercise("Exact value of -13/47?", "-13/47", exact=True)
    assert not ex.check("-0.2766") and "exact fraction" in ex.feedback.value
    assert FractionExercise("?", "-11/8", exact=True).check("-1.375")  # a decimal that is exact is exact
    ex.answer_widget.value = "-26/94"  # what pressing Enter in the box does
    assert ex.solved and "Right" in ex.feedback.value
    assert ex.hint_button.layout.display == "none"  # no hint given, no hint button


def test_tolerance_is_relative_with_an_absolute_floor():
    big = FractionExercise("?", 1000, tolerance=Fraction(1, 100))
    assert big.check("1009") and not big.check("1011")
    small = FractionExercise("?", Fraction(1, 10**6))
    assert small.check("0.0005")  # within the 0.001 floor
    assert not small.check("1/1000")  # but a typed fraction must be exact


#: An exercise of lesson 3 and its Italian texts, from the catalog.
QUESTION = "Why should a richer player hold sooner (at a smaller pot)?"


HINT = "Subtract the hold value, the pot, from E1."


def test_feedback_follows_the_language():
    ex = FractionExercise(QUESTION, 51, hint=HINT)
    ex.check("50")
    ex.show_hint()
    i18n.set_language("it")
    assert "Perché un giocatore più ricco dovrebbe fermarsi prima" in ex.question_html.value
    assert "Sottrai da E1" in ex.hint_html.value
    assert "troppo bassa" in ex.feedback.value and ex.check_button.description == "Verifica"
    assert ex.hint_button.description == "Suggerimento" and ex.answer_widget.placeholder == "es. 13/47; 0,277; 27,7%"
    i18n.set_language("en")
    assert "too low" in ex.feedback.value and ex.check_button.description == "Check"
    assert ex.answer_widget.placeholder == "e.g. 13/47; 0.277; 27.7%"


def test_answers_are_read_and_shown_as_the_learners_language_writes_numbers():
    ex = FractionExercise("P(stop)?", Fraction(10, 51))
    i18n.set_language("it")
    try:
        assert not ex.check("0.196") and "intendevi 0,196?" in ex.feedback.value and ex.attempts == 0
        assert ex.check("0,196") and "10/51 ≈ 0,1961" in ex.feedback.value
        assert ex.check("19,6%")
        assert not ex.check("1.000") and "due modi" in ex.feedback.value
    finally:
        i18n.set_language("en")
    assert not ex.check("1,000") and "reads two ways" in ex.feedback.value  # never silently 1
    assert not ex.check("0,196") and "did you mean 0.196?" in ex.feedback.value


def test_a_percentage_answers_only_a_proportion():
    points = FractionExercise("How many points?", 20)
    assert not points.check("2000%") and "not a proportion" in points.feedback.value and points.attempts == 0
    assert points.check("20")
    share = FractionExercise("Which share?", Fraction(1, 4))
    assert share.check("25%")


def test_a_choice_exercise():
    ex = ChoiceExercise(
        QUESTION, ["A", Message("{name}, with {gems}", name="Bea", gems=Gems(12))], 1, explanation="B has more dangers."
    )
    assert not ex.check(None) and "Choose an option" in ex.feedback.value and ex.attempts == 0
    assert not ex.check(0) and "Not this one" in ex.feedback.value
    assert not ex.check(7) and ex.attempts == 1  # a forged index: refused, not counted
    ex.answer_widget.value = 1
    ex.check_button.click()
    assert ex.solved and "B has more dangers" in ex.feedback.value
    i18n.set_language("it")
    assert ex.answer_widget.options == (("A", 0), ("Bea, con 12 gemme", 1)) and ex.answer_widget.value == 1
    assert "Giusto" in ex.feedback.value
    i18n.set_language("en")


def test_a_choice_that_lands_after_check_is_the_one_judged(monkeypatch):
    clock = iter([100.0, 102.5, 200.0, 300.0])
    monkeypatch.setattr(exercises.time, "monotonic", lambda: next(clock))
    ex = ChoiceExercise(QUESTION, ["A", "B", "C"], 2)
    ex.answer_widget.value = 0
    ex.check_button.click()  # at 100 s, judged on A: the learner's C is still on its way
    assert "Not this one" in ex.feedback.value and ex.attempts == 1
    ex.answer_widget.value = 2  # C lands 2.5 s later: it is judged instead, one attempt in all
    assert ex.solved and ex.attempts == 1 and "Right" in ex.feedback.value
    ex.answer_widget.value = 1  # a later change takes the feedback about C away
    assert ex.feedback.value == "" and ex.solved
    ex.check_button.click()  # at 300 s: B, judged as it is
    assert "Not this one" in ex.feedback.value and ex.attempts == 2


@pytest.mark.parametrize(
    "make",
    [
        lambda: FractionExercise("", 1),
        lambda: FractionExercise({"it": "solo italiano"}, 1),
        lambda: FractionExercise("?", "abc"),
        lambda: FractionExercise("?", 1, tolerance=-1),
        lambda: FractionExercise("?", 1, hint=[""]),
        lambda: ChoiceExercise("?", ["only one"], 0),
        lambda: ChoiceExercise("?", ["a", "b"], 2),
        lambda: ChoiceExercise("?", ["a", "b"], True),
        lambda: FractionExercise({"en": "?", "fr": "?"}, 1),
    ],
)
def test_badly_written_exercises_are_refused(make):
    with pytest.raises(ValueError):
        make()


def test_a_click_on_check_after_the_box_sent_its_text_counts_once():
    ex = FractionExercise("How many cards?", 51)
    ex.answer_widget.value = "50"  # the box sends its text as it loses focus to the Check button...
    ex.check_button.click()  # ...and the click must not judge the same text again
    assert ex.attempts == 1 and "attempt 1" in ex.feedback.value
    ex.check_button.click()
    assert ex.attempts == 1
    ex.answer_widget.value = "52"
    ex.check_button.click()
    assert ex.attempts == 2 and "too high" in ex.feedback.value


def test_a_rounded_decimal_on_an_exact_question_is_close_not_wrong():
    ex = FractionExercise("Variance, exactly?", Fraction(1263, 64), exact=True)  # 19.734375
    assert not ex.check("19.73") and "exact fraction" in ex.feedback.value
    assert not ex.check("16.31") and "too low" in ex.feedback.value
    assert ex.check("1263/64")


def test_choice_buttons_sit_under_the_options():
    ex = ChoiceExercise("?", ["a", "b"], 0)
    rows = ex.widget.children
    assert ex.answer_widget in rows and any(ex.check_button in getattr(r, "children", ()) for r in rows)
