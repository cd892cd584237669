"""Figures of lesson 3, *One more card?*: the advantage of one more card against the pot, the
break-even pot against the player's gems, and the one-step rule over the optimal policy's map."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from .. import i18n, palette
from ..i18n import Gems, tr
from ..i18n.numbers import decimal_text, integer_text
from ..topics.one_push import MyopicComparison, OnePush, advantage_curve, break_even_pot
from .policy import HOLD_HATCH, policy_heatmap  # the map hatches its hold cells: HOLD_HATCH, re-exported
from .text import FigureText

if TYPE_CHECKING:
    from ..turn import TurnState

__all__ = ["GEM_LEVELS", "HOLD_HATCH", "myopic_figure", "myopic_figure_text", "one_push_figure", "one_push_figure_text"]

#: The gem levels drawn as curves by :func:`one_push_figure` (gems).
GEM_LEVELS = (10, 40, 100, 200)

#: Line styles of the gem levels other than the player's (drawn solid and thick), so that a curve is told
#: from the others by its dashes as well as by its colour.
_DASHES = ("--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)))


def _gem_levels(state: TurnState) -> list[int]:
    """The gem levels drawn as curves: :data:`GEM_LEVELS` and the player's own (gems)."""
    return sorted({*GEM_LEVELS, state.gems})


@lru_cache(maxsize=16)
def _break_even_by_gems(state: TurnState, gems_max: int) -> tuple[tuple[int, Fraction], ...]:
    """The right panel of :func:`one_push_figure`: ``(gems, break-even pot)`` for gems 0, 2, ... ``gems_max``."""
    return tuple((gems, break_even_pot(state.replace(gems=gems))) for gems in range(0, gems_max + 1, 2))


def one_push_figure(push: OnePush, break_even: Fraction, pot_max: int, gems_max: int) -> Figure:
    """Does one more card pay?  Left: the advantage :math:`E_1 - p` against the pot ``p`` for a few
    gem levels (:data:`GEM_LEVELS` and the player's), each break-even pot dotted; right: the
    break-even pot against the player's gems.  The situation of ``push`` is marked on both.

    Parameters
    ----------
    push : OnePush
        The situation's one push (:func:`~dragonkit.topics.one_push.one_push`).
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
    others = 0
    for k, gems in enumerate(_gem_levels(state)):
        variant = state.replace(gems=gems)
        mine = gems == state.gems
        (line,) = curves.plot(
            pots,
            [float(a) for a in advantage_curve(variant, pots)],
            color=palette.PLAYERS[k % len(palette.PLAYERS)],
            linewidth=2.6 if mine else 1.4,
            linestyle="-" if mine else _DASHES[others % len(_DASHES)],
            label=tr("{gems} (you)", gems=i18n.Gems(gems)) if mine else i18n.gems(gems),
        )
        others += not mine
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
    gems_axis, points = zip(*_break_even_by_gems(state, gems_max))
    wealth.step(gems_axis, [float(p) for p in points], where="post", color=palette.SERIES)
    wealth.plot([state.gems], [float(break_even)], "D", color=palette.INK, markersize=7, label=tr("your situation"))
    wealth.legend(fontsize="small", frameon=False)
    wealth.set_ylim(bottom=0)
    wealth.set_xlabel(tr("player's gems"))
    wealth.set_ylabel(tr("break-even pot (gems)"))
    wealth.set_title(tr("The richer the player, the sooner to hold"))
    wealth.grid(alpha=0.3)
    return fig


def one_push_figure_text(
    push: OnePush, break_even: Fraction, pot_max: int, gems_max: int, lang: str | None = None
) -> FigureText:
    """What :func:`one_push_figure` shows, from the same data: the situation's advantage of one more card
    and break-even pot, and how the break-even pot falls as the player's gems grow (the text alternative);
    for each gem level drawn, its break-even pot and its advantage at the situation's pot (the table).

    Parameters
    ----------
    push, break_even, pot_max, gems_max
        As :func:`one_push_figure`.
    lang : str, optional
        Default: the current language.
    """
    state = push.state

    def number(value: Fraction) -> str:
        return decimal_text(value, 2, lang)

    alt = tr(
        "One more card, then hold, with {gems} and a pot of {pot}: E1 = {value} gems, E1 − pot = {advantage} "
        "gems; the break-even pot is {break_even} gems.",
        lang,
        gems=Gems(state.gems),
        pot=Gems(state.pot),
        value=number(push.value),
        advantage=number(push.advantage),
        break_even=number(break_even),
    )
    wealth = _break_even_by_gems(state, gems_max)
    never = next((gems for gems, point in wealth if point == 0), None)
    if never is None:
        alt += " " + tr(
            "The richer the player, the lower it is: {poor} gems for a player with no gems, {rich} with {most}.",
            lang,
            poor=number(wealth[0][1]),
            rich=number(wealth[-1][1]),
            most=Gems(wealth[-1][0]),
        )
    else:
        alt += " " + tr(
            "The richer the player, the lower it is: {poor} gems for a player with no gems, 0 from {never} on.",
            lang,
            poor=number(wealth[0][1]),
            never=Gems(never),
        )
    columns = (
        tr("player's gems", lang),
        tr("break-even pot (gems)", lang),
        tr("E1 − pot at a pot of {pot}", lang, pot=Gems(state.pot)),
    )
    rows = []
    for gems in _gem_levels(state):
        variant = state.replace(gems=gems)
        name = tr("{gems} (you)", lang, gems=Gems(gems)) if gems == state.gems else i18n.gems(gems, lang)
        point = break_even if gems == state.gems else break_even_pot(variant)
        rows.append((name, number(point), number(advantage_curve(variant, [state.pot])[0])))
    return FigureText(alt, columns, tuple(rows))


def myopic_figure(comparison: MyopicComparison) -> Figure:
    """The optimal policy's map (:func:`~dragonkit.plots.policy.policy_heatmap`) with the one-step
    break-even pot of every knight position drawn over it as a black step line.

    Returns
    -------
    matplotlib.figure.Figure
        x: knight position; y: pot (gems).
    """
    advantage = comparison.advantage
    fig = policy_heatmap(
        advantage, title=tr("Optimal play (colours) and the one-step rule (black line)"), boundary=False
    )  # its hold cells hatched (HOLD_HATCH); the black line here is the one-step rule
    ax = fig.axes[0]
    xs = sorted(comparison.break_even)
    top = float(advantage.index.max())
    ys = [min(float(comparison.break_even[x]), top + 0.5) for x in xs]
    (line,) = ax.step(xs, ys, where="mid", color=palette.INK, linewidth=2.2, label=tr("one-step break-even pot"))
    colours = colormaps[palette.DIVERGING]
    ax.legend(
        handles=[
            line,
            Patch(facecolor=colours(0.8), edgecolor=palette.INK, linewidth=0.5, label=tr("optimal play reveals")),
            Patch(
                facecolor=colours(0.2),
                edgecolor=palette.INK,
                linewidth=0.5,
                hatch=HOLD_HATCH,
                label=tr("optimal play holds (hatched)"),
            ),
        ],
        loc="upper left",
        fontsize="small",
    )
    return fig


def myopic_figure_text(comparison: MyopicComparison, lang: str | None = None) -> FigureText:
    """What :func:`myopic_figure` shows, from the same data: where optimal play reveals and holds, and where
    the one-step rule differs from it (the text alternative); by knight position, the one-step break-even
    pot, the pots on the map, those where optimal play holds, the lowest of them, and those where the two
    differ (the table).

    Parameters
    ----------
    comparison : MyopicComparison
    lang : str, optional
        Default: the current language.
    """
    state = comparison.state
    alt = tr(
        "The optimal policy's map with {gems}, stage {d}: of its {total} cells (position, pot), optimal "
        "play reveals at {reveal} and holds at {hold}. The one-step rule (black line) differs from it at {n}; "
        "optimal play reveals at {bolder} of those.",
        lang,
        gems=Gems(state.gems),
        d=state.dangers_revealed,
        total=integer_text(comparison.reachable, lang),
        reveal=integer_text(comparison.reachable - comparison.hold_points, lang),
        hold=integer_text(comparison.hold_points, lang),
        n=integer_text(comparison.disagree, lang),
        bolder=integer_text(comparison.bolder, lang),
    )
    columns = (
        tr("knight position", lang),
        tr("one-step break-even pot", lang),
        tr("pots on the map", lang),
        tr("pots where optimal play holds", lang),
        tr("lowest pot where optimal play holds", lang),
        tr("pots where the two rules differ", lang),
    )
    rows = []
    for position in comparison.advantage.columns:
        values = comparison.advantage[position].dropna()
        if values.empty:
            continue
        pots = values.index.to_numpy()
        reveals = values.to_numpy(dtype=float) > 0  # the map's colours: blue reveals
        below = pots < comparison.break_even[int(position)]  # the black line: the one-step rule reveals below it
        holds = pots[~reveals]
        rows.append(
            (
                integer_text(int(position), lang),
                decimal_text(comparison.break_even[int(position)], 2, lang),
                integer_text(len(pots), lang),
                integer_text(len(holds), lang),
                integer_text(int(holds.min()), lang) if len(holds) else "—",
                integer_text(int((reveals != below).sum()), lang),
            )
        )
    return FigureText(alt, columns, tuple(rows))
