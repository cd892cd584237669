"""The win rates of a round-robin tournament of bots, with their confidence intervals (lesson 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import palette
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_text
from .text import FigureText

if TYPE_CHECKING:
    from collections.abc import Mapping

    from matplotlib.figure import Figure

    from ..simulate import TournamentResult

__all__ = ["win_rates", "win_rates_text"]


def win_rates(result: TournamentResult, labels: Mapping[str, str] | None = None) -> Figure:
    """Win rates of a round robin (:func:`dragonkit.simulate.round_robin`) with their Wilson intervals.

    Parameters
    ----------
    result : TournamentResult
        Its :attr:`standings <dragonkit.simulate.TournamentResult.standings>`: one row per bot spec, best first,
        columns ``estimate``, ``ci_low``, ``ci_high``; and the intervals' ``level``.
    labels : mapping of str to str, optional
        Bot spec -> the name shown (default: the specs themselves).

    Returns
    -------
    matplotlib.figure.Figure
        A bar per bot (x: bots; y: win rate, 0 to 1), outlined; the error bars span the Wilson interval.
    """
    from matplotlib.figure import Figure

    standings = result.standings
    fig = Figure(figsize=(7.2, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(standings))
    ax.bar(
        x,
        standings["estimate"],
        color=palette.SERIES,
        edgecolor=palette.INK,  # a light bar stands out from the page by its outline
        linewidth=0.8,
        yerr=[standings["estimate"] - standings["ci_low"], standings["ci_high"] - standings["estimate"]],
        capsize=6,
    )
    ax.axhline(0.5, color=palette.GRID, linestyle="--", linewidth=1)
    crowded = len(standings) > 4
    names = [_plain(labels[s] if labels else str(s)) for s in standings.index]
    ax.set_xticks(x, names, rotation=20 if crowded else 0, ha="right" if crowded else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel(tr("win rate"))
    ax.set_title(tr("Round robin: win rates with {level} Wilson intervals", level=percent_text(result.level, 0)))
    ax.grid(axis="y", alpha=0.3)
    return fig


def win_rates_text(
    result: TournamentResult, labels: Mapping[str, str] | None = None, lang: str | None = None
) -> FigureText:
    """What :func:`win_rates` shows, from the same data: each bot's win rate and Wilson interval, best first
    (the text alternative, and the table with the games played).

    Parameters
    ----------
    result : TournamentResult
    labels : mapping of str to str, optional
        Bot spec -> the name shown, in ``lang`` (default: the specs themselves).
    lang : str, optional
        Default: the current language.
    """
    standings = result.standings
    names = [labels[s] if labels else str(s) for s in standings.index]
    level = percent_text(result.level, 0, lang)
    rates = "; ".join(
        f"{name} {decimal_text(row['estimate'], 2, lang)} {interval_text(row['ci_low'], row['ci_high'], 2, lang)}"
        for name, (_spec, row) in zip(names, standings.iterrows())
    )
    alt = tr("Win rates, {level} Wilson intervals: {rates}.", lang, level=level, rates=rates)
    columns = (tr("bot", lang), tr("games", lang), tr("win rate", lang), tr("{level} interval", lang, level=level))
    rows = tuple(
        (
            name,
            integer_text(int(row["games"]), lang),
            decimal_text(row["estimate"], 3, lang),
            interval_text(row["ci_low"], row["ci_high"], 3, lang),
        )
        for name, (_spec, row) in zip(names, standings.iterrows())
    )
    return FigureText(alt, columns, rows)


def _plain(text: str) -> str:
    """A label matplotlib shows as typed: no mathtext, no hiding of names that start with '_'."""
    text = text.replace("$", r"\$")
    return "\u200b" + text if text.startswith("_") else text
