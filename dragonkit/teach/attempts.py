"""A lesson's exercises in the class's record: the lesson a page is, each exercise's key, the answers checked.

:func:`~dragonkit.teach.notes.lesson_page` opens the lesson's visit (:func:`open_lesson`: one per lesson kernel,
shared by the lesson's exercises); each exercise made on the page then takes its key (:func:`exercise_key`), and
writes every answer it judges (:func:`write_attempt`). An exercise's key is ``(lesson, exercise)``:

* ``lesson`` — the notebook's stem, the same in every language (``"02-the-next-card"``): its first two digits are the
  lesson's number;
* ``exercise`` — the exercise's number within its lesson, as decimal text (``"1"``, ``"2"``, …), in the order the
  page makes them: the same in every language, since the lessons' pages in each language run the same cells. An
  exercise made again (a cell run twice in JupyterLab) keeps its number: the number goes with the question's
  English text.

So a human label follows from the key alone: ``("02-the-next-card", "3")`` is lesson 2's third exercise. Outside a
lesson page (an exercise made before any :func:`~dragonkit.teach.notes.lesson_page`), and in a kernel without a
record, an exercise has no key and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import i18n
from ..record import AttemptRow, Visit, visit

__all__ = ["ANSWER_LENGTH", "ExerciseKey", "exercise_key", "open_lesson", "write_attempt"]

#: The longest answer kept (characters): the rest of a longer one is cut off.
ANSWER_LENGTH = 200


@dataclass(frozen=True)
class ExerciseKey:
    """Where an exercise's attempts go: the lesson's visit, the lesson's name and the exercise's number (see the
    module's notes)."""

    visit: Visit
    lesson: str
    exercise: str


@dataclass
class _Lesson:
    """The lesson this kernel's page is: its name, its visit, and its exercises' numbers by their English question."""

    name: str
    visit: Visit
    numbers: dict[str, int] = field(default_factory=dict)


_lesson: _Lesson | None = None


def open_lesson(name: str, lang: str) -> None:
    """The page is lesson ``name`` (a notebook's stem, ``"02-the-next-card"``), in ``lang``: its visit starts (and
    keeps the page seen while the kernel's event loop runs, :meth:`~dragonkit.record.Visit.keep_alive`). The same
    lesson opened again keeps its visit and its exercises' numbers; without a record, nothing happens.

    Raises
    ------
    ValueError
        If ``$DRAGONKIT_RECORD`` is not a database URL (:func:`dragonkit.record.visit`).
    """
    global _lesson
    if _lesson is not None and _lesson.name == name:
        return
    opened = visit(name, lang)
    if _lesson is not None:
        _lesson.visit.end()
    _lesson = _Lesson(name, opened) if opened.recording else None
    if _lesson is not None:
        opened.keep_alive()


def exercise_key(question: str) -> ExerciseKey | None:
    """The key of an exercise made now on the lesson's page, whose question in English is ``question``: the next
    number of the lesson, or the one that question had already; None outside a lesson page or without a record."""
    if _lesson is None:
        return None
    number = _lesson.numbers.setdefault(question, len(_lesson.numbers) + 1)
    return ExerciseKey(_lesson.visit, _lesson.name, str(number))


def write_attempt(key: ExerciseKey | None, answer: str, correct: bool, hints: int) -> None:
    """Queue an answer judged (right or wrong) for the exercise of ``key`` (nothing for None), in the language the
    page speaks now.

    Parameters
    ----------
    key : ExerciseKey or None
    answer : str
        As the learner gave it: the text typed (its first :data:`ANSWER_LENGTH` characters), or the chosen option's
        index (``"0"`` for the first).
    correct : bool
    hints : int
        The hints open when it was checked.
    """
    if key is None:
        return
    row = AttemptRow(key.lesson, key.exercise, answer[:ANSWER_LENGTH], correct, hints, i18n.get_language())
    key.visit.attempt(row)
