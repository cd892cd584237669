"""The class's record in pictures, for the teacher's dashboard: the class's reveal-or-hold decisions over the optimal
policy map, and the class's win rate against each bot; each with its text alternative, from the same data
(:mod:`dragonkit.topics.class_summary`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from .. import palette
from ..analysis.turn.table import hold_boundary
from ..i18n import ntr, tr
from ..i18n.numbers import decimal_text, integer_text, percent_interval_text, percent_text
from ..topics.class_summary import ClassMap
from ..topics.editions import edition_label
from ..topics.our_class import HELD, PAST, REVEALED, SHORT
from .policy import policy_heatmap
from .text import FigureText

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["MARKERS", "class_map_figure", "class_map_text", "class_win_rates", "class_win_rates_text"]

#: The marker of each action on the map: its shape (a reveal points up, a hold is square) and its colour.
MARKERS = {"reveal": ("^", palette.REVEAL), "hold": ("s", palette.HOLD)}


def _map_title(found: ClassMap, sample: bool, lang: str | None = None) -> str:
    edition = edition_label(found.edition, lang=lang)
    if sample:
        return tr(
            "A sample class's decisions over the optimal policy: {edition}, stage {d}",
            lang,
            edition=edition,
            d=found.stage,
        )
    return tr(
        "The class's decisions over the optimal policy: {edition}, stage {d}", lang, edition=edition, d=found.stage
    )


def _sizes(decisions: np.ndarray) -> np.ndarray:
    """A marker's area for the decisions at a point (points²): it grows with their number, as its square root."""
    return 30.0 * np.sqrt(decisions) + 20.0


def class_map_figure(found: ClassMap, sample: bool = False) -> Figure:
    """The class's reveal-or-hold decisions of one edition and stage, over its optimal policy map
    (:func:`~dragonkit.plots.policy.policy_heatmap`: blue reveals, red and hatched holds, a line where holding
    starts).

    Each point is a knight position and pot where the class decided: a triangle for a reveal, a square for a hold
    (:data:`MARKERS`, and their colours). A hollow mark (white inside) agrees with the optimum; a filled mark does
    not: a filled triangle pushed past the boundary (revealed where holding was worth more), a filled square stopped
    short (held where revealing was worth more). A mark's area grows with the decisions there. Shape and filling
    say everything the colours say.

    Parameters
    ----------
    found : ClassMap
        :func:`dragonkit.topics.class_summary.class_map`.
    sample : bool
        Whether the decisions are a simulated class's (:mod:`dragonkit.topics.sample_class`): the title says so.

    Returns
    -------
    matplotlib.figure.Figure
        x: knight position; y: pot (gems).
    """
    from matplotlib.lines import Line2D

    fig = policy_heatmap(found.advantage, title=_map_title(found, sample))
    fig.set_size_inches(7.5, 5.2)
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert legend is not None  # the map's, with its boundary
    ax.add_artist(legend)  # the map's own legend stays, beside the marks'
    points = found.points
    for (action, verdict), group in points.groupby(["action", "verdict"]):
        shape, colour = MARKERS[str(action)]
        agrees = verdict in (HELD, REVEALED)
        ax.scatter(
            group["position"],
            group["pot"],
            s=_sizes(group["decisions"].to_numpy(dtype=float)),
            marker=shape,
            facecolor=palette.WHITE if agrees else colour,
            edgecolor=colour if agrees else palette.INK,
            linewidth=1.6,
            zorder=3 if agrees else 4,  # a decision against the optimum is never hidden under one that agrees
        )

    def mark(action: str, agrees: bool, label: str) -> Line2D:
        shape, colour = MARKERS[action]
        face, edge = (palette.WHITE, colour) if agrees else (colour, palette.INK)
        return Line2D(
            [],
            [],
            linestyle="none",
            marker=shape,
            markersize=9,
            markerfacecolor=face,
            markeredgecolor=edge,
            markeredgewidth=1.6,
            label=label,
        )

    fig.legend(
        handles=[
            mark("reveal", True, tr("reveal, agrees with the optimum (hollow)")),
            mark("hold", True, tr("hold, agrees with the optimum (hollow)")),
            mark("reveal", False, tr("pushed past: revealed where holding was worth more")),
            mark("hold", False, tr("stopped short: held where revealing was worth more")),
        ],
        loc="outside lower center",
        ncols=2,
        fontsize="small",
        title=tr("the class's decisions (a larger mark: more decisions)"),
        title_fontsize="small",
    )
    return fig


def class_map_text(found: ClassMap, sample: bool = False, lang: str | None = None) -> FigureText:
    """What :func:`class_map_figure` shows, from the same data: how many of the class's decisions agree with the
    optimum, push past the boundary or stop short of it (the text alternative); by knight position, the pot from
    which the map holds and the class's decisions of each kind there (the table).

    Parameters
    ----------
    found : ClassMap
    sample : bool
        Whether the decisions are a simulated class's.
    lang : str, optional
        Default: the current language.

    Returns
    -------
    FigureText
    """
    title = _map_title(found, sample, lang)
    counts = found.counts
    if not found.decisions:
        alt = tr("{title}: no decision of the class yet.", lang, title=title)
    else:
        alt = ntr(
            "{title}. Of the class's {n} decision between revealing and holding: agreeing with the optimum {agree}, "
            "pushed past the boundary {past}, stopped short of it {short}.",
            "{title}. Of the class's {n} decisions between revealing and holding: agreeing with the optimum {agree}, "
            "pushed past the boundary {past}, stopped short of it {short}.",
            found.decisions,
            lang,
            title=title,
            n=integer_text(found.decisions, lang),
            agree=integer_text(counts[HELD] + counts[REVEALED], lang),
            past=integer_text(counts[PAST], lang),
            short=integer_text(counts[SHORT], lang),
        )
    starts = hold_boundary(found.advantage).sort_index()
    by_position = found.points.groupby(["position", "verdict"])["decisions"].sum().unstack(fill_value=0)
    columns = (
        tr("knight position", lang),
        tr("hold from pot (gems)", lang),
        tr("decisions that agree", lang),
        tr("pushed past", lang),
        tr("stopped short", lang),
    )
    rows = []
    for position, pot in zip(starts.index.tolist(), starts.tolist()):
        mine = by_position.loc[position] if position in by_position.index else {}
        agree = int(mine.get(HELD, 0)) + int(mine.get(REVEALED, 0))
        rows.append(
            (
                integer_text(int(position), lang),
                tr("always reveal", lang) if np.isnan(pot) else integer_text(int(pot), lang),
                *(integer_text(n, lang) for n in (agree, int(mine.get(PAST, 0)), int(mine.get(SHORT, 0)))),
            )
        )
    return FigureText(alt, columns, tuple(rows))


def _win_rates_title(level: float, sample: bool, lang: str | None = None) -> str:
    level_text = percent_text(level, 0, lang)
    if sample:
        return tr("A sample class against each bot: win rate with {level} Wilson intervals", lang, level=level_text)
    return tr("The class against each bot: win rate with {level} Wilson intervals", lang, level=level_text)


def class_win_rates(
    rates: pd.DataFrame, labels: Mapping[str, str], level: float = 0.95, sample: bool = False
) -> Figure:
    """The class's win rate against each kind of bot, with its Wilson interval and the share an equal player wins.

    Parameters
    ----------
    rates : pandas.DataFrame
        :func:`dragonkit.topics.class_summary.win_rates`: one row per bot kind, columns ``games``, ``estimate``,
        ``ci_low``, ``ci_high``, ``fair_share``.
    labels : mapping of str to str
        A bot kind -> its name, in the page's language.
    level : float
        The intervals' confidence level (for the title).
    sample : bool
        Whether the games are a simulated class's: the title says so.

    Returns
    -------
    matplotlib.figure.Figure
        A bar per bot kind (y: win rate, 0 to 1), outlined, with its interval as an error bar, and a dashed line across
        it at an equal player's share (1 / players, averaged over the games).
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fig = Figure(figsize=(7.2, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(rates))
    estimate = rates["estimate"].to_numpy(dtype=float)
    ax.bar(
        x,
        estimate,
        color=palette.SERIES,
        edgecolor=palette.INK,
        linewidth=0.8,
        yerr=[estimate - rates["ci_low"].to_numpy(dtype=float), rates["ci_high"].to_numpy(dtype=float) - estimate],
        capsize=6,
    )
    ax.hlines(rates["fair_share"], x - 0.45, x + 0.45, colors=palette.INK, linestyles="--", linewidth=1.4)
    games = [ntr("{n} game", "{n} games", int(g), n=integer_text(int(g))) for g in rates["games"]]
    names = [f"{labels.get(kind, kind)}\n{n}" for kind, n in zip(rates.index, games)]
    ax.set_xticks(x, names)
    ax.set_ylim(0, 1)
    ax.set_ylabel(tr("the class's win rate"))
    ax.set_title(_win_rates_title(level, sample))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(
        handles=[
            Patch(facecolor=palette.SERIES, edgecolor=palette.INK, label=tr("the class's win rate")),
            Line2D([], [], color=palette.INK, linestyle="--", label=tr("an equal player's share")),
        ],
        loc="upper right",
        fontsize="small",
    )
    return fig


def class_win_rates_text(
    rates: pd.DataFrame, labels: Mapping[str, str], level: float = 0.95, sample: bool = False, lang: str | None = None
) -> FigureText:
    """What :func:`class_win_rates` shows, from the same data: the class's win rate against each bot with its
    interval and games, and what an equal player would win (the text alternative); the same with the wins and each
    bot's equal share (the table).

    Parameters
    ----------
    rates : pandas.DataFrame
    labels : mapping of str to str
        A bot kind -> its name, in ``lang``.
    level : float
    sample : bool
        Whether the games are a simulated class's.
    lang : str, optional
        Default: the current language.

    Returns
    -------
    FigureText
    """
    title = _win_rates_title(level, sample, lang)
    if rates.empty:
        return FigureText(tr("{title}: no game against bots yet.", lang, title=title))
    parts = [
        ntr(
            "{bot} {rate} {interval}, {n} game",
            "{bot} {rate} {interval}, {n} games",
            int(row["games"]),
            lang,
            bot=labels.get(str(kind), str(kind)),
            rate=percent_text(row["estimate"], 0, lang),
            interval=percent_interval_text(row["ci_low"], row["ci_high"], 0, lang),
            n=integer_text(int(row["games"]), lang),
        )
        for kind, row in rates.iterrows()
    ]
    low, high = percent_text(rates["fair_share"].min(), 0, lang), percent_text(rates["fair_share"].max(), 0, lang)
    alt = tr(
        "{title}: {rates}. An equal player's share: {fair}.",
        lang,
        title=title,
        rates="; ".join(parts),
        fair=low if low == high else tr("{low} to {high}", lang, low=low, high=high),
    )
    columns = (
        tr("bot", lang),
        tr("games", lang),
        tr("wins", lang),
        tr("win rate", lang),
        tr("{level} interval", lang, level=percent_text(level, 0, lang)),
        tr("an equal player's share", lang),
    )
    rows = tuple(
        (
            labels.get(str(kind), str(kind)),
            integer_text(int(row["games"]), lang),
            _wins_text(float(row["wins"]), lang),
            percent_text(row["estimate"], 1, lang),
            percent_interval_text(row["ci_low"], row["ci_high"], 1, lang),
            percent_text(row["fair_share"], 1, lang),
        )
        for kind, row in rates.iterrows()
    )
    return FigureText(alt, columns, rows)


def _wins_text(wins: float, lang: str | None) -> str:
    """Wins as counted, shared wins as shares: ``12``, or ``12.5`` (``12,5``)."""
    return integer_text(int(wins), lang) if wins == int(wins) else decimal_text(wins, 1, lang)
