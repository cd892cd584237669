"""The figures of lesson 10 with their text: Pig's win-optimal policy and the two coaches' map, each told from the
figure's own data (checked here against the policy array and the map's cells), in the page's language; the lines and
the cells are told apart by more than their colour; every lesson widget of lesson 10 shows its figure as an
``<img alt=...>`` with its numbers as a table, in the learner's language."""

from __future__ import annotations

import numpy as np
import pytest

from dragonkit import Ruleset
from dragonkit.lessons import wins
from dragonkit.plots.wins import coach_map_figure, coach_map_figure_text, pig_policy_figure, pig_policy_figure_text
from dragonkit.topics import gems_or_wins as gw

from ..english import english_words
from .texts import told_in_both_languages

STRIPES = Ruleset.preset("dragon-stripes")


def test_pigs_chart_is_told_from_the_policy():
    solution = gw.pig_solution()
    opponents = (0, 50, 90)
    text = pig_policy_figure_text(solution, opponents)
    assert len(text.alt) <= 300 and "At 0 against 0: hold at 21." in text.alt
    assert "Against 90: roll on until you reach 100 at scores 0–99." in text.alt
    assert text.columns == ("your score", "opponent at 0", "opponent at 50", "opponent at 90")
    for row in text.rows:
        i = int(row[0])
        for j, shown in zip(opponents, row[1:]):
            first_hold = next(k for k in range(101) if k >= 100 - i or not solution.roll[i, j, k])
            assert int(shown) == first_hold
    ax = pig_policy_figure(solution, opponents).axes[0]
    styles = {(line.get_linestyle(), line.get_marker()) for line in ax.lines}
    assert len(styles) == len(ax.lines) == len(opponents) + 1  # told apart by their style, not their colour only
    italian = pig_policy_figure_text(solution, opponents, lang="it")
    assert italian.alt.startswith("Pig: il totale del turno") and english_words(italian.alt) == []


@pytest.mark.slow
def test_the_coach_map_is_told_from_its_cells():
    cells = gw.coach_map(STRIPES, 2, 25, (40, 40))
    text = coach_map_figure_text(cells, "Stage 2")
    assert len(text.alt) <= 300
    flat = cells.to_numpy()
    disagree = int(np.isin(flat, ["win holds", "win reveals"]).sum())
    total = int(np.isin(flat, list(gw.AGREEMENTS)).sum())
    assert f"The coaches disagree on {disagree} of {total} decisions" in text.alt
    assert len(text.rows) == STRIPES.n_stripes
    row = text.rows[2]  # position 3
    holds = [int(p) for p in cells.index if cells.at[p, 3] == "win holds"]
    assert row[0] == "3" and row[4] == f"{holds[0]}–{holds[-1]}"
    ax = coach_map_figure(cells, "Stage 2", (3, 10)).axes[0]
    hatches = {p.get_hatch() for p in ax.patches}
    assert len(hatches - {None, ""}) == 2  # each kind of disagreement its own hatching
    labels = [t.get_text() for t in ax.figure.legends[0].get_texts()]
    assert "the win coach holds, the gem coach reveals" in labels and "the situation below" in labels
    italian = coach_map_figure_text(cells, "Fase 2", "it")
    assert "Gli allenatori non sono d'accordo su" in italian.alt and english_words(italian.alt) == []
    agree = coach_map_figure_text(gw.coach_map(STRIPES, 1, 30, (40, 40)), "Stage 1")
    assert "The coaches agree on all" in agree.alt


@pytest.mark.parametrize(
    "make, view, alt_en, alt_it",
    [
        (
            wins.pig_policy_chart,
            lambda w: w.widget,
            "Pig: the turn total at which the player who plays to win holds",
            "Pig: il totale del turno a cui si ferma chi gioca per vincere",
        ),
        (
            lambda: wins.CoachMap(stage=2, cards=25),
            lambda w: w.plot,
            "Stage 2, 25 cards left; your gems 40, your opponent's 40. The coaches disagree on",
            "Fase 2, 25 carte rimaste; le tue gemme 40, quelle dell'avversario 40. Gli allenatori non sono",
        ),
        (
            lambda: wins.HeadToHead(games=20, seed=3),
            lambda w: w.plot,
            "Win rates, 95% Wilson intervals: ",
            "Percentuali di vittorie, intervalli di Wilson al 95%: ",
        ),
    ],
    ids=["pig_policy_chart", "CoachMap", "HeadToHead"],
)
@pytest.mark.slow
def test_every_lesson_10_figure_has_its_text_and_its_table_in_the_learners_language(make, view, alt_en, alt_it):
    widget = make()
    told_in_both_languages(view(widget), alt_en, alt_it)
    widget.close()
