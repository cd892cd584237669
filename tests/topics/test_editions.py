"""The edition comparison's numbers (dragonkit.analysis.editions) and its figures (dragonkit.plots.editions),
each checked against a second way of computing them."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from matplotlib.figure import Figure

from dragonkit.analysis import HoldAtPot, evaluate_policy, solve_turn
from dragonkit.analysis.editions import (
    MEASURES,
    compare_editions,
    edition_profile,
    expected_first_pot,
    first_card_ends,
    footprint_cards,
    footprints_in_a_row,
    riskiest,
)
from dragonkit.analysis.start import fresh_turn
from dragonkit.plots.editions import comparison_figure, deck_figure
from dragonkit.rules import Ruleset

MINI = Ruleset.preset("mini")


@pytest.mark.parametrize("name", ["dragon-stripes", "kali", "drago-rosso", "mini"])
def test_what_the_first_cards_of_a_deck_say_by_counting_every_order(name):
    comp = Ruleset.preset(name).composition
    cards = comp.cards()
    n = len(cards)
    assert footprint_cards(comp) == sum(card.kind == "footprint" for card in cards)
    assert first_card_ends(comp) == Fraction(sum(card.kind != "footprint" for card in cards), n)
    pairs = list(itertools.permutations(range(n), 2))
    both = sum(cards[i].kind == "footprint" and cards[j].kind == "footprint" for i, j in pairs)
    assert footprints_in_a_row(comp, 2) == Fraction(both, len(pairs))
    assert footprints_in_a_row(comp, 1) == 1 - first_card_ends(comp)


def test_the_first_pot_is_the_mean_stripe_value_of_the_first_footprint():
    stripes = Ruleset.preset("dragon-stripes")
    cards = stripes.composition.cards()
    paid = [stripes.stripe_value(card.steps, 0) if card.kind == "footprint" else 0 for card in cards]
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


def test_the_figures_of_the_comparison():
    table = compare_editions({"mini": MINI}, stages=False)
    fig = comparison_figure(table, "p_loss", {"mini": "mini deck"}, "P(loss)")
    assert isinstance(fig, Figure) and fig.axes[0].get_ylabel() == "P(loss)"
    with pytest.raises(ValueError, match="measure"):
        comparison_figure(table, "nope", {"mini": "mini"}, "?")
    assert isinstance(deck_figure({"mini": MINI}, {"mini": "mini"}), Figure)
