"""Figures of lesson 8, simulation: the law of large numbers, the coverage of confidence
intervals, the 1/√n shrinkage of the error, and a tournament's standings."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .. import palette
from ..i18n import tr
from ..i18n.numbers import decimal_text, percent_text
from ..simulate.coverage import Coverage, ExactTurn
from . import number_label

__all__ = ["coverage_figure", "error_figure", "running_mean_figure"]


def running_mean_figure(gains: np.ndarray, exact: ExactTurn, policy: str, level: float = 0.95) -> Figure:
    """The law of large numbers: the running mean of simulated gains against the exact mean.

    Parameters
    ----------
    gains : ndarray, shape (n,)
        Simulated gem changes (gems), in order.
    exact : ExactTurn
    policy : str
        The policy's name, as the title shows it.
    level : float
        The funnel drawn is ``exact ± z σ / √k`` (the band the running mean stays in
        with probability ``level`` at each k, by the central limit theorem).

    Returns
    -------
    matplotlib.figure.Figure
        x: turns simulated (log scale); y: gems.
    """
    from scipy import stats

    n = len(gains)
    k = np.arange(1, n + 1)
    running = np.cumsum(gains) / k
    mean, z = float(exact.mean), stats.norm.ppf(0.5 + level / 2)
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    half = z * exact.std / np.sqrt(k)
    ax.fill_between(
        k,
        mean - half,
        mean + half,
        color=palette.SERIES,
        alpha=0.15,
        label=tr("exact mean ± {z} σ/√n ({level} band)", z=decimal_text(z, 2), level=percent_text(level, 0)),
    )
    ax.plot(k, running, color=palette.BAD, linewidth=1.3, label=tr("running mean of the simulated turns"))
    ax.axhline(
        mean, color=palette.EXACT, linestyle="--", label=tr("exact expected gain {value}", value=decimal_text(mean, 3))
    )
    ax.set_xscale("log")
    ax.set_xlim(1, n)
    spread = max(4 * exact.std / np.sqrt(max(n, 1)) + abs(running[-1] - mean), 3 * exact.std / np.sqrt(10))
    ax.set_ylim(mean - spread, mean + spread)
    ax.set_xlabel(tr("turns simulated, n (log scale)"))
    ax.set_ylabel(tr("mean gem change (gems)"))
    ax.set_title(tr("The law of large numbers: {policy}", policy=policy))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    return fig


def coverage_figure(result: Coverage, shown: int = 100) -> Figure:
    """The first ``shown`` intervals as vertical bars: blue if they contain the exact mean, red if not."""
    frame = result.intervals.iloc[:shown]
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(1, len(frame) + 1)
    colours = [palette.BLUE if covers else palette.BAD for covers in frame["covers"]]
    ax.vlines(x, frame["ci_low"], frame["ci_high"], colors=colours, linewidth=2)
    ax.plot(x, frame["estimate"], "o", color=palette.INK, markersize=2.5)
    ax.axhline(
        float(result.exact.mean),
        color=palette.GOOD,
        linestyle="--",
        label=tr("exact expected gain {value}", value=decimal_text(float(result.exact.mean), 3)),
    )
    misses = int((~frame["covers"]).sum())
    ax.set_title(
        tr(
            "{level} intervals of {n} turns each: {k} of the {m} shown miss",
            level=percent_text(result.level, 0),
            n=result.n,
            k=misses,
            m=len(frame),
        )
    )
    ax.set_xlabel(tr("experiment"))
    ax.set_ylabel(tr("mean gem change (gems)"))
    ax.legend(fontsize="small", loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    return fig


def error_figure(errors: pd.DataFrame, exact: ExactTurn) -> Figure:
    """The observed error against n, with the line σ/√n, on log-log axes (slope −1/2)."""
    fig = Figure(figsize=(7.0, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    ax.loglog(
        errors.index,
        errors["theory"],
        color=palette.EXACT,
        linestyle="--",
        label=tr("σ/√n with the exact σ = {sigma} (slope −1/2)", sigma=decimal_text(exact.std, 2)),
    )
    ax.loglog(errors.index, errors["rms_error"], "o", color=palette.BAD, label=tr("observed error (root mean square)"))
    plain = FuncFormatter(lambda value, _pos: number_label(f"{value:g}"))
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(plain)
    # label the minor ticks at 2 and 5 times a power of ten only: all of them crowd the top of a decade
    ax.yaxis.set_minor_formatter(
        FuncFormatter(lambda value, _pos: number_label(f"{value:g}") if _mantissa(value) in (2, 5) else "")
    )
    ax.set_xlabel(tr("turns simulated, n (log scale)"))
    ax.set_ylabel(tr("error of the mean (gems, log scale)"))
    ax.set_title(tr("Ten times more turns, about three times less error"))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def _mantissa(value: float) -> float:
    """``value`` divided by the power of ten just below it, rounded: 0.7 → 7, 20 → 2."""
    return round(value / 10 ** math.floor(math.log10(value)), 6) if value > 0 else 0.0
