"""Figures of lesson 7, the takeover market: who should take over a held turn, and the bids of an auction."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from .. import palette
from ..analysis.turn.market import AuctionResult, gaining_takers
from ..i18n import N_, Gems, tr
from ..i18n.numbers import decimal_text, integer_text, ranges_text
from .text import FigureText

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["auction_figure", "auction_figure_text", "takeover_figure", "takeover_figure_text"]

#: The hatching of what gains (the takers for whom taking over pays) and of what loses (a losing bid).
GAIN_HATCH, LOSS_HATCH = "\\\\", "///"


def takeover_figure(
    curve: pd.DataFrame, bounty: int, holder_gems: int | None = None, taker_gems: int | None = None
) -> Figure:
    """Who should take over: the fair bounty and the value after paying against the taker's gems.

    Parameters
    ----------
    curve : pandas.DataFrame
        From :func:`~dragonkit.analysis.turn.market.fair_bounty_curve`.
    bounty : int
        The rules' bounty (gems), drawn as a horizontal line.
    holder_gems, taker_gems : int, optional
        Marked as vertical lines.

    Returns
    -------
    matplotlib.figure.Figure
        x: the taker's gems before paying; y: gems.  Green hatched bands: the takers for
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
        marker="s",
        markersize=3.5,
        linestyle="-.",
        color=palette.GOOD,
        label=tr("F(g − b): its value after paying the bounty"),
    )
    ax.axhline(bounty, color=palette.BAD, linestyle="--", label=tr("the rules' bounty b = {b}", b=bounty))
    for first, taker in enumerate(gaining_takers(curve)):
        ax.axvspan(
            taker - 0.5,
            taker + 0.5,
            facecolor=(*_rgb(palette.GOOD), 0.15),
            edgecolor=(*_rgb(palette.GOOD), 0.6),
            hatch=GAIN_HATCH,
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


def _rgb(colour: str) -> tuple[float, float, float]:
    """A palette colour as matplotlib's (r, g, b), to give it an alpha of its own."""
    from matplotlib.colors import to_rgb

    return to_rgb(colour)


def takeover_figure_text(
    curve: pd.DataFrame,
    bounty: int,
    holder_gems: int | None = None,
    taker_gems: int | None = None,
    lang: str | None = None,
) -> FigureText:
    """What :func:`takeover_figure` shows, from the same curve: the takers for whom taking over pays
    (the text alternative) and, for each taker's gems, F(g), F(g − b) and the expected net gain (the table).

    Parameters
    ----------
    curve, bounty, holder_gems, taker_gems
        As for :func:`takeover_figure`.
    lang : str, optional

    Returns
    -------
    FigureText
    """
    gems = [int(g) for g in curve.index]
    gaining = gaining_takers(curve)
    alt = tr(
        "The fair bounty F(g), and its value after paying the rules' bounty b = {b}, for takers with {low} to "
        "{high} gems.",
        lang,
        b=integer_text(bounty, lang),
        low=integer_text(gems[0], lang),
        high=integer_text(gems[-1], lang),
    )
    alt += " " + (
        tr("Taking over pays for takers with {ranges} gems.", lang, ranges=ranges_text(gaining, lang))
        if gaining
        else tr("Taking over pays for no taker shown.", lang)
    )
    marked = [
        tr(text, lang, gems=Gems(value))
        for text, value in ((N_("holder: {gems}"), holder_gems), (N_("taker: {gems}"), taker_gems))
        if value is not None
    ]
    if marked:
        alt += " " + tr("Dotted lines: {marks}.", lang, marks="; ".join(marked))

    def shown(value: object) -> str:
        return "–" if value is None else decimal_text(value, 3, lang)  # type: ignore[arg-type]  # a Fraction

    columns = (
        tr("the taker's gems before paying", lang),
        tr("fair bounty F(g)", lang),
        tr("value after paying, F(g − b)", lang),
        tr("expected net gain, F(g − b) − b", lang),
    )
    rows = tuple(
        (integer_text(g, lang), shown(fair), shown(after), shown(net))
        for g, fair, after, net in zip(gems, curve["fair_bounty"], curve["value_after_paying"], curve["net_gain"])
    )
    return FigureText(alt, columns, rows)


def auction_figure(result: AuctionResult) -> Figure:
    """The sealed bids, highest first, against the break-even bid; the winner outlined.

    Returns
    -------
    matplotlib.figure.Figure
        Bars: bids (gems), green where winning at that bid gains on average, red and hatched
        where it loses; the winner outlined and labelled.
    """
    bids = result.bids
    fig = Figure(figsize=(7.2, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(bids))
    gains = [p >= 0 for p in bids["expected_profit"]]
    bars = ax.bar(x, bids["bid"], color=[palette.GOOD if g else palette.BAD for g in gains])
    for patch, gain in zip(bars.patches, gains):
        if not gain:  # a losing bid hatched, not only red
            patch.set_hatch(LOSS_HATCH)
            patch.set_edgecolor(palette.WHITE)
            patch.set_linewidth(0)
    bars[0].set_edgecolor(palette.INK)
    bars[0].set_linewidth(2.5)
    ax.annotate(
        tr("winner"),
        (0, float(bids["bid"].iloc[0])),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        va="bottom",
        fontsize="small",
        color=palette.INK,
    )
    handles: list[Artist] = [
        Patch(facecolor=palette.GOOD, label=tr("gains on average")),
        Patch(facecolor=palette.BAD, edgecolor=palette.WHITE, hatch=LOSS_HATCH, label=tr("loses on average")),
    ]
    handles = [h for h, shown in zip(handles, (any(gains), not all(gains))) if shown]
    if result.break_even is not None:
        handles.insert(
            0,
            ax.axhline(
                result.break_even,
                color=palette.EXACT,
                linestyle="--",
                label=tr("break-even bid: {b}", b=Gems(result.break_even)),
            ),
        )
    ax.legend(handles=handles, fontsize="small", loc="upper right")
    ax.set_ylim(0, max(float(bids["bid"].max()), float(result.break_even or 0), 1.0) * 1.25)
    ax.set_xticks(x, list(bids.index), rotation=45 if len(bids) > 8 else 0, ha="right" if len(bids) > 8 else "center")
    ax.set_ylabel(tr("bid (gems)"))
    ax.set_title(tr("Sealed bids for the held turn; the winner is outlined"))
    ax.grid(axis="y", alpha=0.3)
    return fig


def auction_figure_text(result: AuctionResult, lang: str | None = None) -> FigureText:
    """What :func:`auction_figure` shows, from the same auction: the winner, the price, the break-even bid
    and how many bids lose (the text alternative), and each bid with its expected profit (the table).

    Parameters
    ----------
    result : AuctionResult
    lang : str, optional

    Returns
    -------
    FigureText
    """
    bids = result.bids
    alt = tr(
        "Sealed bids, highest first: {n} bids from {low} to {high} gems. {winner} wins with a bid of {bid} and "
        "pays {price}.",
        lang,
        n=len(bids),
        low=integer_text(int(bids["bid"].min()), lang),
        high=integer_text(int(bids["bid"].max()), lang),
        winner=result.winner,
        bid=Gems(int(bids["bid"].iloc[0])),
        price=Gems(result.price),
    )
    alt += " " + (
        tr(
            "Break-even bid: {b}; {k} of {n} bids lose gems on average.",
            lang,
            b=Gems(result.break_even),
            k=result.losing_bids,
            n=len(bids),
        )
        if result.break_even is not None
        else tr("Even a free takeover loses gems on average.", lang)
    )
    columns = (tr("bidder", lang), tr("bid (gems)", lang), tr("expected profit at one's own bid (gems)", lang))
    rows = tuple(
        (str(name), integer_text(int(bid), lang), decimal_text(profit, 3, lang))
        for name, bid, profit in zip(bids.index, bids["bid"], bids["expected_profit"])
    )
    return FigureText(alt, columns, rows)
