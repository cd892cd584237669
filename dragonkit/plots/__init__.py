"""Matplotlib figures from games and analyses.

Figures are built with the object-oriented API (:class:`matplotlib.figure.Figure`),
never through pyplot's global state, so a long-running app leaks none.  Titles,
axis labels and legends are in the current language of :mod:`dragonkit.i18n`
(draw the figure again after switching), and so are their numbers (``0.375`` /
``0,375``: :mod:`dragonkit.i18n.numbers`); :func:`figure_png` writes the axes'
tick labels the same way.
"""

from __future__ import annotations

import io
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, MaxNLocator, ScalarFormatter

from .. import palette
from ..analysis import Situation
from ..engine import Game
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_text
from ..rules import Outcome
from .text import FigureText

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

    from ..simulate import TournamentResult

__all__ = [
    "chain_graph",
    "chain_graph_text",
    "figure_png",
    "gems_over_game",
    "gems_over_game_text",
    "localize_ticks",
    "number_label",
    "outcome_bars",
    "policy_heatmap",
    "threshold_curve",
    "win_rates",
    "win_rates_text",
]


def gems_over_game(game: Game) -> Figure:
    """A line per player: gems at the start and after every turn.

    Returns
    -------
    matplotlib.figure.Figure
        x: turns completed; y: gems.
    """
    fig = Figure(figsize=(4.2, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    history = game.gem_history
    turns = range(len(history))
    for seat, name in enumerate(game.players):
        ax.plot(
            turns,
            [h[seat] for h in history],
            marker="o",
            markersize=3,
            label=_plain(name),
            color=palette.PLAYERS[seat % len(palette.PLAYERS)],
            linewidth=2.5 if seat in game.winners else 1.5,
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(tr("turns played"))
    ax.set_ylabel(tr("gems"))
    ax.set_title(tr("Gems over the game"))
    ax.grid(alpha=0.3)
    fig.legend(loc="outside lower center", fontsize="small", ncols=min(len(game.players), 3), frameon=False)
    return fig


def gems_over_game_text(game: Game, lang: str | None = None) -> FigureText:
    """What :func:`gems_over_game` shows, from the same data: the number of turns and each player's final gems
    (the text alternative), and per player the gems at the start, the fewest, the most and at the end (the table).
    """
    history = game.gem_history
    scores = ", ".join(f"{name} {integer_text(gems, lang)}" for name, gems in zip(game.players, game.gems))
    alt = tr("Gems over the game, after {turns} turns: {scores}", lang, turns=len(history) - 1, scores=scores)
    columns = (
        tr("player", lang),
        tr("at the start", lang),
        tr("fewest", lang),
        tr("most", lang),
        tr("at the end", lang),
    )
    rows = tuple(
        (name, *(integer_text(v, lang) for v in (h[0], min(h), max(h), h[-1])))
        for name, h in ((name, [turn[seat] for turn in history]) for seat, name in enumerate(game.players))
    )
    return FigureText(alt, columns, rows)


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


#: A number as matplotlib and Python's ``format`` write it: digits, maybe a decimal point and more digits,
#: maybe an exponent (kept as it is).
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)([eE][+\-−]?\d+)?")


def number_label(text: str, lang: str | None = None) -> str:
    """A label written with Python's or matplotlib's number format (``"0.5"``, ``"2000"``, ``"1e+03"``,
    ``"$\\mathdefault{0.5}$"``), with its numbers as ``lang`` writes them (default: the current language):
    ``"0,5"``, ``"2.000"`` in Italian, ``"2,000"`` in English; signs, exponents and mathtext stay.

    Parameters
    ----------
    text : str
    lang : str, optional
    """

    def written(match: re.Match[str]) -> str:
        digits, exponent = match.group(1), match.group(2) or ""
        shown = decimal_text(Fraction(digits), len(digits.partition(".")[2]), lang)
        return (shown.replace(",", "{,}") if "$" in text else shown) + exponent  # mathtext spaces a bare comma

    return _NUMBER.sub(written, text)


class _LanguageFormatter(Formatter):
    """An axis's formatter (a :class:`~matplotlib.ticker.ScalarFormatter`) whose labels and offset are
    written in a language (:func:`number_label`): it computes them, this writes them."""

    def __init__(self, inner: Formatter, lang: str | None = None):
        self.inner, self.lang = inner, lang

    def set_axis(self, axis: Any) -> None:
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs: Any) -> None:
        super().set_locs(locs)
        self.inner.set_locs(locs)

    def __call__(self, x: float, pos: int | None = None) -> str:
        return number_label(self.inner(x, pos), self.lang)

    def format_ticks(self, values: Any) -> list[str]:
        return [number_label(label, self.lang) for label in self.inner.format_ticks(values)]

    def get_offset(self) -> str:
        return number_label(self.inner.get_offset(), self.lang)

    def format_data(self, value: float) -> str:
        return number_label(self.inner.format_data(value), self.lang)

    def format_data_short(self, value: float) -> str:
        return number_label(self.inner.format_data_short(value), self.lang)


def localize_ticks(fig: Figure, lang: str | None = None) -> None:
    """Have every axis of ``fig`` labelled by a :class:`~matplotlib.ticker.ScalarFormatter` (the default
    for numbers) write its tick labels in ``lang`` (default: the language when the figure is drawn).

    Log axes, category axes and labels given explicitly keep their formatters; an axis already
    localized (shared with another) is left alone.
    """
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            major, minor = axis.get_major_formatter(), axis.get_minor_formatter()
            if isinstance(major, ScalarFormatter):
                axis.set_major_formatter(_LanguageFormatter(major, lang))
            if isinstance(minor, ScalarFormatter):
                axis.set_minor_formatter(_LanguageFormatter(minor, lang))


def policy_heatmap(advantage: pd.DataFrame, title: str | None = None) -> Figure:
    """Heatmap of a policy map (:func:`dragonkit.analysis.policy_map`): push value
    minus hold value by position (x) and pot (y); blue reveals, orange holds.

    Parameters
    ----------
    advantage : pandas.DataFrame
        Index: pot (gems), columns: position; NaN where unreachable.
    title : str, optional
        Default: "Optimal policy: reveal or hold", in the current language.
    """
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
    holds = np.where(np.isfinite(values), (values <= 0).astype(float), np.nan)
    if np.nanmax(holds, initial=0) > 0 and np.nanmin(holds, initial=1) < 1:  # draw the hold/reveal border
        border = np.ma.masked_invalid(holds)
        ax.contour(grid.columns, grid.index, border, levels=[0.5], colors=palette.INK, linewidths=1.2)
    ax.set_xlabel(tr("knight position"))
    ax.set_ylabel(tr("pot (gems)"))
    ax.set_title(tr("Optimal policy: reveal or hold") if title is None else title)
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(tr("push − hold (gems): blue reveal, red hold"))
    return fig


def outcome_bars(evaluation) -> Figure:
    """Bar chart of the exact distribution of a turn's gem change
    (:class:`dragonkit.analysis.PolicyEvaluation`), with the expected value marked."""
    fig = Figure(figsize=(7.0, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    dist = evaluation.distribution
    gains = np.asarray(dist.index, dtype=float)
    probs = np.asarray([float(p) for p in dist.to_numpy()])
    colours = np.where(gains < 0, palette.BAD, np.where(gains == 0, palette.NEUTRAL, palette.GOOD))
    width = max(0.8, (gains.max() - gains.min()) / 120) if len(gains) > 1 else 0.8
    ax.bar(gains, probs, width=width, color=colours)
    ax.axvline(
        float(evaluation.expected_gain),
        color=palette.EXACT,
        linestyle="--",
        label=tr("expected {value} gems", value=decimal_text(float(evaluation.expected_gain), 2)),
    )
    ax.set_xlabel(tr("gem change at the end of the turn"))
    ax.set_ylabel(tr("probability"))
    ax.set_title(tr("Outcome distribution: {policy}", policy=str(evaluation.policy)))
    ax.legend(fontsize="small")
    return fig


def threshold_curve(comparison: pd.DataFrame) -> Figure:
    """Expected gem change of the hold-at-t policies against t
    (:func:`dragonkit.analysis.compare_policies`), with the optimum as a line."""
    fig = Figure(figsize=(7.0, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    rows = comparison[comparison["threshold"].notna()]
    gains = rows["expected_gain"].astype(float)
    ax.plot(
        rows["threshold"].astype(float),
        gains,
        marker="o",
        markersize=3,
        color=palette.EXACT,
        label=tr("hold when pot ≥ t"),
    )
    best = rows.index[int(np.argmax(gains.to_numpy()))]
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
