"""Figures of lesson 6, risk: mean against the probability of a loss, and the catch-up on the last turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..analysis.thresholds import best_thresholds
from ..i18n import tr

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis import PolicyEvaluation

__all__ = ["catch_up_figure", "risk_return_figure"]


def risk_return_figure(points: pd.DataFrame, named: Mapping[str, PolicyEvaluation]) -> Figure:
    """Expected gem change against the probability of a loss.

    Parameters
    ----------
    points : pandas.DataFrame
        The hold-at-t policies: columns ``threshold``, ``expected_gain``, ``p_loss``.
    named : dict
        Label -> :class:`~dragonkit.analysis.PolicyEvaluation` of other policies, drawn as big markers.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = Figure(figsize=(7.4, 3.9), dpi=100, layout="constrained")
    ax = fig.subplots()
    dots = ax.scatter(
        points["p_loss"].astype(float),
        points["expected_gain"].astype(float),
        c=points["threshold"].astype(float),
        cmap="viridis",
        s=22,
        zorder=3,
    )
    fig.colorbar(dots, ax=ax).set_label(tr("threshold t of “hold at t” (gems)"))
    markers = ["s", "^", "*", "D"]
    colours = [palette.GOOD, palette.BAD, palette.HIGHLIGHT, palette.REDDISH_PURPLE]
    for k, (label, e) in enumerate(named.items()):
        ax.scatter(
            [float(e.p_loss)],
            [float(e.expected_gain)],
            marker=markers[k % 4],
            s=160,
            color=colours[k % 4],
            edgecolors="k",
            zorder=4,
            label=label,
        )
    ax.axhline(0, color=palette.GRID, lw=0.8)
    ax.set_xlabel(tr("probability of a loss P(X < 0)"))
    ax.set_ylabel(tr("expected gem change E[X]"))
    ax.set_title(tr("Mean against risk: every dot is a policy"), fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return fig


def catch_up_figure(table: pd.DataFrame, needed: int, optimum: tuple[Any, Any] | None = None) -> Figure:
    """Two panels against the threshold t: P(X >= needed) and E[X], each best t marked.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~dragonkit.analysis.risk.catch_up` output.
    needed : int
        Gems needed (gems).
    optimum : (P(X >= needed), E[X]) of the optimal policy, optional
        Drawn as dashed lines.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = Figure(figsize=(7.6, 5.0), dpi=100, layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    t = table.index.to_numpy()
    p = table["p_catch_up"].astype(float).to_numpy()
    g = table["expected_gain"].astype(float).to_numpy()
    win, ev = best_thresholds(table["p_catch_up"]), best_thresholds(table["expected_gain"])
    top.bar(t, p, color=np.where(np.isin(t, win), palette.HIGHLIGHT, palette.SERIES), width=0.8)
    top.set_ylabel(tr("P(X ≥ {d})", d=needed))
    top.set_title(tr("Behind by {d} gems on the last turn: chance to draw level or win", d=needed), fontsize=10)
    bottom.plot(t, g, marker="o", markersize=3, color=palette.EXACT)
    bottom.plot(ev, table.loc[ev, "expected_gain"].astype(float), "o", color=palette.HIGHLIGHT, markersize=9)
    bottom.set_ylabel(tr("E[X] (gems)"))
    bottom.set_xlabel(tr("threshold t of “hold at t” (gems)"))
    if optimum is not None:
        top.axhline(float(optimum[0]), color=palette.GOOD, ls="--", label=tr("optimal policy (expected gems)"))
        bottom.axhline(float(optimum[1]), color=palette.GOOD, ls="--", label=tr("optimal policy (expected gems)"))
        top.legend(fontsize="small")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    top.annotate(
        tr("best for winning: t = {t}", t=win[0]),
        (win[0], p[list(t).index(win[0])]),
        xytext=(8, -2),
        textcoords="offset points",
        fontsize=8,
        va="top",
        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85},
    )
    # the label below the curve, clear of its dots, with an arrow up to the best t
    low = g.min() + 0.25 * (g.max() - g.min())
    right = ev[0] > (t[0] + t[-1]) / 2
    bottom.annotate(
        tr("best for gems: t = {t}", t=ev[0]),
        (ev[0], g[list(t).index(ev[0])]),
        xytext=(ev[0] - 0.06 * (t[-1] - t[0]) if right else ev[0] + 0.06 * (t[-1] - t[0]), low),
        textcoords="data",
        fontsize=8,
        ha="right" if right else "left",
        va="center",
        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": palette.HIGHLIGHT},
        arrowprops={"arrowstyle": "->", "color": palette.AMBER},
    )
    return fig
