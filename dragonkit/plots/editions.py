"""Figures of lesson 9, the editions: one measure by edition and stage, and what is in each deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..analysis.editions import MEASURES
from ..i18n import tr
from ..rules import Card, Ruleset
from . import number_label

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["comparison_figure", "deck_figure"]

_STAGE_COLOURS = palette.STAGES


def comparison_figure(table: pd.DataFrame, measure: str, labels: Mapping[str, str], name: str) -> Figure:
    """Bars of one measure for every edition, one bar per stage.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`~dragonkit.analysis.editions.compare_editions`.
    measure : str
        A key of :data:`~dragonkit.analysis.editions.MEASURES`.
    labels : mapping of str to str
        Edition key -> the name shown.
    name : str
        The measure's name as shown (the y axis and the title).

    Raises
    ------
    ValueError
        For an unknown measure.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
    fig = Figure(figsize=(7.6, 3.5), dpi=100, layout="constrained")
    ax = fig.subplots()
    editions = list(dict.fromkeys(table.index.get_level_values("edition")))
    n_stages = int(table.index.get_level_values("stage").max()) + 1
    width = 0.8 / n_stages
    for d in range(n_stages):
        xs, ys = [], []
        for i, e in enumerate(editions):
            if (e, d) in table.index:
                xs.append(i - 0.4 + width * (d + 0.5))
                ys.append(float(table.loc[(e, d), measure]))
        bars = ax.bar(
            xs, ys, width=width * 0.95, color=_STAGE_COLOURS[d % len(_STAGE_COLOURS)], label=tr("stage {d}", d=d)
        )
        ax.bar_label(bars, labels=[number_label(f"{y:.3g}") for y in ys], fontsize="x-small", padding=1)
    ax.set_xticks(range(len(editions)), [labels[e] for e in editions], parse_math=False)  # a deck named "$x^$"
    ax.axhline(0, color=palette.GRID, linewidth=0.8)
    ax.set_ylabel(name)
    ax.set_title(tr("Which edition is riskier? {measure}, fresh turn", measure=name))
    ax.legend(fontsize="small", ncols=n_stages)
    ax.margins(y=0.15)
    return fig


def deck_figure(entries: Mapping[str, Ruleset], labels: Mapping[str, str]) -> Figure:
    """What is in each deck: stacked bars of footprints by steps, stops and dangers (cards).

    Parameters
    ----------
    entries : mapping of str to Ruleset
    labels : mapping of str to str
        Edition key -> the name shown.
    """
    fig = Figure(figsize=(7.6, 0.6 + 0.55 * len(entries)), dpi=100, layout="constrained")
    ax = fig.subplots()
    order = {"footprint": 0, "stop": 1, "danger": 2}
    kinds = sorted({(order[c.kind], c.kind, c.steps) for r in entries.values() for c, _ in r.composition.counts()})
    greens = palette.FOOTPRINT_SHADES
    y = np.arange(len(entries))[::-1]
    left = np.zeros(len(entries))
    for _order, kind, steps in kinds:
        card = Card(kind, steps)
        counts = np.array([r.composition.count(card) for r in entries.values()], dtype=float)
        colour = greens[(steps - 1) % len(greens)] if kind == "footprint" else palette.CARD[kind]
        bars = ax.barh(y, counts, left=left, color=colour, edgecolor="white", label=card.describe())
        ax.bar_label(bars, labels=[str(int(c)) if c else "" for c in counts], label_type="center", fontsize="x-small")
        left += counts
    ax.set_yticks(y, [labels[e] for e in entries], parse_math=False)
    ax.set_xlabel(tr("cards in the deck"))
    ax.set_title(tr("What is in each deck"))
    fig.legend(fontsize="small", loc="outside right upper", frameon=False)
    return fig
