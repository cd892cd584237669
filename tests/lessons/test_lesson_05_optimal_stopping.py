"""Lesson 5, optimal stopping: the backward-induction stepper against a plain recursion, the Bellman terms,
the policy map explorer, hold at h against the optimum, the lesson's answers."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from dragonkit import i18n
from dragonkit.analysis import policy_map, policy_shift, solve_turn
from dragonkit.analysis.turn.table import hold_boundary, policy_table
from dragonkit.lessons import base
from dragonkit.lessons import chain as L4
from dragonkit.lessons import stopping as L5
from dragonkit.rules import Ruleset
from dragonkit.topics.stopping import bellman_terms, solved_graph
from dragonkit.turn import Action

from ..expectimax import expectimax, turn_value
from .helpers import _enumerated, _prose

MINI = Ruleset.preset("mini")


@pytest.mark.slow
def test_the_stepper_solves_one_layer_per_click_and_shows_the_recursions_values():
    stepper = L5.InductionStepper(gems=12)
    graph = stepper.graph
    for solved in range(1, stepper.layers + 1):
        stepper.buttons["next"].click()
        assert stepper.solved == solved
        assert sorted(stepper.known_values()) == [
            (d, i) for d in range(stepper.layers - solved, stepper.layers) for i in range(len(graph.layers[d]))
        ]
    assert stepper.buttons["next"].disabled and not stepper.buttons["back"].disabled
    for (depth, index), value in stepper.known_values().items():
        assert value == turn_value(graph.state(depth, index, must_reveal=depth == 0))
    assert stepper.known_values()[(0, 0)] == Fraction(-11, 8)  # RULES.md's worked example


@pytest.mark.parametrize("gems", [0, 4, 24])
def test_backward_induction_agrees_with_a_plain_recursion(gems):
    root = base.fresh_turn("mini", gems=gems)
    graph, values = solved_graph(root)
    for depth, layer in enumerate(graph.layers):
        for index in range(len(layer)):
            info = bellman_terms(graph, values, depth, index)
            state = graph.state(depth, index, must_reveal=depth == 0)
            assert (info["push"] if depth == 0 else info["value"]) == turn_value(state)
    assert bellman_terms(graph, values, 0, 0)["push"] == solve_turn(root, exact=True).value


def test_bellman_terms_add_up_to_the_push_value():
    graph, values = solved_graph(base.fresh_turn("mini", gems=4))
    for depth, layer in enumerate(graph.layers):
        for index in range(len(layer)):
            info = bellman_terms(graph, values, depth, index)
            assert sum(count for _kind, count, _x, _child in info["terms"]) == info["cards_left"] == layer.cards_left
            assert sum(count * x for _kind, count, x, _child in info["terms"]) / info["cards_left"] == info["push"]
            assert info["value"] == max(info["push"], info["hold"])
    with pytest.raises(IndexError):
        bellman_terms(graph, values, 0, 5)


@pytest.mark.slow
def test_the_stepper_buttons_slider_and_formula():
    stepper = L5.InductionStepper(gems=12)
    assert stepper.solved == 0 and stepper.buttons["back"].disabled and stepper.point.layout.display == "none"
    picture = stepper.picture.value
    stepper.buttons["next"].click()
    assert stepper.picture.value != picture
    assert "Layer 4 solved" in stepper.status.value
    assert "W = 1/4 × [ 2 × (−3) + 1 × (−12) + 1 × 20 ] = " in stepper.formula.value
    assert "best to hold" in stepper.formula.value
    stepper.buttons["all"].click()
    assert stepper.solved == stepper.layers and "compulsory" in stepper.formula.value
    assert "−11/8" in stepper.table.value
    stepper.buttons["back"].click()
    assert stepper.solved == stepper.layers - 1
    stepper.gems.value = 4
    stepper.go(stepper.layers)
    assert "3/14" in stepper.formula.value
    stepper.buttons["reset"].click()
    assert stepper.solved == 0 and stepper.table.value == ""
    i18n.set_language("it")
    assert stepper.buttons["next"].description == "Strato successivo"
    assert "Non c'è ancora niente di risolto" in stepper.status.value


@pytest.mark.slow
def test_the_policy_map_explorer_shifts_with_stage_gems_and_treasure():
    explorer = L5.PolicyMapExplorer(treasure=100)
    shift = explorer.shift()
    assert list(shift.index) == ["reference", "gems", "stage", "both"]
    assert (shift.loc["reference"] == shift.loc["both"]).all()  # 40 gems, stage 0 is the reference
    assert "10 gems here" in explorer.facts.value  # a quarter of 40, from the rules
    heat = explorer.heatmap.value
    explorer.stage.value = 2
    explorer.gems_slider.value = 80
    assert explorer.heatmap.value != heat
    assert "40 gems here" in explorer.facts.value and "×2" in explorer.facts.value
    both = explorer.shift().loc["both"]
    grid = policy_map(explorer.state)
    for position, pot in both.dropna().items():  # the smallest pot that holds, read off the map itself
        column = grid[position].dropna()
        assert pot == column.index[column <= 0].min()
    jackpot = policy_shift(base.fresh_turn("dragon-stripes", treasure=400))  # the optimal player never holds
    assert jackpot.loc["as is"].iloc[1:17].isna().all()


@pytest.mark.slow
def test_hold_at_t_against_the_optimum():
    explorer = L5.ThresholdExplorer("mini", gems=0)
    table = explorer.comparison()
    for t in range(1, 16):
        law = _enumerated(t, gems=0)
        assert table.loc[f"hold at {t}", "expected_gain"] == sum(g * p for g, p in law["dist"].items())
    assert explorer.best_thresholds() == [5]
    assert table.loc["optimal", "expected_gain"] == Fraction(87, 56)
    assert "h = 5" in explorer.verdict.value and "as good as the optimal" in explorer.verdict.value
    picture = explorer.picture.value
    explorer.gems_slider.value = 4
    assert explorer.best_thresholds() == [3] and explorer.picture.value != picture
    full = L5.ThresholdExplorer("dragon-stripes", treasure=100)
    assert "No hold-at-h policy is optimal" in full.verdict.value


def test_lesson_5_answers():
    answer = L5.answers()
    point = answer["last_point"]
    # the exercise's text: one 2-step footprint, 2 stops, 1 danger, 4 cards, the head pays 20 gems
    assert dict(point.footprints) == {1: 0, 2: 1} and (point.stops, point.dangers) == (2, 1)
    assert point.composition.total == 4 and point.pot + point.treasure == 20 and point.gems == 12
    assert L4.state_name(point, "en") == "@5, pot 14"
    assert answer["last_push"] == Fraction(1, 2) == (2 * -3 + 1 * -12 + 1 * 20) / Fraction(4)
    assert answer["last_push"] == expectimax(MINI, point.composition, 5, 14, 12, point.treasure, 0, True)
    assert answer["value_4"] == Fraction(3, 14) == turn_value(base.fresh_turn("mini", gems=4))
    gains = {t: sum(g * p for g, p in _enumerated(t, gems=0)["dist"].items()) for t in range(1, 17)}
    assert answer["threshold_0"] == max(gains, key=gains.get) == 5
    assert sorted(gains.values())[-1] > sorted(gains.values())[-2]  # a single best t
    assert answer["position"] == 6 and answer["hold_from"] == {"as is": 14, "gems=80": 4, "stage=2": 35}
    rules = Ruleset.preset("dragon-stripes")
    for key, gems, stage in (("as is", 40, 0), ("gems=80", 80, 0), ("stage=2", 40, 2)):
        start = base.fresh_turn(rules, gems=gems, treasure=100, stage=stage)
        pot = answer["hold_from"][key]
        at = {"position": 6, "treasure": 100 - pot, "must_reveal": False}
        assert solve_turn(L4.TurnState(**{**start.__dict__, **at, "pot": pot})).best_action is Action.HOLD
        if pot:
            lower = {**start.__dict__, **at, "pot": pot - 1, "treasure": 100 - pot + 1}
            assert solve_turn(L4.TurnState(**lower)).best_action is Action.REVEAL


def test_the_treasure_slider_is_what_the_head_pays_in_all_and_the_first_turn_never_holds():
    """Review 1-5, items 2, 4 and 8: the map keeps treasure + pot, so the head pays the slider's treasure in all;
    on the first turn (treasure 400) revealing beats holding everywhere, by 16 gems at least."""
    state = base.fresh_turn("dragon-stripes", treasure=100)
    boundary = hold_boundary(policy_map(state))
    # on stripe 17 every footprint reaches the head, which pays 100 in all: hold from (38·100 − 13·10)/51 on
    assert boundary[17] == 72 == math.ceil(Fraction(38 * 100 - 13 * 10, 51))
    table = policy_table(base.fresh_turn("dragon-stripes"))
    points = table.situations
    assert (points["action"] == "reveal").all()
    later = points[points["cards_drawn"] > 0]
    smallest = later.loc[later["advantage"].idxmin()]
    assert (smallest["position"], smallest["pot"], round(smallest["advantage"])) == (1, 1, 16)
    top = later[later["position"] == 17].sort_values("pot").iloc[-1]
    assert (top["pot"], top["cards_left"]) == (150, 36)
    # 23 of the 36 cards left are footprints, which reach the head (400 in all); 13 stops and dangers cost 10
    assert (
        top["push_value"] == pytest.approx(float(Fraction(23 * 400 - 13 * 10, 36))) and round(top["push_value"]) == 252
    )
    english, italian_ = _prose("05-optimal-stopping"), _prose("05-optimal-stopping", "it")
    assert "reaching the head pays this amount in all, pot included" in english
    assert "(@1, pot 1: about 16 gems)" in english and "150, revealing is worth about 252" in english
    assert "raggiungere la testa paga in tutto questa cifra, piatto compreso" in italian_
    assert "(@1, piatto 1: circa 16 gemme)" in italian_ and "150, rivelare vale circa 252" in italian_
    assert "same number of cards left, $n_0-k$ (not the same cards)" in english


def test_the_map_says_how_many_danger_cards_the_deck_holds_in_words_that_agree():
    explorer = L5.PolicyMapExplorer(treasure=100)
    explorer.stage.value = 2
    assert "the deck holds 1 danger card." in explorer.facts.value
    i18n.set_language("it")
    try:
        assert "il mazzo contiene 1 carta pericolo." in explorer.facts.value
        explorer.stage.value = 0
        assert "il mazzo contiene 3 carte pericolo." in explorer.facts.value
    finally:
        i18n.set_language("en")
