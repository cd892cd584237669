"""Figures of lesson 1, *Play and observe*: what a guessed hold-at-h policy is worth."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..i18n import tr
from ..i18n.numbers import decimal_text
from ..topics.first_guess import GuessResult
from .text import FigureText

__all__ = ["guess_figure", "guess_figure_text"]


def guess_figure(result: GuessResult) -> Figure:
    """Expected gem change (left) and probability of a loss (right) of the hold-at-h
    policies against t, with the guess and the best t marked and the optimum as a line.

    Returns
    -------
    matplotlib.figure.Figure
        x: the threshold h (gems); left y: expected gem change (gems), right y: probability.
    """
    rows = result.scan[result.scan["threshold"].notna()]
    t = rows["threshold"].to_numpy(dtype=float)
    fig = Figure(figsize=(10.0, 3.3), dpi=100, layout="constrained")
    gain_ax, loss_ax = fig.subplots(1, 2)
    gain_ax.plot(t, rows["expected_gain"].to_numpy(dtype=float), color=palette.SERIES, label=tr("hold at h"))
    gain_ax.axhline(float(result.optimal), color=palette.GOOD, linestyle="--", label=tr("optimal play"))
    gain_ax.axhline(0, color=palette.GRID, linewidth=0.8)
    loss_ax.plot(t, rows["p_loss"].to_numpy(dtype=float), color=palette.BAD, label=tr("hold at h"))
    loss_ax.axhline(result.optimal_p_loss, color=palette.GOOD, linestyle="--", label=tr("optimal play"))
    for ax, guess, best in (
        (gain_ax, float(result.gain), result.best_gain),
        (loss_ax, result.p_loss, result.best_p_loss),
    ):
        ax.plot(
            [result.threshold],
            [guess],
            "o",
            color=palette.HIGHLIGHT,
            markersize=10,
            markeredgecolor=palette.INK,
            label=tr("your guess: h = {t}", t=result.threshold),
        )
        ax.plot(
            [result.best_threshold],
            [best],
            "*",
            color=palette.GOOD,
            markersize=13,
            label=tr("best hold-at-h: h = {t}", t=result.best_threshold),
        )
        ax.set_xlabel(tr("hold when the pot reaches h gems"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", frameon=False)
    gain_ax.set_ylabel(tr("expected gem change per turn"))
    gain_ax.set_title(tr("What a turn is worth on average"))
    loss_ax.set_ylim(0, 1)
    loss_ax.set_ylabel(tr("probability"))
    loss_ax.set_title(tr("P(the turn ends with fewer gems)"))
    return fig


def guess_figure_text(result: GuessResult, lang: str | None = None) -> FigureText:
    """What :func:`guess_figure` shows, from the same data: the guess, the best hold-at-h and optimal play
    with their expected gem change and probability of a loss (the text alternative), and those with the
    curve's lowest point and its first point above 0 (the table).

    Parameters
    ----------
    result : GuessResult
    lang : str, optional
        Default: the current language.
    """

    def number(value: Fraction | float) -> str:
        return decimal_text(value, 3, lang)

    alt = tr(
        "Hold-at-h policies against h. Your guess, h = {t}: {gain} gems per turn on average, a loss with "
        "probability {loss}. The best, h = {best}: {best_gain} gems, a loss with probability {best_loss}. "
        "Optimal play: {optimal} gems.",
        lang,
        t=result.threshold,
        gain=number(result.gain),
        loss=number(result.p_loss),
        best=result.best_threshold,
        best_gain=number(result.best_gain),
        best_loss=number(result.best_p_loss),
        optimal=number(result.optimal),
    )
    rows: list[tuple[str, Fraction | float, float]] = [
        (tr("your guess: hold at {t}", lang, t=result.threshold), result.gain, result.p_loss),
        (tr("best hold-at-h: hold at {t}", lang, t=result.best_threshold), result.best_gain, result.best_p_loss),
        (tr("optimal play (backward induction)", lang), result.optimal, result.optimal_p_loss),
    ]
    scan = result.scan[result.scan["threshold"].notna()]
    gains = scan["expected_gain"].to_numpy(dtype=float)
    lowest = scan.iloc[int(np.argmin(gains))]
    rows.append(
        (
            tr("the curve's lowest point: hold at {t}", lang, t=int(lowest["threshold"])),
            float(lowest["expected_gain"]),
            float(lowest["p_loss"]),
        )
    )
    if (gains > 0).any():
        above = scan.iloc[int(np.argmax(gains > 0))]
        rows.append(
            (
                tr("the curve's first point above 0: hold at {t}", lang, t=int(above["threshold"])),
                float(above["expected_gain"]),
                float(above["p_loss"]),
            )
        )
    columns = (tr("policy", lang), tr("expected gem change per turn", lang), tr("P(loss)", lang))
    return FigureText(alt, columns, tuple((name, number(gain), number(loss)) for name, gain, loss in rows))
