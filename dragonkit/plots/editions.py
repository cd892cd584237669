"""Figures of lesson 9, the editions: one measure by edition and stage, and what is in each deck.

Each figure has its text beside it (``<figure>_text``, a :class:`~dragonkit.plots.text.FigureText`),
written from the same data: what it shows and its key numbers, and those numbers as a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..i18n import tr
from ..i18n.numbers import integer_text
from ..rules import Card, CardKind, Ruleset
from ..topics.editions import MEASURES, footprint_cards
from .labels import number_label
from .text import FigureText

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["comparison_figure", "comparison_figure_text", "deck_figure", "deck_figure_text"]

_STAGE_COLOURS = palette.STAGES
#: The hatching of the stages' bars, in order (with their colours, so that a stage is told without its colour).
_STAGE_HATCHES = ("", "///", "...", "xxx", "\\\\\\")
#: The hatching of the stop and danger cards in :func:`deck_figure` (the footprints are plain, light to dark).
_CARD_HATCHES = {CardKind.FOOTPRINT: "", CardKind.STOP: "///", CardKind.DANGER: "xxx"}


def _stages(table: pd.DataFrame, measure: str) -> dict[str, dict[int, float]]:
    """What :func:`comparison_figure` draws: edition -> stage -> ``measure``, editions in the table's order,
    stages in increasing order.

    Raises
    ------
    ValueError
        For an unknown measure.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
    editions, stages = table.index.get_level_values("edition"), table.index.get_level_values("stage")
    values: dict[str, dict[int, float]] = {e: {} for e in editions}
    for edition, stage, value in sorted(zip(editions, stages, table[measure]), key=lambda row: int(row[1])):
        values[edition][int(stage)] = float(value)
    return values


def _bar_value(value: float, lang: str | None = None) -> str:
    """A bar's value as the figure writes it over the bar: three significant digits, in ``lang``."""
    return number_label(f"{value:.3g}", lang)


def comparison_figure(table: pd.DataFrame, measure: str, labels: Mapping[str, str], name: str) -> Figure:
    """Bars of one measure for every edition, one bar per stage (each stage its colour and its hatching).

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`~dragonkit.topics.editions.compare_editions`.
    measure : str
        A key of :data:`~dragonkit.topics.editions.MEASURES`.
    labels : mapping of str to str
        Edition key -> the name shown.
    name : str
        The measure's name as shown (the y axis and the title).

    Raises
    ------
    ValueError
        For an unknown measure.
    """
    values = _stages(table, measure)
    fig = Figure(figsize=(7.6, 3.5), dpi=100, layout="constrained")
    ax = fig.subplots()
    editions = list(values)
    n_stages = max(stage for v in values.values() for stage in v) + 1
    width = 0.8 / n_stages
    for d in range(n_stages):
        xs = [i - 0.4 + width * (d + 0.5) for i, e in enumerate(editions) if d in values[e]]
        ys = [values[e][d] for e in editions if d in values[e]]
        bars = ax.bar(
            xs,
            ys,
            width=width * 0.95,
            color=_STAGE_COLOURS[d % len(_STAGE_COLOURS)],
            hatch=_STAGE_HATCHES[d % len(_STAGE_HATCHES)],
            edgecolor=palette.INK,
            linewidth=0.6,
            label=tr("stage {d}", d=d),
        )
        ax.bar_label(bars, labels=[_bar_value(y) for y in ys], fontsize="x-small", padding=1)
    ax.set_xticks(range(len(editions)), [labels[e] for e in editions], parse_math=False)  # a deck named "$x^$"
    ax.axhline(0, color=palette.GRID, linewidth=0.8)
    ax.set_ylabel(name)
    ax.set_title(tr("Which edition is riskier? {measure}, fresh turn", measure=name))
    ax.legend(fontsize="small", ncols=n_stages)
    ax.margins(y=0.15)
    return fig


def comparison_figure_text(
    table: pd.DataFrame, measure: str, labels: Mapping[str, str], name: str, lang: str | None = None
) -> FigureText:
    """What :func:`comparison_figure` shows, from the same data: each edition's bars, stage by stage, as the
    figure writes their values (the text alternative); a row per edition and stage (the table).

    Parameters
    ----------
    table, measure, labels, name
        As :func:`comparison_figure` (``labels`` and ``name`` in ``lang``).
    lang : str, optional
        Default: the current language.

    Raises
    ------
    ValueError
        For an unknown measure.
    """
    values = _stages(table, measure)
    bars = "; ".join(
        f"{labels[e]} {' / '.join(_bar_value(v, lang) for v in stages.values())}" for e, stages in values.items()
    )
    alt = tr("{measure} of a fresh turn, by edition, at stage 0 / 1 / 2 …: {bars}.", lang, measure=name, bars=bars)
    columns = (tr("edition", lang), tr("stage", lang), name)
    rows = tuple(
        (labels[e], integer_text(d, lang), _bar_value(v, lang))
        for e, by_stage in values.items()
        for d, v in by_stage.items()
    )
    return FigureText(alt, columns, rows)


def _card_kinds(entries: Mapping[str, Ruleset]) -> list[Card]:
    """The kinds of card in any of the decks, in the order :func:`deck_figure` stacks them: footprints by
    steps, then stops, then dangers."""
    order = list(CardKind)
    kinds = {card for r in entries.values() for card, _ in r.composition.counts()}
    return sorted(kinds, key=lambda card: (order.index(card.kind), card.steps))


def deck_figure(entries: Mapping[str, Ruleset], labels: Mapping[str, str]) -> Figure:
    """What is in each deck: stacked bars of footprints by steps (green, light to dark), stops and dangers
    (hatched, in their cards' colours), in cards.

    Parameters
    ----------
    entries : mapping of str to Ruleset
    labels : mapping of str to str
        Edition key -> the name shown.
    """
    fig = Figure(figsize=(7.6, 0.6 + 0.55 * len(entries)), dpi=100, layout="constrained")
    ax = fig.subplots()
    greens = palette.FOOTPRINT_SHADES
    y = np.arange(len(entries))[::-1]
    left = np.zeros(len(entries))
    for card in _card_kinds(entries):
        counts = np.array([r.composition.count(card) for r in entries.values()], dtype=float)
        footprint = card.kind is CardKind.FOOTPRINT
        colour = greens[(card.steps - 1) % len(greens)] if footprint else palette.CARD[card.kind]
        bars = ax.barh(
            y, counts, left=left, color=colour, edgecolor="white", hatch=_CARD_HATCHES[card.kind], label=card.describe()
        )
        ax.bar_label(
            bars,
            labels=[str(int(c)) if c else "" for c in counts],
            label_type="center",
            fontsize="x-small",
            color=palette.INK,
            # on hatching, the count sits on a small white ground
            bbox=None if footprint else {"boxstyle": "round,pad=0.15", "facecolor": palette.WHITE, "linewidth": 0},
        )
        left += counts
    ax.set_yticks(y, [labels[e] for e in entries], parse_math=False)
    ax.set_xlabel(tr("cards in the deck"))
    ax.set_title(tr("What is in each deck"))
    fig.legend(fontsize="small", loc="outside right upper", frameon=False)
    return fig


def deck_figure_text(entries: Mapping[str, Ruleset], labels: Mapping[str, str], lang: str | None = None) -> FigureText:
    """What :func:`deck_figure` shows, from the same data: each deck's cards, footprints, stops and dangers (the
    text alternative); a row per deck with its count of every kind of card and its total (the table).

    Parameters
    ----------
    entries : mapping of str to Ruleset
    labels : mapping of str to str
        Edition key -> the name shown (in ``lang``).
    lang : str, optional
        Default: the current language.
    """
    decks = "; ".join(
        tr(
            "{name} {cards} cards (footprints {footprints}, stops {stops}, dangers {dangers})",
            lang,
            name=labels[e],
            cards=integer_text(r.composition.total, lang),
            footprints=integer_text(footprint_cards(r.composition), lang),
            stops=integer_text(r.composition.stops, lang),
            dangers=integer_text(r.composition.dangers, lang),
        )
        for e, r in entries.items()
    )
    alt = tr("What is in each deck: {decks}.", lang, decks=decks)
    kinds = _card_kinds(entries)
    columns = (tr("edition", lang), *(card.describe(lang) for card in kinds), tr("cards", lang))
    rows = tuple(
        (
            labels[e],
            *(integer_text(r.composition.count(card), lang) for card in kinds),
            integer_text(r.composition.total, lang),
        )
        for e, r in entries.items()
    )
    return FigureText(alt, columns, rows)
