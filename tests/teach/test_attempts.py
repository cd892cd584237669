"""A lesson's exercises in the class's record (dragonkit/teach/attempts.py): each answer judged, under the lesson's
name and the exercise's number, the same in every language; nothing outside a lesson's page or without a record."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dragonkit import i18n
from dragonkit.record import reading, session
from dragonkit.record.store import connect, upgrade
from dragonkit.teach import ChoiceExercise, FractionExercise, attempts, lesson_page

QUESTION = "What is the probability that the next card is a stop card?"
CHOICE = "Which is larger?"


@pytest.fixture(autouse=True)
def no_lesson(monkeypatch):
    """Each test starts on no lesson's page."""
    monkeypatch.setattr(attempts, "_lesson", None)


def _attempts(url: str):
    """The record's attempts, once this process's rows are written (none: an empty record)."""
    assert session.flush()
    engine = connect(url)
    upgrade(engine)
    return reading.attempts(engine)


def _exercises() -> tuple[FractionExercise, ChoiceExercise]:
    return (
        FractionExercise(QUESTION, Fraction(7, 44), hint=["Stops left.", "Over cards left."]),
        ChoiceExercise(CHOICE, ["Without replacement.", "With replacement."], answer=1),
    )


def test_each_answer_judged_is_written_with_its_lesson_exercise_and_hints(recording):
    lesson_page("02-the-next-card.ipynb", "en")
    number, choice = _exercises()
    assert (number.key.lesson, number.key.exercise, choice.key.exercise) == ("02-the-next-card", "1", "2")
    number.check(" 0.2 ")  # wrong
    number.show_hint()
    number.check("")  # no answer: not an attempt
    number.check("two")  # unreadable: not an attempt
    number.check("7/44")
    choice.check(0)
    choice.show_hint()  # no hint to show: none counted
    choice.check(1)
    rows = _attempts(recording)
    assert list(zip(rows.exercise, rows.answer, rows.correct, rows.hints, strict=True)) == [
        ("1", "0.2", False, 0),
        ("1", "7/44", True, 1),
        ("2", "0", False, 0),
        ("2", "1", True, 0),
    ]
    assert set(rows.lesson) == {"02-the-next-card"} and set(rows.language) == {"en"}
    assert set(rows.nickname) == {"Ada"} and set(rows.class_name) == {"3B"}
    visits = reading.present(connect(recording), "3B")
    assert list(visits.page) == ["02-the-next-card"]  # one visit for the lesson's exercises


def test_the_keys_are_the_same_in_italian_and_a_remade_exercise_keeps_its_number(recording):
    lesson_page("02-the-next-card.ipynb", "it")
    number, choice = _exercises()
    again = FractionExercise(QUESTION, Fraction(7, 44))  # the cell run again
    other = FractionExercise("How many cards are left?", 44)
    assert [e.key.exercise for e in (number, choice, again, other)] == ["1", "2", "1", "3"]
    choice.check(1)  # the option's index, not its Italian label
    number.check("0,159")  # as typed, in Italian
    rows = _attempts(recording)
    assert list(zip(rows.exercise, rows.answer, rows.correct, rows.language, strict=True)) == [
        ("2", "1", True, "it"),
        ("1", "0,159", True, "it"),
    ]
    lesson_page("02-the-next-card.ipynb", "it")  # the first cell run again: the same lesson, the same numbers
    assert FractionExercise(QUESTION, Fraction(7, 44)).key.exercise == "1"


def test_a_very_long_answer_is_cut(recording):
    lesson_page("02-the-next-card.ipynb", "en")
    number, _ = _exercises()
    typed = "7" + " " * 1000 + "/ 44"  # a forged message, say: the page's box never sends so much
    assert number.check(typed)
    assert list(_attempts(recording).answer) == [typed[: attempts.ANSWER_LENGTH]]


def test_no_key_outside_a_lesson_page_nor_without_a_record(recording, monkeypatch):
    outside, _ = _exercises()
    assert outside.key is None
    outside.check("7/44")
    monkeypatch.delenv("DRAGONKIT_RECORD")
    lesson_page("01-play-and-observe.ipynb", "en")
    unrecorded, _ = _exercises()
    assert unrecorded.key is None and unrecorded.check("7/44")
    assert _attempts(recording).empty


def test_a_page_that_leaves_for_another_language_opens_no_visit(recording, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "lang=it")
    page = lesson_page("02-the-next-card.ipynb", "en")
    assert page.redirect_html() is not None
    assert _exercises()[0].key is None
    i18n.set_language("en")
