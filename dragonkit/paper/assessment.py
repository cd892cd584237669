"""The assessment on paper: the students' sheet (the test and the problem, with room to write) and the teacher's
(the solutions worked out and the marking grid), from :mod:`dragonkit.teach.assessment`."""

from __future__ import annotations

import dataclasses

from ..i18n import tr
from ..teach.assessment import Item, assessment_markdown
from .document import Document, lines_html, markdown_document, who_html

__all__ = ["LINES_PER_POINT", "assessment_sheet"]

#: Ruled lines under a question, for each of its points (and two more).
LINES_PER_POINT = 2


def _room(item: Item) -> str:
    return lines_html(2 + LINES_PER_POINT * item.points)


def assessment_sheet(lang: str, teacher: bool = False) -> Document:
    """The assessment in ``lang``: the students' sheet (their name, class and date; each question with ruled lines
    in proportion to its points) or, with ``teacher``, the solutions and the marking grid.

    Raises
    ------
    ValueError
        For a language the kit does not speak.
    """
    markdown = assessment_markdown(lang, teacher=teacher, room=None if teacher else _room)
    title, _, body = markdown.partition("\n")  # "# <title>", then the rest
    name = "assessment-solutions" if teacher else "assessment"
    document = markdown_document(name, lang, title.lstrip("# "), body, kind=tr("Assessment", lang))
    if teacher:
        return document
    return dataclasses.replace(document, body=_after_heading(document.body, who_html(lang)))


def _after_heading(body: str, html: str) -> str:
    """``body`` with ``html`` right after its title (the first ``</h1>``)."""
    head, _, rest = body.partition("</h1>")
    return f"{head}</h1>{html}{rest}"
