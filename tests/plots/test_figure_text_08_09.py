"""The lesson widgets of lessons 8 and 9 show every figure with its text and its table, in the learner's
language (each figure's own text: test_simulation.py, test_editions.py)."""

from __future__ import annotations

import pytest

from dragonkit.lessons import editions, simulation

from .texts import told_in_both_languages


@pytest.mark.parametrize(
    "make, view, alt_en, alt_it",
    [
        (
            lambda: simulation.MonteCarloLab(edition="mini", policy=20, n=300, seed=1),
            lambda w: w.plot,
            "The law of large numbers, hold at 20 gems: after 300 turns",
            "La legge dei grandi numeri, fermati a 20 gemme: dopo 300 turni",
        ),
        (
            lambda: simulation.CoverageLab(edition="mini", policy=20, n=20, experiments=40, seed=2),
            lambda w: w.plot,
            "95% intervals of 20 turns each",
            "Intervalli al 95% di 20 turni ciascuno",
        ),
        (
            lambda: simulation.error_shrinkage(edition="mini", repetitions=10),
            lambda w: w.widget,
            "The error of the mean against the turns simulated",
            "L'errore della media",
        ),
        (
            lambda: simulation.TournamentLab(bots=("threshold:5", "random"), games=10, seed=1, edition="mini"),
            lambda w: w.plot,
            "Win rates, 95% Wilson intervals: ",
            "Percentuali di vittorie, intervalli di Wilson al 95%: ",
        ),
        (
            lambda: editions.EditionComparison(editions=("mini",), measure="std"),
            lambda w: w.plot,
            "standard deviation (gems) of a fresh turn",
            "deviazione standard (gemme) di un turno nuovo",
        ),
        (
            lambda: editions.deck_chart(("mini", "kali")),
            lambda w: w.widget,
            "What is in each deck: mini (classroom deck) 8 cards",
            "Che cosa c'è in ogni mazzo: mini (mazzo per la classe) 8 carte",
        ),
    ],
    ids=["MonteCarloLab", "CoverageLab", "ErrorShrinkage", "TournamentLab", "EditionComparison", "deck_chart"],
)
@pytest.mark.slow
def test_every_lesson_figure_has_its_text_and_its_table_in_the_learners_language(make, view, alt_en, alt_it):
    widget = make()
    told_in_both_languages(view(widget), alt_en, alt_it)
    widget.close()
