"""The optimal policy as tables: every reachable situation, and a map by
(position, pot) for the current deck that shows how it shifts with the
player's gems and with the stage."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...turn import TurnState, pot_bound
from .graph import DecisionGraph
from .optimal import backward_induction

if TYPE_CHECKING:  # pandas loads when a table is built: the play app needs none
    import pandas as pd
    from numpy.typing import NDArray

__all__ = ["PolicyTable", "hold_boundary", "hold_from", "policy_map", "policy_shift", "policy_table"]


@dataclass(frozen=True)
class PolicyTable:
    """The optimal action everywhere a turn can go.

    Attributes
    ----------
    situations : pandas.DataFrame
        One row per reachable decision point: ``cards_drawn``, ``drawn`` (the
        footprints drawn, e.g. ``"1+2"``, which fixes the deck left), ``position``,
        ``pot``, ``cards_left``, ``push_value``, ``hold_value``, ``advantage``
        (push minus hold, gems) and ``action``.
    summary : pandas.DataFrame
        The optimal action by pot (rows) and position (columns) for the current
        deck; empty cells cannot occur at that position.
    advantage : pandas.DataFrame
        Push value minus hold value on the same grid (gems): positive means reveal.
    """

    situations: pd.DataFrame
    summary: pd.DataFrame
    advantage: pd.DataFrame


def _max_pots(state: TurnState) -> NDArray[np.int64]:
    """Largest pot the knight can have collected on reaching each position 0..n (gems): the turn model's
    :func:`~dragonkit.turn.pot_bound` from ``state``'s pot."""
    return pot_bound(state.rules, state.dangers_revealed, state.bank, state.pot)


def policy_map(state: TurnState) -> pd.DataFrame:
    """Push value minus hold value for every (pot, position) with the current deck.

    Solves one decision graph whose roots are all the (position, pot) pairs a turn
    could bring the knight to, keeping the deck, the stage, the gems and
    ``treasure + pot`` of ``state``.

    Returns
    -------
    pandas.DataFrame
        Index: pot (gems); columns: position; NaN where the pot is out of reach.
    """
    import pandas as pd

    top = _max_pots(state)
    positions = np.concatenate([np.full(int(top[p]) + 1, p) for p in range(len(top))])
    pots = np.concatenate([np.arange(int(top[p]) + 1) for p in range(len(top))])
    graph = DecisionGraph.from_state(state, positions, pots)
    root = backward_induction(graph)[0]
    frame = pd.DataFrame({"position": positions, "pot": pots, "advantage": root.push - pots})
    grid = frame.pivot(index="pot", columns="position", values="advantage")
    return grid.sort_index(ascending=False)


def policy_table(state: TurnState) -> PolicyTable:
    """The optimal action for every situation reachable from ``state``, and by
    (position, pot) for the current deck.

    Returns
    -------
    PolicyTable
    """
    import pandas as pd

    graph = DecisionGraph.from_state(state)
    values = backward_induction(graph)
    parts = []
    for depth, (layer, v) in enumerate(zip(graph.layers, values)):
        push = v.push.astype(float)
        action = np.where(v.reveal(layer.pot), "reveal", "hold")
        if depth == 0 and state.must_reveal:
            action[:] = "reveal"
        parts.append(
            pd.DataFrame(
                {
                    "cards_drawn": depth,
                    "drawn": graph.drawn(depth, np.arange(len(layer))),
                    "position": layer.position,
                    "pot": layer.pot,
                    "cards_left": layer.cards_left,
                    "push_value": push,
                    "hold_value": layer.pot,
                    "advantage": push - layer.pot,
                    "action": action,
                }
            )
        )
    situations = pd.concat(parts, ignore_index=True)
    advantage = policy_map(state)
    summary = advantage.apply(lambda col: col.map(lambda a: np.nan if pd.isna(a) else ("reveal" if a > 0 else "hold")))
    return PolicyTable(situations, summary, advantage)


def hold_boundary(grid: pd.DataFrame) -> pd.Series:
    """Where holding starts on a policy map: the smallest pot at which holding is optimal, by position.

    Parameters
    ----------
    grid : pandas.DataFrame
        A :func:`policy_map`: push minus hold value (gems) by pot (index) and position (columns).

    Returns
    -------
    pandas.Series
        Index: positions; values: pots (gems), NaN where revealing is optimal whatever the pot.
    """
    import pandas as pd

    out = {}
    for position in grid.columns:
        col = grid[position].dropna()
        holds = col.index[col <= 0]
        out[position] = holds.min() if len(holds) else np.nan
    return pd.Series(out, name="hold from pot")


def hold_from(state: TurnState) -> int | None:
    """Where holding starts at the knight's position: the smallest pot at which holding is optimal there, exactly.

    The one column of :func:`hold_boundary` of :func:`policy_map` that a decision needs, valued in exact arithmetic
    (a tie holds, as :func:`~.optimal.solve_turn` says): the roots are the knight's position of ``state`` with every
    pot a turn can have collected there, each with ``state``'s deck, stage, gems and ``treasure + pot``. The pot of
    ``state`` itself does not matter; holding is optimal at ``state`` exactly when its pot is at least the pot
    returned (where holding is allowed).

    Parameters
    ----------
    state : TurnState

    Returns
    -------
    int or None
        Gems; None where revealing is optimal at every such pot (the optimum never holds there).

    Raises
    ------
    ValueError
        If the deck is empty.
    """
    top = int(_max_pots(state)[state.position])
    pots = np.arange(top + 1)
    graph = DecisionGraph.from_state(state, np.full(top + 1, state.position), pots)
    holds = np.flatnonzero(~backward_induction(graph, exact=True)[0].reveal(pots))
    return int(holds[0]) if len(holds) else None


def policy_shift(state: TurnState, gems: Iterable[int] = (), stages: Iterable[int] = ()) -> pd.DataFrame:
    """How the optimal policy moves with the player's gems and with the stage.

    For ``state`` and for each variant (other gems, other stage), the smallest
    pot at which holding becomes optimal at each position, with the current deck.

    Returns
    -------
    pandas.DataFrame
        Rows ``"as is"``, ``"gems=g"``, ``"stage=d"``; columns: positions; values:
        pots (gems), NaN where revealing is optimal whatever the pot.

    Raises
    ------
    ValueError
        For gems or a stage the ruleset does not allow.
    """
    import pandas as pd

    variants = {"as is": state}
    variants.update({f"gems={g}": dataclasses.replace(state, gems=g) for g in gems})
    variants.update(
        {  # a later stage leaves fewer danger cards in the deck
            f"stage={d}": dataclasses.replace(
                state, dangers_revealed=d, dangers=max(0, min(state.dangers, state.rules.danger_cards - d))
            )
            for d in stages
        }
    )
    return pd.DataFrame({name: hold_boundary(policy_map(s)) for name, s in variants.items()}).T
