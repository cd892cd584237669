"""Figures of lesson 10, gems or wins: Pig's win-optimal policy, and where Dragon Stripes' two coaches (the most
gems of a turn, the most wins of a game) choose differently.

Each figure has its text beside it (``<figure>_text``, a :class:`~dragonkit.plots.text.FigureText`), written from
the same data: what it shows and its key numbers, and those numbers as a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .. import palette
from ..i18n import N_, ntr, tr
from ..i18n.numbers import integer_text, ranges_text
from ..topics.gems_or_wins import AGREEMENTS, pig_hold_table
from .cells import hatch_cells
from .text import FigureText

if TYPE_CHECKING:
    import pandas as pd

    from ..topics.pig import PigSolution

__all__ = [
    "AGREEMENT_LABELS",
    "coach_map_figure",
    "coach_map_figure_text",
    "pig_policy_figure",
    "pig_policy_figure_text",
]

#: How the figures name the cells of :func:`~dragonkit.topics.gems_or_wins.coach_map` (msgids).
AGREEMENT_LABELS = {
    "both reveal": N_("both coaches reveal"),
    "both hold": N_("both coaches hold"),
    "win reveals": N_("the win coach reveals, the gem coach holds"),
    "win holds": N_("the win coach holds, the gem coach reveals"),
}
#: Each cell's colour and hatching: the two coaches' disagreements are dark and hatched (white hatching), their
#: agreements light and plain, so that the map reads without its colours.
_CELL_STYLE = {
    "both reveal": (palette.SKY_BLUE, ""),
    "both hold": (palette.YELLOW, ""),
    "win reveals": (palette.BLUE, "\\\\\\"),
    "win holds": (palette.VERMILLION, "xxx"),
}
#: Pig's lines, one per opponent's score: their line styles and markers, in order (with the colours of the stages).
_PIG_STYLES = (("-", "o"), ("--", "s"), ("-.", "^"), (":", "D"), ("-", "v"), ("--", "P"))
#: The scores of the table under Pig's figure: every tenth.
_PIG_ROWS = tuple(range(0, 100, 10))


# -- Pig --------------------------------------------------------------------------------------------------------


def pig_policy_figure(solution: PigSolution, opponents: Sequence[int], hold_at: int = 20) -> Figure:
    """Pig's win-optimal policy: the turn total at which the player holds (y), by the player's score (x),
    one line per opponent's score; "hold at ``hold_at``" as a dashed grey line.

    Parameters
    ----------
    solution : PigSolution
        :func:`~dragonkit.topics.pig.solve_pig`'s.
    opponents : sequence of int
        The opponent's scores drawn, one line each (at most six).
    hold_at : int
        The turn total of the rule drawn for comparison (points).
    """
    boundary = solution.boundary()
    scores = np.arange(solution.goal)
    fig = Figure(figsize=(7.4, 3.9), dpi=100, layout="constrained")
    ax = fig.subplots()
    for k, j in enumerate(opponents):
        style, marker = _PIG_STYLES[k % len(_PIG_STYLES)]
        ax.plot(
            scores,
            boundary[:, j],
            linestyle=style,
            marker=marker,
            markevery=10,
            markersize=5,
            linewidth=1.4,
            color=palette.STAGES[k % len(palette.STAGES)],
            label=tr("opponent at {j}", j=j),
        )
    ax.axhline(hold_at, color=palette.GRID, linestyle=(0, (6, 3)), linewidth=1.6, label=tr("hold at {t}", t=hold_at))
    ax.set_xlim(0, solution.goal - 1)
    ax.set_ylim(0, solution.goal)
    ax.set_xlabel(tr("your score"))
    ax.set_ylabel(tr("hold when the turn total reaches"))
    ax.set_title(tr("Pig: where the player who plays to win holds"))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", ncols=2, loc="upper right", framealpha=0.9)
    return fig


def pig_policy_figure_text(
    solution: PigSolution, opponents: Sequence[int], hold_at: int = 20, lang: str | None = None
) -> FigureText:
    """What :func:`pig_policy_figure` shows, from the same solution: where the player holds at 0 against 0 and
    where the figure's lines rise to the goal (the text alternative); the turn total at which the player holds
    for every tenth score against each opponent drawn (the table).

    Parameters
    ----------
    solution, opponents, hold_at
        As :func:`pig_policy_figure`.
    lang : str, optional
        Default: the current language.
    """
    table = pig_hold_table(solution, _PIG_ROWS, opponents)
    last = opponents[-1]
    behind = [i for i in range(solution.goal) if solution.hold_at(i, last) == solution.goal - i]
    alt = tr(
        "Pig: the turn total at which the player who plays to win holds, by their score, for an opponent at "
        "{opponents}. At 0 against 0: hold at {start}. Against {last}: roll on until you reach 100 at scores {behind}. "
        "The dashed line: hold at {t}.",
        lang,
        opponents=", ".join(integer_text(j, lang) for j in opponents),
        start=integer_text(solution.hold_at(0, 0), lang),
        last=integer_text(last, lang),
        behind=ranges_text(behind, lang) if behind else "—",
        t=integer_text(hold_at, lang),
    )
    columns = (tr("your score", lang), *(tr("opponent at {j}", lang, j=j) for j in opponents))
    rows = tuple((integer_text(i, lang), *(integer_text(k, lang) for k in row)) for i, row in zip(_PIG_ROWS, table))
    return FigureText(alt, columns, rows)


# -- Dragon Stripes: the two coaches ----------------------------------------------------------------------------


def coach_map_figure(cells: pd.DataFrame, title: str, chosen: tuple[int, int] | None = None) -> Figure:
    """Where the gem coach and the win coach choose alike and where not, by knight position (x) and pot (y).

    Parameters
    ----------
    cells : pandas.DataFrame
        :func:`~dragonkit.topics.gems_or_wins.coach_map`'s: index pot, columns position, cells one of
        :data:`~dragonkit.topics.gems_or_wins.AGREEMENTS` or NaN.
    title : str
        The figure's title (the deck and the gems mapped, in the current language).
    chosen : (int, int), optional
        A cell to ring: (position, pot).
    """
    fig = Figure(figsize=(7.6, 5.0), dpi=100, layout="constrained")
    ax = fig.subplots()
    codes = _codes(cells)
    pots, positions = (a.astype(float) for a in _grid(cells)[:2])
    cmap = ListedColormap([_CELL_STYLE[a][0] for a in AGREEMENTS]).with_extremes(bad=palette.WHITE)
    ax.imshow(
        np.ma.masked_invalid(codes),
        origin="lower",
        aspect="auto",
        interpolation="nearest",
        cmap=cmap,
        norm=BoundaryNorm(np.arange(len(AGREEMENTS) + 1) - 0.5, len(AGREEMENTS)),
        extent=(positions.min() - 0.5, positions.max() + 0.5, pots.min() - 0.5, pots.max() + 0.5),
    )
    for code, agreement in enumerate(AGREEMENTS):
        hatch = _CELL_STYLE[agreement][1]
        if not hatch:
            continue
        hatch_cells(ax, positions, pots, codes == code, hatch=hatch, edgecolor=palette.WHITE)
    handles: list[Patch | Line2D] = [
        Patch(
            facecolor=_CELL_STYLE[a][0],
            hatch=_CELL_STYLE[a][1],
            edgecolor=palette.WHITE if _CELL_STYLE[a][1] else palette.GRID,
            label=tr(AGREEMENT_LABELS[a]),
        )
        for a in AGREEMENTS
    ]
    if chosen is not None:
        ax.plot(
            [chosen[0]],
            [chosen[1]],
            marker="o",
            markersize=11,
            markerfacecolor="none",
            markeredgecolor=palette.INK,
            markeredgewidth=2.2,
            linestyle="none",
        )
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                markerfacecolor="none",
                markeredgecolor=palette.INK,
                markeredgewidth=2.2,
                linestyle="none",
                label=tr("the situation below"),
            )
        )
    ax.set_xticks(positions[:: 2 if len(positions) > 10 else 1])
    ax.set_xlabel(tr("knight position"))
    ax.set_ylabel(tr("pot (gems)"))
    ax.set_title(title, fontsize="medium")
    fig.legend(handles=handles, loc="outside lower left", ncols=1, fontsize="small", frameon=False)
    return fig


def _grid(cells: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The map's pots (shape (m,)), positions (shape (n,)) and cells (shape (m, n), objects)."""
    return np.asarray(cells.index, dtype=int), np.asarray(cells.columns, dtype=int), cells.to_numpy(dtype=object)


def _codes(cells: pd.DataFrame) -> np.ndarray:
    """The map's cells as the index of their agreement in :data:`AGREEMENTS` (NaN where unreachable),
    shape (pots, positions)."""
    index = {a: float(k) for k, a in enumerate(AGREEMENTS)}
    return np.array([[index.get(c, np.nan) for c in row] for row in _grid(cells)[2]], dtype=float)


def coach_map_figure_text(cells: pd.DataFrame, title: str, lang: str | None = None) -> FigureText:
    """What :func:`coach_map_figure` shows, from the same map: how many decisions the two coaches agree on and
    where they do not (the text alternative); for each knight position, the pots of each kind of cell (the table).

    Parameters
    ----------
    cells, title
        As :func:`coach_map_figure` (``title`` in ``lang``).
    lang : str, optional
        Default: the current language.
    """
    pots, positions, values = _grid(cells)
    found = [(a, int(positions[c])) for row in values for c, a in enumerate(row) if isinstance(a, str)]
    counts = {a: sum(1 for b, _ in found if b == a) for a in AGREEMENTS}
    where = {a: sorted({p for b, p in found if b == a}) for a in AGREEMENTS[2:]}
    total = sum(counts.values())
    disagree = counts["win reveals"] + counts["win holds"]
    if disagree:
        parts = "; ".join(
            ntr(
                "{what}: {n} (position {positions})",
                "{what}: {n} (positions {positions})",
                len(where[a]),
                lang,
                what=tr(AGREEMENT_LABELS[a], lang),
                n=counts[a],
                positions=ranges_text(where[a], lang),
            )
            for a in AGREEMENTS[2:]
            if counts[a]
        )
        alt = tr(
            "{title}. The coaches disagree on {n} of {total} decisions: {parts}.",
            lang,
            title=title,
            n=integer_text(disagree, lang),
            total=integer_text(total, lang),
            parts=parts,
        )
    else:
        alt = tr("{title}. The coaches agree on all {total} decisions.", lang, title=title, total=total)
    columns = (tr("knight position", lang), *(tr(AGREEMENT_LABELS[a], lang) for a in AGREEMENTS))
    rows = tuple(
        (
            integer_text(int(position), lang),
            *(
                ranges_text([int(pot) for pot, cell in zip(pots, values[:, c]) if cell == a], lang) or "—"
                for a in AGREEMENTS
            ),
        )
        for c, position in enumerate(positions)
    )
    return FigureText(alt, columns, rows)
