"""A lesson's teacher's guide: its goals, time and prerequisites, the answers to its worksheet, and its notes.

Everything comes from the lesson's notebook (:mod:`dragonkit.paper.lesson`), translated as the pages are: the
opening of its first cell (what the lesson is about, the learning goals, the time, the prerequisites), the answer
of each exercise numbered as on the worksheet, with the explanation and the hints the page gives (on paper the
teacher gives them), and the teacher's notes: the solutions with their derivations, the plan minute by minute and
the classroom tips.
"""

from __future__ import annotations

from html import escape

from ..i18n import tr
from ..i18n.notebooks import translate_markdown
from ..lessons.base import edition_label
from ..teach.exercises import ChoiceExercise, FractionExercise
from .document import Document, heading_html
from .lesson import Lesson
from .markdown import markdown_html

__all__ = ["answer_html", "teacher_guide"]


def answer_html(number: int, exercise: FractionExercise | ChoiceExercise, lang: str) -> str:
    """A row of the answers' table: the exercise's number, its answer (a choice's letter too), the explanation
    and the hints."""
    answer = exercise.answer_text(lang)  # HTML, as the page shows it
    if isinstance(exercise, ChoiceExercise):
        answer = f"{chr(65 + exercise.answer)}: {answer}"
    explanation = exercise.explanation_text(lang)
    hints = "".join(f"<li>{hint}</li>" for hint in exercise.hint_texts(lang))
    return (
        f"<tr><td>{number}</td><td><b>{answer}</b>"
        + (f"<br>{explanation}" if explanation else "")
        + (f'<ul class="dk-hints">{hints}</ul>' if hints else "")
        + "</td></tr>"
    )


def teacher_guide(lesson: Lesson, lang: str) -> Document:
    """The teacher's guide of ``lesson`` in ``lang``."""
    title, kind = tr(lesson.title, lang), tr("Teacher's guide", lang)
    answers, notes = tr("The answers of the worksheet", lang), tr("Teacher's notes", lang)
    rows = "".join(answer_html(number, exercise, lang) for number, exercise in enumerate(lesson.exercises, start=1))
    body = (
        heading_html(f"{edition_label('dragon-stripes')} · {kind}", title)
        + markdown_html(translate_markdown(lesson.opening, lang))
        + f"<h2>{escape(answers)}</h2>"
        + f'<table class="dk-key"><tbody>{rows}</tbody></table>'
        + f"<h2>{escape(notes)}</h2>"
        + markdown_html(translate_markdown(lesson.notes, lang))
    )
    return Document(name=f"{lesson.path.stem}-teacher-guide", lang=lang, title=title, body=body, kind=kind)
