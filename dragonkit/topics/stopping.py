r"""Optimal stopping, shown step by step (lesson 5).

* :func:`solved_graph` — a turn's decision graph with the exact values of backward induction;
* :func:`point_value` — one decision point's push value W or value V, as a ``Fraction``;
* :func:`bellman_terms` — the terms of Bellman's equation at one decision point;
* :func:`hold_boundaries` — where holding starts, for a reference player and with the
  gems, the stage or both changed;
* :func:`last_richest_point` — the decision point of the last layer with the largest pot;
* :func:`stepper_gem_range`, :func:`map_treasure` — the gems of the step-by-step induction's
  slider, and the treasure the policy map starts from.

Backward induction is :func:`dragonkit.analysis.turn.optimal.backward_induction` over the
:class:`~dragonkit.analysis.turn.graph.DecisionGraph`: at a point with n cards left,

.. math:: W = \frac1n\Bigl[S\,r_{stop} + D\,r_{danger} + \sum_i c_i x_i\Bigr], \qquad V = \max(\text{pot}, W),

where :math:`x_i` is the gem change of a footprint kind that ends the turn (the head,
an empty deck) or the value V of the decision point it leads to.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..analysis.turn.graph import CONTINUES, DecisionGraph
from ..analysis.turn.optimal import LayerValues, backward_induction
from ..analysis.turn.table import policy_shift
from ..rules import Outcome, Ruleset
from ..turn import Action, TurnState
from .sliders import SliderRange

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "bellman_terms",
    "hold_boundaries",
    "last_richest_point",
    "map_treasure",
    "point_value",
    "solved_graph",
    "stepper_gem_range",
]

#: :func:`stepper_gem_range`: the gems slider reaches this many times the starting gems.
STEPPER_STARTS = 2
#: :func:`map_treasure`: the policy map starts from this share of the ruleset's treasure.
MAP_TREASURE_SHARE = 4


@lru_cache(maxsize=32)
def solved_graph(state: TurnState) -> tuple[DecisionGraph, list[LayerValues]]:
    """The decision graph from ``state`` and its backward induction in exact values; cached.

    Returns
    -------
    (DecisionGraph, list of LayerValues)
        The graph, and ``backward_induction(graph, exact=True)``: one LayerValues per layer.
    """
    graph = DecisionGraph.from_state(state)
    return graph, backward_induction(graph, exact=True)


def point_value(values: list[LayerValues], depth: int, index: int, which: str) -> Fraction:
    """One decision point's value, exactly (gems).

    Parameters
    ----------
    values : list of LayerValues
        ``backward_induction(graph, exact=True)``.
    depth, index : int
        The decision point: its layer and its row in the layer.
    which : {"push", "value"}
        The push value W, or the value V = max(pot, W).
    """
    layer_values = values[depth]
    return Fraction(layer_values.exact(getattr(layer_values, which), index))


def bellman_terms(graph: DecisionGraph, values: list[LayerValues], depth: int, index: int) -> dict[str, Any]:
    r"""The terms of Bellman's equation at one decision point, exactly.

    :math:`W = \frac1n\bigl[S\,r_{stop} + D\,r_{danger} + \sum_i c_i x_i\bigr]`, where
    :math:`x_i` is the gem change of a footprint kind that ends the turn (the head)
    or the value :math:`V` of the decision point it leads to.

    Parameters
    ----------
    graph : DecisionGraph
    values : list of LayerValues
        ``backward_induction(graph, exact=True)``.
    depth, index : int
        The decision point: its layer and its row in the layer.

    Returns
    -------
    dict
        ``cards_left`` (n), ``terms`` (list of ``(kind, count, x, child)``: kind is
        ``"stop"``, ``"danger"``, ``"final danger"`` or a number of steps; count in cards;
        x in gems, a Fraction; child is ``(depth + 1, row)`` or None), ``push`` (W, Fraction),
        ``hold`` (the pot, gems), ``value`` (V), ``action`` (``Action.REVEAL`` or ``Action.HOLD``) and
        ``ends`` (steps -> how that footprint ends the turn: ``CONTINUES``, ``HEAD`` or
        ``DECK_EMPTY`` of :mod:`dragonkit.analysis.turn.graph`).

    Raises
    ------
    IndexError
        For a point that is not in the graph.
    """
    layer = graph.layers[depth]
    if not 0 <= index < len(layer):
        raise IndexError(f"layer {depth} has {len(layer)} decision points, not {index + 1}")
    ends, children, end_reward = layer.ends, layer.child, layer.end_reward
    assert ends is not None and children is not None and end_reward is not None  # set for every layer of a graph
    terms: list[tuple[str | int, int, Fraction, tuple[int, int] | None]] = []
    if graph.stops:
        terms.append(("stop", graph.stops, Fraction(graph.stop_reward), None))
    if graph.dangers:
        kind = (graph.danger_outcome or Outcome.DANGER).label
        terms.append((kind, graph.dangers, Fraction(graph.danger_reward), None))
    for i, steps in enumerate(graph.steps):
        count, end = int(layer.counts[index, i]), int(ends[index, i])
        if count == 0:
            continue
        if end == CONTINUES:
            child = int(children[index, i])
            terms.append((steps, count, point_value(values, depth + 1, child, "value"), (depth + 1, child)))
        else:
            terms.append((steps, count, Fraction(int(end_reward[index, i])), None))
    push = point_value(values, depth, index, "push")
    pot = int(layer.pot[index])
    return {
        "cards_left": layer.cards_left,
        "terms": terms,
        "push": push,
        "hold": pot,
        "value": point_value(values, depth, index, "value"),
        "action": Action.REVEAL if push > pot else Action.HOLD,
        "ends": {steps: int(ends[index, i]) for i, steps in enumerate(graph.steps)},
    }


@lru_cache(maxsize=64)
def _shift(state: TurnState, gems: int, stage: int) -> pd.DataFrame:
    return policy_shift(state, gems=[gems], stages=[stage])


def hold_boundaries(state: TurnState, reference: TurnState) -> pd.DataFrame:
    """Where holding starts at each position: for a reference player, with only the gems,
    only the stage, and both changed to those of ``state``.

    Parameters
    ----------
    state : TurnState
        The situation mapped (its gems and stage are the changed ones).
    reference : TurnState
        The reference player's situation (usually stage 0 and the starting gems, same deck and treasure).

    Returns
    -------
    pandas.DataFrame
        Rows ``"reference"``, ``"gems"``, ``"stage"``, ``"both"``; columns: knight positions;
        values: the smallest pot that holds (gems), NaN where revealing is optimal whatever the pot
        (:func:`~dragonkit.analysis.policy_shift`).
    """
    import pandas as pd

    parts = _shift(reference, state.gems, state.dangers_revealed)
    both = _shift(state, state.gems, state.dangers_revealed).loc[["as is"]]
    frame = pd.concat([parts, both])
    frame.index = pd.Index(["reference", "gems", "stage", "both"])
    return frame


def last_richest_point(graph: DecisionGraph) -> tuple[int, int]:
    """The decision point of the graph's last layer with the largest pot (the first such row).

    Returns
    -------
    tuple of int
        ``(depth, index)``: the last layer and the point's row in it.
    """
    import numpy as np

    last = len(graph.layers) - 1
    return last, int(np.argmax(graph.layers[last].pot))


def stepper_gem_range(rules: Ruleset) -> SliderRange:
    """The player's gems the step-by-step induction may start from: 0 to
    :data:`STEPPER_STARTS` times the starting gems (gems).

    Examples
    --------
    >>> stepper_gem_range(Ruleset.preset("mini"))
    SliderRange(low=0, high=24, step=1)
    """
    return SliderRange(0, STEPPER_STARTS * rules.starting_gems)


def map_treasure(rules: Ruleset) -> int:
    """The treasure the policy map shows first: 1/:data:`MAP_TREASURE_SHARE` of the ruleset's,
    rounded down (gems), where holding matters more than with the whole treasure.

    Examples
    --------
    >>> map_treasure(Ruleset.preset("dragon-stripes"))
    100
    """
    return rules.treasure // MAP_TREASURE_SHARE
