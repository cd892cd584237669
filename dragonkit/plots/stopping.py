"""Figures of lesson 5, optimal stopping: backward induction layer by layer, and where holding starts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from .. import palette
from ..analysis.turn.graph import DecisionGraph
from ..analysis.turn.optimal import LayerValues
from ..i18n import N_, tr
from ..i18n.numbers import fraction_text, integer_text
from ..topics.stopping import point_value
from .text import FigureText

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["boundary_figure", "boundary_figure_text", "induction_figure", "induction_figure_text"]

_REVEAL, _HOLD, _UNKNOWN = palette.REVEAL, palette.HOLD, palette.WHITE
#: A decision point's marker: its shape tells reveal from hold without its colour.
_SHAPE = {"reveal": "o", "hold": "s", "unknown": "o"}


def _point(graph: DecisionGraph, values: list[LayerValues], depth: int, index: int, must_reveal: bool) -> tuple:
    """A solved decision point as the figure and its text show it: its action (``"reveal"``, ``"hold"``
    or ``"compulsory"``) and its value V (the push value where the reveal is compulsory; gems)."""
    compulsory = depth == 0 and must_reveal
    if compulsory:
        return "compulsory", point_value(values, depth, index, "push")
    reveal = values[depth].reveal(graph.layers[depth].pot)[index]
    return ("reveal" if reveal else "hold"), point_value(values, depth, index, "value")


def induction_figure(graph: DecisionGraph, values: list[LayerValues], solved: int, must_reveal: bool = True) -> Figure:
    """The decision graph with the values known after ``solved`` layers of backward induction.

    Parameters
    ----------
    graph : DecisionGraph
    values : list of LayerValues
        ``backward_induction(graph, exact=True)``.
    solved : int
        Layers solved so far, from the deepest (0 = none, ``len(graph.layers)`` = all).
    must_reveal : bool
        Whether the root's reveal is compulsory (it is then drawn as a reveal).

    Returns
    -------
    matplotlib.figure.Figure
        x: cards revealed since the start; a node per decision point, labelled by
        position and pot, with its value V once solved: a blue circle reveals, an orange square holds.
    """
    depths = len(graph.layers)
    first = depths - solved  # layers >= first are solved
    tallest = max(len(layer) for layer in graph.layers)
    fig = Figure(figsize=(9.4, max(3.6, 0.62 * tallest + 1.2)), dpi=100, layout="constrained")
    ax = fig.subplots()
    ys = [np.arange(len(layer))[::-1] - (len(layer) - 1) / 2 for layer in graph.layers]
    for d, layer in enumerate(graph.layers[:-1]):
        for i in range(len(layer)):
            for k, steps in enumerate(graph.steps):
                child = int(layer.child[i, k])
                if child >= 0:
                    ax.plot([d, d + 1], [ys[d][i], ys[d + 1][child]], color=palette.BORDER, lw=1, zorder=1)
                    ax.text(
                        d + 0.5,
                        (ys[d][i] + ys[d + 1][child]) / 2,
                        str(steps),
                        fontsize=7,
                        color=palette.GRID,
                        ha="center",
                        va="center",
                        zorder=2,
                        bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none"),
                    )
    for d, layer in enumerate(graph.layers):
        known = d >= first
        for i in range(len(layer)):
            if known:
                action, value = _point(graph, values, d, i, must_reveal)
                kind = "hold" if action == "hold" else "reveal"
                colour, text = (_HOLD if kind == "hold" else _REVEAL), "white"
                below = f"V = {fraction_text(value)}"
            else:
                kind, colour, text, below = "unknown", _UNKNOWN, palette.TEXT_MUTED, "V = ?"
            edge = palette.INK if d == first and solved else palette.TEXT_MUTED
            ax.scatter(
                [d],
                [ys[d][i]],
                s=1350 if kind != "hold" else 1150,
                c=colour,
                marker=_SHAPE[kind],
                edgecolors=edge,
                linewidths=2.2 if edge == palette.INK else 1,
                zorder=3,
            )
            ax.text(
                d,
                ys[d][i] + 0.06,
                f"@{int(layer.position[i])}\n{tr('pot {pot}', pot=int(layer.pot[i]))}",
                ha="center",
                va="center",
                fontsize=7,
                color=text,
                zorder=4,
            )
            ax.text(
                d + 0.2,
                ys[d][i] - 0.3,
                below,
                ha="left",
                va="center",
                fontsize=7.5,
                zorder=4,
                color=palette.INK if known else palette.GRID,
            )
    ax.set_xticks(range(depths))
    ax.set_xticklabels([tr("{k} cards left", k=layer.cards_left) for layer in graph.layers], fontsize=8)
    ax.set_xlabel(tr("cards revealed since the start of the turn: 0, 1, 2, ... (one layer each)"))
    ax.set_yticks([])
    ax.set_xlim(-0.5, depths - 0.2)
    ax.set_ylim(-tallest / 2 - 0.3, tallest / 2 + 0.1)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    handles = [
        Line2D([], [], marker=_SHAPE[kind], ls="", ms=11, mfc=c, mec=palette.TEXT_MUTED, label=label)
        for kind, c, label in (
            ("reveal", _REVEAL, tr("reveal (push)")),
            ("hold", _HOLD, tr("hold")),
            ("unknown", _UNKNOWN, tr("not solved yet")),
        )
    ]
    ax.legend(handles=handles, loc="upper left", fontsize=8, frameon=False, ncols=3, bbox_to_anchor=(0, 1.08))
    return fig


def boundary_figure(shift: pd.DataFrame, names: Mapping[str, str] | None = None) -> Figure:
    """Where holding becomes optimal, by knight position, for several variants.

    Parameters
    ----------
    shift : pandas.DataFrame
        :func:`~dragonkit.analysis.policy_shift` output: one row per variant, one
        column per position, values the smallest pot that holds (gems; NaN: always reveal).
        Position 0 is left out: the knight is there only at the start of a turn, where
        the reveal is compulsory.
    names : dict, optional
        A legend label for each row (default: the row names).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = Figure(figsize=(7.2, 3.3), dpi=100, layout="constrained")
    ax = fig.subplots()
    styles = ["-", "--", ":", "-."]
    markers = ["o", "s", "^", "D"]  # each line its own dash and marker, not only its colour
    colours = [palette.GRID, palette.GOOD, palette.REDDISH_PURPLE, palette.BLUE]
    moving = shift.drop(columns=0, errors="ignore")  # position 0: only at a turn's compulsory start
    for k, (row, series) in enumerate(moving.iterrows()):
        ax.plot(
            series.index.astype(int),
            series.to_numpy(dtype=float),
            marker=markers[k % 4],
            markersize=4,
            linestyle=styles[k % 4],
            color=colours[k % 4],
            label=(names or {}).get(str(row), str(row)),
            linewidth=2.4 if k == len(moving) - 1 else 1.4,
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(tr("knight position"))
    ax.set_ylabel(tr("hold from pot (gems)"))
    ax.set_title(tr("Where holding starts (no point: always reveal there)"), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


#: What a solved decision point does, as the text of the induction figure says it (msgids).
_ACTION = {
    "reveal": N_("reveal (push)"),
    "hold": N_("hold"),
    "compulsory": N_("reveal (compulsory)"),
    "unknown": N_("not solved yet"),
}


def induction_figure_text(
    graph: DecisionGraph, values: list[LayerValues], solved: int, must_reveal: bool = True, lang: str | None = None
) -> FigureText:
    """What :func:`induction_figure` shows, from the same graph and values.

    Parameters
    ----------
    graph, values, solved, must_reveal
        As for :func:`induction_figure`.
    lang : str, optional

    Returns
    -------
    FigureText
        The text alternative: the layers solved, how many solved points reveal and hold, and the turn's
        value once every layer is; the table: every decision point's cards left, position and pot, and once
        solved its value V and best action ("?" and "not solved yet" before).
    """
    depths, points = len(graph.layers), sum(len(layer) for layer in graph.layers)
    first = depths - solved
    rows, counts = [], {"reveal": 0, "hold": 0, "compulsory": 0, "unknown": 0}
    for d, layer in enumerate(graph.layers):
        for i in range(len(layer)):
            action, value = _point(graph, values, d, i, must_reveal) if d >= first else ("unknown", None)
            counts[action] += 1
            rows.append(
                (
                    integer_text(layer.cards_left, lang),
                    integer_text(int(layer.position[i]), lang),
                    integer_text(int(layer.pot[i]), lang),
                    "?" if value is None else fraction_text(value),
                    tr(_ACTION[action], lang),
                )
            )
    columns = (
        tr("cards left", lang),
        tr("knight position", lang),
        tr("pot (gems)", lang),
        "V",
        tr("best", lang),
    )
    if not solved:
        alt = tr(
            "Backward induction on a decision graph of {points} points in {layers} layers; nothing is solved yet.",
            lang,
            points=points,
            layers=depths,
        )
        return FigureText(alt, columns, tuple(rows))
    alt = tr(
        "Backward induction on a decision graph of {points} points in {layers} layers; layers solved, from the "
        "last: {solved}. Solved points that reveal: {reveal}; that hold: {hold}; not solved yet: {unknown}.",
        lang,
        points=points,
        layers=depths,
        solved=solved,
        reveal=counts["reveal"] + counts["compulsory"],
        hold=counts["hold"],
        unknown=counts["unknown"],
    )
    if solved == depths:
        start = _point(graph, values, 0, 0, must_reveal)[1]
        alt += " " + tr("The turn's value V at the start: {value} gems.", lang, value=fraction_text(start))
    return FigureText(alt, columns, tuple(rows))


def boundary_figure_text(
    shift: pd.DataFrame, names: Mapping[str, str] | None = None, lang: str | None = None
) -> FigureText:
    """What :func:`boundary_figure` shows, from the same table: for each line, the smallest and the
    largest pot from which holding starts (the text alternative), and by knight position the pot from
    which each line holds (the table).

    Parameters
    ----------
    shift, names
        As for :func:`boundary_figure` (names in ``lang``).
    lang : str, optional

    Returns
    -------
    FigureText
    """
    moving = shift.drop(columns=0, errors="ignore")
    positions = [int(p) for p in moving.columns]
    labels = [(names or {}).get(str(row), str(row)) for row in moving.index]
    parts = []
    for label, (_row, series) in zip(labels, moving.iterrows()):
        pots = series.dropna().astype(int)
        if pots.empty:
            parts.append(tr("{name}: always reveal", lang, name=label))
        else:
            somewhere = len(pots) < len(series)  # holding pays at some positions only
            parts.append(
                tr(
                    N_("{name}: from {low} to {high}, elsewhere always reveal")
                    if somewhere
                    else N_("{name}: from {low} to {high}"),
                    lang,
                    name=label,
                    low=integer_text(int(pots.min()), lang),
                    high=integer_text(int(pots.max()), lang),
                )
            )
    alt = tr(
        "Where holding starts, by knight position ({first} to {last}): the smallest pot that holds, in gems. {lines}.",
        lang,
        first=positions[0] if positions else 0,
        last=positions[-1] if positions else 0,
        lines="; ".join(parts),
    )
    columns = (tr("knight position", lang), *labels)
    rows = tuple(
        (
            integer_text(p, lang),
            *(
                tr("always reveal", lang) if np.isnan(float(pot)) else integer_text(int(pot), lang)
                for pot in moving[p].tolist()
            ),
        )
        for p in positions
    )
    return FigureText(alt, columns, rows)
