"""A figure as the pages show it: the picture with its text alternative, and its numbers as a table."""

from __future__ import annotations

import base64
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ..i18n import tr

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..plots.text import FigureText

__all__ = ["FigureView", "figure_html"]


def figure_html(png: bytes, text: FigureText, width: str = "740px", lang: str | None = None) -> str:
    """HTML for a figure: an ``<img>`` whose ``alt`` is the figure's text alternative, and, folded under it,
    a table of its key numbers (a screen reader, or anyone, can read them).

    Parameters
    ----------
    png : bytes
        The picture (:func:`dragonkit.plots.figure_png`).
    text : FigureText
        Its text alternative and table, written from the figure's data.
    width : str
        The picture's CSS width (it never grows wider than the page).
    lang : str, optional
        The language of the table's summary line (default: the current language).
    """
    data = base64.b64encode(png).decode("ascii")
    image = (
        f'<img src="data:image/png;base64,{data}" alt="{escape(text.alt, quote=True)}" '
        f'style="width: {escape(width, quote=True)}; max-width: 100%; height: auto">'
    )
    if not text.rows:
        return f'<figure class="dk-figure">{image}</figure>'
    header = "".join(f'<th scope="col">{escape(c)}</th>' for c in text.columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in text.rows)
    table = f'<table class="dk-values"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'
    summary = escape(tr("The figure's numbers", lang))
    return f'<figure class="dk-figure">{image}<details><summary>{summary}</summary>{table}</details></figure>'


class FigureView(widgets.HTML):
    """A widget that shows a figure with its text alternative and its numbers (:func:`figure_html`).

    Parameters
    ----------
    width : str
        The picture's CSS width.
    """

    def __init__(self, width: str = "740px", **kwargs: object):
        super().__init__(**kwargs)
        self.width = width

    def show(self, fig: Figure, text: FigureText, lang: str | None = None) -> None:
        """Draw ``fig`` (its tick labels in ``lang``) with ``text`` under it.

        Parameters
        ----------
        fig : matplotlib.figure.Figure
        text : FigureText
            Written from the same data as ``fig``.
        lang : str, optional
            Default: the current language.
        """
        from ..plots import figure_png  # matplotlib loads with the first figure, not with the pages

        self.value = figure_html(figure_png(fig, lang), text, self.width, lang)
