"""Figures of lesson 8, simulation: the law of large numbers, the coverage of confidence
intervals, the 1/√n shrinkage of the error, and a tournament's standings.

Each figure has its text beside it (``<figure>_text``, a :class:`~dragonkit.plots.text.FigureText`),
written from the same data: what it shows and its key numbers, and those numbers as a table.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .. import palette
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_text
from ..simulate.stats import mean_estimate, normal_quantile
from ..topics.coverage import Coverage, ExactTurn
from .labels import number_label
from .text import FigureText

__all__ = [
    "coverage_figure",
    "coverage_figure_text",
    "error_figure",
    "error_figure_text",
    "running_mean_figure",
    "running_mean_figure_text",
]


def _funnel(gains: np.ndarray, exact: ExactTurn, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`running_mean_figure` draws: the turns ``k`` (1 to n), the running mean after each (gems)
    and the half width ``z σ / √k`` of the ``level`` band around the exact mean (gems), each of shape (n,)."""
    k = np.arange(1, len(gains) + 1)
    return k, np.cumsum(gains) / k, normal_quantile(level) * exact.std / np.sqrt(k)


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
    n = len(gains)
    k, running, half = _funnel(gains, exact, level)
    mean = float(exact.mean)
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    ax.fill_between(
        k,
        mean - half,
        mean + half,
        color=palette.SERIES,
        alpha=0.15,
        label=tr(
            "exact mean ± {z} σ/√n ({level} band)",
            z=decimal_text(normal_quantile(level), 2),
            level=percent_text(level, 0),
        ),
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


def running_mean_figure_text(
    gains: np.ndarray, exact: ExactTurn, policy: str, level: float = 0.95, lang: str | None = None
) -> FigureText:
    """What :func:`running_mean_figure` shows, from the same data.

    The text alternative gives the number of turns, the final running mean with its ``level`` confidence
    interval (:func:`~dragonkit.simulate.stats.mean_estimate`, as the lesson's report) and the exact expected
    gain; the table, at 1, 10, 100 ... turns and at the last, the running mean and the band drawn around the
    exact mean, and whether the running mean lies in it.

    Parameters
    ----------
    gains : ndarray, shape (n,)
        Simulated gem changes (gems), in order; at least one.
    exact : ExactTurn
    policy : str
        The policy's name.
    level : float
    lang : str, optional
        Default: the current language.

    Raises
    ------
    ValueError
        For no gains at all.
    """
    n = len(gains)
    if n == 0:
        raise ValueError("the running mean needs at least one simulated turn")
    _k, running, half = _funnel(gains, exact, level)
    mean = float(exact.mean)
    final = mean_estimate(np.asarray(gains, dtype=float), level)
    fields = dict(
        policy=policy,
        n=integer_text(n, lang),
        mean=decimal_text(running[-1], 3, lang),
        level=percent_text(level, 0, lang),
        exact=decimal_text(mean, 3, lang),
    )
    if n > 1:
        alt = tr(
            "The law of large numbers, {policy}: after {n} turns the running mean is {mean} gems, {level} "
            "confidence interval {interval}; the exact expected gain is {exact} gems.",
            lang,
            interval=interval_text(final["ci_low"], final["ci_high"], 3, lang),
            **fields,
        )
    else:
        alt = tr(
            "The law of large numbers, {policy}: after 1 turn the mean is {mean} gems; "
            "the exact expected gain is {exact} gems.",
            lang,
            **fields,
        )
    checkpoints = sorted({*(10**e for e in range(int(math.log10(n)) + 1)), n})
    columns = (
        tr("turns simulated", lang),
        tr("running mean (gems)", lang),
        tr("{level} band around the exact mean", lang, level=fields["level"]),
        tr("in the band", lang),
    )
    rows = tuple(
        (
            integer_text(t, lang),
            decimal_text(running[t - 1], 3, lang),
            interval_text(mean - half[t - 1], mean + half[t - 1], 3, lang),
            tr("yes", lang) if abs(running[t - 1] - mean) <= half[t - 1] else tr("no", lang),
        )
        for t in checkpoints
    )
    return FigureText(alt, columns, rows)


#: How :func:`coverage_figure` draws an interval that contains the exact mean and one that misses it: colour,
#: line style and the estimate's marker, so that the misses stand out without their colour too.
_COVERS: dict[bool, tuple[str, Any, str]] = {
    True: (palette.BLUE, "solid", "o"),
    False: (palette.BAD, (0, (2, 1.2)), "X"),
}


def coverage_figure(result: Coverage, shown: int = 100) -> Figure:
    """The first ``shown`` intervals as vertical bars: solid and blue if they contain the exact mean, dashed and
    red, their estimate a cross, if they miss it (the legend says which).

    Parameters
    ----------
    result : Coverage
    shown : int
        The intervals drawn, from the first.
    """
    frame = result.intervals.iloc[:shown]
    fig = Figure(figsize=(7.4, 3.8), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(1, len(frame) + 1)
    labels = {True: tr("contains the exact value"), False: tr("misses the exact value")}
    for covers in (True, False):
        mask = (frame["covers"] == covers).to_numpy()
        if not mask.any():
            continue
        colour, style, marker = _COVERS[covers]
        ax.vlines(
            x[mask],
            frame["ci_low"][mask],
            frame["ci_high"][mask],
            colors=colour,
            linestyles=style,
            linewidth=2 if covers else 2.4,
            label=labels[covers],
        )
        ax.plot(
            x[mask],
            frame["estimate"][mask],
            linestyle="none",
            marker=marker,
            color=palette.INK if covers else colour,
            markersize=2.5 if covers else 6,
        )
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
    fig.legend(fontsize="small", loc="outside lower center", ncols=3, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return fig


def coverage_figure_text(result: Coverage, shown: int = 100, lang: str | None = None) -> FigureText:
    """What :func:`coverage_figure` shows, from the same data: how many of the intervals drawn miss the exact
    mean, and how many of all the experiments' contain it (the text alternative); each interval drawn, its
    estimate and whether it contains or misses the exact mean (the table).

    Parameters
    ----------
    result : Coverage
    shown : int
        The intervals drawn, from the first.
    lang : str, optional
        Default: the current language.
    """
    frame = result.intervals.iloc[:shown]
    misses = int((~frame["covers"]).sum())
    level = percent_text(result.level, 0, lang)
    alt = tr(
        "{level} intervals of {n} turns each, around the exact expected gain {exact} gems. Intervals that miss it "
        "among the {m} shown: {k}; among all {total} experiments, intervals that contain it: {covered} ({rate}).",
        lang,
        level=level,
        n=integer_text(result.n, lang),
        exact=decimal_text(float(result.exact.mean), 3, lang),
        m=integer_text(len(frame), lang),
        k=integer_text(misses, lang),
        total=integer_text(result.experiments, lang),
        covered=integer_text(result.covered, lang),
        rate=percent_text(result.rate, 1, lang),
    )
    columns = (
        tr("experiment", lang),
        tr("estimate (gems)", lang),
        tr("{level} interval", lang, level=level),
        tr("the exact value", lang),
    )
    drawn = zip(frame["estimate"], frame["ci_low"], frame["ci_high"], frame["covers"])
    rows = tuple(
        (
            integer_text(i, lang),
            decimal_text(float(estimate), 3, lang),
            interval_text(float(low), float(high), 3, lang),
            tr("contains it", lang) if covers else tr("misses it", lang),
        )
        for i, (estimate, low, high, covers) in enumerate(drawn, start=1)
    )
    return FigureText(alt, columns, rows)


def error_figure(errors: pd.DataFrame, exact: ExactTurn) -> Figure:
    """The observed error against n, with the line σ/√n, on log-log axes (slope −1/2).

    Parameters
    ----------
    errors : pandas.DataFrame
        From :func:`~dragonkit.topics.coverage.error_by_n`: index ``n`` (turns), columns ``rms_error`` and
        ``theory`` (gems).
    exact : ExactTurn
    """
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


def error_figure_text(errors: pd.DataFrame, exact: ExactTurn, lang: str | None = None) -> FigureText:
    """What :func:`error_figure` shows, from the same data: the observed error at the fewest and the most turns
    against σ/√n (the text alternative); at each n, the observed error and σ/√n (the table).

    Parameters
    ----------
    errors : pandas.DataFrame
        From :func:`~dragonkit.topics.coverage.error_by_n`, at least one row.
    exact : ExactTurn
    lang : str, optional
        Default: the current language.
    """
    first, last = errors.iloc[0], errors.iloc[-1]
    alt = tr(
        "The error of the mean against the turns simulated: {first} gems at n = {n0}, {last} gems at n = {n1}; "
        "σ/√n, with the exact σ = {sigma}, gives {t0} and {t1}.",
        lang,
        first=decimal_text(first["rms_error"], 2, lang),
        n0=integer_text(errors.index[0], lang),
        last=decimal_text(last["rms_error"], 2, lang),
        n1=integer_text(errors.index[-1], lang),
        sigma=decimal_text(exact.std, 2, lang),
        t0=decimal_text(first["theory"], 2, lang),
        t1=decimal_text(last["theory"], 2, lang),
    )
    columns = (tr("turns simulated", lang), tr("observed error (gems)", lang), tr("σ/√n (gems)", lang))
    rows = tuple(
        (integer_text(int(n), lang), decimal_text(float(observed), 3, lang), decimal_text(float(theory), 3, lang))
        for n, observed, theory in zip(errors.index, errors["rms_error"], errors["theory"])
    )
    return FigureText(alt, columns, rows)


def _mantissa(value: float) -> float:
    """``value`` divided by the power of ten just below it, rounded: 0.7 → 7, 20 → 2."""
    return round(value / 10 ** math.floor(math.log10(value)), 6) if value > 0 else 0.0
