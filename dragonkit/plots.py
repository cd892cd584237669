"""Matplotlib figures from games and analyses.

Figures are built with the object-oriented API (:class:`matplotlib.figure.Figure`),
never through pyplot's global state, so a long-running app leaks none.
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .engine import Game

__all__ = ["gems_over_game", "figure_png"]


def gems_over_game(game: Game) -> Figure:
    """A line per player: gems at the start and after every turn.

    Returns
    -------
    matplotlib.figure.Figure
        x: turns completed; y: gems.
    """
    fig = Figure(figsize=(4.2, 3.2), dpi=100, layout="constrained")
    ax = fig.subplots()
    history = game.gem_history
    turns = range(len(history))
    for seat, name in enumerate(game.players):
        ax.plot(turns, [h[seat] for h in history], marker="o", markersize=3, label=name,
                linewidth=2.5 if seat in game.winners else 1.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turns played")
    ax.set_ylabel("gems")
    ax.set_title("Gems over the game")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize="small", ncols=min(len(game.players), 3))
    return fig


def figure_png(fig: Figure) -> bytes:
    """The figure rendered as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()
