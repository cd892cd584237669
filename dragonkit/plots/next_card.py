"""Figures of lesson 2, *The next card*: the deck by kind of card, and the chance that the
next ``k`` cards are all footprints, exact and by scipy."""

from __future__ import annotations

from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import palette
from ..analysis.deck import run_table
from ..i18n import tr
from ..rules import Composition

__all__ = ["COLOURS", "composition_figure", "explorer_figure"]

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
