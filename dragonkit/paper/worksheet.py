"""A lesson's worksheet: its exercises with room to write, the text they refer to and the figures a student needs.

The sheet follows the lesson's notebook (:mod:`dragonkit.paper.lesson`): every section with an exercise in it is
printed, its opening Markdown cell first (the situation the exercises refer to), then its exercises, numbered
through the lesson, each with ruled lines to work on (and a line for the answer) or, for a choice, a box to tick
before each option.  What a lesson adds is said once, in :data:`SHEETS`: the sections without exercises worth
printing too (the situation of lesson 3, the deck of lesson 4), and the widgets whose figures go on the sheet, as
the page draws them, where the widget stands in the lesson (on the first printed section after it).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..i18n import tr
from ..i18n.notebooks import translate_markdown
from ..lessons.base import edition_label
from ..teach.exercises import ChoiceExercise, FractionExercise
from .document import Document, heading_html, lines_html, who_html
from .lesson import Lesson
from .markdown import markdown_html

__all__ = ["SHEETS", "Sheet", "exercise_html", "worksheet"]


@dataclass(frozen=True)
class Sheet:
    """What a lesson's worksheet prints besides the sections with exercises.

    Attributes
    ----------
    sections : tuple of str
        Sections without exercises printed too, by their English heading (``The game in one minute``).
    figures : tuple of str
        The widgets whose figures are printed, by the name their cell calls (``ChainLab``); where a lesson calls
        one twice, its first cell.
    """

    sections: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()


#: Each lesson's :class:`Sheet`, by its notebook's file name (a lesson missing here prints its exercises' sections).
SHEETS = {
    "01-play-and-observe.ipynb": Sheet(sections=("The game in one minute",), figures=("DeckView",)),
    "02-the-next-card.ipynb": Sheet(sections=("Counting the deck",)),
    "03-one-more-card.ipynb": Sheet(sections=("The expected value of one more card",)),
    "04-absorbing-chain.ipynb": Sheet(sections=("From a turn to a chain",), figures=("ChainLab",)),
    "05-optimal-stopping.ipynb": Sheet(figures=("InductionStepper", "ThresholdExplorer")),
    "06-risk.ipynb": Sheet(figures=("OutcomeExplorer",)),
    "07-takeover-market.ipynb": Sheet(figures=("TakeoverExplorer",)),
    "08-simulation.ipynb": Sheet(figures=("error_shrinkage",)),
    "09-editions.ipynb": Sheet(figures=("EditionComparison",)),
    "10-gems-or-wins.ipynb": Sheet(figures=("pig_policy_chart", "CoachMap", "HeadToHead")),
}

#: Ruled lines under a question whose answer is a number, and under a choice (to say why).
WORKING_LINES, WHY_LINES = 5, 2


def exercise_html(number: int, exercise: FractionExercise | ChoiceExercise, lang: str) -> str:
    """One exercise on a worksheet: its number and question, then ruled lines and an answer line (a number),
    or the options, each with a box to tick and a letter, and two lines to say why (a choice)."""
    question = (
        f'<div class="dk-question"><span class="dk-number">{number}.</span>'
        f"<div>{exercise.question_text(lang)}</div></div>"
    )
    if isinstance(exercise, ChoiceExercise):
        options = "".join(
            f'<li><span class="dk-box"></span><span class="dk-letter">{chr(65 + i)}</span><span>{text}</span></li>'
            for i, text in enumerate(exercise.option_texts(lang))
        )
        room = f'<ul class="dk-options">{options}</ul>' + lines_html(WHY_LINES)
    else:
        room = lines_html(WORKING_LINES) + f'<p class="dk-answer">{escape(tr("Answer", lang))}: <span></span></p>'
    return f'<section class="dk-exercise">{question}{room}</section>'


def worksheet(lesson: Lesson, lang: str) -> Document:
    """The worksheet of ``lesson`` in ``lang``: its title, lines for the student's name, class and date, then its
    sections with exercises (and those of :data:`SHEETS`), their figures and their exercises with room to write."""
    sheet = SHEETS.get(lesson.path.name, Sheet())
    title, kind = tr(lesson.title, lang), tr("Worksheet", lang)
    parts = [heading_html(f"{edition_label('dragon-stripes')} · {kind}", title), who_html(lang)]
    number, drawn = 0, set[str]()
    waiting: list[str] = []  # figures drawn by a widget whose section is not printed: on the next one printed
    for section in lesson.sections:
        for cell in section.cells:
            if cell.call in sheet.figures and cell.call not in drawn:
                drawn.add(cell.call)
                waiting += [f"<figure>{svg}</figure>" for svg, _text in lesson.figures(cell, lang)]
        if not section.exercises and section.heading not in sheet.sections:
            continue
        parts.append(markdown_html(translate_markdown(section.markdown, lang)))
        parts += waiting
        waiting = []
        for exercise in section.exercises:
            number += 1
            parts.append(exercise_html(number, exercise, lang))
    return Document(name=f"{lesson.path.stem}-worksheet", lang=lang, title=title, body="".join(parts), kind=kind)
