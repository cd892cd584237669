"""Figures of lesson 4, the turn as an absorbing chain: the sparsity pattern of a large chain's matrix.

(The graph of a small chain is :func:`dragonkit.plots.chain_graph`.)
"""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure

from .. import palette
from ..i18n import tr
from ..i18n.numbers import integer_text, percent_text

__all__ = ["spy_figure"]


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
