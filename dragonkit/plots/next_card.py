"""Figures of lesson 2, *The next card*: the deck by kind of card, and the chance that the
next ``k`` cards are all footprints, exact and by scipy."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import palette
from ..i18n import ntr, tr
from ..i18n.numbers import decimal_text, integer_text
from ..rules import Card, Composition
from ..topics.deck import enders_left, footprints_left, run_table
from .text import FigureText

__all__ = ["COLOURS", "composition_figure", "composition_figure_text", "explorer_figure", "explorer_figure_text"]

#: Bar colours by kind of card.
COLOURS = palette.CARD


def _draw_composition(ax: Axes, composition: Composition, full: Composition) -> None:
    """Bars of the cards left by kind, the discarded ones stacked above in outline,
    each bar labelled ``count/total``: the chance that the next card is of its kind."""
    total = composition.total
    kinds = list(full.counts())
    x = range(len(kinds))
    left = [composition.count(card) for card, _ in kinds]
    gone = [count - composition.count(card) for card, count in kinds]
    colours = [COLOURS[card.kind] for card, _ in kinds]
    ax.bar(x, left, color=colours, label=tr("left in the deck"))
    if any(gone):
        ax.bar(x, gone, bottom=left, color="white", edgecolor=colours, hatch="//", linewidth=1, label=tr("discarded"))
        ax.legend(fontsize="small", loc="upper right", frameon=False)
        ax.set_title(tr("The deck: {left} of {total} cards left", left=total, total=full.total))
    else:
        ax.set_title(tr("The deck: {total} cards", total=total))
    for i, (count, extra) in enumerate(zip(left, gone)):
        if total:
            ax.annotate(
                f"{count}/{total}",
                (i, count + extra),
                textcoords="offset points",
                xytext=(0, 3),
                ha="center",
                fontsize=9,
            )
    ax.set_xticks(list(x), [card.describe() for card, _ in kinds], fontsize=9)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, max(count for _, count in kinds) * 1.18)
    ax.set_ylabel(tr("cards"))
    ax.set_xlabel(tr("above each bar: P(the next card is of that kind)"), fontsize=9)


def composition_figure(composition: Composition, full: Composition | None = None) -> Figure:
    """The deck by kind of card (one bar each), with the exact chance of each kind
    as the next card written on its bar.

    Parameters
    ----------
    composition : Composition
        The cards left.
    full : Composition, optional
        The full deck (default ``composition`` itself): the difference is drawn as discards.

    Returns
    -------
    matplotlib.figure.Figure
        x: kind of card; y: cards.
    """
    fig = Figure(figsize=(6.0, 3.2), dpi=100, layout="constrained")
    _draw_composition(fig.subplots(), composition, full or composition)
    return fig


def _deck_sentence(composition: Composition, full: Composition, lang: str | None) -> str:
    """The bars of :func:`_draw_composition` in words: the cards left, by kind (footprints by steps)."""
    detail = ", ".join(
        f"{Card.footprint(steps).describe(lang)} ×{integer_text(n, lang)}" for steps, n in composition.footprints
    )
    f, s, d = footprints_left(composition), composition.stops, composition.dangers
    fields = {
        "footprints": ntr("{n} footprint", "{n} footprints", f, lang, n=integer_text(f, lang)),
        "detail": detail,
        "stops": ntr("{n} stop", "{n} stops", s, lang, n=integer_text(s, lang)),
        "dangers": ntr("{n} danger", "{n} dangers", d, lang, n=integer_text(d, lang)),
    }
    if composition == full:
        return tr(
            "The deck: {total} cards: {footprints} ({detail}), {stops}, {dangers}.",
            lang,
            total=integer_text(full.total, lang),
            **fields,
        )
    return tr(
        "The deck: {left} of {total} cards left: {footprints} ({detail}), {stops}, {dangers}.",
        lang,
        left=integer_text(composition.total, lang),
        total=integer_text(full.total, lang),
        **fields,
    )


def _chance(count: int, total: int, lang: str | None) -> str:
    """A bar's label, ``count/total``, with its value: ``11/40 ≈ 0.275``."""
    return f"{integer_text(count, lang)}/{integer_text(total, lang)} ≈ {decimal_text(Fraction(count, total), 3, lang)}"


def composition_figure_text(
    composition: Composition, full: Composition | None = None, lang: str | None = None
) -> FigureText:
    """What :func:`composition_figure` shows, from the same data: the cards left by kind and the chance that
    the next card is a footprint (the text alternative); each bar's cards left, discarded and chance (the table).

    Parameters
    ----------
    composition, full : Composition
        As :func:`composition_figure`.
    lang : str, optional
        Default: the current language.
    """
    full = full or composition
    total = composition.total
    alt = _deck_sentence(composition, full, lang)
    if total:
        alt += " " + tr(
            "The next card is a footprint with probability {footprint}, a stop or a danger with {ender}.",
            lang,
            footprint=_chance(footprints_left(composition), total, lang),
            ender=_chance(enders_left(composition), total, lang),
        )
    discards = composition != full
    columns = (
        tr("card", lang),
        tr("left in the deck", lang),
        *((tr("discarded", lang),) if discards else ()),
        tr("P(the next card is of that kind)", lang),
    )
    rows = tuple(
        (
            card.describe(lang),
            integer_text(composition.count(card), lang),
            *((integer_text(count - composition.count(card), lang),) if discards else ()),
            _chance(composition.count(card), total, lang) if total else "—",
        )
        for card, count in full.counts()
    )
    return FigureText(alt, columns, rows)


def _draw_runs(ax: Axes, rows: list[dict[str, Any]]) -> None:
    """Exact P(all k footprints) without and with replacement as bars, scipy's floats as dots."""
    ks = [row["k"] for row in rows]
    width = 0.38
    ax.bar(
        [k - width / 2 for k in ks],
        [float(r["without"]) for r in rows],
        width,
        color=COLOURS["footprint"],
        label=tr("without replacement (exact)"),
    )
    ax.bar(
        [k + width / 2 for k in ks],
        [float(r["with"]) for r in rows],
        width,
        color=palette.FOOTPRINT_SHADES[1],
        edgecolor=COLOURS["footprint"],
        hatch=".",
        linewidth=0,
        label=tr("with replacement (exact)"),
    )
    ax.plot(
        [k - width / 2 for k in ks],
        [r["hypergeom"] for r in rows],
        "o",
        color="black",
        markersize=4,
        label="scipy.stats.hypergeom",
    )
    ax.plot(
        [k + width / 2 for k in ks],
        [r["binom"] for r in rows],
        "x",
        color="black",
        markersize=5,
        label="scipy.stats.binom",
    )
    ax.set_xticks(ks)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel(tr("k (cards)"))
    ax.set_ylabel(tr("probability"))
    ax.set_title(tr("P(the next k cards are all footprints)"))
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize="small", frameon=False)


def explorer_figure(composition: Composition, full: Composition, k_max: int) -> Figure:
    """:class:`DeckExplorer`'s picture: the deck left (left panel) and
    ``P(next k cards are all footprints)`` for ``k = 1..k_max`` (right panel).

    Raises
    ------
    ValueError
        For ``k_max`` outside 1..cards left.
    """
    fig = Figure(figsize=(10.0, 3.4), dpi=100, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.15])
    _draw_composition(left, composition, full)
    _draw_runs(right, run_table(composition, k_max))
    return fig


def explorer_figure_text(
    composition: Composition, full: Composition, k_max: int, lang: str | None = None
) -> FigureText:
    """What :func:`explorer_figure` shows, from the same data: the cards left by kind and how the chance
    that the next ``k`` cards are all footprints falls with ``k`` (the text alternative); that chance
    without and with replacement for every ``k`` (the table).

    Parameters
    ----------
    composition, full : Composition
    k_max : int
        As :func:`explorer_figure`.
    lang : str, optional
        Default: the current language.

    Raises
    ------
    ValueError
        For ``k_max`` outside 1..cards left.
    """
    rows = run_table(composition, k_max)
    first, last = rows[0], rows[-1]

    def number(value: Fraction) -> str:
        return decimal_text(value, 4, lang)

    alt = (
        _deck_sentence(composition, full, lang)
        + " "
        + tr(
            "P(the next k cards are all footprints) falls from {first} for k = 1 to {last} for k = {k} "
            "without replacement, to {last_with} with replacement.",
            lang,
            first=number(first["without"]),
            last=number(last["without"]),
            k=last["k"],
            last_with=number(last["with"]),
        )
    )
    columns = (
        tr("k (cards)", lang),
        tr("without replacement (hypergeometric)", lang),
        tr("with replacement (binomial)", lang),
    )
    return FigureText(
        alt, columns, tuple((integer_text(r["k"], lang), number(r["without"]), number(r["with"])) for r in rows)
    )
