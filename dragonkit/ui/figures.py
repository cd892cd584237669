"""A figure as the pages show it: the picture with its text alternative, and its numbers as a table.

The picture is a matplotlib figure, drawn here as a PNG, or an SVG its function has written already
(:func:`dragonkit.plots.game.gems_over_game`, an image with its text alternative as its name): the page shows either
the same way, with the same table under it.

Inside :func:`vector_figures` every figure shown is drawn as an SVG instead, and collected: that is how paper
(:mod:`dragonkit.paper`) prints a lesson widget's figures as the page draws them, sharp at any size.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ..i18n import tr
from ..plots.render import figure_png, figure_svg

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..plots.text import FigureText

__all__ = ["FigureView", "figure_html", "vector_figures"]

#: Where :func:`vector_figures` collects the figures shown, by view (None: figures are drawn as PNG, not collected).
_COLLECTED: ContextVar[dict[int, tuple[str, FigureText]] | None] = ContextVar("collected", default=None)


@contextmanager
def vector_figures() -> Iterator[list[tuple[str, FigureText]]]:
    """Draw every figure a :class:`FigureView` shows in the ``with`` block as an SVG (its words as text, named by its
    text alternative), and collect them.

    Yields
    ------
    list of (str, FigureText)
        Filled when the block ends: each view's last figure, as an ``<svg>`` element, with its text; in the order
        the views first showed one (a widget that draws twice while it is built gives its last drawing).
    """
    collected: dict[int, tuple[str, FigureText]] = {}
    token = _COLLECTED.set(collected)
    figures: list[tuple[str, FigureText]] = []
    try:
        yield figures
    finally:
        _COLLECTED.reset(token)
        figures.extend(collected.values())


def figure_html(picture: bytes | str, text: FigureText, width: str = "740px", lang: str | None = None) -> str:
    """HTML for a figure: the picture with the figure's text alternative as its name, and, folded under it,
    a table of its key numbers (a screen reader, or anyone, can read them).

    Parameters
    ----------
    picture : bytes or str
        A PNG (:func:`dragonkit.plots.render.figure_png`), shown as an ``<img>`` whose ``alt`` is ``text.alt``;
        or an SVG element, shown as it is: it names itself (``role="img"`` and an ``aria-label``, as
        :func:`dragonkit.plots.game.gems_over_game` writes it).
    text : FigureText
        Its text alternative and table, written from the figure's data.
    width : str
        The picture's CSS width (it never grows wider than the page).
    lang : str, optional
        The language of the table's summary line (default: the current language).
    """
    style = f"width: {escape(width, quote=True)}; max-width: 100%"
    if isinstance(picture, str):
        image = f'<div class="dk-svg" style="{style}">{picture}</div>'
    else:
        data = base64.b64encode(picture).decode("ascii")
        image = (
            f'<img src="data:image/png;base64,{data}" alt="{escape(text.alt, quote=True)}" '
            f'style="{style}; height: auto">'
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

    def show(self, fig: Figure | str, text: FigureText, lang: str | None = None) -> None:
        """Draw ``fig`` (its tick labels in ``lang``) with ``text`` under it.

        Parameters
        ----------
        fig : matplotlib.figure.Figure or str
            A matplotlib figure, drawn as a PNG; or an SVG element, drawn already in ``lang``.
        text : FigureText
            Written from the same data as ``fig``.
        lang : str, optional
            Default: the current language.
        """
        collected = _COLLECTED.get()
        if collected is None:
            picture = fig if isinstance(fig, str) else figure_png(fig, lang)  # matplotlib loads with a PNG to draw
        else:
            picture = fig if isinstance(fig, str) else figure_svg(fig, text.alt, lang)
            collected[id(self)] = (picture, text)
        self.value = figure_html(picture, text, self.width, lang)
