"""A turn's policies in pictures: the policy map (where holding beats revealing), the outcomes of a policy's turn,
and the hold-at-h policies compared (lessons 3, 5 and 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import palette
from ..analysis.turn.table import hold_boundary
from ..i18n import Gems, tr
from ..i18n.numbers import decimal_text, integer_text, ranges_text
from .text import FigureText

__all__ = [
    "HOLD_HATCH",
    "LOSS_HATCH",
    "outcome_bars",
    "outcome_bars_text",
    "policy_heatmap",
    "policy_heatmap_text",
    "threshold_curve",
    "threshold_curve_text",
]

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


#: How the figures mark a region or a bar without colour: the hold cells of a policy map (:func:`policy_heatmap`,
#: and the maps drawn over it), a losing bar.
HOLD_HATCH = "///"
LOSS_HATCH = "///"


def policy_heatmap(advantage: pd.DataFrame, title: str | None = None, boundary: bool = True) -> Figure:
    """Heatmap of a policy map (:func:`dragonkit.analysis.policy_map`): push value
    minus hold value by position (x) and pot (y); blue reveals, red holds.

    Colour is not the only cue: the cells where holding is best are hatched
    (:data:`HOLD_HATCH`), and a line runs along the pot from which holding starts at
    each position (:func:`~dragonkit.analysis.turn.table.hold_boundary`), so the map reads
    in grey and without telling red from blue.

    Parameters
    ----------
    advantage : pandas.DataFrame
        Index: pot (gems), columns: position; NaN where unreachable.
    title : str, optional
        Default: "Optimal policy: reveal or hold", in the current language.
    boundary : bool
        Whether to draw where holding starts as a line, with a legend (a figure that draws
        another line over the map, and its own legend, leaves it out).
    """
    from matplotlib import colormaps
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from .cells import hatch_cells

    fig = Figure(figsize=(7.5, 4.2), dpi=100, layout="constrained")
    ax = fig.subplots()
    grid = advantage.sort_index()
    values = grid.to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    low, high = (min(finite.min(), -1.0), max(finite.max(), 1.0)) if finite.size else (-1.0, 1.0)
    image = ax.imshow(
        values,
        origin="lower",
        aspect="auto",
        cmap=palette.DIVERGING,
        interpolation="nearest",
        norm=TwoSlopeNorm(vmin=low, vcenter=0.0, vmax=high),
        extent=(
            float(grid.columns.min()) - 0.5,
            float(grid.columns.max()) + 0.5,
            float(grid.index.min()) - 0.5,
            float(grid.index.max()) + 0.5,
        ),
    )
    holds = np.isfinite(values) & (values <= 0)  # each run of hold cells, hatched
    hatch_cells(ax, grid.columns, grid.index, holds, hatch=HOLD_HATCH, edgecolor=palette.INK, alpha=0.55)
    if boundary:
        starts = hold_boundary(advantage)
        xs, ys = [], []
        for position, pot in zip(starts.index.tolist(), starts.tolist()):  # where holding starts, cell-aligned
            if np.isnan(pot):
                xs.append(np.nan)
                ys.append(np.nan)
            else:
                xs += [float(position) - 0.5, float(position) + 0.5]
                ys += [float(pot) - 0.5, float(pot) - 0.5]
        ax.plot(xs, ys, color=palette.INK, linewidth=1.8)
    ax.set_xlabel(tr("knight position"))
    ax.set_ylabel(tr("pot (gems)"))
    ax.set_title(tr("Optimal policy: reveal or hold") if title is None else title)
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(tr("push − hold (gems): blue reveal, red hold"))
    if boundary:
        cmap = colormaps[palette.DIVERGING]
        ax.legend(
            handles=[
                Patch(facecolor=cmap(0.8), edgecolor=palette.GRID, label=tr("reveal")),
                Patch(facecolor=cmap(0.2), edgecolor=palette.INK, hatch=HOLD_HATCH, label=tr("hold")),
                Line2D([], [], color=palette.INK, linewidth=1.8, label=tr("where holding starts")),
            ],
            loc="upper left",
            fontsize="small",
            framealpha=0.9,
        )
    return fig


def policy_heatmap_text(advantage: pd.DataFrame, title: str | None = None, lang: str | None = None) -> FigureText:
    """What :func:`policy_heatmap` shows, from the same map: where holding starts at each knight position.

    Parameters
    ----------
    advantage : pandas.DataFrame
        The map drawn (:func:`dragonkit.analysis.policy_map`).
    title : str, optional
        The figure's title (default: "Optimal policy: reveal or hold", in ``lang``).
    lang : str, optional

    Returns
    -------
    FigureText
        The text alternative: the positions mapped, the smallest and largest pot from which holding is
        best, the positions where revealing always is; the table: per knight position, the pot from which
        holding is best (:func:`~dragonkit.analysis.turn.table.hold_boundary`).
    """
    boundary = hold_boundary(advantage).sort_index()
    title = tr("Optimal policy: reveal or hold", lang) if title is None else title
    positions = [int(p) for p in boundary.index.tolist()]
    pots = [None if np.isnan(pot) else int(pot) for pot in boundary.tolist()]
    holding = [(pot, p) for p, pot in zip(positions, pots) if pot is not None]
    if not holding:
        alt = tr(
            "{title}: by knight position ({first} to {last}) and pot, revealing is best everywhere on the map.",
            lang,
            title=title,
            first=positions[0],
            last=positions[-1],
        )
    else:
        (low, low_at), (high, high_at) = min(holding), max(holding)
        alt = tr(
            "{title}: by knight position ({first} to {last}) and pot, reveal below the line, hold (hatched) from it. "
            "Holding is best from a pot of {low} at position {low_at}, up to {high} at position {high_at}.",
            lang,
            title=title,
            first=positions[0],
            last=positions[-1],
            low=Gems(low),
            low_at=low_at,
            high=Gems(high),
            high_at=high_at,
        )
        never = [p for p, pot in zip(positions, pots) if pot is None]
        if never:
            alt += " " + tr("Always reveal at positions {positions}.", lang, positions=ranges_text(never, lang))
    columns = (tr("knight position", lang), tr("hold from pot (gems)", lang))
    rows = tuple(
        (integer_text(p, lang), tr("always reveal", lang) if pot is None else integer_text(pot, lang))
        for p, pot in zip(positions, pots)
    )
    return FigureText(alt, columns, rows)


def outcome_bars(evaluation) -> Figure:
    """Bar chart of the exact distribution of a turn's gem change
    (:class:`dragonkit.analysis.PolicyEvaluation`), with the expected value marked.

    Losses are red and hatched, gains green, no change grey (the legend says which is which).
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    fig = Figure(figsize=(7.0, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    dist = evaluation.distribution
    gains = np.asarray(dist.index, dtype=float)
    probs = np.asarray([float(p) for p in dist.to_numpy()])
    colours = np.where(gains < 0, palette.BAD, np.where(gains == 0, palette.NEUTRAL, palette.GOOD))
    width = max(0.8, (gains.max() - gains.min()) / 120) if len(gains) > 1 else 0.8
    bars = ax.bar(gains, probs, width=width, color=colours)
    for patch, gain in zip(bars.patches, gains):
        if gain < 0:
            patch.set_hatch(LOSS_HATCH)
            patch.set_edgecolor(palette.WHITE)
            patch.set_linewidth(0)
    line = ax.axvline(
        float(evaluation.expected_gain),
        color=palette.EXACT,
        linestyle="--",
        label=tr("expected {value} gems", value=decimal_text(float(evaluation.expected_gain), 2)),
    )
    kinds = [
        (gains < 0, Patch(facecolor=palette.BAD, edgecolor=palette.WHITE, hatch=LOSS_HATCH, label=tr("loss"))),
        (gains == 0, Patch(facecolor=palette.NEUTRAL, label=tr("no change"))),
        (gains > 0, Patch(facecolor=palette.GOOD, label=tr("gain"))),
    ]
    ax.set_xlabel(tr("gem change at the end of the turn"))
    ax.set_ylabel(tr("probability"))
    ax.set_title(tr("Outcome distribution: {policy}", policy=str(evaluation.policy)))
    ax.legend(handles=[line] + [patch for shown, patch in kinds if shown.any()], fontsize="small")
    return fig


def outcome_bars_text(evaluation, lang: str | None = None) -> FigureText:
    """What :func:`outcome_bars` shows, from the same evaluation: the outcomes' range, the expected
    gem change and the probability of a loss (the text alternative), and every gem change with its
    probability (the table).

    Parameters
    ----------
    evaluation : dragonkit.analysis.PolicyEvaluation
    lang : str, optional

    Returns
    -------
    FigureText
    """
    dist = evaluation.distribution
    gains = [int(g) for g in dist.index]
    alt = tr(
        "Distribution of the gem change at the end of the turn, {policy}: {n} possible changes from {low} to {high} "
        "gems; expected change {mean} gems; probability of a loss {loss}.",
        lang,
        policy=str(evaluation.policy),
        n=len(gains),
        low=integer_text(min(gains), lang),
        high=integer_text(max(gains), lang),
        mean=decimal_text(float(evaluation.expected_gain), 2, lang),
        loss=decimal_text(float(evaluation.p_loss), 3, lang),
    )
    columns = (tr("gem change at the end of the turn", lang), tr("probability", lang))
    rows = tuple((integer_text(g, lang), decimal_text(float(p), 3, lang)) for g, p in zip(gains, dist.tolist()))
    return FigureText(alt, columns, rows)


def _hold_at_rows(comparison: pd.DataFrame) -> tuple[pd.DataFrame, Any]:
    """The hold-at-h rows of a :func:`~dragonkit.analysis.compare_policies` table, and the label of the
    first with the largest expected gem change."""
    rows = comparison[comparison["threshold"].notna()]
    return rows, rows.index[int(np.argmax(rows["expected_gain"].astype(float).to_numpy()))]


def threshold_curve(comparison: pd.DataFrame) -> Figure:
    """Expected gem change of the hold-at-h policies against h
    (:func:`dragonkit.analysis.compare_policies`), with the optimum as a line."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.0, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    rows, best = _hold_at_rows(comparison)
    gains = rows["expected_gain"].astype(float)
    ax.plot(
        rows["threshold"].astype(float),
        gains,
        marker="o",
        markersize=3,
        color=palette.EXACT,
        label=tr("hold when pot ≥ h"),
    )
    ax.plot(
        rows.loc[best, "threshold"],
        gains[best],
        "o",
        color=palette.HIGHLIGHT,
        markersize=9,
        label=tr("best h = {t}", t=int(rows.loc[best, "threshold"])),
    )
    if "optimal" in comparison.index:
        ax.axhline(
            float(comparison["expected_gain"].astype(float)["optimal"]),
            color=palette.GOOD,
            linestyle="--",
            label=tr("optimal policy"),
        )
    ax.set_xlabel(tr("threshold h (gems)"))
    ax.set_ylabel(tr("expected gem change"))
    ax.set_title(tr("Hold-at-h policies"))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def threshold_curve_text(comparison: pd.DataFrame, lang: str | None = None) -> FigureText:
    """What :func:`threshold_curve` shows, from the same table: the thresholds drawn, the best one and
    the optimal policy's expected gem change (the text alternative), and each t's expected gem change
    (the table, the optimal policy last).

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`dragonkit.analysis.compare_policies`.
    lang : str, optional

    Returns
    -------
    FigureText
    """
    rows, best = _hold_at_rows(comparison)
    thresholds = [int(t) for t in rows["threshold"]]
    gains = [float(g) for g in rows["expected_gain"]]
    alt = tr(
        "Expected gem change of the hold-at-h policies, h from {low} to {high} gems: the best is h = {t}, "
        "with {gain} gems.",
        lang,
        low=integer_text(thresholds[0], lang),
        high=integer_text(thresholds[-1], lang),
        t=integer_text(int(rows.loc[best, "threshold"]), lang),
        gain=decimal_text(float(rows.loc[best, "expected_gain"]), 3, lang),
    )
    table = [(integer_text(t, lang), decimal_text(g, 3, lang)) for t, g in zip(thresholds, gains)]
    if "optimal" in comparison.index:
        optimum = decimal_text(float(comparison["expected_gain"].astype(float)["optimal"]), 3, lang)
        alt += " " + tr("The optimal policy: {gain} gems.", lang, gain=optimum)
        table.append((tr("optimal policy", lang), optimum))
    return FigureText(alt, (tr("threshold h (gems)", lang), tr("expected gem change", lang)), tuple(table))
