"""Figures of lesson 4, the turn as an absorbing chain: the sparsity pattern of a large chain's matrix.

(The graph of a small chain is :func:`dragonkit.plots.chain_graph`.)
"""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure

from .. import palette
from ..i18n import tr
from ..i18n.numbers import decimal_text, integer_text, percent_text
from .text import FigureText

__all__ = ["spy_figure", "spy_figure_text"]


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
    import numpy as np
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
