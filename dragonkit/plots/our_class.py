"""Figures of the class's own data ("our class", lessons 1 and 8), each with its text alternative from the same data:
the pots at which the class held against where the optimum holds (:func:`holding_figure`), the cards its reveals
turned up against the exact probabilities and a Monte Carlo (:func:`cards_figure`), and one kind's frequency as the
reveals accumulate (:func:`running_cards_figure`). The numbers are :mod:`dragonkit.topics.our_class`'s.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import palette
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_text
from ..topics.our_class import SHORT, kind_card
from .text import FigureText

__all__ = [
    "cards_figure",
    "cards_figure_text",
    "holding_figure",
    "holding_figure_text",
    "running_cards_figure",
    "running_cards_figure_text",
]

#: About this many bars in :func:`holding_figure` (its bins are whole gems wide).
BARS = 20


def _bins(holds: pd.DataFrame) -> np.ndarray:
    """The pot bins of :func:`holding_figure`: edges from 0, whole gems wide, covering every pot held and every
    boundary (gems)."""
    top = max([0, *holds["pot"], *holds["hold_from"].dropna()])
    width = max(1, math.ceil((top + 1) / BARS))
    return np.arange(0, top + width + 1, width)


def _never(holds: pd.DataFrame) -> int:
    """The holds where the optimum would reveal at every pot."""
    return int(holds["hold_from"].isna().sum())


def holding_figure(holds: pd.DataFrame, where: str) -> Figure:
    """The pots at which the class held: a bar per range of pots, split into the holds where the optimum holds too
    (solid) and those short of its boundary (hatched), with where the optimum starts holding in the same situations
    drawn over them as a dashed outline.

    Parameters
    ----------
    holds : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.holding_pots` of one edition and stage (``pot``, ``verdict``,
        ``hold_from``).
    where : str
        The edition and stage in words, for the title.

    Returns
    -------
    matplotlib.figure.Figure
        x: the pot (gems); y: holds.
    """
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    edges = _bins(holds)
    short = holds["verdict"] == SHORT
    on_time = np.histogram(holds.loc[~short, "pot"], edges)[0]
    early = np.histogram(holds.loc[short, "pot"], edges)[0]
    left, width = edges[:-1], np.diff(edges)
    ax.bar(
        left,
        on_time,
        width,
        align="edge",
        color=palette.HOLD,
        edgecolor=palette.INK,
        linewidth=0.6,
        label=tr("held where optimal play holds too"),
    )
    ax.bar(
        left,
        early,
        width,
        bottom=on_time,
        align="edge",
        color=palette.WHITE,
        edgecolor=palette.BAD,
        hatch="//",
        linewidth=0.8,
        label=tr("held short: optimal play would reveal"),
    )
    boundary = np.histogram(holds["hold_from"].dropna(), edges)[0]
    if boundary.any():
        ax.stairs(
            boundary,
            edges,
            color=palette.EXACT,
            linestyle="--",
            linewidth=2,
            label=tr("where optimal play starts holding, same situations"),
        )
    never = _never(holds)
    top = max(1, int((on_time + early).max(initial=0)), int(boundary.max(initial=0)))
    ax.set_ylim(0, top * (1.3 if never else 1.1))
    ax.set_title(tr("Where the class held: {where}", where=where))
    ax.set_xlabel(tr("pot at the hold (gems)"))
    ax.set_ylabel(tr("holds"))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", alpha=0.3)
    if never:
        ax.annotate(
            tr("In {k} of these {n} situations optimal play would reveal at any pot.", k=never, n=len(holds)),
            (0.99, 0.97),
            xycoords="axes fraction",
            ha="right",
            va="top",
            fontsize="small",
            backgroundcolor=palette.WHITE,
        )
    fig.legend(fontsize="small", loc="outside lower center", ncols=2, frameon=False)
    return fig


def _gems(value: Fraction, lang: str | None) -> str:
    return decimal_text(value, 2, lang)


def holding_figure_text(holds: pd.DataFrame, where: str, lang: str | None = None) -> FigureText:
    """What :func:`holding_figure` shows, from the same data: the holds, how many stopped short of the optimum's
    boundary and the expected gems that cost, the median pot held, and in how many of the situations the optimum
    would never hold (the text alternative); by range of pots, the holds where the optimum holds too, those short,
    and the situations whose boundary falls there (the table).

    Parameters
    ----------
    holds : pandas.DataFrame
        As :func:`holding_figure`'s.
    where : str
    lang : str, optional
        Default: the current language.
    """
    short = holds["verdict"] == SHORT
    cost = sum(holds.loc[short, "given_up"], Fraction(0))
    fields = dict(
        where=where,
        n=integer_text(len(holds), lang),
        short=integer_text(int(short.sum()), lang),
        gems=_gems(cost, lang),
        never=integer_text(_never(holds), lang),
    )
    if holds.empty:
        alt = tr("Where the class held, {where}: no hold yet.", lang, where=where)
    else:
        alt = tr(
            "Where the class held, {where}: {n} holds, at a median pot of {median} gems; {short} of them short of "
            "the boundary of optimal play (it would have revealed), giving up {gems} expected gems in all. In "
            "{never} of these situations optimal play would reveal at any pot.",
            lang,
            median=decimal_text(float(holds["pot"].median()), 1, lang),
            **fields,
        )
    edges = _bins(holds)
    counts = [
        np.histogram(holds.loc[~short, "pot"], edges)[0],
        np.histogram(holds.loc[short, "pot"], edges)[0],
        np.histogram(holds["hold_from"].dropna(), edges)[0],
    ]
    columns = (
        tr("pot (gems)", lang),
        tr("held where optimal play holds too", lang),
        tr("held short: optimal play would reveal", lang),
        tr("where optimal play starts holding, same situations", lang),
    )
    rows = tuple(
        (
            f"{integer_text(int(low), lang)}–{integer_text(int(high) - 1, lang)}"
            if high - low > 1
            else integer_text(int(low), lang),
            *(integer_text(int(c[i]), lang) for c in counts),
        )
        for i, (low, high) in enumerate(itertools.pairwise(edges))
        if any(c[i] for c in counts)
    )
    return FigureText(alt, columns, rows)


# -- lesson 8: the cards the class turned up --------------------------------------------------------------------

#: How :func:`cards_figure` draws the class's frequencies and the Monte Carlo's: colour, marker, line style and
#: the offset from the kind's place, so that shape and line tell them apart without colour.
_SERIES = {
    "class": (palette.BLUE, "o", "solid", -0.16),
    "mc": (palette.ORANGE, "s", (0, (3, 1.5)), 0.16),
}


def cards_figure(frequencies: pd.DataFrame, level: float = 0.95) -> Figure:
    """Each kind of card: the exact probability (a bar), the class's frequency and a Monte Carlo's of the same
    reveals, each with its confidence interval.

    Parameters
    ----------
    frequencies : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.card_frequencies`: one row per kind.
    level : float
        Their intervals' level.

    Returns
    -------
    matplotlib.figure.Figure
        x: the kinds of card; y: frequency (0 to 1).
    """
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(frequencies))
    ax.bar(
        x,
        frequencies["expected"].astype(float),
        0.7,
        color=palette.SURFACE,
        edgecolor=palette.INK,
        linewidth=1,
        label=tr("exact probability"),
    )
    names = {
        "class": tr("our class ({level} interval)", level=percent_text(level, 0)),
        "mc": tr("Monte Carlo of the same reveals ({level} interval)", level=percent_text(level, 0)),
    }
    for series, (colour, marker, style, shift) in _SERIES.items():
        estimate, low, high = (
            ("frequency", "ci_low", "ci_high") if series == "class" else ("mc_frequency", "mc_low", "mc_high")
        )
        y = frequencies[estimate].to_numpy(dtype=float)
        bars = ax.errorbar(
            x + shift,
            y,
            yerr=[y - frequencies[low].to_numpy(dtype=float), frequencies[high].to_numpy(dtype=float) - y],
            fmt=marker,
            color=colour,
            markeredgecolor=palette.INK,
            capsize=4,
            label=names[series],
        )
        bars[-1][0].set_linestyle(style)
    n = int(frequencies["n"].iloc[0]) if len(frequencies) else 0
    ax.set_xticks(x, [kind_card(k).describe() for k in frequencies.index])
    ax.set_ylim(0, max(0.05, float(np.nanmax([*frequencies["ci_high"], *frequencies["mc_high"], 0])) * 1.15))
    ax.set_ylabel(tr("frequency"))
    ax.set_title(tr("The cards our class turned up: {n} reveals", n=integer_text(n)))
    ax.grid(axis="y", alpha=0.3)
    fig.legend(fontsize="small", loc="outside lower center", ncols=2, frameon=False)
    return fig


def cards_figure_text(frequencies: pd.DataFrame, level: float = 0.95, lang: str | None = None) -> FigureText:
    """What :func:`cards_figure` shows, from the same data: the reveals, and how many kinds' intervals contain the
    exact probability, the class's and the Monte Carlo's (the text alternative); each kind's exact probability, the
    class's count and frequency with its interval, and the Monte Carlo's (the table).

    Parameters
    ----------
    frequencies : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.card_frequencies`.
    level : float
    lang : str, optional
        Default: the current language.
    """
    n = int(frequencies["n"].iloc[0]) if len(frequencies) else 0
    shown = percent_text(level, 0, lang)
    alt = tr(
        "The cards our class turned up in {n} reveals, by kind, against the exact probability: the class's {level} "
        "interval contains it for {covered} of the {kinds} kinds, a Monte Carlo of the same reveals' for "
        "{mc_covered}.",
        lang,
        n=integer_text(n, lang),
        level=shown,
        covered=integer_text(int(frequencies["covers"].sum()), lang),
        kinds=integer_text(len(frequencies), lang),
        mc_covered=integer_text(int(frequencies["mc_covers"].sum()), lang),
    )
    columns = (
        tr("card", lang),
        tr("exact probability", lang),
        tr("our class: cards", lang),
        tr("our class: frequency", lang),
        tr("{level} interval", lang, level=shown),
        tr("Monte Carlo: frequency", lang),
        tr("{level} interval", lang, level=shown),
    )
    rows = tuple(
        (
            kind_card(str(kind)).describe(lang),
            decimal_text(row["expected"], 3, lang),
            integer_text(int(row["count"]), lang),
            decimal_text(float(row["frequency"]), 3, lang),
            interval_text(float(row["ci_low"]), float(row["ci_high"]), 3, lang),
            decimal_text(float(row["mc_frequency"]), 3, lang),
            interval_text(float(row["mc_low"]), float(row["mc_high"]), 3, lang),
        )
        for kind, row in frequencies.iterrows()
    )
    return FigureText(alt, columns, rows)


def running_cards_figure(running: pd.DataFrame, kind: str, level: float = 0.95) -> Figure:
    """The frequency of one kind of card as the class's reveals accumulate, and a Monte Carlo's, against the exact
    expected frequency with its ``level`` band (the law of large numbers with pooled data).

    Parameters
    ----------
    running : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.running_frequency` (at least one reveal).
    kind : str
        The kind's record name (``"stop"``).
    level : float
        The band's level.

    Returns
    -------
    matplotlib.figure.Figure
        x: reveals so far (log scale); y: frequency.
    """
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    k = running.index.to_numpy()
    expected, half = running["expected"].to_numpy(), running["half"].to_numpy()
    ax.fill_between(
        k,
        expected - half,
        expected + half,
        color=palette.SERIES,
        alpha=0.2,
        label=tr("exact probability ± its {level} band", level=percent_text(level, 0)),
    )
    ax.plot(k, expected, color=palette.INK, linestyle="--", linewidth=1.2, label=tr("exact probability"))
    ax.plot(k, running["class"], color=palette.BLUE, linewidth=1.6, label=tr("our class"))
    ax.plot(
        k,
        running["simulated"],
        color=palette.ORANGE,
        linestyle=(0, (3, 1.5)),
        linewidth=1.4,
        label=tr("Monte Carlo of the same reveals"),
    )
    ax.set_xscale("log")
    ax.set_xlim(1, max(2, len(k)))
    ax.set_ylim(
        0,
        min(
            1,
            max(
                0.05,
                float(np.max([running["class"].max(), running["simulated"].max(), (expected + half).max()])) * 1.15,
            ),
        ),
    )
    ax.set_xlabel(tr("reveals so far (log scale)"))
    ax.set_ylabel(tr("frequency"))
    ax.set_title(tr("The class's frequency of “{card}” closes in on the probability", card=kind_card(kind).describe()))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper right", frameon=False)
    return fig


def running_cards_figure_text(
    running: pd.DataFrame, kind: str, level: float = 0.95, lang: str | None = None
) -> FigureText:
    """What :func:`running_cards_figure` shows, from the same data: after all the reveals, the class's frequency,
    the Monte Carlo's and the exact probability (the text alternative); at 1, 10, 100 … reveals and at the last, the
    same and the band, and whether the class's frequency lies in it (the table).

    Parameters
    ----------
    running : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.running_frequency`, at least one row.
    kind : str
    level : float
    lang : str, optional
        Default: the current language.

    Raises
    ------
    ValueError
        For no reveal at all.
    """
    n = len(running)
    if n == 0:
        raise ValueError("the running frequency needs at least one reveal")
    last = running.iloc[-1]
    card = kind_card(kind).describe(lang)
    alt = tr(
        "The frequency of “{card}” as the class's reveals accumulate: after {n} reveals {ours} in our class, {mc} in "
        "a Monte Carlo of the same reveals; the exact probability is {exact}.",
        lang,
        card=card,
        n=integer_text(n, lang),
        ours=decimal_text(float(last["class"]), 3, lang),
        mc=decimal_text(float(last["simulated"]), 3, lang),
        exact=decimal_text(float(last["expected"]), 3, lang),
    )
    checkpoints = sorted({*(10**e for e in range(int(math.log10(n)) + 1)), n})
    columns = (
        tr("reveals so far", lang),
        tr("our class", lang),
        tr("Monte Carlo", lang),
        tr("exact probability", lang),
        tr("{level} band", lang, level=percent_text(level, 0, lang)),
        tr("in the band", lang),
    )
    rows = []
    for k in checkpoints:
        row = running.loc[k]
        low, high = row["expected"] - row["half"], row["expected"] + row["half"]
        rows.append(
            (
                integer_text(k, lang),
                decimal_text(float(row["class"]), 3, lang),
                decimal_text(float(row["simulated"]), 3, lang),
                decimal_text(float(row["expected"]), 3, lang),
                interval_text(float(low), float(high), 3, lang),
                tr("yes", lang) if low <= row["class"] <= high else tr("no", lang),
            )
        )
    return FigureText(alt, columns, tuple(rows))
