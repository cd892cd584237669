"""The decision graph (:mod:`dragonkit.analysis.turn.graph`) steps with the engine's rule arithmetic
(``Ruleset.apply_card``), layer by layer, with box or int64 codes alike."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonkit import Card, Ruleset, Stage
from dragonkit.analysis import TurnState, solve_turn
from dragonkit.analysis.turn import graph as graph_module
from dragonkit.analysis.turn.graph import CONTINUES, DECK_EMPTY, HEAD, NO_CARD, DecisionGraph

from ...situations import fresh_state
from .oracle import HYPOTHESIS, PRESET_NAMES, TINY, expected_reward, situations

# ---------------------------------------------------------------------------------
# 12. The decision graph uses the engine's rule arithmetic
# ---------------------------------------------------------------------------------


def check_graph_against_apply_card(state: TurnState, rng: random.Random) -> None:
    rules = state.rules
    graph = DecisionGraph.from_state(state)
    bank = state.treasure + state.pot
    common = dict(gems=state.gems, dangers_revealed=state.dangers_revealed)
    stop = rules.apply_card(
        Card("stop"),
        position=state.position,
        pot=state.pot,
        treasure=state.treasure,
        cards_left=state.composition.total - 1,
        **common,
    )
    danger = rules.apply_card(
        Card("danger"),
        position=state.position,
        pot=state.pot,
        treasure=state.treasure,
        cards_left=state.composition.total - 1,
        **common,
    )
    if state.stops:
        assert graph.stop_reward == stop.gems_change == expected_reward(state, "stopped")
    if state.dangers:
        assert graph.danger_reward == danger.gems_change
        assert graph.danger_outcome == danger.outcome
    root = graph.layers[0]
    assert (len(root), root.position[0], root.pot[0]) == (1, state.position, state.pot)
    assert root.counts[0].tolist() == list(state.footprints.values())
    assert graph.steps == tuple(state.footprints)
    for depth, layer in enumerate(graph.layers):
        assert layer.cards_left == state.composition.total - depth
        assert (layer.counts.sum(axis=1) + state.stops + state.dangers == layer.cards_left).all()
        if depth + 1 < len(graph.layers):  # no orphan: every point of the next layer is someone's child
            kids = layer.child[layer.child >= 0]
            assert set(kids.tolist()) == set(range(len(graph.layers[depth + 1])))
        for i in rng.sample(range(len(layer)), min(20, len(layer))):
            pos, pot = int(layer.position[i]), int(layer.pot[i])
            for k, steps in enumerate(graph.steps):
                if layer.counts[i, k] == 0:
                    assert layer.ends[i, k] == NO_CARD and layer.child[i, k] == -1
                    continue
                effect = rules.apply_card(
                    Card.footprint(steps),
                    position=pos,
                    pot=pot,
                    treasure=bank - pot,
                    cards_left=layer.cards_left - 1,
                    **common,
                )
                if effect.outcome is None:
                    assert layer.ends[i, k] == CONTINUES, (state, depth, i, steps)
                    nxt, c = graph.layers[depth + 1], int(layer.child[i, k])
                    assert c >= 0
                    assert (int(nxt.position[c]), int(nxt.pot[c]), bank - int(nxt.pot[c])) == (
                        effect.position,
                        effect.pot,
                        effect.treasure,
                    ), (state, depth, i, steps)
                    expected_counts = layer.counts[i].copy()
                    expected_counts[k] -= 1
                    assert nxt.counts[c].tolist() == expected_counts.tolist()
                else:
                    code = {"head": HEAD, "deck_empty": DECK_EMPTY}[effect.outcome]
                    assert layer.ends[i, k] == code and layer.child[i, k] == -1, (state, depth, i, steps)
                    assert layer.end_reward[i, k] == effect.gems_change, (state, depth, i, steps)


@settings(max_examples=40, **HYPOTHESIS)
@given(state=situations(small=False), seed=st.integers(0, 2**32))
def test_decision_graph_children_follow_apply_card(state, seed):
    check_graph_against_apply_card(state, random.Random(seed))


def test_decision_graph_fresh_decks_follow_apply_card():
    rng = random.Random(10)
    for name in PRESET_NAMES:
        check_graph_against_apply_card(fresh_state(name), rng)
        check_graph_against_apply_card(fresh_state(name, treasure=15, gems=77), rng)  # the cap bites
    for stops in (0, 1):
        check_graph_against_apply_card(TurnState(TINY, {1: 3, 2: 1}, stops, 0, 0, 10, 9), rng)


def test_decision_graph_steps_each_layer_where_the_pairs_are_too_many_for_a_table():
    """Stripes worth tens of thousands of gems make too many (position, pot) pairs to step them
    all at once: each layer is then stepped, and the graph still follows apply_card and the recursion."""
    rules = Ruleset(
        name="rich",
        starting_gems=40,
        treasure=10**6,
        stripe_values=(1000, 20000, 30000, 40000, 50000, 60000),
        footprints={1: 3, 2: 2, 3: 1},
        stop_cards=2,
        danger_cards=0,
        stages=[Stage(Fraction(1, 4), 1)],
    )
    state = TurnState.fresh(rules)
    graph = DecisionGraph.from_state(state)
    assert graph._tables is None
    check_graph_against_apply_card(state, random.Random(5))
    check_graph_against_apply_card(state.replace(treasure=45_000), random.Random(6))  # the cap bites

    @functools.cache
    def value(s: TurnState) -> Fraction:
        if s.is_terminal():
            return Fraction(s.returns())
        push = sum(p * value(s.child(card)) for card, p in s.chance_outcomes())
        return push if s.must_reveal else max(push, Fraction(s.pot))

    assert solve_turn(state, exact=True).value == value(state)


@pytest.mark.parametrize("wide", [2**62, 1])
def test_decision_graph_draws_too_many_for_a_box_or_int64_codes_agree(monkeypatch, wide):
    """Twelve footprint kinds: where the draws are too many to code all at once, they are coded
    kind by kind (forced here), in int64 or, where even that overflows (forced too: it takes
    dozens of kinds), in Python integers; the graph still follows apply_card, finds the same
    points and matches the textbook recursion."""
    rules = Ruleset(
        name="wide",
        starting_gems=40,
        treasure=10**6,
        stripe_values=(1, 2, 3, 4, 5),
        footprints=dict.fromkeys(range(1, 13), 30),
        stop_cards=5,
        danger_cards=0,
        stages=[Stage(Fraction(1, 4), 1)],
    )
    state = TurnState.fresh(rules)
    narrow = DecisionGraph.from_state(state)
    monkeypatch.setattr(graph_module, "_BOX", 0)
    monkeypatch.setattr(graph_module, "_WIDE", wide)
    graph = DecisionGraph.from_state(state)
    for a, b in zip(graph.layers, narrow.layers, strict=True):
        for name in ("counts", "position", "pot", "ends", "child", "end_reward"):
            assert (getattr(a, name) == getattr(b, name)).all()
    check_graph_against_apply_card(state, random.Random(4))

    @functools.cache
    def value(s: TurnState) -> Fraction:  # the textbook recursion, one state at a time
        if s.is_terminal():
            return Fraction(s.returns())
        push = sum(p * value(s.child(card)) for card, p in s.chance_outcomes())
        return push if s.must_reveal else max(push, Fraction(s.pot))

    assert solve_turn(state, exact=True).value == value(state)
    assert abs(solve_turn(state).value - float(value(state))) < 1e-9
