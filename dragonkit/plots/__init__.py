"""Figures from games and analyses, each with its text alternative (:class:`~dragonkit.plots.text.FigureText`).

Most are matplotlib figures, built with the object-oriented API (:class:`matplotlib.figure.Figure`),
never through pyplot's global state, so a long-running app leaks none.  Titles,
axis labels and legends are in the current language of :mod:`dragonkit.i18n`
(draw the figure again after switching), and so are their numbers (``0.375`` /
``0,375``: :mod:`dragonkit.i18n.numbers`); :func:`figure_png` writes the axes'
tick labels the same way.

The gems over a game (:func:`gems_over_game`), which the play app shows at the end of every game, is an
SVG written as text instead (:mod:`dragonkit.plots.game`).  Importing this package loads no matplotlib:
each function that draws with it imports it, so that a visitor's kernel, which draws only that SVG, never
pays for matplotlib (about half a CPU-second).
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import palette
from ..analysis import Situation
from ..analysis.turn.table import hold_boundary
from ..i18n import Gems, tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_text, ranges_text
from ..rules import Outcome
from .game import gems_over_game, gems_over_game_text
from .labels import number_label
from .text import FigureText

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd
    from matplotlib.figure import Figure

    from ..simulate import TournamentResult

__all__ = [
    "HOLD_HATCH",
    "LOSS_HATCH",
    "chain_graph",
    "chain_graph_text",
    "figure_png",
    "gems_over_game",
    "gems_over_game_text",
    "localize_ticks",
    "number_label",
    "outcome_bars",
    "outcome_bars_text",
    "policy_heatmap",
    "policy_heatmap_text",
    "threshold_curve",
    "threshold_curve_text",
    "win_rates",
    "win_rates_text",
]


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


def figure_png(fig: Figure, lang: str | None = None) -> bytes:
    """The figure rendered as PNG bytes, its tick labels written in ``lang`` (default: the current language).

    Every axis whose labels come from matplotlib's default :class:`~matplotlib.ticker.ScalarFormatter`
    (colour bars included) writes them as the language does (``0.5`` / ``0,5``, ``2,000`` / ``2.000``,
    :func:`number_label`); log, category and fixed labels are left as they are.
    """
    localize_ticks(fig, lang)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def localize_ticks(fig: Figure, lang: str | None = None) -> None:
    """Have every axis of ``fig`` labelled by a :class:`~matplotlib.ticker.ScalarFormatter` (the default
    for numbers) write its tick labels in ``lang`` (default: the language when the figure is drawn).

    Log axes, category axes and labels given explicitly keep their formatters; an axis already
    localized (shared with another) is left alone.
    """
    from matplotlib.ticker import ScalarFormatter

    from .ticks import LanguageFormatter

    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            major, minor = axis.get_major_formatter(), axis.get_minor_formatter()
            if isinstance(major, ScalarFormatter):
                axis.set_major_formatter(LanguageFormatter(major, lang))
            if isinstance(minor, ScalarFormatter):
                axis.set_minor_formatter(LanguageFormatter(minor, lang))


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
    """The hold-at-t rows of a :func:`~dragonkit.analysis.compare_policies` table, and the label of the
    first with the largest expected gem change."""
    rows = comparison[comparison["threshold"].notna()]
    return rows, rows.index[int(np.argmax(rows["expected_gain"].astype(float).to_numpy()))]


def threshold_curve(comparison: pd.DataFrame) -> Figure:
    """Expected gem change of the hold-at-t policies against t
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
        label=tr("hold when pot ≥ t"),
    )
    ax.plot(
        rows.loc[best, "threshold"],
        gains[best],
        "o",
        color=palette.HIGHLIGHT,
        markersize=9,
        label=tr("best t = {t}", t=int(rows.loc[best, "threshold"])),
    )
    if "optimal" in comparison.index:
        ax.axhline(
            float(comparison["expected_gain"].astype(float)["optimal"]),
            color=palette.GOOD,
            linestyle="--",
            label=tr("optimal policy"),
        )
    ax.set_xlabel(tr("threshold t (gems)"))
    ax.set_ylabel(tr("expected gem change"))
    ax.set_title(tr("Hold-at-t policies"))
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
        "Expected gem change of the hold-at-t policies, t from {low} to {high} gems: the best is t = {t}, "
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
    return FigureText(alt, (tr("threshold t (gems)", lang), tr("expected gem change", lang)), tuple(table))


def chain_graph(chain, max_states: int = 60) -> Figure:
    """The transition graph of a small absorbing chain, drawn with networkx: transient states as blue
    circles, absorbing ones as squares, red (a loss) or green; each arrow labelled with its probability.

    Parameters
    ----------
    chain : dragonkit.markov.AbsorbingChain
    max_states : int
        Refuse larger chains, which would be unreadable.

    Raises
    ------
    ValueError
        If the chain has more than ``max_states`` states.
    """
    import networkx as nx
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    size = len(chain.transient) + len(chain.absorbing)
    if size > max_states:
        raise ValueError(f"the chain has {size} states; draw at most {max_states}")
    names = {label: _short(label) for label in (*chain.transient, *chain.absorbing)}
    # absorbing states in their card's colours (as on the board), the others green (held, head) or blue
    kinds = {names[label]: _LOSS_KINDS[label] for label in chain.absorbing if label in _LOSS_KINDS}
    graph: nx.DiGraph[str] = nx.DiGraph()
    for source, target, p in _chain_edges(chain):
        graph.add_edge(names[source], names[target], p=p)
    transient = [names[s] for s in chain.transient]
    # the layers (cards drawn, the outcomes last), each in the chain's order: the same picture every time
    layers: dict[int, list[str]] = {}
    for label in chain.transient:
        depth = len(label.drawn.split("+")) if getattr(label, "drawn", "") else 0
        layers.setdefault(depth, []).append(names[label])
    layers[max(layers, default=0) + 1] = [names[label] for label in chain.absorbing]
    drawn = {depth: [n for n in nodes if n in graph] for depth, nodes in layers.items()}
    pos = nx.multipartite_layout(graph, subset_key={depth: nodes for depth, nodes in drawn.items() if nodes})
    fig = Figure(figsize=(8.0, 4.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    # the shape tells a decision point (a circle) from an outcome (a square) without the colours
    circles = [n for n in graph.nodes if n in transient]
    squares = [n for n in graph.nodes if n not in transient]
    for shape, size, nodes in (("o", 900, circles), ("s", 760, squares)):  # a square as big as the circle looks
        nx.draw_networkx_nodes(
            graph,
            pos,
            nodelist=nodes,
            ax=ax,
            node_shape=shape,
            node_size=size,
            node_color=[
                palette.BLUE if n in transient else palette.CARD[kinds[n]] if n in kinds else palette.GOOD
                for n in nodes
            ],
        )
    nx.draw_networkx_edges(graph, pos, ax=ax, node_size=900, arrowsize=12, edge_color=palette.GRID)
    for text_colour in {palette.WHITE, *palette.CARD_TEXT.values()}:
        labels = {
            n: n for n in graph.nodes if palette.CARD_TEXT.get(kinds.get(n, "footprint"), palette.WHITE) == text_colour
        }
        nx.draw_networkx_labels(graph, pos, labels=labels, ax=ax, font_size=7, font_color=text_colour)
    nx.draw_networkx_edge_labels(
        graph, pos, ax=ax, font_size=7, edge_labels={(u, v): _probability(d["p"]) for u, v, d in graph.edges(data=True)}
    )
    ax.legend(
        handles=[
            Line2D([], [], marker=marker, linestyle="", markersize=9, color=palette.GRID, label=label)
            for marker, label in (
                ("o", tr("circle: a decision point, the policy reveals")),
                ("s", tr("square: an outcome, the turn ends")),
            )
        ],
        loc="lower left",
        fontsize="small",
        frameon=False,
    )
    ax.set_axis_off()
    ax.set_title(tr("The turn as an absorbing Markov chain"))
    return fig


def chain_graph_text(chain, lang: str | None = None) -> FigureText:
    """What :func:`chain_graph` shows, from the same data: its decision points, its outcomes and its arrows
    (the text alternative); every arrow with its probability (the table).

    Parameters
    ----------
    chain : dragonkit.markov.AbsorbingChain
    lang : str, optional
        Default: the current language.
    """

    def name(label) -> str:
        return _short(label, lang).replace("\n", " ")

    edges = _chain_edges(chain)
    alt = tr(
        "The turn as an absorbing Markov chain: {transient} decision points, where the policy reveals a card, "
        "and {absorbing} outcomes ({outcomes}); {arrows} arrows, one for each card that can come, with its "
        "probability.",
        lang,
        transient=integer_text(len(chain.transient), lang),
        absorbing=integer_text(len(chain.absorbing), lang),
        outcomes=", ".join(name(label) for label in chain.absorbing),
        arrows=integer_text(len(edges), lang),
    )
    columns = (tr("from state", lang), tr("to state", lang), tr("probability", lang))
    return FigureText(alt, columns, tuple((name(s), name(t), _probability(p, lang)) for s, t, p in edges))


def _chain_edges(chain) -> list[tuple[Any, Any, Any]]:
    """The arrows of :func:`chain_graph`: ``(source, target, probability)`` for every non-zero entry of a
    transient state's row of the canonical form, sources in the chain's order."""
    frame = chain.canonical_form()
    return [(source, target, p) for source in chain.transient for target, p in frame.loc[[source]].iloc[0].items() if p]


def _probability(p: Any, lang: str | None = None) -> str:
    """An arrow's probability: an exact one as its fraction (``3/8``), a float as the language writes it."""
    return decimal_text(float(p), 3, lang) if isinstance(p, float) else str(p)


#: The absorbing states of :func:`dragonkit.analysis.turn_chain` where the turn is lost, by the kind of
#: card that ends it (drawn in that card's colour).
_LOSS_KINDS = {Outcome.STOPPED.label: "stop", Outcome.DANGER.label: "danger", Outcome.FINAL_DANGER.label: "danger"}


def _short(label, lang: str | None = None) -> str:
    """A node's name on two lines, in ``lang`` (default: the current language): ``@3 / pot 6``, ``held / 6``,
    ``final / danger``."""
    if isinstance(label, Situation):
        return tr("@{position}\npot {pot}", lang, position=label.position, pot=label.pot)
    held = re.fullmatch(r"held (\d+)", str(label))
    if held:
        return tr("held\n{pot}", lang, pot=int(held.group(1)))
    return tr(str(label), lang).replace(" ", "\n")
