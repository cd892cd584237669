"""The situation the lessons start from and the ranges their sliders and menus offer
(dragonkit.analysis.turn.start), checked against the rules' own numbers."""

from __future__ import annotations

import pytest

from dragonkit.analysis import TurnState, fresh_turn
from dragonkit.rules import Ruleset
from dragonkit.topics.sliders import SliderRange, situation_ranges, stage_range

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


def test_a_fresh_turn_at_a_stage_is_the_first_turn_without_its_dangers():
    stripes = Ruleset.preset("dragon-stripes")
    assert fresh_turn(stripes) == TurnState.fresh(stripes) == fresh_turn("dragon-stripes")
    later = fresh_turn(stripes, 2, gems=7, treasure=99)
    assert (later.dangers, later.dangers_revealed, later.gems, later.treasure) == (1, 2, 7, 99)
    for bad in (3, -1, True, 1.5):
        with pytest.raises(ValueError, match="stage"):
            fresh_turn(stripes, bad)
