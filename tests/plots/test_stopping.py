"""Lesson 5's figures (dragonkit.plots.stopping) in words: the policy map's boundary as the turn itself
gives it, where holding starts, backward induction, hold at h; holding marked without colour."""

from __future__ import annotations

from fractions import Fraction

import pytest
from matplotlib.patches import Rectangle

from dragonkit.analysis import TurnState, compare_policies, policy_map, policy_shift, solve_turn
from dragonkit.analysis.turn.thresholds import every_threshold
from dragonkit.i18n.numbers import consecutive_runs, fraction_text
from dragonkit.lessons import base
from dragonkit.lessons import stopping as L5
from dragonkit.plots.policy import policy_heatmap, policy_heatmap_text, threshold_curve, threshold_curve_text
from dragonkit.plots.stopping import boundary_figure, boundary_figure_text, induction_figure, induction_figure_text
from dragonkit.rules import Ruleset
from dragonkit.topics.stopping import point_value, solved_graph
from dragonkit.turn import Action

from .texts import column, number, well_formed

MINI, DRAGON = Ruleset.preset("mini"), Ruleset.preset("dragon-stripes")


pytestmark = pytest.mark.usefixtures("lesson_widgets_closed")


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
    assert full.alt.endswith("The turn's value V at the start: −11/8 gems.")
    assert solve_turn(state, exact=True).value == Fraction(-11, 8)
    shown = column(full, "V")
    k = 0
    for d, layer in enumerate(graph.layers):
        for i in range(len(layer)):
            assert shown[k] == fraction_text(point_value(values, d, i, "push" if d == 0 else "value"))
            k += 1
    holds = column(full, "best").count("hold")
    assert f"that hold: {holds};" in full.alt and holds == 17  # all but the compulsory start
    figure = induction_figure(graph, values, len(graph.layers)).axes[0]
    shapes = {c.get_paths()[0].vertices.shape[0] for c in figure.collections}
    assert len(shapes) == 2  # holding points are squares, revealing ones circles
    italian = induction_figure_text(graph, values, len(graph.layers), lang="it")
    assert italian.alt.startswith("Induzione all'indietro") and "fermarsi" in column(italian, "scelta migliore")


def test_the_threshold_text_names_the_best_t_and_the_optimum():
    comparison = compare_policies(base.fresh_turn(MINI, gems=0), every_threshold(base.fresh_turn(MINI)), exact=True)
    text = well_formed(threshold_curve_text(comparison))
    assert "the best is h = 5" in text.alt and L5.ThresholdExplorer("mini", gems=0).best_thresholds() == [5]
    gains = {row[0]: number(row[1]) for row in text.rows}
    assert gains["optimal policy"] == round(Fraction(87, 56), 3)
    assert max((g, t) for t, g in gains.items() if t != "optimal policy")[1] == "5"
    assert len(text.rows) == 16 + 1
    italian = threshold_curve_text(comparison, "it")
    assert "la migliore è h = 5" in italian.alt and "1,554" in italian.alt
    figure = threshold_curve(comparison).axes[0]
    assert figure.get_legend().get_texts()[1].get_text() == "best h = 5"
