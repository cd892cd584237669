"""Figures of lesson 6, risk: mean against the probability of a loss, and the catch-up on the last turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..analysis.turn.thresholds import best_thresholds
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text
from .text import FigureText

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis import PolicyEvaluation

__all__ = ["catch_up_figure", "catch_up_figure_text", "risk_return_figure", "risk_return_figure_text"]


def risk_return_figure(points: pd.DataFrame, named: Mapping[str, PolicyEvaluation]) -> Figure:
    """Expected gem change against the probability of a loss.

    Parameters
    ----------
    points : pandas.DataFrame
        The hold-at-h policies: columns ``threshold``, ``expected_gain``, ``p_loss``.
    named : dict
        Label -> :class:`~dragonkit.analysis.PolicyEvaluation` of other policies, drawn as big markers.

    Returns
    -------
    matplotlib.figure.Figure
        The hold-at-h dots coloured by t, the first, the best and the last labelled "t = ..." too;
        each named policy with its own marker shape in the legend.
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
    fig.colorbar(dots, ax=ax).set_label(tr("threshold h of “hold at h” (gems)"))
    losses, gains = points["p_loss"].astype(float), points["expected_gain"].astype(float)
    for t, (x, y) in _labelled_dots(points).items():  # t in words too, not only in the dots' colour
        right = x > (losses.min() + losses.max()) / 2  # the label towards the middle, away from the frame
        top = y > gains.min() + 0.85 * (gains.max() - gains.min())
        ax.annotate(
            tr("h = {t}", t=t),
            (x, y),
            xytext=(-10 if right else 10, -10 if top else 7),
            textcoords="offset points",
            ha="right" if right else "left",
            va="top" if top else "bottom",
            fontsize=7.5,
            color=palette.INK,
            zorder=5,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
        )
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


def _labelled_dots(points: pd.DataFrame) -> dict[int, tuple[float, float]]:
    """The hold-at-h dots labelled with their t: about five spread along the curve, and the one with the
    most expected gems, by t -> (P(X < 0), E[X]); a dot close to a labelled one is left unlabelled."""
    ts = [int(t) for t in points["threshold"].tolist()]
    xs, ys = points["p_loss"].astype(float).tolist(), points["expected_gain"].astype(float).tolist()
    if not ts:
        return {}
    width, height = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    picks = [int(np.argmax(ys)), *range(0, len(ts), max(1, len(ts) // 5))]
    out: dict[int, tuple[float, float]] = {}
    for k in picks:
        if all(abs(xs[k] - a) > 0.08 * width or abs(ys[k] - b) > 0.08 * height for a, b in out.values()):
            out[ts[k]] = (xs[k], ys[k])
    return out


def risk_return_figure_text(
    points: pd.DataFrame, named: Mapping[str, PolicyEvaluation], lang: str | None = None
) -> FigureText:
    """What :func:`risk_return_figure` shows, from the same policies: the policy with the most expected
    gems and the one least likely to lose (the text alternative), and every policy's E[X] and P(X < 0)
    (the table, the named policies first).

    Parameters
    ----------
    points, named
        As for :func:`risk_return_figure` (the names in ``lang``).
    lang : str, optional

    Returns
    -------
    FigureText
    """
    policies = [(label, float(e.expected_gain), float(e.p_loss)) for label, e in named.items()] + [
        (tr("hold at {t} gems", lang, t=int(t)), float(g), float(p))
        for t, g, p in zip(points["threshold"], points["expected_gain"], points["p_loss"])
    ]
    richest = max(policies, key=lambda row: row[1])
    safest = min(policies, key=lambda row: row[2])
    alt = tr(
        "Expected gem change E[X] against the probability of a loss P(X < 0), for {n} policies. "
        "Most expected gems: {best}, E[X] = {gain}, P(X < 0) = {loss}. Least likely to lose: {safe}, "
        "E[X] = {safe_gain}, P(X < 0) = {safe_loss}.",
        lang,
        n=len(policies),
        best=richest[0],
        gain=decimal_text(richest[1], 2, lang),
        loss=decimal_text(richest[2], 3, lang),
        safe=safest[0],
        safe_gain=decimal_text(safest[1], 2, lang),
        safe_loss=decimal_text(safest[2], 3, lang),
    )
    rows = tuple((label, decimal_text(g, 2, lang), decimal_text(p, 3, lang)) for label, g, p in policies)
    return FigureText(alt, (tr("policy", lang), "E[X]", "P(X < 0)"), rows)


def catch_up_figure(table: pd.DataFrame, needed: int, optimum: tuple[Any, Any] | None = None) -> Figure:
    """Two panels against the threshold h: P(X >= needed) and E[X], each best t marked.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~dragonkit.topics.risk.catch_up` output.
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
    bars = top.bar(t, p, color=np.where(np.isin(t, win), palette.HIGHLIGHT, palette.SERIES), width=0.8)
    for patch, best in zip(bars.patches, np.isin(t, win)):
        if best:  # the best bars hatched too, not only orange
            patch.set_hatch("///")
            patch.set_edgecolor(palette.INK)
            patch.set_linewidth(0)
    top.set_ylabel(tr("P(X ≥ {d})", d=needed))
    top.set_title(tr("Behind by {d} gems on the last turn: chance to draw level or win", d=needed), fontsize=10)
    bottom.plot(t, g, marker="o", markersize=3, color=palette.EXACT)
    bottom.plot(ev, table.loc[ev, "expected_gain"].astype(float), "o", color=palette.HIGHLIGHT, markersize=9)
    bottom.set_ylabel(tr("E[X] (gems)"))
    bottom.set_xlabel(tr("threshold h of “hold at h” (gems)"))
    if optimum is not None:
        top.axhline(float(optimum[0]), color=palette.GOOD, ls="--", label=tr("optimal policy (expected gems)"))
        bottom.axhline(float(optimum[1]), color=palette.GOOD, ls="--", label=tr("optimal policy (expected gems)"))
        top.legend(fontsize="small")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    top.annotate(
        tr("best for winning: h = {t}", t=win[0]),
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
        tr("best for gems: h = {t}", t=ev[0]),
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


def catch_up_figure_text(
    table: pd.DataFrame, needed: int, optimum: tuple[Any, Any] | None = None, lang: str | None = None
) -> FigureText:
    """What :func:`catch_up_figure` shows, from the same table: the best t for drawing level and the
    best t for expected gems, with their chances and gems (the text alternative), and each t's
    P(X >= needed) and E[X] (the table).

    Parameters
    ----------
    table, needed, optimum
        As for :func:`catch_up_figure`.
    lang : str, optional

    Returns
    -------
    FigureText
    """
    win, ev = best_thresholds(table["p_catch_up"]), best_thresholds(table["expected_gain"])

    ts = [int(t) for t in table.index.tolist()]
    chances = dict(zip(ts, table["p_catch_up"].astype(float).tolist()))
    gains = dict(zip(ts, table["expected_gain"].astype(float).tolist()))

    def chance(t: int) -> str:
        return decimal_text(chances[t], 3, lang)

    def gain(t: int) -> str:
        return decimal_text(gains[t], 2, lang)

    alt = tr(
        "Behind by {d} gems on the last turn, hold-at-h policies for h = {low} to {high}: the best chance to "
        "draw level or win is h = {t_win}, P(X ≥ {d}) = {p_win}; the most expected gems h = {t_ev}, "
        "E[X] = {gain_ev}, P(X ≥ {d}) = {p_ev}.",
        lang,
        d=needed,
        low=integer_text(ts[0], lang),
        high=integer_text(ts[-1], lang),
        t_win=win[0],
        p_win=chance(win[0]),
        t_ev=ev[0],
        gain_ev=gain(ev[0]),
        p_ev=chance(ev[0]),
    )
    if optimum is not None:
        alt += " " + tr(
            "The optimal policy (expected gems): P(X ≥ {d}) = {p}, E[X] = {gain}.",
            lang,
            d=needed,
            p=decimal_text(float(optimum[0]), 3, lang),
            gain=decimal_text(float(optimum[1]), 2, lang),
        )
    columns = (tr("threshold h of “hold at h” (gems)", lang), tr("P(X ≥ {d})", lang, d=needed), tr("E[X] (gems)", lang))
    rows = tuple((integer_text(t, lang), chance(t), gain(t)) for t in ts)
    return FigureText(alt, columns, rows)
