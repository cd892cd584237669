"""Lesson 6's figures (dragonkit.plots.risk) in words: the distribution, losses hatched and not only red,
mean against risk, the catch-up."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from matplotlib.patches import Rectangle

from dragonkit.analysis import HoldAtPot, evaluate_policy
from dragonkit.analysis.turn.thresholds import every_threshold
from dragonkit.i18n.numbers import decimal_text
from dragonkit.lessons import base
from dragonkit.lessons import risk as L6
from dragonkit.plots.policy import outcome_bars, outcome_bars_text
from dragonkit.plots.risk import catch_up_figure_text, risk_return_figure, risk_return_figure_text
from dragonkit.rules import Ruleset
from dragonkit.topics.risk import catch_up, evaluation

from .texts import number, well_formed

MINI, DRAGON = Ruleset.preset("mini"), Ruleset.preset("dragon-stripes")


pytestmark = pytest.mark.usefixtures("lesson_widgets_closed")


def test_the_distribution_text_is_the_distribution():
    state = base.fresh_turn(MINI)
    e = evaluate_policy(state, HoldAtPot(4), exact=True)
    text = well_formed(outcome_bars_text(dataclasses.replace(e, policy="hold at 4")))
    rows = {int(number(x)): number(p) for x, p in text.rows}
    assert rows == {int(x): round(p, 3) for x, p in e.distribution.items()}
    mean = sum(x * p for x, p in e.distribution.items())
    assert f"expected change {decimal_text(mean, 2)} gems" in text.alt
    loss = sum(p for x, p in e.distribution.items() if x < 0)
    assert f"probability of a loss {decimal_text(loss, 3)}" in text.alt
    assert "6 possible changes from −12 to 7 gems" in text.alt
    italian = well_formed(outcome_bars_text(e, "it"))
    assert "probabilità di una perdita 0,696" in italian.alt and italian.rows[0] == ("−12", "0,232")


def test_losses_are_hatched_not_only_red():
    e = evaluate_policy(base.fresh_turn(MINI), HoldAtPot(4), exact=True)
    ax = outcome_bars(e).axes[0]
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    hatched = [bool(p.get_hatch()) for p in bars]
    assert hatched == [x < 0 for x in e.distribution.index]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[1:] == ["loss", "gain"] and labels[0].startswith("expected")


@pytest.mark.slow
def test_mean_against_risk_text_lists_every_policy_drawn():
    explorer = L6.RiskReturnExplorer(treasure=400, thresholds=(1, 5, 10, 20, 40, 80, 120))
    points, named = explorer.points(), explorer.named("en")
    text = well_formed(risk_return_figure_text(points, named))
    assert [row[0] for row in text.rows] == [*named, *(f"hold at {t} gems" for t in (1, 5, 10, 20, 40, 80, 120))]
    cautious = dict(zip(text.columns, text.rows[0]))
    assert number(cautious["P(X < 0)"]) == round(Fraction(13, 51), 3)  # the first card: 10 stops, 3 dangers
    assert "Least likely to lose: cautious: hold after 1 card" in text.alt
    best = max(text.rows, key=lambda row: number(row[1]))
    assert f"Most expected gems: {best[0]}" in text.alt
    ax = risk_return_figure(points, named).axes[0]
    assert {t.get_text() for t in ax.texts} >= {"h = 1", "h = 120"}  # the dots' h written, not only coloured
    assert len({h.get_paths()[0].vertices.shape[0] for h in ax.collections[1:]}) == 3  # a shape per named policy
    italian = well_formed(risk_return_figure_text(points, explorer.named("it"), "it"))
    assert "Meno probabile perdere: prudente" in italian.alt and italian.rows[-1][0] == "fermati a 120 gemme"


def test_the_catch_up_text_gives_the_lessons_answers():
    answer = L6.answers()
    mini = base.fresh_turn(MINI)
    table = catch_up(mini, 5, every_threshold(mini), exact=True)
    optimum = (Fraction(0), evaluation(mini, "optimal", 1, True).expected_gain)
    text = well_formed(catch_up_figure_text(table, 5, optimum))
    assert f"h = {answer['best_t_5']}, P(X ≥ 5) = " in text.alt
    chances = {row[0]: number(row[1]) for row in text.rows}
    assert chances["5"] == round(answer["catch_up_5"], 3) and len(chances) == 16
    assert text.columns[1] == "P(X ≥ 5)"
    italian = catch_up_figure_text(table, 5, optimum, "it")
    assert "pareggiare o vincere" in italian.alt and italian.rows[4][1] == "0,250"
