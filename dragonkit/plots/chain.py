"""Figures of lesson 4, the turn as an absorbing chain: the graph of a small chain (:func:`chain_graph`) and the
sparsity pattern of a large chain's matrix (:func:`spy_figure`)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import palette
from ..analysis import Situation
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text, percent_text
from ..rules import CardKind, Outcome
from .text import FigureText

__all__ = ["chain_graph", "chain_graph_text", "spy_figure", "spy_figure_text"]


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
            n: n
            for n in graph.nodes
            if palette.CARD_TEXT.get(kinds.get(n, CardKind.FOOTPRINT), palette.WHITE) == text_colour
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
_LOSS_KINDS = {
    Outcome.STOPPED.label: CardKind.STOP,
    Outcome.DANGER.label: CardKind.DANGER,
    Outcome.FINAL_DANGER.label: CardKind.DANGER,
}


def _short(label, lang: str | None = None) -> str:
    """A node's name on two lines, in ``lang`` (default: the current language): ``@3 / pot 6``, ``held / 6``,
    ``final / danger``."""
    if isinstance(label, Situation):
        return tr("@{position}\npot {pot}", lang, position=label.position, pot=label.pot)
    held = re.fullmatch(r"held (\d+)", str(label))
    if held:
        return tr("held\n{pot}", lang, pot=int(held.group(1)))
    return tr(str(label), lang).replace(" ", "\n")


def spy_figure(matrix: Any, title: str | None = None) -> Figure:
    """The sparsity pattern of a (large, sparse) matrix: a dot for each non-zero entry.

    Parameters
    ----------
    matrix : scipy.sparse matrix or ndarray, shape (n, m)
    title : str, optional
        Default: the shape, the number of non-zero entries and their share of all
        entries (in percent), in the current language.

    Returns
    -------
    matplotlib.figure.Figure
        Rows: the state before a card; columns: the state after it.
    """
    import scipy.sparse as sp

    matrix = sp.csr_matrix(matrix)
    rows, cols = matrix.shape
    fig = Figure(figsize=(5.2, 5.0), dpi=100, layout="constrained")
    ax = fig.subplots()
    ax.spy(matrix, markersize=0.6, color=palette.EXACT)
    ax.set_xlabel(tr("column: the state after the card"))
    ax.set_ylabel(tr("row: the state before the card"))
    ax.xaxis.set_label_position("top")
    density = matrix.nnz / (rows * cols) if rows * cols else 0.0
    ax.set_title(
        title
        or tr(
            "{rows} × {cols}, {nnz} non-zero entries ({density} of all)",
            rows=integer_text(rows),
            cols=integer_text(cols),
            nnz=integer_text(matrix.nnz),
            density=percent_text(density, 3),
        ),
        fontsize=10,
    )
    return fig


def spy_figure_text(matrix: Any, lang: str | None = None) -> FigureText:
    """What :func:`spy_figure` shows, from the same data: the matrix's shape and non-zero entries, and where
    they lie against the diagonal (the text alternative); those counts and the entries per row (the table).

    Parameters
    ----------
    matrix : scipy.sparse matrix or ndarray, shape (n, m)
    lang : str, optional
        Default: the current language.
    """
    import scipy.sparse as sp

    matrix = sp.csr_matrix(matrix, copy=True)
    matrix.eliminate_zeros()  # the dots spy draws: the entries that are not 0 (on a copy: the caller's stays)
    rows, cols = matrix.shape
    above, below = sp.triu(matrix, k=1).nnz, sp.tril(matrix, k=-1).nnz
    diagonal = matrix.nnz - above - below
    per_row = np.diff(matrix.indptr)
    density = matrix.nnz / (rows * cols) if rows * cols else 0.0
    alt = tr(
        "The sparsity pattern of a {rows} × {cols} matrix: a dot for each of its {nnz} non-zero entries "
        "({density} of all); {above} lie above the diagonal, {diagonal} on it and {below} below it.",
        lang,
        rows=integer_text(rows, lang),
        cols=integer_text(cols, lang),
        nnz=integer_text(matrix.nnz, lang),
        density=percent_text(density, 3, lang),
        above=integer_text(above, lang),
        diagonal=integer_text(diagonal, lang),
        below=integer_text(below, lang),
    )
    table = [
        (tr("rows", lang), integer_text(rows, lang)),
        (tr("columns", lang), integer_text(cols, lang)),
        (tr("non-zero entries", lang), integer_text(matrix.nnz, lang)),
        (tr("share of all entries", lang), percent_text(density, 3, lang)),
        (tr("above the diagonal", lang), integer_text(above, lang)),
        (tr("on the diagonal", lang), integer_text(diagonal, lang)),
        (tr("below the diagonal", lang), integer_text(below, lang)),
        (tr("non-zero entries per row, on average", lang), decimal_text(matrix.nnz / rows if rows else 0, 2, lang)),
        (tr("non-zero entries in the fullest row", lang), integer_text(int(per_row.max(initial=0)), lang)),
        (tr("rows without a non-zero entry", lang), integer_text(int((per_row == 0).sum()), lang)),
    ]
    return FigureText(alt, (tr("the matrix", lang), tr("number", lang)), tuple(table))
