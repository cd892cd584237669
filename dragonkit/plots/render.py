"""The figures as PNG (the pages) or SVG (paper), their tick labels written as the language writes numbers
(``0.5`` / ``0,5``)."""

from __future__ import annotations

import io
import re
from html import escape
from typing import TYPE_CHECKING

from ..view import zoom

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["figure_png", "figure_svg", "localize_ticks"]


def figure_png(fig: Figure, lang: str | None = None) -> bytes:
    """The figure rendered as PNG bytes, its tick labels written in ``lang`` (default: the current language).

    Every axis whose labels come from matplotlib's default :class:`~matplotlib.ticker.ScalarFormatter`
    (colour bars included) writes them as the language does (``0.5`` / ``0,5``, ``2,000`` / ``2.000``,
    :func:`number_label`); log, category and fixed labels are left as they are.  The picture has as many more
    pixels as the kernel's view draws the page larger (:func:`dragonkit.view.zoom`: twice as many each way on the
    projector), so that it stays sharp there; the page shows it at the same size.
    """
    localize_ticks(fig, lang)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=fig.dpi * zoom())
    return buffer.getvalue()


def figure_svg(fig: Figure, alt: str, lang: str | None = None) -> str:
    """The figure as an ``<svg>`` element to put in an HTML page, its tick labels written in ``lang`` (default: the
    current language), its words kept as text (selectable, read by a screen reader, crisp at any size), and named
    by ``alt``, its text alternative (``role="img"`` and an ``aria-label``).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    alt : str
        The figure's text alternative (:attr:`~dragonkit.plots.text.FigureText.alt`).
    lang : str, optional
        Default: the current language.
    """
    from matplotlib import rc_context

    localize_ticks(fig, lang)
    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "dragonkit"}):
        fig.savefig(buffer, format="svg")
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]  # without the XML declaration and the doctype, which HTML does not take
    return re.sub(r"^<svg ", f'<svg role="img" aria-label="{escape(alt, quote=True)}" ', svg, count=1)


def localize_ticks(fig: Figure, lang: str | None = None) -> None:
    """Have every axis of ``fig`` labelled by a :class:`~matplotlib.ticker.ScalarFormatter` (the default
    for numbers) write its tick labels in ``lang`` (default: the language when the figure is drawn).

    Log axes, category axes and labels given explicitly keep their formatters; an axis already
    localized (shared with another) is left alone.
    """
    from matplotlib.ticker import ScalarFormatter

    from .ticks import LanguageFormatter

    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            major, minor = axis.get_major_formatter(), axis.get_minor_formatter()
            if isinstance(major, ScalarFormatter):
                axis.set_major_formatter(LanguageFormatter(major, lang))
            if isinstance(minor, ScalarFormatter):
                axis.set_minor_formatter(LanguageFormatter(minor, lang))
