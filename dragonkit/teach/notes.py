"""Teacher's notes (shown in Jupyter, absent from Voilà pages), a lesson's languages, the apps' language switch, and
the mark of the page's view (the projector)."""

from __future__ import annotations

import contextlib
import json
import os
import re
from html import escape

import ipywidgets as widgets
import traitlets

from .. import i18n, view
from ..i18n.notebooks import translate_markdown, translation_path
from ..style import CSS, PROJECTOR_CLASS, page_script
from .attempts import open_lesson

__all__ = [
    "LanguageSwitch",
    "LessonPage",
    "close_widgets",
    "in_voila",
    "language_picker",
    "lesson_page",
    "mark_view",
    "teacher_notes",
]


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
        """The notes in the kernel's language, block by block from the catalogs (:mod:`dragonkit.i18n.notebooks`)."""
        summary = i18n.tr("Teacher's notes: solutions and timing (hidden in Voilà)")
        markdown = translate_markdown(self.markdown, i18n.get_language())
        return {
            "text/markdown": f"<details><summary><b>{summary}</b></summary>\n\n{markdown}\n\n</details>",
            "text/plain": f"{summary}\n\n{markdown}",
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
        The notes in English (Markdown, with ``$...$`` maths); shown in the kernel's language, each block
        translated through the catalogs (``pybabel extract`` finds them in the notebook).

    Returns
    -------
    TeacherNotes
        Shown folded in Jupyter; shows nothing in a Voilà page (see :func:`in_voila`).
    """
    if not isinstance(markdown, str):
        raise TypeError(f"teacher notes are Markdown text, not {type(markdown).__name__}")
    return TeacherNotes(markdown)


def close_widgets(root: widgets.Widget) -> None:
    """Close ``root`` and every widget under it (the ``children`` of a container, and theirs).

    A kernel keeps a widget, and what it observes, until the widget is closed; a widget whose ``close`` does more
    (stops following the language) does it here too.
    """
    stack = [root]
    while stack:
        widget = stack.pop()
        stack.extend(getattr(widget, "children", ()))
        widget.close()


class LanguageSwitch(widgets.ToggleButtons):
    """Buttons that switch every dragonkit widget of this kernel between English and Italian: their value is linked
    to :data:`dragonkit.i18n.settings`'s language until the buttons are closed."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            options=[(name, code) for code, name in i18n.LANGUAGES.items()],
            value=i18n.get_language(),
            tooltips=list(i18n.LANGUAGES.values()),
            style={"button_width": "80px"},
            **kwargs,
        )
        self.add_class("dk-language")
        self._link: traitlets.link | None = traitlets.link((self, "value"), (i18n.settings, "language"))

    def close(self) -> None:
        """Stop switching the language (the link's observer on the language setting goes), and close the buttons;
        closing twice is harmless."""
        link, self._link = getattr(self, "_link", None), None
        if link is not None:
            with contextlib.suppress(ValueError):  # an observer removed already: nothing left to stop
                link.unlink()
        super().close()


def mark_view(widget: widgets.DOMWidget) -> None:
    """Mark ``widget`` with the kernel's view (:data:`dragonkit.view.settings`): on the projector, the class
    :data:`~dragonkit.style.PROJECTOR_CLASS`, whose presence draws the whole page for the projector (the stylesheet's
    rules); on a screen, none."""
    if view.settings.projector:
        widget.add_class(PROJECTOR_CLASS)
    else:
        widget.remove_class(PROJECTOR_CLASS)


def language_picker() -> LanguageSwitch:
    """Buttons that switch every dragonkit widget of this kernel between English and
    Italian (:data:`dragonkit.i18n.settings`), until they are closed."""
    return LanguageSwitch()


#: A lesson's file name, as ``lesson_page`` takes it (the glossary is a page of the lessons too).
_LESSON_FILE = re.compile(r"^([0-9]{2}-[a-z0-9-]+|glossary)\.ipynb$")

#: The glossary's page, beside the lessons in every language (:mod:`dragonkit.teach.glossary`).
GLOSSARY = "glossary.ipynb"


def _in_view(path: str) -> str:
    """A link to ``path`` from this page, in the projector's view if this page is in it."""
    return f"{path}?view={view.PROJECTOR}" if view.settings.projector else path


class LessonPage:
    """A lesson's language links, and the way to its page in the language a visitor asked for.

    Displayed, it is a navigation list of the lesson in every language of the kit
    (links to the same file in ``notebooks/`` for English and ``notebooks/<lang>/``
    for the others, the page's own language marked current).  In a Voilà page
    opened with ``?lang=`` naming another language, it also sends the browser to
    that language's page (the prose of a lesson is written per language; see
    :mod:`dragonkit.i18n.notebooks`); ``dragonkit serve`` sends it there before the
    page's kernel starts, and this is for Voilà served otherwise.  On the projector (``?view=projector``) the
    links carry the view, and mark the page for it (:func:`mark_view`).
    """

    def __init__(self, notebook: str, lang: str, requested: str | None):
        self.notebook, self.lang, self.requested = notebook, lang, requested
        # a widget, not an output: the page's renderer would open an output's links in a new tab
        self.links = widgets.HTML(self.links_html())
        mark_view(self.links)

    def path(self, lang: str) -> str:
        """The relative path of this lesson in ``lang``, from this page."""
        return translation_path(self.notebook, self.lang, lang)

    def href(self, lang: str) -> str:
        """The link to this lesson in ``lang``, from this page: its :meth:`path`, in the projector's view if this page
        is in it."""
        return _in_view(self.path(lang))

    def links_html(self) -> str:
        """The navigation list: a link to the lesson in each other language, this page's marked current, and a
        link to the glossary in the page's language (on every page but the glossary's own)."""
        items = []
        for code, name in i18n.LANGUAGES.items():
            if code == self.lang:
                items.append(f'<li><span aria-current="page" lang="{code}">{escape(name)}</span></li>')
            else:
                href = escape(self.href(code), quote=True)
                items.append(f'<li><a href="{href}" hreflang="{code}" lang="{code}">{escape(name)}</a></li>')
        label = escape(i18n.tr("Language", self.lang), quote=True)
        glossary = ""
        if self.notebook != GLOSSARY:
            name = escape(i18n.tr("Glossary", self.lang))
            href = escape(_in_view(GLOSSARY), quote=True)
            glossary = f'<p class="dk-glossary-link"><a href="{href}">{name}</a></p>'
        return f'{CSS}<nav class="dk-languages" aria-label="{label}"><ul>{"".join(items)}</ul></nav>{glossary}'

    def redirect_html(self) -> str | None:
        """The script that sends the browser to the language the page's address asked for, if another."""
        if not self.requested or self.requested == self.lang:
            return None
        target = json.dumps(self.path(self.requested))  # the address's own query follows
        return f"<script>window.location.replace({target} + window.location.search);</script>"

    def _ipython_display_(self) -> None:
        """IPython's display hook: the scripts first (:func:`dragonkit.style.page_script`, and the redirection to
        the language asked for, if any), then the links."""
        from IPython.display import HTML, display

        redirect = self.redirect_html()
        display(HTML(page_script(self.lang) + (redirect or "")))  # an output, where a script runs
        display(self.links)


def lesson_page(notebook: str, lang: str) -> LessonPage:
    """Start a lesson page written in ``lang``: the kernel's widgets speak it, and the page shows
    links to the lesson in the other languages.

    Parameters
    ----------
    notebook : str
        The lesson's file name, the same in every language (``"03-one-more-card.ipynb"``).
    lang : str
        The language the page's prose is written in (the English lessons say ``"en"``;
        :func:`dragonkit.i18n.notebooks.translate_notebook` writes the others).

    Returns
    -------
    LessonPage
        The language links; in a Voilà page opened with ``?lang=`` naming another
        language, they send the browser to that language's page.

    Notes
    -----
    A page that stays opens the lesson's visit to the class's record, where the kernel has one: its exercises'
    answers go there (:mod:`dragonkit.teach.attempts`).

    Raises
    ------
    ValueError
        For a language the kit does not speak, or a file name that is not a lesson's (``NN-name.ipynb``).
    """
    if not _LESSON_FILE.match(notebook):
        raise ValueError(f"a lesson's file name looks like 03-one-more-card.ipynb, not {notebook!r}")
    i18n.set_language(lang)
    page = LessonPage(notebook, lang, i18n.requested_language())
    if page.redirect_html() is None:  # the page stays: its visit and its exercises' answers go to the class's record
        open_lesson(notebook.removesuffix(".ipynb"), lang)
    return page
