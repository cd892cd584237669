"""Hatched cells of a map by knight position and pot: the patterns that say what a colour says, for
readers who cannot tell the colours apart and for print."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from ..i18n.numbers import consecutive_runs

__all__ = ["hatch_cells"]


def hatch_cells(ax: Axes, positions: npt.ArrayLike, pots: npt.ArrayLike, marked: npt.ArrayLike, **style: Any) -> None:
    """Hatch the ``marked`` cells of a map drawn with unit cells centred on its positions and pots, one
    rectangle per run of marked cells in a column.

    Parameters
    ----------
    ax : matplotlib Axes
    positions : array_like, shape (m,)
        The columns' knight positions.
    pots : array_like, shape (n,)
        The rows' pots (gems), ascending.
    marked : array_like of bool, shape (n, m)
        The cells to hatch.
    **style
        The rectangles' ``hatch``, ``edgecolor``, ``alpha``... (:class:`matplotlib.patches.Rectangle`).
    """
    pots = np.asarray(pots, dtype=float)
    marked = np.asarray(marked, dtype=bool)
    for column, position in enumerate(np.asarray(positions, dtype=float)):
        for first, last in consecutive_runs(np.flatnonzero(marked[:, column]).tolist()):
            height = pots[last] - pots[first] + 1.0
            ax.add_patch(Rectangle((position - 0.5, pots[first] - 0.5), 1.0, height, fill=False, linewidth=0, **style))
