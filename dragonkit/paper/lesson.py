"""A lesson as paper reads it: its English notebook, cut into sections, with its exercises, figures and notes.

Nothing of a lesson is written again for paper.  The lesson's first code cell (its imports, its ``answers()`` and
its page) runs as in a kernel; then each exercise's cell is evaluated as the page evaluates it, which gives the
very :class:`~dragonkit.teach.FractionExercise` or :class:`~dragonkit.teach.ChoiceExercise` the page shows, texts
with fields (a :class:`~dragonkit.rules.Message`) and answers included; it is closed at once (it follows no
language) and asked for its texts in any language from the catalogs, as the page asks.  The teacher's notes are
the Markdown given to ``teacher_notes`` (translated block by block with
:func:`~dragonkit.i18n.notebooks.translate_markdown`, as Jupyter shows them), and a lesson widget's figures are
drawn by the widget itself, built from its cell in the language asked for, as SVG
(:func:`~dragonkit.ui.figures.vector_figures`).
"""

from __future__ import annotations

import ast
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import i18n
from ..i18n.notebooks import TEXT_CALLS
from ..plots.text import FigureText
from ..teach import teacher_notes
from ..teach.exercises import ChoiceExercise, FractionExercise
from ..ui.figures import vector_figures

__all__ = ["Cell", "Lesson", "Section", "read_lesson"]

#: The calls whose cells are exercises (the texts of :data:`~dragonkit.i18n.notebooks.TEXT_CALLS` but the notes).
EXERCISE_CALLS = tuple(name for name in TEXT_CALLS if name != teacher_notes.__name__)


@dataclass(frozen=True)
class Cell:
    """A code cell of a lesson after its first: an exercise, or a cell that shows something (a widget).

    Attributes
    ----------
    exercise : FractionExercise, ChoiceExercise or None
        An exercise's cell, evaluated (and closed).
    call : str or None
        For another cell that is one call (``ChainLab(threshold=4)``), the name it calls (``ChainLab``).
    code : str
        That cell's source, which :meth:`Lesson.figures` evaluates.
    """

    exercise: FractionExercise | ChoiceExercise | None = None
    call: str | None = None
    code: str = ""


@dataclass(frozen=True)
class Section:
    """A section of a lesson: a Markdown cell that opens with a heading, and the code cells up to the next one.

    Attributes
    ----------
    heading : str
        The heading's English text, without its ``#`` (``Exercises: one more card``).
    markdown : str
        The heading's cell, in English.
    cells : tuple of Cell
        The code cells after it, in order (the teacher's notes apart).
    """

    heading: str
    markdown: str
    cells: tuple[Cell, ...]

    @property
    def exercises(self) -> list[FractionExercise | ChoiceExercise]:
        """The section's exercises, in order."""
        return [cell.exercise for cell in self.cells if cell.exercise is not None]


@dataclass
class Lesson:
    """A lesson notebook, read.

    Attributes
    ----------
    path : Path
        Its English notebook (``notebooks/03-one-more-card.ipynb``).
    title : str
        Its English title, a msgid (``Lesson 3 — One more card?``).
    opening : str
        Its first Markdown cell in English without its title: what it is about, its learning goals, time and
        prerequisites.
    sections : list of Section
        Its sections, in order.
    notes : str
        Its teacher's notes (English Markdown).
    """

    path: Path
    title: str
    opening: str
    sections: list[Section]
    notes: str
    _namespace: dict[str, Any] = field(repr=False)

    @property
    def exercises(self) -> list[FractionExercise | ChoiceExercise]:
        """Every exercise of the lesson, in order (the numbering of its worksheet)."""
        return [exercise for section in self.sections for exercise in section.exercises]

    def figures(self, cell: Cell, lang: str) -> list[tuple[str, FigureText]]:
        """The figures the widget of ``cell`` draws when it is built in ``lang``, as SVG with their texts.

        The widget is built from the cell's code, as the lesson's page builds it, drawn with the kit's language set
        to ``lang``, and closed; the language is set back afterwards.  What it would print (a progress bar) is
        dropped: it is built for paper.

        Raises
        ------
        ValueError
            For a cell that is no call.
        """
        if cell.call is None:
            raise ValueError("only a cell that calls a widget draws figures")
        before = i18n.get_language()
        i18n.set_language(lang)
        try:
            quiet = io.StringIO()
            with vector_figures() as figures, redirect_stdout(quiet), redirect_stderr(quiet):
                widget = eval(compile(cell.code, str(self.path), "eval"), self._namespace)
            widget.close()
        finally:
            i18n.set_language(before)
        return figures


def _called(source: str) -> str | None:
    """The name a code cell calls (``ChainLab`` for ``ChainLab(threshold=4)``), if it is one call of a name."""
    body = ast.parse(source).body
    if len(body) == 1 and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            return value.func.id
    return None


def read_lesson(path: Path) -> Lesson:
    """Read the English lesson notebook ``path``: run its first code cell, evaluate its exercises and teacher's notes.

    The kit's language is set back to what it was after the first cell (``lesson_page(..., "en")`` sets it).

    Raises
    ------
    ValueError
        For a notebook that is not built like a lesson (a title cell first, a code cell next, one ``teacher_notes``).
    """
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cells = [(cell["cell_type"], "".join(cell["source"])) for cell in notebook["cells"]]
    if len(cells) < 2 or cells[0][0] != "markdown" or cells[1][0] != "code":
        raise ValueError(f"{path.name}: a lesson opens with its title's Markdown cell, then its first code cell")
    title_line, _, opening = cells[0][1].partition("\n")
    namespace: dict[str, Any] = {}
    before = i18n.get_language()
    try:
        exec(compile(cells[1][1], str(path), "exec"), namespace)
    finally:
        i18n.set_language(before)
    sections: list[Section] = []
    heading, markdown, inside, notes = "", "", list[Cell](), None
    for kind, source in cells[2:]:
        if kind == "markdown" and source.startswith("#"):
            if heading:
                sections.append(Section(heading, markdown, tuple(inside)))
            heading, markdown, inside = source.partition("\n")[0].lstrip("#").strip(), source, []
        elif kind == "markdown":
            continue  # a section's prose after its opening cell: the pages' own, not paper's
        elif (call := _called(source)) in (*EXERCISE_CALLS, teacher_notes.__name__):
            made = eval(compile(source.strip(), str(path), "eval"), namespace)
            if call == teacher_notes.__name__:
                notes = made.markdown
            else:
                made.close()  # it follows no language: paper asks it for its texts in each
                inside.append(Cell(exercise=made))
        else:
            inside.append(Cell(call=call, code=source.strip()))
    if heading:
        sections.append(Section(heading, markdown, tuple(inside)))
    if notes is None:
        raise ValueError(f"{path.name}: a lesson ends with its teacher_notes(...)")
    return Lesson(
        path=path,
        title=notebook["metadata"].get("title") or title_line.lstrip("#").strip(),
        opening=opening.strip(),
        sections=sections,
        notes=notes,
        _namespace=namespace,
    )
