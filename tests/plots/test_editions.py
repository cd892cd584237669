"""Lesson 9's figures (dragonkit.plots.editions): the comparison with the numbers on its bars, the decks
card by card, and the figures of the comparison."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from dragonkit import Ruleset
from dragonkit.plots.editions import comparison_figure, comparison_figure_text, deck_figure, deck_figure_text
from dragonkit.topics.editions import compare_editions

from .texts import _well_formed

MINI = Ruleset.preset("mini")


def test_the_figures_of_the_comparison():
    table = compare_editions({"mini": MINI}, stages=False)
    fig = comparison_figure(table, "p_loss", {"mini": "mini deck"}, "P(loss)")
    assert isinstance(fig, Figure) and fig.axes[0].get_ylabel() == "P(loss)"
    with pytest.raises(ValueError, match="measure"):
        comparison_figure(table, "nope", {"mini": "mini"}, "?")
    assert isinstance(deck_figure({"mini": MINI}, {"mini": "mini"}), Figure)


def test_the_comparison_is_told_with_the_numbers_on_its_bars():
    entries = {"mini": MINI, "kali": Ruleset.preset("kali")}
    table = compare_editions(entries, "optimal")
    labels = {"mini": "mini deck", "kali": "Kali"}
    text = comparison_figure_text(table, "p_loss", labels, "P(loss)")
    _well_formed(text)
    expected = [(labels[e], str(d), f"{float(v):.3g}") for (e, d), v in table["p_loss"].items()]
    assert sorted(text.rows) == sorted(expected)
    kali = " / ".join(f"{float(table.loc[('kali', d), 'p_loss']):.3g}" for d in (0, 1))
    assert f"Kali {kali}" in text.alt and text.alt.startswith("P(loss) of a fresh turn, by edition")
    fig = comparison_figure(table, "p_loss", labels, "P(loss)")
    ax = fig.axes[0]
    assert sorted(t.get_text() for t in ax.texts) == sorted(row[2] for row in text.rows)  # the bars' own labels
    hatches = {bar.get_label(): {p.get_hatch() for p in bar.patches} for bar in ax.containers}
    assert len({frozenset(h) for h in hatches.values()}) == len(hatches) == 2  # each stage its own hatching
    italian = comparison_figure_text(table, "p_loss", labels, "P(perdita)", lang="it")
    assert italian.alt.startswith("P(perdita) di un turno nuovo, per edizione")
    assert italian.columns == ("edizione", "fase", "P(perdita)") and "," in italian.rows[0][2]
    with pytest.raises(ValueError, match="measure"):
        comparison_figure_text(table, "nope", labels, "?")


def test_the_decks_are_told_card_by_card():
    entries = {"dragon-stripes": Ruleset.preset("dragon-stripes"), "mini": MINI}
    labels = {"dragon-stripes": "Dragon Stripes", "mini": "mini"}
    text = deck_figure_text(entries, labels)
    _well_formed(text)
    assert "Dragon Stripes 51 cards (footprints 38, stops 10, dangers 3)" in text.alt
    assert "mini 8 cards (footprints 5, stops 2, dangers 1)" in text.alt
    assert text.columns == ("edition", "1 step", "2 steps", "3 steps", "4 steps", "stop", "danger", "cards")
    for row, rules in zip(text.rows, entries.values()):
        counts = [int(c) for c in row[1:-1]]
        assert sum(counts) == int(row[-1]) == rules.composition.total
        assert counts[-2:] == [rules.stop_cards, rules.danger_cards]
        assert counts[:-2] == [dict(rules.footprints).get(steps, 0) for steps in (1, 2, 3, 4)]
    ax = deck_figure(entries, labels).axes[0]
    hatches = {bars.get_label(): bars.patches[0].get_hatch() for bars in ax.containers}
    assert not hatches["1 step"] and hatches["stop"] and hatches["danger"] and hatches["stop"] != hatches["danger"]
    italian = deck_figure_text(entries, labels, lang="it")
    assert italian.alt.startswith("Che cosa c'è in ogni mazzo: Dragon Stripes 51 carte (impronte 38, stop 10")
    assert italian.columns[1:3] == ("1 passo", "2 passi") and italian.columns[-2] == "pericolo"
