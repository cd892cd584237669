"""Lessons 5-7: every figure has a text alternative and a table written from its own data, and
colour never carries its meaning alone.

Each ``*_text`` function is checked against the numbers it describes, computed a second way where
that is cheap (the policy map's boundary by solving the turn at the pots around it, the distribution's
mean from its rows, the lesson answers' exact values); each lesson widget shows its figures as an
``<img alt=...>`` with a table of their numbers.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import ipywidgets as widgets
import pytest
from matplotlib.patches import Rectangle

from dragonkit import Action, i18n
from dragonkit.analysis import (
    HoldAtPot,
    TurnState,
    compare_policies,
    evaluate_policy,
    fair_bounty_curve,
    held_turn,
    policy_map,
    policy_shift,
    run_auction,
    solve_turn,
)
from dragonkit.analysis.market import break_even_bid, gaining_takers
from dragonkit.analysis.risk import catch_up, evaluation
from dragonkit.analysis.stopping import point_value, solved_graph
from dragonkit.analysis.thresholds import every_threshold
from dragonkit.i18n.numbers import consecutive_runs, decimal_text, parse_number, ranges_text
from dragonkit.lessons import base
from dragonkit.lessons import market as L7
from dragonkit.lessons import risk as L6
from dragonkit.lessons import stopping as L5
from dragonkit.plots import (
    outcome_bars,
    outcome_bars_text,
    policy_heatmap,
    policy_heatmap_text,
    threshold_curve,
    threshold_curve_text,
)
from dragonkit.plots.market import auction_figure, auction_figure_text, takeover_figure, takeover_figure_text
from dragonkit.plots.risk import catch_up_figure_text, risk_return_figure, risk_return_figure_text
from dragonkit.plots.stopping import boundary_figure, boundary_figure_text, induction_figure, induction_figure_text
from dragonkit.plots.text import FigureText
from dragonkit.rules import Ruleset
from dragonkit.ui.figures import FigureView

MINI, DRAGON = Ruleset.preset("mini"), Ruleset.preset("dragon-stripes")


pytestmark = pytest.mark.usefixtures("english_lessons")


def well_formed(text: FigureText) -> FigureText:
    """A text alternative of one or two sentences, and a table whose rows are as long as its header."""
    assert text.alt.strip() and len(text.alt) <= 320, text.alt
    assert text.columns and text.rows
    assert all(len(row) == len(text.columns) for row in text.rows)
    assert "{" not in text.alt and "}" not in text.alt  # every field filled
    return text


def number(cell: str, lang: str = "en") -> Fraction:
    return parse_number(cell, lang)


def column(text: FigureText, name: str) -> list[str]:
    return [row[text.columns.index(name)] for row in text.rows]


# -- lesson 5: the policy map, where holding starts, backward induction, hold at t ------------------------------


def test_the_policy_maps_text_gives_the_boundary_the_turn_itself_gives():
    state = base.fresh_turn(DRAGON, treasure=100)
    grid = policy_map(state)
    text = well_formed(policy_heatmap_text(grid))
    pots = dict(zip(column(text, "knight position"), column(text, "hold from pot (gems)")))
    assert list(pots) == [str(p) for p in range(18)]
    assert {int(p): int(b) for p, b in pots.items()} == policy_shift(state).loc["as is"].astype(int).to_dict()
    for position in (3, 6, 12):  # holding from that pot, revealing one gem below it: the turn solved there
        pot = int(pots[str(position)])
        at = {**state.__dict__, "position": position, "must_reveal": False}
        assert solve_turn(TurnState(**{**at, "pot": pot, "treasure": 100 - pot})).best_action is Action.HOLD
        assert solve_turn(TurnState(**{**at, "pot": pot - 1, "treasure": 101 - pot})).best_action is Action.REVEAL
    assert "from a pot of 0 gems at position 0, up to 72 gems at position 17" in text.alt
    assert "Always reveal" not in text.alt
    italian = well_formed(policy_heatmap_text(grid, "Mappa", "it"))
    assert italian.alt.startswith("Mappa: per posizione del cavaliere") and "72 gemme" in italian.alt
    assert italian.columns == ("posizione del cavaliere", "fermarsi da un piatto di (gemme)")


def test_a_map_where_revealing_is_best_says_so_in_its_text_and_its_table():
    jackpot = well_formed(policy_heatmap_text(policy_map(base.fresh_turn(DRAGON, treasure=400))))
    assert "revealing is best everywhere on the map" in jackpot.alt  # the optimal player never holds
    assert column(jackpot, "hold from pot (gems)") == ["always reveal"] * 18
    state = base.fresh_turn(DRAGON, treasure=100, stage=2)
    late = well_formed(policy_heatmap_text(policy_map(state)))
    never = [row[0] for row in late.rows if row[1] == "always reveal"]
    assert (
        never
        == [str(p) for p, pot in policy_shift(state).loc["as is"].items() if pot != pot]
        == ["0", "1", "2", "3", "4"]
    )
    assert late.alt.endswith("Always reveal at positions 0–4.")


def test_the_policy_map_marks_holding_without_colour():
    grid = policy_map(base.fresh_turn(MINI))
    ax = policy_heatmap(grid).axes[0]
    hatched = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_hatch()]
    holds = grid.sort_index() <= 0
    runs = sum(len(consecutive_runs([i for i, h in enumerate(holds[p].tolist()) if h])) for p in grid.columns)
    assert len(hatched) == runs > 0
    assert sum(p.get_height() for p in hatched) == int(holds.to_numpy().sum())  # every hold cell, once
    boundary = policy_shift(base.fresh_turn(MINI)).loc["as is"]
    line = next(line for line in ax.get_lines() if len(line.get_xdata()) > 2)
    drawn = {(float(x), float(y)) for x, y in zip(line.get_xdata(), line.get_ydata()) if y == y}
    assert drawn == {(p + side, b - 0.5) for p, b in boundary.dropna().items() for side in (-0.5, 0.5)}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["reveal", "hold", "where holding starts"]
    assert ax.get_legend().legend_handles[1].get_hatch()


@pytest.mark.slow
def test_where_holding_starts_text_reads_the_lessons_exercise_off_its_table():
    explorer = L5.PolicyMapExplorer(treasure=100)
    explorer.stage.value, explorer.gems_slider.value = 2, 80
    shift = explorer.shift()
    lines = shift[~shift.duplicated()]
    names = {"reference": "reference", "gems": "80 gems", "stage": "stage 2", "both": "both"}
    text = well_formed(boundary_figure_text(lines, names))
    assert text.columns == ("knight position", "reference", "80 gems", "stage 2", "both")
    row = dict(zip(text.columns, text.rows[[r[0] for r in text.rows].index("6")]))
    assert (row["reference"], row["80 gems"], row["stage 2"]) == ("14", "4", "35")  # lesson 5's answers
    assert "stage 2: from 28 to 73, elsewhere always reveal" in text.alt
    assert column(text, "stage 2")[:4] == ["always reveal"] * 4
    figure = boundary_figure(lines, names).axes[0]
    assert len({line.get_marker() for line in figure.get_lines()}) == len(lines) == 4  # not only colours
    italian = well_formed(boundary_figure_text(lines, names, "it"))
    assert italian.alt.startswith("Dove conviene fermarsi") and "da 28 a 73, altrove rivelare sempre" in italian.alt


def test_the_induction_text_follows_the_stepper_and_ends_with_the_turn_value():
    state = base.fresh_turn(MINI, gems=12)
    graph, values = solved_graph(state)
    points = sum(len(layer) for layer in graph.layers)
    start = well_formed(induction_figure_text(graph, values, 0))
    assert "nothing is solved yet" in start.alt and column(start, "V") == ["?"] * points
    two = well_formed(induction_figure_text(graph, values, 2))
    known = [(d, i) for d in range(len(graph.layers)) for i in range(len(graph.layers[d])) if d >= 3]
    assert sum(v != "?" for v in column(two, "V")) == len(known)
    assert f"not solved yet: {points - len(known)}" in two.alt
    full = well_formed(induction_figure_text(graph, values, len(graph.layers)))
    assert full.alt.endswith("The turn's value V at the start: -11/8 gems.")
    assert solve_turn(state, exact=True).value == Fraction(-11, 8)
    shown = column(full, "V")
    k = 0
    for d, layer in enumerate(graph.layers):
        for i in range(len(layer)):
            assert shown[k] == str(point_value(values, d, i, "push" if d == 0 else "value"))
            k += 1
    holds = column(full, "best").count("hold")
    assert f"that hold: {holds};" in full.alt and holds == 17  # all but the compulsory start
    figure = induction_figure(graph, values, len(graph.layers)).axes[0]
    shapes = {c.get_paths()[0].vertices.shape[0] for c in figure.collections}
    assert len(shapes) == 2  # holding points are squares, revealing ones circles
    italian = induction_figure_text(graph, values, len(graph.layers), lang="it")
    assert italian.alt.startswith("Induzione all'indietro") and "fermarsi" in column(italian, "meglio")


def test_the_threshold_text_names_the_best_t_and_the_optimum():
    comparison = compare_policies(base.fresh_turn(MINI, gems=0), every_threshold(base.fresh_turn(MINI)), exact=True)
    text = well_formed(threshold_curve_text(comparison))
    assert "the best is t = 5" in text.alt and L5.ThresholdExplorer("mini", gems=0).best_thresholds() == [5]
    gains = {row[0]: number(row[1]) for row in text.rows}
    assert gains["optimal policy"] == round(Fraction(87, 56), 3)
    assert max((g, t) for t, g in gains.items() if t != "optimal policy")[1] == "5"
    assert len(text.rows) == 16 + 1
    italian = threshold_curve_text(comparison, "it")
    assert "la migliore è t = 5" in italian.alt and "1,554" in italian.alt
    figure = threshold_curve(comparison).axes[0]
    assert figure.get_legend().get_texts()[1].get_text() == "best t = 5"


# -- lesson 6: the distribution, mean against risk, the catch-up ---------------------------------------------------


def test_the_distribution_text_is_the_distribution():
    state = base.fresh_turn(MINI)
    e = evaluate_policy(state, HoldAtPot(4), exact=True)
    text = well_formed(outcome_bars_text(dataclasses.replace(e, policy="hold at 4")))
    rows = {int(x): number(p) for x, p in text.rows}
    assert rows == {int(x): round(p, 3) for x, p in e.distribution.items()}
    mean = sum(x * p for x, p in e.distribution.items())
    assert f"expected change {decimal_text(mean, 2)} gems" in text.alt
    loss = sum(p for x, p in e.distribution.items() if x < 0)
    assert f"probability of a loss {decimal_text(loss, 3)}" in text.alt
    assert "6 possible changes from -12 to 7 gems" in text.alt
    italian = well_formed(outcome_bars_text(e, "it"))
    assert "probabilità di una perdita 0,696" in italian.alt and italian.rows[0] == ("-12", "0,232")


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
    assert {t.get_text() for t in ax.texts} >= {"t = 1", "t = 120"}  # the dots' t written, not only coloured
    assert len({h.get_paths()[0].vertices.shape[0] for h in ax.collections[1:]}) == 3  # a shape per named policy
    italian = well_formed(risk_return_figure_text(points, explorer.named("it"), "it"))
    assert "Meno probabile perdere: prudente" in italian.alt and italian.rows[-1][0] == "fermati a 120 gemme"


def test_the_catch_up_text_gives_the_lessons_answers():
    answer = L6.answers()
    mini = base.fresh_turn(MINI)
    table = catch_up(mini, 5, every_threshold(mini), exact=True)
    optimum = (Fraction(0), evaluation(mini, "optimal", 1, True).expected_gain)
    text = well_formed(catch_up_figure_text(table, 5, optimum))
    assert f"t = {answer['best_t_5']}, P(X ≥ 5) = " in text.alt
    chances = {row[0]: number(row[1]) for row in text.rows}
    assert chances["5"] == round(answer["catch_up_5"], 3) and len(chances) == 16
    assert text.columns[1] == "P(X ≥ 5)"
    italian = catch_up_figure_text(table, 5, optimum, "it")
    assert "pareggiare o vincere" in italian.alt and italian.rows[4][1] == "0,250"


# -- lesson 7: who should take over, the auction ------------------------------------------------------------------


def test_the_takeover_text_names_the_takers_for_whom_it_pays():
    state = held_turn(MINI, (1, 2))
    curve = fair_bounty_curve(state, 12)
    text = well_formed(takeover_figure_text(curve, 4, 12, 4))
    assert "Taking over pays for takers with 4 gems." in text.alt and gaining_takers(curve) == [4]
    assert "Dotted lines: holder: 12 gems; taker: 4 gems." in text.alt
    nets = column(text, "expected net gain, F(g − b) − b")
    assert nets[:4] == ["–"] * 4  # a taker with fewer gems than the bounty may not accept
    assert number(nets[4]) == round(Fraction(1, 6), 3) and number(nets[8]) == round(Fraction(-5, 6), 3)  # lesson 7
    assert len(text.rows) == 13
    ax = takeover_figure(curve, 4, 12, 4).axes[0]
    assert all(p.get_hatch() for p in ax.patches)  # the bands are hatched, not only green
    italian = well_formed(takeover_figure_text(curve, 4, None, None, "it"))
    assert "Prendere il posto conviene a chi ha 4 gemme." in italian.alt and "Linee" not in italian.alt
    assert ranges_text([1, 2, 3, 7, 1200, 1201], "it") == "1–3, 7, 1.200–1.201"


def test_the_auction_text_gives_the_winner_and_the_break_even_bid():
    state = held_turn(DRAGON, (2, 3, 4), treasure=60)
    result = run_auction(state, 40, [("Ann", 12), ("Bo", 25), ("Cy", 25), ("Di", 3)])
    text = well_formed(auction_figure_text(result))
    assert "Bo wins with a bid of 25 gems and pays 25 gems." in text.alt
    assert f"Break-even bid: {break_even_bid(state, 40)} gems; 2 of 4 bids lose gems on average." in text.alt
    assert column(text, "bidder") == ["Bo", "Cy", "Ann", "Di"]
    fair = fair_bounty_curve(state, 40)["fair_bounty"]
    assert [number(p) for p in column(text, "expected profit at one's own bid (gems)")] == [
        round(fair[40 - b] - b, 3) for b in (25, 25, 12, 3)
    ]
    ax = auction_figure(result).axes[0]
    assert [bool(p.get_hatch()) for p in ax.patches] == [True, True, False, False]  # the two losing bids
    assert "winner" in {t.get_text() for t in ax.texts}
    italian = well_formed(auction_figure_text(result, "it"))
    assert "Vince Bo con un'offerta di 25 gemme" in italian.alt and italian.columns[0] == "offerente"


# -- the lessons' widgets show every figure with its text --------------------------------------------------------


def _figures(widget) -> list:
    found, queue = [], [widget]
    while queue:
        w = queue.pop(0)
        queue.extend(getattr(w, "children", ()))
        found.append(w)
    assert not [w for w in found if isinstance(w, widgets.Image)]
    return [w for w in found if isinstance(w, FigureView)]


def _stepper():
    stepper = L5.InductionStepper(gems=12)
    stepper.go(2)
    return stepper


def _auction():
    sheet = L7.AuctionSheet(seed=7)
    sheet.reveal("Ann 10\nBo 30", "first")
    return sheet


@pytest.mark.parametrize(
    "make, count",
    [
        (_stepper, 1),
        (lambda: L5.PolicyMapExplorer(treasure=100), 2),
        (lambda: L5.ThresholdExplorer("mini"), 1),
        (lambda: L6.OutcomeExplorer(threshold=4), 1),
        (lambda: L6.RiskReturnExplorer(treasure=400, thresholds=(1, 10, 40)), 1),
        (lambda: L6.CatchUpExplorer(needed=5), 1),
        (lambda: L7.TakeoverExplorer(edition="mini", drawn="1+2"), 1),
        (_auction, 1),
    ],
)
@pytest.mark.slow
def test_every_lesson_figure_has_its_text_and_its_table_in_both_languages(make, count):
    lesson = make()
    views = _figures(lesson.widget)
    assert len(views) == count
    english = [view.value for view in views]
    for html in english:
        assert re.search(r'<img src="data:image/png;base64,[^"]+" alt="[^"]{40,}"', html)
        assert "<table" in html and "<summary>The figure&#x27;s numbers</summary>" in html
    i18n.set_language("it")
    for before, view in zip(english, views):
        assert view.value != before and "I numeri della figura" in view.value and "<table" in view.value
    alts = [re.search(r'alt="([^"]*)"', view.value).group(1) for view in views]
    assert all(not re.search(r"\d\.\d", alt) for alt in alts), alts  # decimals with a comma (no thousands here)
