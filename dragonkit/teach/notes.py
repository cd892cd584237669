"""Teacher's notes (shown in Jupyter, absent from Voilà pages) and the language switch."""

from __future__ import annotations

import os

import ipywidgets as widgets
import traitlets

from .. import i18n

__all__ = ["in_voila", "language_picker", "teacher_notes"]


def in_voila(environ=os.environ) -> bool:
    """Whether this kernel runs a Voilà page (Voilà sets ``VOILA_BASE_URL`` for its
    kernels, preheated ones included)."""
    return "VOILA_BASE_URL" in environ


class TeacherNotes:
    """Markdown for the teacher, folded under a "Teacher's notes" summary in
    Jupyter; it displays nothing at all in Voilà, so students never receive it."""

    def __init__(self, markdown: str):
        self.markdown = markdown

    def _repr_mimebundle_(self, include=None, exclude=None):
        summary = "Teacher's notes: solutions and timing (hidden in Voilà)"
        return {
            "text/markdown": f"<details><summary><b>{summary}</b></summary>\n\n{self.markdown}\n\n</details>",
            "text/plain": f"{summary}\n\n{self.markdown}",
        }

    def _ipython_display_(self):
        """IPython's display hook: nothing at all in Voilà (not even a repr), the folded notes elsewhere."""
        if not in_voila():
            from IPython.display import display

            display(self._repr_mimebundle_(), raw=True)


def teacher_notes(markdown: str) -> TeacherNotes:
    """The solutions and classroom notes of a lesson, as a displayable object.

    Parameters
    ----------
    markdown : str
        The notes (Markdown, with ``$...$`` maths).

    Returns
    -------
    TeacherNotes
        Shown folded in Jupyter; shows nothing in a Voilà page (see :func:`in_voila`).
    """
    if not isinstance(markdown, str):
        raise TypeError(f"teacher notes are Markdown text, not {type(markdown).__name__}")
    return TeacherNotes(markdown)


def language_picker() -> widgets.ToggleButtons:
    """Buttons that switch every dragonkit widget of this kernel between English and
    Italian (:data:`dragonkit.i18n.settings`)."""
    picker = widgets.ToggleButtons(
        options=[(name, code) for code, name in i18n.LANGUAGES.items()],
        value=i18n.get_language(),
        tooltips=list(i18n.LANGUAGES.values()),
        style={"button_width": "80px"},
    )
    picker.add_class("dk-language")
    traitlets.link((picker, "value"), (i18n.settings, "language"))
    return picker
