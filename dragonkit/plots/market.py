"""Figures of lesson 7, the takeover market: who should take over a held turn, and the bids of an auction."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..analysis.market import AuctionResult, gaining_takers
from ..i18n import Gems, tr

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["auction_figure", "takeover_figure"]


def takeover_figure(
    curve: pd.DataFrame, bounty: int, holder_gems: int | None = None, taker_gems: int | None = None
) -> Figure:
    """Who should take over: the fair bounty and the value after paying against the taker's gems.

    Parameters
    ----------
    curve : pandas.DataFrame
        From :func:`~dragonkit.analysis.market.fair_bounty_curve`.
    bounty : int
        The rules' bounty (gems), drawn as a horizontal line.
    holder_gems, taker_gems : int, optional
        Marked as vertical lines.

    Returns
    -------
    matplotlib.figure.Figure
        x: the taker's gems before paying; y: gems.  Green bands: the takers for
        whom taking over pays.
    """
    fig = Figure(figsize=(7.2, 4.0), dpi=100, layout="constrained")
    ax = fig.subplots()
    gems = np.asarray(curve.index, dtype=float)
    fair = np.array([float(v) for v in curve["fair_bounty"]])
    ok = curve["value_after_paying"].notna().to_numpy()
    after = np.array([float(v) if v is not None else np.nan for v in curve["value_after_paying"]])
    ax.plot(
        gems,
        fair,
        marker="o",
        markersize=3,
        color=palette.SERIES,
        label=tr("fair bounty F(g): the turn's value with g gems"),
    )
    ax.plot(
        gems[ok],
        after[ok],
        marker="o",
        markersize=3,
        color=palette.GOOD,
        label=tr("F(g − b): its value after paying the bounty"),
    )
    ax.axhline(bounty, color=palette.BAD, linestyle="--", label=tr("the rules' bounty b = {b}", b=bounty))
    for first, taker in enumerate(gaining_takers(curve)):
        ax.axvspan(
            taker - 0.5,
            taker + 0.5,
            color=palette.GOOD,
            alpha=0.15,
            lw=0,
            label=None if first else tr("taking over pays"),
        )
    for value, colour, label in ((holder_gems, palette.AMBER, tr("holder")), (taker_gems, palette.INK, tr("taker"))):
        if value is not None:
            ax.axvline(value, color=colour, linestyle=":", linewidth=1.5)
            ax.annotate(
                label,
                (value, 1),
                xycoords=("data", "axes fraction"),
                xytext=(3, -12),
                textcoords="offset points",
                fontsize="small",
                color=colour,
            )
    ax.set_xlabel(tr("the taker's gems before paying"))
    ax.set_ylabel(tr("gems"))
    ax.set_title(tr("Who should take over? (bounty {b})", b=Gems(bounty)))
    ax.grid(alpha=0.3)
    fig.legend(fontsize="small", loc="outside lower center", ncols=2, frameon=False)
    return fig


def auction_figure(result: AuctionResult) -> Figure:
    """The sealed bids, highest first, against the break-even bid; the winner outlined.

    Returns
    -------
    matplotlib.figure.Figure
        Bars: bids (gems), green where winning at that bid gains on average, red where it loses.
    """
    bids = result.bids
    fig = Figure(figsize=(7.2, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(bids))
    colours = [palette.GOOD if p >= 0 else palette.BAD for p in bids["expected_profit"]]
    bars = ax.bar(x, bids["bid"], color=colours)
    bars[0].set_edgecolor(palette.INK)
    bars[0].set_linewidth(2.5)
    if result.break_even is not None:
        ax.axhline(
            result.break_even,
            color=palette.EXACT,
            linestyle="--",
            label=tr("break-even bid: {b}", b=Gems(result.break_even)),
        )
        ax.legend(fontsize="small", loc="upper right")
    ax.set_xticks(x, list(bids.index), rotation=45 if len(bids) > 8 else 0, ha="right" if len(bids) > 8 else "center")
    ax.set_ylabel(tr("bid (gems)"))
    ax.set_title(tr("Sealed bids for the held turn; the winner is outlined"))
    ax.grid(axis="y", alpha=0.3)
    return fig
