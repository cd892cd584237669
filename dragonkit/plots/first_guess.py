"""Figures of lesson 1, *Play and observe*: what a guessed hold-at-t policy is worth."""

from __future__ import annotations

from matplotlib.figure import Figure

from .. import palette
from ..analysis.first_guess import GuessResult
from ..i18n import tr

__all__ = ["guess_figure"]


def guess_figure(result: GuessResult) -> Figure:
    """Expected gem change (left) and probability of a loss (right) of the hold-at-t
    policies against t, with the guess and the best t marked and the optimum as a line.

    Returns
    -------
    matplotlib.figure.Figure
        x: the threshold t (gems); left y: expected gem change (gems), right y: probability.
    """
    rows = result.scan[result.scan["threshold"].notna()]
    t = rows["threshold"].to_numpy(dtype=float)
    fig = Figure(figsize=(10.0, 3.3), dpi=100, layout="constrained")
    gain_ax, loss_ax = fig.subplots(1, 2)
    gain_ax.plot(t, rows["expected_gain"].to_numpy(dtype=float), color=palette.SERIES, label=tr("hold at t"))
    gain_ax.axhline(float(result.optimal), color=palette.GOOD, linestyle="--", label=tr("optimal play"))
    gain_ax.axhline(0, color=palette.GRID, linewidth=0.8)
    loss_ax.plot(t, rows["p_loss"].to_numpy(dtype=float), color=palette.BAD, label=tr("hold at t"))
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
            markeredgecolor="k",
            label=tr("your guess: t = {t}", t=result.threshold),
        )
        ax.plot(
            [result.best_threshold],
            [best],
            "*",
            color=palette.GOOD,
            markersize=13,
            label=tr("best hold-at-t: t = {t}", t=result.best_threshold),
        )
        ax.set_xlabel(tr("hold when the pot reaches t gems"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", frameon=False)
    gain_ax.set_ylabel(tr("expected gem change per turn"))
    gain_ax.set_title(tr("What a turn is worth on average"))
    loss_ax.set_ylim(0, 1)
    loss_ax.set_ylabel(tr("probability"))
    loss_ax.set_title(tr("P(the turn ends with fewer gems)"))
    return fig
