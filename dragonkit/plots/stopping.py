"""Figures of lesson 5, optimal stopping: backward induction layer by layer, and where holding starts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from .. import palette
from ..analysis.graph import DecisionGraph
from ..analysis.optimal import LayerValues
from ..analysis.stopping import point_value
from ..i18n import tr

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["boundary_figure", "induction_figure"]

_REVEAL, _HOLD, _UNKNOWN = palette.REVEAL, palette.HOLD, palette.WHITE


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
        position and pot, coloured reveal/hold once solved, with its value V.
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
                reveal = (d == 0 and must_reveal) or values[d].reveal(layer.pot)[i]
                colour, text = (_REVEAL if reveal else _HOLD), "white"
                value = point_value(values, d, i, "push" if (d == 0 and must_reveal) else "value")
                below = f"V = {value}"
            else:
                colour, text, below = _UNKNOWN, palette.TEXT_MUTED, "V = ?"
            edge = palette.INK if d == first and solved else palette.TEXT_MUTED
            ax.scatter(
                [d],
                [ys[d][i]],
                s=1350,
                c=colour,
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
        Line2D([], [], marker="o", ls="", ms=11, mfc=c, mec=palette.TEXT_MUTED, label=label)
        for c, label in ((_REVEAL, tr("reveal (push)")), (_HOLD, tr("hold")), (_UNKNOWN, tr("not solved yet")))
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
    colours = [palette.GRID, palette.GOOD, palette.REDDISH_PURPLE, palette.BLUE]
    moving = shift.drop(columns=0, errors="ignore")  # position 0: only at a turn's compulsory start
    for k, (row, series) in enumerate(moving.iterrows()):
        ax.plot(
            series.index.astype(int),
            series.to_numpy(dtype=float),
            marker="o",
            markersize=3.5,
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
