"""Our class's figures (dragonkit.plots.our_class) in words: the holds against where optimal play starts holding, the
cards turned up against the exact probabilities and a Monte Carlo, one kind's frequency as the reveals add up; each
text from the same numbers as its figure, in English and in Italian."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dragonkit.plots import our_class as plots
from dragonkit.topics import our_class

from ..class_rows import decision, frame, mini_turn, short_holds
from .texts import _italian, _well_formed

WHERE = "mini (classroom deck), stage 0"


def _rows():
    return frame([decision(state, action, card=card) for state, action, card in mini_turn()] + short_holds())


def test_the_holds_are_told_with_the_short_ones_their_cost_and_the_boundaries():
    holds = our_class.holding_pots(_rows())
    assert holds["pot"].tolist() == [10, 1, 3]
    plots.holding_figure(holds, WHERE)
    text = plots.holding_figure_text(holds, WHERE)
    _well_formed(text)
    # two short holds gave up 8/7 + 1/3 = 31/21 ≈ 1.48 gems; the median pot held is 3
    assert text.alt.startswith(
        f"Where the class held, {WHERE}: 3 holds, at a median pot of 3.0 gems; 2 of them short of the boundary of "
        "optimal play (it would have revealed), giving up 1.48 expected gems in all."
    )
    bins = {row[0]: row[1:] for row in text.rows}
    assert bins["10"][0] == "1" and bins["1"][1] == "1" and bins["3"][1] == "1"  # pots held, one a bin
    boundaries = [int(b) for b in holds["hold_from"].dropna()]
    assert sum(int(row[3]) for row in text.rows) == len(boundaries)
    italian = plots.holding_figure_text(holds, "mini (mazzo per la classe), fase 0", lang="it")
    _italian(italian)
    assert "1,48 gemme attese" in italian.alt


def test_no_hold_yet_is_said():
    holds = our_class.holding_pots(frame([decision(*mini_turn()[1][:2])]))
    assert holds.empty
    assert plots.holding_figure_text(holds, WHERE).alt == f"Where the class held, {WHERE}: no hold yet."


def test_the_cards_are_told_against_the_exact_probabilities_and_the_monte_carlo():
    reveals = our_class.reveal_decks(_rows())
    simulated = our_class.replay_reveals(reveals, seed=1)
    table = our_class.card_frequencies(reveals, simulated)
    plots.cards_figure(table)
    text = plots.cards_figure_text(table)
    _well_formed(text)
    assert text.alt.startswith("The cards our class turned up in 3 reveals, by kind, against the exact probability:")
    assert [row[0] for row in text.rows] == ["1 step", "2 steps", "stop", "danger"]
    stop = text.rows[2]
    assert stop[1] == f"{float((Fraction(2, 8) + Fraction(2, 7) + Fraction(2, 6)) / 3):.3f}"
    assert stop[2] == "0" and stop[3] == "0.000"
    italian = plots.cards_figure_text(table, lang="it")
    _italian(italian)
    assert italian.rows[0][0] == "1 passo"


def test_the_running_frequency_is_told_at_each_power_of_ten():
    rows = frame([decision(state, action, card=card) for state, action, card in mini_turn()[:3]] * 5)
    reveals = our_class.reveal_decks(rows)
    simulated = our_class.replay_reveals(reveals, seed=2)
    running = our_class.running_frequency(reveals, simulated, "2")
    plots.running_cards_figure(running, "2")
    text = plots.running_cards_figure_text(running, "2")
    _well_formed(text)
    assert [row[0] for row in text.rows] == ["1", "10", "15"]
    assert text.rows[-1][1] == f"{10 / 15:.3f}"  # two 2-step footprints in each of the five turns
    assert text.alt.startswith("The frequency of “2 steps” as the class's reveals accumulate: after 15 reveals 0.667")
    _italian(plots.running_cards_figure_text(running, "2", lang="it"))
    with pytest.raises(ValueError):
        plots.running_cards_figure_text(running.iloc[:0], "2")
