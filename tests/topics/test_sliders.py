"""The ranges the lessons' sliders and menus offer, and the small counts they show, asked of the domain
(dragonkit.analysis.start, market, stopping, deck, editions, chain_tables): checked against the rules'
own numbers and against second computations."""

from __future__ import annotations

import pytest

from dragonkit.analysis import fresh_turn
from dragonkit.analysis.chain_tables import situation_after, state_counts, threshold_chain
from dragonkit.analysis.deck import deck_after, longest_draw
from dragonkit.analysis.editions import fit_stages, stage_count
from dragonkit.analysis.market import takeover_sliders
from dragonkit.analysis.start import SliderRange, situation_ranges, stage_range
from dragonkit.analysis.stopping import last_richest_point, map_treasure, solved_graph, stepper_gem_range
from dragonkit.rules import STOP_CARD, Card, Ruleset

STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")


def test_a_slider_range_lists_its_values_with_both_bounds():
    assert list(SliderRange(3, 9, 3).values()) == [3, 6, 9]
    assert list(SliderRange(0, 2).values()) == [0, 1, 2]


@pytest.mark.parametrize("edition", ["dragon-stripes", "kali", "drago-rosso", "mini"])
def test_the_stages_run_from_0_to_the_last_stage_of_the_rules(edition):
    rules = Ruleset.preset(edition)
    stages = stage_range(rules)
    assert list(stages.values()) == list(range(len(rules.stages)))
    for stage in stages.values():
        assert rules.stage(stage) == rules.stages[stage]
    with pytest.raises(ValueError):
        fresh_turn(rules, stages.high + 1)


def test_the_situation_sliders_reach_three_starts_and_the_whole_treasure():
    ranges = situation_ranges(fresh_turn(STRIPES))
    assert ranges["gems"] == SliderRange(0, 120, 5)  # 3 x 40 gems, in eighths of 40
    assert ranges["treasure"] == SliderRange(25, 400, 10)  # 400 / 16 to 400, in fortieths of 400
    assert ranges["stage"] == SliderRange(0, 2)
    wide = situation_ranges(fresh_turn(STRIPES, 1, gems=200, treasure=10))
    assert wide["gems"].high == 200 and wide["treasure"].low == 10 and wide["treasure"].high == 400
    small = situation_ranges(fresh_turn(MINI))
    assert small["gems"] == SliderRange(0, 36, 1) and small["treasure"] == SliderRange(1, 20, 1)


def test_the_takeover_sliders_show_the_holder_with_the_starting_gems():
    assert takeover_sliders(STRIPES) == (SliderRange(0, 80), 40, 13)
    assert takeover_sliders(MINI) == (SliderRange(0, 24), 12, 4)  # at least 24 gems


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


def test_the_longest_draw_is_at_most_the_cards_left():
    deck = deck_after(MINI, {Card.footprint(1): 2, STOP_CARD: 1})
    assert longest_draw(deck, 3) == 3
    assert longest_draw(deck, 99) == deck.total == len(deck.cards())


@pytest.mark.parametrize("dangers", [0, 1, 2, 3, 5])
def test_fitted_stages_are_the_ones_the_rules_want(dangers):
    typed = [("1/4", 1), ("1/2", 2)]
    stages = fit_stages(typed, dangers)
    assert len(stages) == stage_count(dangers)
    assert stages[: len(typed)] == typed[: len(stages)] and set(stages) <= set(typed)
    rules = Ruleset(danger_cards=dangers, stages=tuple(stages))  # the rules accept exactly this many
    assert len(rules.stages) == len(stages)
    with pytest.raises(ValueError):
        Ruleset(danger_cards=dangers, stages=(*stages, ("1/4", 1)))
    with pytest.raises(ValueError):
        fit_stages([], dangers)


def test_a_chain_counts_its_states_and_finds_the_one_after_given_footprints():
    chain = threshold_chain(fresh_turn(MINI), 4)
    transient, absorbing = state_counts(chain)
    assert chain.Q.shape == (transient, transient) and chain.R.shape == (transient, absorbing)
    target = situation_after(chain, "1+1")
    assert target.drawn == "1+1" and target in chain.transient
    with pytest.raises(KeyError):
        situation_after(chain, "9+9")
