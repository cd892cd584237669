"""Lessons 4-6: the chain laboratory, backward induction, risk.

Every number a widget or an exercise shows is checked against a second,
independent computation: a brute-force enumeration of every order of the
classroom deck played with the rules' own card arithmetic (``Ruleset.apply_card``),
a plain memoized Bellman recursion, a dense numpy inverse, or Monte Carlo.
"""

from __future__ import annotations

import ast
import json
import re
from fractions import Fraction
from functools import cache
from pathlib import Path

import ipywidgets as widgets
import numpy as np
import pytest
import scipy.sparse as sp
from matplotlib.figure import Figure
from scipy.sparse.linalg import spsolve

from dragonkit import Action, Game, i18n
from dragonkit.analysis import (
    HoldAtPot,
    TurnState,
    evaluate_policy,
    named,
    optimal_policy,
    policy_map,
    policy_shift,
    solve_turn,
    turn_chain,
)
from dragonkit.analysis.chain_tables import chain_matrices, outcome_order
from dragonkit.analysis.risk import catch_up, evaluation, moments_table, probability_at_least
from dragonkit.analysis.stopping import bellman_terms, solved_graph
from dragonkit.analysis.thresholds import best_thresholds, largest_pot
from dragonkit.lessons import base
from dragonkit.lessons import chain as L4
from dragonkit.lessons import risk as L6
from dragonkit.lessons import stopping as L5
from dragonkit.plots.chain import spy_figure
from dragonkit.plots.text import FigureText
from dragonkit.rules import Card, Ruleset
from dragonkit.simulate import simulate_turns
from dragonkit.ui.numbers import number_html

from .catalogs import italian

ROOT = Path(__file__).parents[1]
MINI = Ruleset.preset("mini")


pytestmark = pytest.mark.usefixtures("english_lessons")


# -- a second method: every order of the classroom deck, played card by card -----------------------


def _orders(counts: dict) -> list[tuple[Card, ...]]:
    """All distinct orders of a multiset of cards (each equally likely after a shuffle)."""
    if not any(counts.values()):
        return [()]
    out = []
    for card, n in counts.items():
        if n:
            rest = dict(counts)
            rest[card] -= 1
            out += [(card, *tail) for tail in _orders(rest)]
    return out


@cache
def _mini_orders() -> tuple:
    return tuple(_orders(dict(MINI.composition.counts())))


def _play(order, threshold: int, gems: int, treasure: int, rules=MINI):
    """One turn from the start with the given deck order under hold at ``threshold``.

    Returns (gain in gems, cards revealed, outcome, decision points where a card was revealed)."""
    position, pot, visited = 0, 0, []
    for k, card in enumerate(order):
        visited.append((position, pot))
        effect = rules.apply_card(
            card,
            position=position,
            pot=pot,
            gems=gems,
            treasure=treasure,
            dangers_revealed=0,
            cards_left=len(order) - k - 1,
        )
        if effect.ends_turn:
            return effect.gems_change, k + 1, effect.outcome, visited
        position, pot, treasure = effect.position, effect.pot, effect.treasure
        if pot >= threshold:
            return pot, k + 1, "held", visited
    raise AssertionError("a turn of the classroom deck always ends")


@cache
def _enumerated(threshold: int, gems: int = 12) -> dict:
    """Exact law of a hold-at-t turn of the classroom deck by enumeration of the 1,680 orders."""
    orders = _mini_orders()
    w = Fraction(1, len(orders))
    dist, cards, outcomes, visits = {}, Fraction(0), {}, {}
    for order in orders:
        gain, n, outcome, visited = _play(order, threshold, gems, MINI.treasure)
        dist[gain] = dist.get(gain, 0) + w
        outcomes[outcome] = outcomes.get(outcome, 0) + w
        cards += n * w
        for point in visited:
            visits[point] = visits.get(point, 0) + w
    return {"dist": dict(sorted(dist.items())), "cards": cards, "outcomes": outcomes, "visits": visits}


def test_the_enumeration_is_the_whole_deck():
    assert len(_mini_orders()) == 1680  # 8! / (3! 2! 2! 1!)
    assert sum(_enumerated(4)["dist"].values()) == 1


@cache
def _bellman(
    footprints: tuple, stops: int, dangers: int, position: int, pot: int, gems: int, treasure: int, compulsory: bool
) -> Fraction:
    """A plain recursion of the optimal turn value (RULES.md section 7), card by card."""
    comp = L4.TurnState(MINI, dict(footprints), stops, dangers, 0, gems, treasure).composition
    push = Fraction(0)
    for card, p in comp.outcomes():
        effect = MINI.apply_card(
            card,
            position=position,
            pot=pot,
            gems=gems,
            treasure=treasure,
            dangers_revealed=0,
            cards_left=comp.total - 1,
        )
        if effect.ends_turn:
            push += p * effect.gems_change
        else:
            left = dict(footprints)
            left[card.steps] -= 1
            push += p * _bellman(
                tuple(sorted(left.items())), stops, dangers, effect.position, effect.pot, gems, effect.treasure, False
            )
    return push if compulsory else max(Fraction(pot), push)


def _bellman_state(state) -> Fraction:
    return _bellman(
        tuple(state.footprints.items()),
        state.stops,
        state.dangers,
        state.position,
        state.pot,
        state.gems,
        state.treasure,
        state.must_reveal,
    )


# -- lesson 4: the chain ---------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [1, 3, 4, 7, 10])
@pytest.mark.slow
def test_chain_matrices_agree_with_a_dense_inverse_and_with_the_enumeration(threshold):
    lab = L4.ChainLab(threshold=threshold)
    m = lab.matrices()
    Q = m["Q"].to_numpy(dtype=object)
    N = m["N"].to_numpy(dtype=object)
    n = len(Q)
    # exact: N (I - Q) = I, and N = I + Q + Q^2 + ... (Q is nilpotent: the chain never returns)
    assert (N.dot(np.identity(n, dtype=object) - Q) == np.identity(n, dtype=object)).all()
    series, power = np.identity(n, dtype=object), np.identity(n, dtype=object)
    for _ in range(n):
        power = power.dot(Q)
        series = series + power
    assert (series == N).all()
    # float: numpy's dense inverse
    assert np.allclose(np.linalg.inv(np.identity(n) - Q.astype(float)), N.astype(float))
    assert (m["t"]["t"].to_numpy() == N.sum(axis=1)).all()
    B = m["B"].to_numpy(dtype=object)
    assert (N.dot(m["R"].to_numpy(dtype=object)) == B).all()
    assert all(sum(row) == 1 for row in B)
    # the start's row against every order of the deck played by the rules
    law = _enumerated(threshold)
    start = lab.chain.start
    assert m["t"].loc[start, "t"] == law["cards"]
    assert m["Br"].loc[start, "Br"] == sum(g * p for g, p in law["dist"].items())
    for label in lab.chain.transient:
        assert m["N"].loc[start, label] == law["visits"][(label.position, label.pot)]
    outcomes = m["B"].loc[start]
    assert outcomes["stopped"] == law["outcomes"]["stopped"]
    assert outcomes["final danger"] == law["outcomes"]["final_danger"]
    assert sum(outcomes[a] for a in outcomes.index if a.startswith("held")) == law["outcomes"].get("held", 0)
    assert len(lab.chain.transient) == len(law["visits"])


def test_outcome_columns_run_from_the_worst_to_the_best():
    chain = L4.ChainLab(threshold=7).chain
    order = outcome_order(chain)
    assert [chain.rewards[a] for a in order] == sorted(chain.rewards.values())
    assert list(chain_matrices(chain)["B"].columns) == order


def test_read_aloud_says_the_row_of_n_t_b_and_the_expected_gain():
    lab = L4.ChainLab(threshold=4)
    chain = lab.chain
    for state in chain.transient:
        text = L4.read_aloud(chain, state, "en")
        for target, visits in chain.fundamental_matrix().loc[state].items():
            if visits:
                assert L4.state_name(target, "en") in text and str(visits) in text
        assert f"{chain.expected_steps(start=state)}</span>" in text
        for outcome, p in chain.absorption_probabilities(start=state).items():
            if p:
                assert f"<b>{L4.state_name(outcome, 'en')}</b>" in text and str(p) in text
        assert str(chain.expected_reward(chain.rewards, start=state)) in text
    with pytest.raises(ValueError, match="not a transient state"):
        L4.read_aloud(chain, "stopped")


@pytest.mark.slow
def test_the_chain_lab_follows_its_slider_and_the_state_picker():
    lab = L4.ChainLab(threshold=4)
    graph_before, table_before = lab.graph.value, lab.table.value
    assert "4 transient states" in lab.summary.value and "6 absorbing states" in lab.summary.value
    lab.slider.value = 7
    assert "8 transient states" in lab.summary.value
    assert lab.graph.value != graph_before and lab.table.value != table_before
    assert len(lab.state_picker.options) == 8
    chosen = lab.chain.transient[-1]
    lab.state_picker.value = chosen
    assert 'class="dk-row-on"><th>' + L4.state_name(chosen, "en") in lab.table.value
    assert L4.state_name(chosen, "en") in lab.reading.value
    lab.picker.value = "B"
    assert "B = N R" in lab.caption.value and "final danger" in lab.table.value
    lab.slider.value = 1  # the chosen state disappears: the picker falls back to the start
    assert lab.state_picker.value == lab.chain.start
    with pytest.raises(ValueError, match="threshold"):
        L4.ChainLab(threshold=0)


def test_the_real_deck_code_of_lesson_4_solves_the_sparse_chain():
    real = base.fresh_turn("dragon-stripes")
    chain = turn_chain(real, optimal_policy(real))
    Q, R = chain.Q, chain.R
    assert sp.issparse(Q) and Q.shape == (7945, 7945) and Q.nnz < 4 * 7945
    assert sp.triu(Q, k=1).nnz == Q.nnz  # layer order: strictly upper triangular
    n = Q.shape[0]
    e = np.zeros(n)
    e[chain.transient.index(chain.start)] = 1
    x = spsolve((sp.identity(n, format="csc") - Q).T.tocsc(), e)
    assert np.isclose(x.sum(), chain.expected_steps(start=chain.start))
    assert np.allclose(x @ R, chain.absorption_probabilities(start=chain.start).to_numpy(dtype=float))
    assert "7,945 × 7,945" in spy_figure(Q).axes[0].get_title()


def _shown_code(path: Path) -> str:
    """The one code cell of a lesson that JupyterLab shows (its source not hidden)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    shown = [c for c in cells if c["cell_type"] == "code" and not c["metadata"].get("jupyter", {}).get("source_hidden")]
    (cell,) = shown
    return "".join(cell["source"])


def _run_cell(source: str):
    """Run a cell as a kernel does: its statements, then its last line's value (what the cell shows)."""
    tree = ast.parse(source)
    namespace: dict = {}
    exec(compile(ast.Module(tree.body[:-1], []), "<cell>", "exec"), namespace)
    return eval(compile(ast.Expression(tree.body[-1].value), "<cell>", "eval"), namespace)


@pytest.mark.parametrize("folder", ["", "it"])
def test_lesson_4s_code_cell_runs_with_the_policy_it_suggests(folder):
    """The cell the prose asks the learner to run in JupyterLab: it runs as it is and with ``HoldAtPot(20)``, which
    the prose suggests (it once used the name without importing it), and shows its result as the page shows things,
    in the page's language, never as a printout."""
    source = _shown_code(ROOT / "notebooks" / folder / "04-absorbing-chain.ipynb")
    assert "print(" not in source and "policy = optimal_policy(real)" in source
    i18n.set_language(folder or "en")
    shown = _run_cell(source).data
    point = "," if folder == "it" else "."
    assert f"t = 3{point}5366" in shown and f"0{point}7252" in shown and f"0{point}0572" in shown
    shown = _run_cell(source.replace("policy = optimal_policy(real)", "policy = HoldAtPot(20)")).data
    assert f"t = 2{point}8311" in shown and "125 × 125" in shown


def test_the_sparse_solve_is_reported_in_words_and_a_table_in_the_pages_language():
    real = base.fresh_turn("dragon-stripes")
    chain = turn_chain(real, optimal_policy(real))
    B = chain.absorption_probabilities(start=chain.start).to_numpy(dtype=float)
    t = chain.expected_steps(start=chain.start)
    english, italian_ = L4.sparse_solve_html(chain, t, B, "en"), L4.sparse_solve_html(chain, t, B, "it")
    assert "7,945 transient states and 3 outcomes" in english and "14,698 non-zero entries (0.023%" in english
    assert "<b>t = 3.5366</b>" in english
    assert re.search(r'<th scope="row">stopped</th><td>-10 gems</td><td>0\.7252</td>', english)
    assert re.search(r'<th scope="row">head</th><td>\+400 gems</td><td>0\.0572</td>', english)
    assert "7.945 stati transitori e 3 esiti" in italian_ and "14.698 elementi non nulli (0,023%" in italian_
    assert "<b>t = 3,5366</b>" in italian_
    assert re.search(r'<th scope="row">stop</th><td>-10 gemme</td><td>0,7252</td>', italian_)
    assert "<caption>" in english and '<th scope="col">probabilità</th>' in italian_
    with pytest.raises(ValueError, match="x @ R"):
        L4.sparse_solve_html(chain, t, B[:2])


def test_lesson_4_answers_by_enumeration():
    answer = L4.answers()
    law4, law5 = _enumerated(4), _enumerated(5)
    assert answer["states"] == len(law5["visits"]) == 5
    target = answer["visits_state"]
    assert L4.state_name(target, "en") == "@2, pot 3"
    assert answer["visits"] == law4["visits"][(target.position, target.pot)] == Fraction(3, 28)
    assert answer["cards"] == law4["cards"] == Fraction(97, 56)
    assert answer["stopped"] == law4["outcomes"]["stopped"] == Fraction(13, 28)
    assert answer["gain"] == sum(g * p for g, p in law4["dist"].items()) == Fraction(-37, 14)


def test_fresh_turn_and_helpers():
    state = base.fresh_turn("dragon-stripes", gems=7, treasure=99, stage=2)
    assert (state.gems, state.treasure, state.dangers_revealed, state.dangers, state.must_reveal) == (7, 99, 2, 1, True)
    with pytest.raises(ValueError, match="stage"):
        base.fresh_turn("mini", stage=1)
    with pytest.raises(ValueError, match="preset"):
        base.fresh_turn("nope")
    assert base.policy_name(HoldAtPot(4), "it") == "fermati a 4"
    assert L4.state_name("held 5", "it") == "si ferma con 5"
    sliders = base.situation_sliders(Ruleset.preset("dragon-stripes"), gems=200, treasure=10, stage=1)
    assert [(s.value, s.min <= s.value <= s.max) for s in sliders.values()] == [(200, True), (10, True), (1, True)]


def test_a_fresh_turn_is_the_engines_first_decision():
    for name in ("mini", "dragon-stripes", "kali", "drago-rosso"):
        rules = Ruleset.preset(name)
        engine = TurnState.from_game(Game(["A", "B"], rules=rules, seed=0))
        assert base.fresh_turn(name) == base.fresh_turn(rules) == engine
    with pytest.raises(ValueError, match="Ruleset"):
        base.fresh_turn(3)


def test_a_lesson_widget_follows_the_language_until_closed():
    drawn = []

    def make():
        drawn.append(i18n.get_language())
        fig = Figure(figsize=(2, 1))
        fig.subplots().set_title(i18n.tr("optimal policy"))
        return fig, FigureText(i18n.tr("optimal policy"))

    figure = base.LiveFigure(make, width="200px")
    first = figure.widget.value
    i18n.set_language("it")
    assert drawn == ["en", "it"] and figure.widget.value != first  # "politica ottima" drawn anew
    figure.close()
    i18n.set_language("en")
    assert drawn == ["en", "it"] and figure.widget.comm is None
    figure.close()  # closing twice is harmless


@pytest.mark.parametrize(
    "make, problem",
    [
        (lambda: L5.PolicyMapExplorer(stage=3), "stage"),
        (lambda: L5.ThresholdExplorer(gems=-1), "gems"),
        (lambda: L5.InductionStepper(gems=-4), "gems"),
        (lambda: L6.RiskReturnExplorer(treasure=-1), "treasure"),
        (lambda: L6.CatchUpExplorer(deck="huge"), "deck"),
        (lambda: L6.OutcomeExplorer(threshold=-1), "threshold"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(make, problem):
    with pytest.raises(ValueError, match=problem):
        make()


# -- lesson 5: backward induction --------------------------------------------------------------------


@pytest.mark.slow
def test_the_stepper_solves_one_layer_per_click_and_shows_the_recursions_values():
    stepper = L5.InductionStepper(gems=12)
    graph = stepper.graph
    for solved in range(1, stepper.layers + 1):
        stepper.buttons["next"].click()
        assert stepper.solved == solved
        assert sorted(stepper.known_values()) == [
            (d, i) for d in range(stepper.layers - solved, stepper.layers) for i in range(len(graph.layers[d]))
        ]
    assert stepper.buttons["next"].disabled and not stepper.buttons["back"].disabled
    for (depth, index), value in stepper.known_values().items():
        assert value == _bellman_state(graph.state(depth, index, must_reveal=depth == 0))
    assert stepper.known_values()[(0, 0)] == Fraction(-11, 8)  # RULES.md's worked example


@pytest.mark.parametrize("gems", [0, 4, 24])
def test_backward_induction_agrees_with_a_plain_recursion(gems):
    root = base.fresh_turn("mini", gems=gems)
    graph, values = solved_graph(root)
    for depth, layer in enumerate(graph.layers):
        for index in range(len(layer)):
            info = bellman_terms(graph, values, depth, index)
            state = graph.state(depth, index, must_reveal=depth == 0)
            assert (info["push"] if depth == 0 else info["value"]) == _bellman_state(state)
    assert bellman_terms(graph, values, 0, 0)["push"] == solve_turn(root, exact=True).value


def test_bellman_terms_add_up_to_the_push_value():
    graph, values = solved_graph(base.fresh_turn("mini", gems=4))
    for depth, layer in enumerate(graph.layers):
        for index in range(len(layer)):
            info = bellman_terms(graph, values, depth, index)
            assert sum(count for _kind, count, _x, _child in info["terms"]) == info["cards_left"] == layer.cards_left
            assert sum(count * x for _kind, count, x, _child in info["terms"]) / info["cards_left"] == info["push"]
            assert info["value"] == max(info["push"], info["hold"])
    with pytest.raises(IndexError):
        bellman_terms(graph, values, 0, 5)


@pytest.mark.slow
def test_the_stepper_buttons_slider_and_formula():
    stepper = L5.InductionStepper(gems=12)
    assert stepper.solved == 0 and stepper.buttons["back"].disabled and stepper.point.layout.display == "none"
    picture = stepper.picture.value
    stepper.buttons["next"].click()
    assert stepper.picture.value != picture
    assert "Layer 4 solved" in stepper.status.value
    assert "W = 1/4 × [ 2 × (-3) + 1 × (-12) + 1 × 20 ] = " in stepper.formula.value
    assert "best to hold" in stepper.formula.value
    stepper.buttons["all"].click()
    assert stepper.solved == stepper.layers and "compulsory" in stepper.formula.value
    assert "-11/8" in stepper.table.value
    stepper.buttons["back"].click()
    assert stepper.solved == stepper.layers - 1
    stepper.gems.value = 4
    stepper.go(stepper.layers)
    assert "3/14" in stepper.formula.value
    stepper.buttons["reset"].click()
    assert stepper.solved == 0 and stepper.table.value == ""
    i18n.set_language("it")
    assert stepper.buttons["next"].description == "Strato successivo"
    assert "Non c'è ancora niente di risolto" in stepper.status.value


@pytest.mark.slow
def test_the_policy_map_explorer_shifts_with_stage_gems_and_treasure():
    explorer = L5.PolicyMapExplorer(treasure=100)
    shift = explorer.shift()
    assert list(shift.index) == ["reference", "gems", "stage", "both"]
    assert (shift.loc["reference"] == shift.loc["both"]).all()  # 40 gems, stage 0 is the reference
    assert "10 gems here" in explorer.facts.value  # a quarter of 40, from the rules
    heat = explorer.heatmap.value
    explorer.stage.value = 2
    explorer.gems_slider.value = 80
    assert explorer.heatmap.value != heat
    assert "40 gems here" in explorer.facts.value and "×2" in explorer.facts.value
    both = explorer.shift().loc["both"]
    grid = policy_map(explorer.state)
    for position, pot in both.dropna().items():  # the smallest pot that holds, read off the map itself
        column = grid[position].dropna()
        assert pot == column.index[column <= 0].min()
    jackpot = policy_shift(base.fresh_turn("dragon-stripes", treasure=400))  # the optimal player never holds
    assert jackpot.loc["as is"].iloc[1:17].isna().all()


@pytest.mark.slow
def test_hold_at_t_against_the_optimum():
    explorer = L5.ThresholdExplorer("mini", gems=0)
    table = explorer.comparison()
    for t in range(1, 16):
        law = _enumerated(t, gems=0)
        assert table.loc[f"hold at {t}", "expected_gain"] == sum(g * p for g, p in law["dist"].items())
    assert explorer.best_thresholds() == [5]
    assert table.loc["optimal", "expected_gain"] == Fraction(87, 56)
    assert "t = 5" in explorer.verdict.value and "as good as the optimal" in explorer.verdict.value
    picture = explorer.picture.value
    explorer.gems_slider.value = 4
    assert explorer.best_thresholds() == [3] and explorer.picture.value != picture
    full = L5.ThresholdExplorer("dragon-stripes", treasure=100)
    assert "No hold-at-t policy is optimal" in full.verdict.value


def test_lesson_5_answers():
    answer = L5.answers()
    point = answer["last_point"]
    # the exercise's text: one 2-step footprint, 2 stops, 1 danger, 4 cards, the head pays 20 gems
    assert dict(point.footprints) == {1: 0, 2: 1} and (point.stops, point.dangers) == (2, 1)
    assert point.composition.total == 4 and point.pot + point.treasure == 20 and point.gems == 12
    assert L4.state_name(point, "en") == "@5, pot 14"
    assert answer["last_push"] == Fraction(1, 2) == (2 * -3 + 1 * -12 + 1 * 20) / Fraction(4)
    assert answer["last_push"] == _bellman(tuple(point.footprints.items()), 2, 1, 5, 14, 12, point.treasure, True)
    assert answer["value_4"] == Fraction(3, 14) == _bellman_state(base.fresh_turn("mini", gems=4))
    gains = {t: sum(g * p for g, p in _enumerated(t, gems=0)["dist"].items()) for t in range(1, 17)}
    assert answer["threshold_0"] == max(gains, key=gains.get) == 5
    assert sorted(gains.values())[-1] > sorted(gains.values())[-2]  # a single best t
    assert answer["position"] == 6 and answer["hold_from"] == {"as is": 14, "gems=80": 4, "stage=2": 35}
    rules = Ruleset.preset("dragon-stripes")
    for key, gems, stage in (("as is", 40, 0), ("gems=80", 80, 0), ("stage=2", 40, 2)):
        start = base.fresh_turn(rules, gems=gems, treasure=100, stage=stage)
        pot = answer["hold_from"][key]
        at = {"position": 6, "treasure": 100 - pot, "must_reveal": False}
        assert solve_turn(L4.TurnState(**{**start.__dict__, **at, "pot": pot})).best_action is Action.HOLD
        if pot:
            lower = {**start.__dict__, **at, "pot": pot - 1, "treasure": 100 - pot + 1}
            assert solve_turn(L4.TurnState(**lower)).best_action is Action.REVEAL


# -- lesson 6: risk -------------------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [1, 2, 4, 5, 9])
def test_the_distribution_is_the_enumerated_one_and_its_moments_add_up(threshold):
    explorer = L6.OutcomeExplorer(threshold=threshold)
    e = explorer.evaluation
    law = _enumerated(threshold)
    assert dict(e.distribution) == law["dist"]
    assert sum(e.distribution) == 1
    table = moments_table(e.distribution)
    mean, second = table.xp.sum(), table.x2p.sum()
    assert mean == e.expected_gain == sum(g * p for g, p in law["dist"].items())
    assert second - mean**2 == e.variance
    assert e.p_loss == sum(p for g, p in law["dist"].items() if g < 0)
    assert str(e.variance) in explorer.stats.value and str(e.p_loss) in explorer.stats.value
    assert f"E[X] = {number_html(mean)}" in explorer.table.value


@pytest.mark.slow
def test_the_outcome_explorer_switches_policies():
    explorer = L6.OutcomeExplorer(threshold=4)
    picture = explorer.picture.value
    explorer.kind.value = "greedy"
    assert explorer.threshold.layout.display == "none" and explorer.picture.value != picture
    greedy = explorer.evaluation
    never = evaluate_policy(explorer.state, HoldAtPot(MINI.treasure + 1), exact=True)
    assert dict(greedy.distribution) == dict(never.distribution)
    explorer.kind.value = "optimal"
    assert explorer.evaluation.expected_gain == Fraction(-11, 8)
    explorer.kind.value = "cautious"
    assert dict(explorer.evaluation.distribution) == _enumerated(1)["dist"]
    numbers = re.compile(r"-?\d+(?:[.,/]\d+)*")
    english = numbers.findall(explorer.stats.value)
    i18n.set_language("it")
    assert explorer.kind.options[0][0] == "fermati a t (cursore)"
    assert "varianza" in explorer.stats.value
    italian = [n.replace(".", ",") for n in english]  # the same numbers, with a decimal comma in Italian
    assert numbers.findall(explorer.stats.value) == italian and "." in "".join(english)
    with pytest.raises(ValueError, match="policy must be one of"):
        L6.OutcomeExplorer(policy="bold")


@pytest.mark.slow
def test_mean_against_risk():
    explorer = L6.RiskReturnExplorer(treasure=400, thresholds=(1, 5, 10, 20, 40, 80, 120))
    named = explorer.named("en")
    optimal, greedy = named["optimal (the largest expected gain)"], named["greedy: never hold"]
    assert np.isclose(optimal.expected_gain, greedy.expected_gain) and optimal.p_loss > 0.9
    assert named["cautious: hold after 1 card"].p_loss == pytest.approx(13 / 51)  # the first card: 10 stops, 3 dangers
    points = explorer.points()
    assert list(points["threshold"]) == [1, 5, 10, 20, 40, 80, 120]
    picture = explorer.picture.value
    explorer.treasure.value = 100
    named = explorer.named("en")
    assert named["optimal (the largest expected gain)"].expected_gain > named["greedy: never hold"].expected_gain
    assert explorer.picture.value != picture


@pytest.mark.slow
def test_expected_gems_are_not_the_chance_to_win_on_the_classroom_deck():
    explorer = L6.CatchUpExplorer(needed=5)
    table = explorer.table()
    for t in range(1, 17):
        law = _enumerated(t)
        assert table.loc[t, "p_catch_up"] == sum(p for g, p in law["dist"].items() if g >= 5)
    assert explorer.optimum() == (0, Fraction(-11, 8))
    assert "t = 5, with probability" in explorer.verdict.value
    explorer.needed.value = 9
    assert best_thresholds(explorer.table()["p_catch_up"]) != best_thresholds(explorer.table()["expected_gain"])


@pytest.mark.slow
def test_expected_gems_are_not_the_chance_to_win_on_the_full_deck_by_monte_carlo():
    state = base.fresh_turn("dragon-stripes")
    table = catch_up(state, 20, [*range(1, 61), 80, 100])
    assert best_thresholds(table["p_catch_up"]) == [20]
    assert best_thresholds(table["expected_gain"]) == [100]  # the head's jackpot: the larger t, the more gems
    optimum = probability_at_least(evaluation(state, "optimal"), 20, False)
    n = 200_000
    for policy, exact in ((HoldAtPot(20), table.loc[20, "p_catch_up"]), (optimal_policy(state), optimum)):
        sim = simulate_turns(state, policy, n, rng=7)
        estimate = np.mean(sim.gain >= 20)
        assert abs(estimate - exact) < 4.5 * np.sqrt(exact * (1 - exact) / n)
    assert table.loc[20, "p_catch_up"] > 4 * optimum  # about 0.26 against 0.057
    explorer = L6.CatchUpExplorer(needed=20, deck="full deck (dragon-stripes)")
    assert explorer.needed.max == 60 and explorer.exact is False
    assert "t = 20, with probability 0.259" in explorer.verdict.value
    # every hold-at-t policy is drawn, so the best one for gems is the true one (lessons 1 and 6: t = 151)
    gains = {t: evaluate_policy(state, HoldAtPot(t), exact=False).expected_gain for t in (60, 150, 151, 200)}
    assert gains[151] > gains[60] + 10 and abs(gains[151] - 13.45) < 0.005 and gains[151] >= gains[150]
    assert abs(gains[200] - gains[151]) < 1e-9  # holding at t > the largest pot is never holding
    assert explorer.thresholds() == range(1, largest_pot(state) + 2)
    assert "(t = 1..154): t = 151, E[X] = 13.450" in explorer.verdict.value
    assert best_thresholds(explorer.table()["expected_gain"])[0] == 151
    explorer.deck.value = "classroom deck (mini), exact"
    assert explorer.needed.value == 16 and explorer.needed.max == 16
    with pytest.raises(ValueError, match="needed"):
        catch_up(state, 2.5, [1])


def test_lesson_6_answers():
    answer = L6.answers()
    law1, law2, law5 = _enumerated(1), _enumerated(2), _enumerated(5)
    mean = sum(g * p for g, p in law1["dist"].items())
    assert answer["variance_1"] == sum(g * g * p for g, p in law1["dist"].items()) - mean**2 == Fraction(1263, 64)
    assert answer["loss_2"] == sum(p for g, p in law2["dist"].items() if g < 0) == Fraction(15, 28)
    assert answer["catch_up_5"] == sum(p for g, p in law5["dist"].items() if g >= 5) == Fraction(1, 4)
    assert answer["catch_up_ev"] == 0 and answer["best_t_5"] == 5


# -- the notebooks and the catalog -------------------------------------------------------------------------

NOTEBOOKS = {"04-absorbing-chain": L4, "05-optimal-stopping": L5, "06-risk": L6}


def _notes(name: str) -> str:
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert "teacher_notes(" in code[-1]
    return code[-1]


SOLVED = {
    "04-absorbing-chain": ("states", "visits", "cards", "stopped", "gain"),
    "05-optimal-stopping": ("last_push", "value_4", "threshold_0"),
    "06-risk": ("variance_1", "loss_2", "catch_up_5"),
}


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_teacher_notes_give_the_computed_answers(name):
    notes = _notes(name)
    answers = NOTEBOOKS[name].answers()
    for key in SOLVED[name]:
        assert f"**{answers[key]}**" in notes, f"{name}: the notes do not give {key} = {answers[key]}"
    if name == "05-optimal-stopping":
        assert "**@5, pot 14**" in notes and "14 → 35" in notes and "14 → 4" in notes


def _literals(module) -> set[str]:
    """The msgids written as tr("...") in a module (both of a choice, each marked with N_)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    direct = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and node.args:
            arg = node.args[0]
            options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            options = [o.args[0] if isinstance(o, ast.Call) else o for o in options]  # N_("...")
            direct |= {o.value for o in options if isinstance(o, ast.Constant)}
    return direct


def test_every_label_of_the_lessons_has_an_italian_translation():
    merged = italian()  # one catalog for the kit: test_i18n checks that no entry is dead
    direct = set()
    for module in (base, L4, L5, L6, named):
        direct |= _literals(module)
    indirect = (
        set(L4._CAPTIONS.values())
        | set(L6.LABELS.values())
        | set(L6.CatchUpExplorer.DECKS)
        | {"never hold", "stopped", "final danger", "head", "optimal policy", "reveal", "hold", "stop"}
    )
    missing = sorted(m for m in direct | indirect if m not in merged)
    assert not missing, f"no Italian for {missing}"
    field = re.compile(r"{(\w+)}")
    for msgid in direct | indirect:
        assert set(field.findall(msgid)) == set(field.findall(merged[msgid])), msgid


@pytest.mark.slow
def test_the_widgets_speak_italian():
    i18n.set_language("it")
    lab = L4.ChainLab(threshold=4)
    assert lab.slider.description.startswith("Politica") and "stati transitori" in lab.summary.value
    assert "Da <b>@0, piatto 0</b>" in lab.reading.value and "0,375" in lab.reading.value  # a decimal comma
    assert "si ferma con 4" in lab.table.value or lab.picker.value == "N"
    lab.picker.value = "B"
    assert "si ferma con 4" in lab.table.value and "pericolo finale" in lab.table.value
    explorer = L5.PolicyMapExplorer(treasure=100)
    assert explorer.stage.description == "Fase (pericoli rivelati)" and "costa 1/4" in explorer.facts.value
    catch = L6.CatchUpExplorer()
    assert "pareggia" in catch.verdict.value and catch.deck.options[0][0].startswith("mazzo da classe")
    i18n.set_language("en")  # and back, redrawn at once
    assert lab.slider.description.startswith("Policy") and "From <b>@0, pot 0</b>" in lab.reading.value


# -- a language switch never moves a control (all the lessons' widgets) --------------------------------------

#: Widgets that only show something; every other value widget is a control the learner moves.
_SHOWN = (widgets.HTML, widgets.HTMLMath, widgets.Label, widgets.Image, widgets.Valid, widgets.Output)


def lesson_controls(widget) -> list:
    """The value widgets a learner can set inside a composite widget, in display order."""
    found, queue = [], [widget]
    while queue:
        w = queue.pop(0)
        queue.extend(getattr(w, "children", ()))
        if isinstance(w, widgets.ValueWidget) and not isinstance(w, _SHOWN):
            found.append(w)
    return found


def _moved(control):
    """Another value for a control than its current one (text boxes keep what is typed)."""
    if isinstance(control, widgets.Checkbox):
        return not control.value
    if isinstance(control, (widgets.Text, widgets.Textarea)):
        return control.value
    if isinstance(control, widgets.widget_selection._Selection):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        if not values:
            return control.value
        return values[-1] if values[-1] != control.value else values[0]
    if not hasattr(control, "max"):  # a plain number box
        return control.value + 1
    low, high = control.min, control.max
    value = low + (high - low) * 2 // 3
    return value if value != control.value else low + (high - low) // 3


def assert_language_keeps_values(make) -> None:
    """Build a lesson widget, move every control away from its default (each in turn, in
    display order: a menu first, then the slider whose range it sets), then switch to
    Italian and back: no control may change value, range or options' values."""
    i18n.set_language("en")
    lesson = make()
    try:
        for k in range(len(lesson_controls(lesson.widget))):
            controls = lesson_controls(lesson.widget)
            if k < len(controls):
                controls[k].value = _moved(controls[k])

        def snapshot():
            return [
                (type(c).__name__, c.value, getattr(c, "min", None), getattr(c, "max", None))
                for c in lesson_controls(lesson.widget)
            ]

        before = snapshot()
        for lang in ("it", "en"):
            i18n.set_language(lang)
            assert snapshot() == before, f"switching to {lang} changed a control of {type(lesson).__name__}"
    finally:
        lesson.close()
        i18n.set_language("en")


@pytest.mark.parametrize(
    "make",
    [
        lambda: L4.ChainLab(threshold=4),
        lambda: L5.InductionStepper(gems=12),
        lambda: L5.PolicyMapExplorer(treasure=100),
        lambda: L5.ThresholdExplorer("mini"),
        lambda: L6.OutcomeExplorer(policy="threshold", threshold=4),
        lambda: L6.RiskReturnExplorer(treasure=400),
        lambda: L6.CatchUpExplorer(needed=5),
    ],
    ids=[
        "ChainLab",
        "InductionStepper",
        "PolicyMapExplorer",
        "ThresholdExplorer",
        "OutcomeExplorer",
        "RiskReturnExplorer",
        "CatchUpExplorer",
    ],
)
@pytest.mark.slow
def test_language_switch_keeps_every_control(make):
    assert_language_keeps_values(make)


@pytest.mark.slow
def test_catch_up_full_deck_keeps_d_on_a_language_switch():
    """The teacher's case: full deck, d = 20, Italiano: d stayed 16 (the menu's relabel went
    through the classroom deck's range)."""
    catch = L6.CatchUpExplorer(needed=5)
    catch.deck.value = "full deck (dragon-stripes)"
    catch.needed.value = 20
    verdict = catch.verdict.value
    i18n.set_language("it")
    assert catch.needed.value == 20 and catch.deck.value == "full deck (dragon-stripes)"
    i18n.set_language("en")
    assert catch.needed.value == 20 and catch.verdict.value == verdict


@pytest.mark.slow
def test_term_by_term_table_header_in_italian():
    explorer = L6.OutcomeExplorer()
    assert "<th>x (gems)</th>" in explorer.table.value
    i18n.set_language("it")
    assert "<th>x (gemme)</th>" in explorer.table.value and "gems" not in explorer.table.value
