"""Optimal stopping (dragonkit.topics.stopping): the Bellman values, where holding starts, and the ranges of
the stepper and the policy map."""

from __future__ import annotations

from dragonkit.analysis import fresh_turn, policy_shift, solve_turn
from dragonkit.rules import Ruleset
from dragonkit.topics.sliders import SliderRange
from dragonkit.topics.stopping import (
    hold_boundaries,
    last_richest_point,
    map_treasure,
    point_value,
    solved_graph,
    stepper_gem_range,
)

MINI = Ruleset.preset("mini")


def test_bellman_values_and_where_holding_starts():
    state = fresh_turn(MINI, gems=4)
    _graph, values = solved_graph(state)
    assert point_value(values, 0, 0, "push") == solve_turn(state, exact=True).value
    stripes = fresh_turn("dragon-stripes", treasure=100)
    mapped = stripes.replace(gems=80, dangers_revealed=2, dangers=1)
    frame = hold_boundaries(mapped, stripes)
    assert list(frame.index) == ["reference", "gems", "stage", "both"]
    parts = policy_shift(stripes, gems=[80], stages=[2])
    for row, part in (("reference", "as is"), ("gems", "gems=80"), ("stage", "stage=2")):
        assert frame.loc[row].equals(parts.loc[part].rename(row))
    assert list(frame.loc["both"]) == list(policy_shift(mapped).loc["as is"])


STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")


def test_the_stepper_and_the_policy_map_start_from_the_rules():
    assert stepper_gem_range(MINI) == SliderRange(0, 24)
    assert map_treasure(STRIPES) == 100 and map_treasure(MINI) == 5


def test_the_last_richest_point_has_the_largest_pot_of_the_last_layer():
    graph, _values = solved_graph(fresh_turn(MINI))
    depth, index = last_richest_point(graph)
    assert depth == len(graph.layers) - 1
    pots = [graph.state(depth, i).pot for i in range(len(graph.layers[depth]))]
    assert graph.state(depth, index).pot == max(pots) == 14
    assert pots.index(max(pots)) == index
