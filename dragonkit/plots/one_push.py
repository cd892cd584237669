"""Figures of lesson 3, *One more card?*: the advantage of one more card against the pot, the
break-even pot against the player's gems, and the one-step rule over the optimal policy's map."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from matplotlib.figure import Figure

from .. import i18n, palette
from ..analysis.one_push import MyopicComparison, OnePush, advantage_curve, break_even_pot
from ..i18n import tr
from . import policy_heatmap

__all__ = ["GEM_LEVELS", "myopic_figure", "one_push_figure"]

#: The gem levels drawn as curves by :func:`one_push_figure` (gems).
GEM_LEVELS = (10, 40, 100, 200)


def one_push_figure(push: OnePush, break_even: Fraction, pot_max: int, gems_max: int) -> Figure:
    """Does one more card pay?  Left: the advantage :math:`E_1 - p` against the pot ``p`` for a few
    gem levels (:data:`GEM_LEVELS` and the player's), each break-even pot dotted; right: the
    break-even pot against the player's gems.  The situation of ``push`` is marked on both.

    Parameters
    ----------
    push : OnePush
        The situation's one push (:func:`~dragonkit.analysis.one_push.one_push`).
    break_even : Fraction
        Its break-even pot (gems).
    pot_max, gems_max : int
        The x ranges: pots 0..pot_max, gems 0..gems_max (every 2 gems).

    Returns
    -------
    matplotlib.figure.Figure
        Left: x pot (gems), y advantage (gems); right: x gems, y break-even pot (gems).
    """
    state = push.state
    fig = Figure(figsize=(10.0, 3.4), dpi=100, layout="constrained")
    curves, wealth = fig.subplots(1, 2)
    pots = np.arange(0, pot_max + 1)
    for k, gems in enumerate(sorted({*GEM_LEVELS, state.gems})):
        variant = state.replace(gems=gems)
        mine = gems == state.gems
        (line,) = curves.plot(
            pots,
            [float(a) for a in advantage_curve(variant, pots)],
            color=palette.PLAYERS[k % len(palette.PLAYERS)],
            linewidth=2.6 if mine else 1.2,
            label=tr("{gems} (you)", gems=i18n.Gems(gems)) if mine else i18n.gems(gems),
        )
        point = break_even_pot(variant)
        if 0 < point <= pots[-1]:
            curves.plot([float(point)], [0], "o", color=line.get_color(), markersize=5)
    curves.plot([state.pot], [float(push.advantage)], "D", color=palette.INK, markersize=7, label=tr("your situation"))
    curves.axhline(0, color=palette.TEXT_MUTED, linewidth=0.9)
    curves.set_xlabel(tr("pot (gems)"))
    curves.set_ylabel(tr("E1 − pot (gems)"))
    curves.set_title(tr("Does one more card pay? Above 0: reveal"))
    curves.grid(alpha=0.3)
    curves.legend(fontsize="small", frameon=False, title=tr("player's gems"), title_fontsize="small")
    gems_axis = np.arange(0, gems_max + 1, 2)
    points = [break_even_pot(state.replace(gems=int(g))) for g in gems_axis]
    wealth.step(gems_axis, [float(p) for p in points], where="post", color=palette.SERIES)
    wealth.plot([state.gems], [float(break_even)], "D", color=palette.INK, markersize=7, label=tr("your situation"))
    wealth.legend(fontsize="small", frameon=False)
    wealth.set_ylim(bottom=0)
    wealth.set_xlabel(tr("player's gems"))
    wealth.set_ylabel(tr("break-even pot (gems)"))
    wealth.set_title(tr("The richer the player, the sooner to hold"))
    wealth.grid(alpha=0.3)
    return fig


def myopic_figure(comparison: MyopicComparison) -> Figure:
    """The optimal policy's map (:func:`~dragonkit.plots.policy_heatmap`) with the one-step
    break-even pot of every knight position drawn over it as a black step line.

    Returns
    -------
    matplotlib.figure.Figure
        x: knight position; y: pot (gems).
    """
    advantage = comparison.advantage
    fig = policy_heatmap(advantage, title=tr("Optimal play (colours) and the one-step rule (black line)"))
    ax = fig.axes[0]
    xs = sorted(comparison.break_even)
    top = float(advantage.index.max())
    ys = [min(float(comparison.break_even[x]), top + 0.5) for x in xs]
    ax.step(xs, ys, where="mid", color=palette.INK, linewidth=2.2, label=tr("one-step break-even pot"))
    ax.legend(loc="upper left", fontsize="small")
    return fig
