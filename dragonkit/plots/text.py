"""What a figure shows, in words and numbers, for those who cannot see it.

Every figure of the kit comes with a :class:`FigureText`, written from the
same data as the figure: a text alternative (what it shows and its key
numbers, in the page's language) and those numbers as a table, which the
pages offer under the figure (:class:`dragonkit.ui.figures.FigureView`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FigureText"]


@dataclass(frozen=True)
class FigureText:
    """A figure's text alternative and its key numbers as a table.

    Attributes
    ----------
    alt : str
        What the figure shows and its key numbers, in one or two sentences (plain text).
    columns : tuple of str
        The table's header.
    rows : tuple of tuple of str
        The table's rows, each as long as ``columns``; numbers already written in the page's language.

    Raises
    ------
    ValueError
        For an empty text alternative, or a row that is not as long as the header.
    """

    alt: str
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.alt.strip():
            raise ValueError("a figure needs a text alternative")
        if any(len(row) != len(self.columns) for row in self.rows):
            raise ValueError(f"every row of a figure's table has {len(self.columns)} cells, as its header")
