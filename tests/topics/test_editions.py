"""The edition comparison's numbers (dragonkit.topics.editions), each checked against a second way of
computing them, and the stages a designed deck is fitted with."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from dragonkit.analysis import HoldAtPot, evaluate_policy, fresh_turn, solve_turn
from dragonkit.rules import CardKind, Ruleset
from dragonkit.topics.editions import (
    MEASURES,
    compare_editions,
    edition_profile,
    expected_first_pot,
    first_card_ends,
    fit_stages,
    footprint_cards,
    footprints_in_a_row,
    riskiest,
    stage_count,
)

MINI = Ruleset.preset("mini")


@pytest.mark.parametrize("name", ["dragon-stripes", "kali", "drago-rosso", "mini"])
def test_what_the_first_cards_of_a_deck_say_by_counting_every_order(name):
    comp = Ruleset.preset(name).composition
    cards = comp.cards()
    n = len(cards)
    assert footprint_cards(comp) == sum(card.kind is CardKind.FOOTPRINT for card in cards)
    assert first_card_ends(comp) == Fraction(sum(card.kind is not CardKind.FOOTPRINT for card in cards), n)
    pairs = list(itertools.permutations(range(n), 2))
    both = sum(cards[i].kind is CardKind.FOOTPRINT and cards[j].kind is CardKind.FOOTPRINT for i, j in pairs)
    assert footprints_in_a_row(comp, 2) == Fraction(both, len(pairs))
    assert footprints_in_a_row(comp, 1) == 1 - first_card_ends(comp)


def test_the_first_pot_is_the_mean_stripe_value_of_the_first_footprint():
    stripes = Ruleset.preset("dragon-stripes")
    cards = stripes.composition.cards()
    paid = [stripes.stripe_value(card.steps, 0) if card.kind is CardKind.FOOTPRINT else 0 for card in cards]
    assert expected_first_pot(stripes) == Fraction(sum(paid), len(cards))
    assert expected_first_pot(MINI) > 0


def test_an_edition_profile_agrees_with_the_analysis():
    profile = edition_profile(MINI)
    state = fresh_turn(MINI)
    assert profile["expected_gain"] == solve_turn(state, exact=True).value
    assert profile["cards"] == 8 and profile["p_first_ends"] == first_card_ends(MINI.composition)
    held = edition_profile(MINI, 0, 4)
    assert held["expected_gain"] == evaluate_policy(state, HoldAtPot(4), exact=True).expected_gain
    assert set(MEASURES) <= set(profile.index)
    with pytest.raises(ValueError):
        edition_profile(MINI, 1)


def test_a_comparison_has_a_row_per_edition_and_stage_and_names_the_riskiest():
    entries = {"mini": MINI, "kali": Ruleset.preset("kali")}
    table = compare_editions(entries, stages=False)
    assert list(table.index) == [("mini", 0), ("kali", 0)]
    assert riskiest(table, "p_loss") == max(entries, key=lambda e: table.loc[(e, 0), "p_loss"])
    full = compare_editions({"dragon-stripes": Ruleset.preset("dragon-stripes")}, 20)
    assert list(full.index.get_level_values("stage")) == [0, 1, 2]


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
