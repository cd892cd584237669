"""Lessons 7-9: the takeover market, simulation and the editions.

The widgets' numbers are checked against independent computations: a plain
expectimax over the deck (built on the rules' own card arithmetic), the engine
playing the same cards, hand formulas, direct calls of the analysis and of the
simulation, and binomial bounds for the coverage of confidence intervals.
"""

from __future__ import annotations

import ast
import html
import json
import math
import re
import string
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis import HoldAfterReveals, HoldAtPot, evaluate_policy, optimal_policy, solve_turn
from dragonkit.analysis.market import fair_bounty_curve, held_turn
from dragonkit.i18n import tr
from dragonkit.lessons import base, editions, market, simulation
from dragonkit.plots.market import takeover_figure
from dragonkit.rules import FinalDanger, Message
from dragonkit.simulate import round_robin, simulate_turns

from .catalogs import has_italian, italian

ROOT = Path(__file__).parents[1]
MODULES = [ROOT / "dragonkit" / "lessons" / f"{name}.py" for name in ("market", "simulation", "editions")]
NOTEBOOKS = {
    name: ROOT / "notebooks" / f"{name}.ipynb" for name in ("07-takeover-market", "08-simulation", "09-editions")
}
MINI = Ruleset.preset("mini")


pytestmark = pytest.mark.usefixtures("english_widgets")


# -- lesson 8: simulation ---------------------------------------------------------------------------------------------


def test_exact_turns_are_the_chain_values():
    mini = simulation.exact_turn("mini", "optimal")
    assert mini.mean == Fraction(-11, 8)  # the worked example of RULES.md
    state = base.fresh_turn(Ruleset.preset("dragon-stripes"))
    hold = simulation.exact_turn("dragon-stripes", 20)
    chain = evaluate_policy(state, HoldAtPot(20), exact=True)
    assert hold.mean == chain.expected_gain and math.isclose(hold.std, math.sqrt(chain.variance))


def test_confidence_intervals_cover_the_exact_value_about_95_percent_of_the_time():
    exact = simulation.exact_turn("dragon-stripes", 20)
    result = simulation.coverage(exact, 100, 400, 0.95, seed=11)
    gains = simulate_turns(exact.state, HoldAtPot(20), 100 * 400, rng=11).gain.reshape(400, 100)
    means, sds = gains.mean(axis=1), gains.std(axis=1, ddof=1)
    low, high = means - 1.959964 * sds / 10, means + 1.959964 * sds / 10
    assert np.allclose(result.intervals["ci_low"], low) and np.allclose(result.intervals["ci_high"], high)
    inside = (low <= float(exact.mean)) & (float(exact.mean) <= high)
    assert list(result.intervals["covers"]) == list(inside)
    assert abs(result.rate - 0.95) < 4 * math.sqrt(0.95 * 0.05 / 400)
    assert (
        simulation.coverage(exact, 100, 200, 0.8, seed=3).rate < simulation.coverage(exact, 100, 200, 0.99, seed=3).rate
    )
    with pytest.raises(ValueError):
        simulation.coverage(exact, 1, 10)
    with pytest.raises(ValueError):
        simulation.coverage(exact, 10_000, 1_000)


def test_the_error_shrinks_like_one_over_root_n():
    exact = simulation.exact_turn("dragon-stripes", 20)
    errors = simulation.error_by_n(exact, sizes=(10, 100, 1000), repetitions=200, seed=5)
    assert np.allclose(errors["theory"], exact.std / np.sqrt([10, 100, 1000]))
    assert np.all((errors["rms_error"] / errors["theory"]).between(0.8, 1.25))
    slope = np.polyfit(np.log(errors.index), np.log(errors["rms_error"]), 1)[0]
    assert -0.6 < slope < -0.4


@pytest.mark.slow
def test_the_monte_carlo_lab_agrees_with_the_simulation_and_the_chain():
    lab = simulation.MonteCarloLab(edition="mini", policy=20, n=1000, seed=4)
    direct = simulate_turns(base.fresh_turn(MINI), HoldAtPot(20), 1000, rng=4)
    assert np.array_equal(lab.simulation.gain, direct.gain)
    row = direct.summary().loc["expected_gain"]
    assert f"{row['estimate']:.3f}" in lab.report.value and str(lab.exact.mean) in lab.report.value
    inside = row["ci_low"] <= lab.exact.mean <= row["ci_high"]
    assert ("contains the exact value" in lab.report.value) == inside
    lab.n.value = 100
    assert lab.simulation.n == 100
    lab.policy.value = "optimal"
    i18n.set_language("it")
    assert lab.policy.value == "optimal" and lab.n.value == 100 and lab.edition.value == "mini"
    assert lab.policy.label == "gioco ottimale" and "stima (media campionaria)" in lab.report.value


def test_the_tournament_lab_shows_the_round_robin_and_refuses_a_lonely_bot():
    lab = simulation.TournamentLab(bots=("threshold:5", "random"), games=20, seed=3, edition="mini")
    direct = round_robin(["threshold:5", "random"], 20, seed=3, rules=MINI)
    assert lab.result.standings.equals(direct.standings)
    first = lab.result
    for spec, box in lab.checks.items():
        box.value = spec == "random"
    assert lab.run() is None and "at least two bots" in lab.message.value and lab.result is first
    i18n.set_language("it")
    assert "almeno due bot" in lab.message.value and "vittorie" in lab.report.value


def test_the_answers_of_lesson_8():
    answer = simulation.answers()
    assert answer["standard_error"] == Fraction(12, 20) and answer["halve"] == 1600 and answer["misses"] == 10
    assert answer["hold_after_one"] == Fraction(3 * 1 + 2 * 2 - 2 * 3 - 1 * 12, 8)
    assert (
        answer["hold_after_one"]
        == evaluate_policy(base.fresh_turn(MINI), HoldAfterReveals(1), exact=True).expected_gain
    )
    with pytest.raises(ValueError):
        simulation.answers(n=300)


@pytest.mark.parametrize("folder", ["", "it"])
def test_lesson_8s_code_cell_shows_the_estimates_beside_the_exact_values(folder):
    """The cell the prose asks the learner to change and run in JupyterLab shows its result as a table in the
    page's language (Voilà shows it without the code), never as a printout; with another ``n`` too."""
    cells = json.loads((ROOT / "notebooks" / folder / "08-simulation.ipynb").read_text(encoding="utf-8"))["cells"]
    hidden = [c["metadata"].get("jupyter", {}).get("source_hidden", False) for c in cells]
    (source,) = ["".join(c["source"]) for c, h in zip(cells, hidden) if c["cell_type"] == "code" and not h]
    assert "print(" not in source and "n=2_000" in source
    i18n.set_language(folder or "en")
    point = "," if folder else "."
    for n, turns in ((2_000, f"2{'.' if folder else ','}000"), (300, "300")):
        tree = ast.parse(source.replace("n=2_000", f"n={n}"))
        namespace: dict = {}
        exec(compile(ast.Module(tree.body[:-1], []), "<cell>", "exec"), namespace)
        shown = eval(compile(ast.Expression(tree.body[-1].value), "<cell>", "eval"), namespace).data
        assert (
            f"<caption>{turns} " in shown
            and f'<span class="dk-frac">-11/8</span> <span class="dk-dec">≈ -1{point}375' in shown
        )


def test_the_estimates_table_reads_in_the_pages_language():
    state = base.fresh_turn(MINI)
    policy = HoldAfterReveals(1)
    summary = simulate_turns(state, policy, n=2_000, rng=42).summary()
    exact = evaluate_policy(state, policy, exact=True)
    english, italian_ = (
        simulation.estimates_html(summary, exact, lang="en"),
        simulation.estimates_html(summary, exact, lang="it"),
    )
    assert "<caption>2,000 simulated turns against the exact values</caption>" in english
    assert "<td>-1.357</td><td>0.099</td><td>[-1.551, -1.163]</td>" in english and "≈ -1.375" in english
    assert "P(X &lt; 0)" in english and "<td><b>no</b></td>" not in english  # seed 42: every interval covers
    assert "<caption>2.000 turni simulati a confronto con i valori esatti</caption>" in italian_
    assert "<td>-1,357</td><td>0,099</td><td>[-1,551; -1,163]</td>" in italian_ and "≈ -1,375" in italian_
    assert "probabilità di finire su uno stop" in italian_ and "<td>sì</td>" in italian_
    floats = evaluate_policy(state, policy)  # the exact values in floats: decimals
    assert "<td>-1.375</td>" in simulation.estimates_html(summary, floats, lang="en")
    with pytest.raises(ValueError, match="summary"):
        simulation.estimates_html(summary.drop(index="p_loss"), exact)


# -- lesson 9: the editions -------------------------------------------------------------------------------------------


def test_a_fresh_turn_lacks_the_dangers_of_earlier_stages():
    rules = Ruleset.preset("dragon-stripes")
    for stage in range(3):
        state = base.fresh_turn(rules, stage)
        assert (state.dangers, state.dangers_revealed, state.gems, state.treasure) == (3 - stage, stage, 40, 400)
        assert state.must_reveal and state.composition.total == 51 - stage
    with pytest.raises(ValueError):
        base.fresh_turn(rules, 3)


@pytest.mark.parametrize("edition", base.EDITIONS)
def test_edition_profiles_are_the_analysis_numbers(edition):
    rules = Ruleset.preset(edition)
    table = editions.compare_editions({edition: rules}, "optimal")
    assert len(table) == len(rules.stages)
    for stage in range(len(rules.stages)):
        state = base.fresh_turn(rules, stage)
        row = table.loc[(edition, stage)]
        chain = evaluate_policy(state, optimal_policy(state))
        assert row["expected_gain"] == solve_turn(state, exact=True).value
        assert math.isclose(row["p_loss"], chain.p_loss) and math.isclose(row["std"], chain.std)
        assert row["p_first_ends"] == Fraction(rules.stop_cards + rules.danger_cards - stage, rules.deck_size - stage)
    held = editions.edition_profile(rules, 0, 20)
    assert held["expected_gain"] == evaluate_policy(base.fresh_turn(rules), HoldAtPot(20), exact=True).expected_gain


def test_the_mini_deck_profile_by_hand():
    row = editions.edition_profile(MINI, 0, "optimal")
    # reveal one card and hold: +1 (3/8), +2 (2/8), -3 (2/8), -12 (1/8)
    mean = Fraction(-11, 8)
    variance = Fraction(3, 8) * 1 + Fraction(2, 8) * 4 + Fraction(2, 8) * 9 + Fraction(1, 8) * 144 - mean**2
    assert row["expected_gain"] == mean and math.isclose(row["std"], math.sqrt(variance))
    assert math.isclose(row["p_loss"], 3 / 8) and row["expected_cards"] == 1 and row["p_head"] == 0


def test_the_answers_of_lesson_9():
    answer = editions.answers()
    assert answer["kali_first_ends"] == Fraction(12 + 2, 52)
    assert answer["two_footprints"] == Fraction(38 * 37, 51 * 50)
    assert answer["first_pot"] == Fraction(14 * 1 + 12 * 2 + 8 * 3 + 4 * 4, 51)
    table = editions.compare_editions({e: Ruleset.preset(e) for e in editions.PUBLISHED}, "optimal", stages=False)
    assert editions.PUBLISHED[answer["riskiest_p_loss"]] == "kali" == table["p_loss"].astype(float).idxmax()[0]
    assert editions.PUBLISHED[answer["riskiest_std"]] == "drago-rosso" == table["std"].astype(float).idxmax()[0]


def test_the_comparison_widget_follows_the_policy_and_the_language():
    comparison = editions.EditionComparison(editions=("mini", "kali"), policy="optimal", measure="std")
    assert "-1.38" in comparison.html.value and "0.269" in comparison.html.value
    comparison.exact.value = True
    assert "-11/8" in comparison.html.value
    comparison.policy.value = 20
    assert comparison.table.loc[("mini", 0), "expected_gain"] == editions.edition_profile(MINI, 0, 20)["expected_gain"]
    i18n.set_language("it")
    assert comparison.policy.value == 20 and comparison.measure.value == "std"
    assert comparison.policy.label == "fermati a 20 gemme" and "edizione" in comparison.html.value
    assert "mini (mazzo per la classe)" in comparison.html.value


def test_the_deck_designer_refuses_bad_decks_and_keeps_the_last_valid_one():
    designer = editions.DeckDesigner(start="mini")
    assert designer.error is None and designer.rules.composition == MINI.composition
    designer.stops.value = 4
    valid = designer.rules
    assert valid.stop_cards == 4 and "accept" in designer.status.value
    refusals = [
        (designer.stages, "5/4 x1", "rate must lie between 0 and 1", "Stages"),
        (designer.stages, "quarter", "rate x multiplier", None),
        (designer.stripes, "5-1", "is backwards", None),
        (designer.stripes, "1-30", "from 1 to 24 stripes", None),
        (designer.stripes, "1, two", "numbers or ranges", None),
        (designer.name, "  ", "name must be a non-empty string", "Name"),
    ]
    for control, value, reason, field in refusals:
        old = control.value
        control.value = value
        assert designer.rules == valid and reason in str(designer.error)
        assert "refused" in designer.status.value and designer.analyse.disabled
        assert field is None or f"Check: {field}." in designer.status.value
        assert "last valid deck is kept: 10 cards: footprints 5, stops 4" in designer.status.value
        control.value = old
        assert designer.error is None and designer.rules == valid
    for control in designer.footprints.values():
        control.value = 0
    assert "footprints must hold at least one card" in str(designer.error) and designer.rules.composition.total >= 1
    i18n.set_language("it")
    assert (
        "Questo mazzo è rifiutato" in designer.status.value
        and "Metti nel mazzo almeno una carta impronta" in designer.status.value
    )
    i18n.set_language("en")
    designer.footprints[1].value = 3


def test_the_deck_designer_keeps_one_stage_per_danger_and_adds_its_deck_to_the_comparison():
    designer = editions.DeckDesigner(start="dragon-stripes")
    assert designer.stages.value == "1/4 x1; 1/4 x1; 1/2 x2"
    designer.dangers.value = 1
    assert designer.stages.value == "1/4 x1" and designer.rules.danger_cards == 1
    designer.dangers.value = 2
    assert designer.stages.value == "1/4 x1; 1/4 x1" and designer.error is None
    designer.stripes.value = "1-12"
    designer.name.value = "short"
    designer.add_to_comparison()
    table = designer.comparison.table
    assert (base.CUSTOM, 1) in table.index and designer.comparison.entries[base.CUSTOM] is designer.rules
    assert table.loc[(base.CUSTOM, 0), "expected_gain"] == editions.edition_profile(designer.rules, 0)["expected_gain"]
    assert "your deck: short" in designer.comparison.html.value
    designer.start.value = "kali"
    assert designer.rules.stripe_values == tuple(range(1, 19)) and designer.rules.final_danger is FinalDanger.POT_ONLY
    comparison = designer.comparison
    designer.close()  # the designer and the comparison it feeds stop following the language
    assert comparison.widget.comm is None and designer.widget.comm is None
    before = comparison.html.value
    i18n.set_language("it")
    assert comparison.html.value == before
    i18n.set_language("en")


def test_stripes_and_stages_read_and_write_back():
    assert editions.parse_stripes("1-3, 7 7") == (1, 2, 3, 7, 7)
    assert editions.format_stripes((1, 2, 3, 7, 8, 10)) == "1-3, 7-8, 10"
    assert editions.parse_stages("1/4 x1; 0.5 × 2;") == [("1/4", 1), ("0.5", 2)]
    assert editions.format_stages(Ruleset.preset("kali").stages) == "1/4 x1; 1/2 x2"
    with pytest.raises(ValueError):
        editions.parse_stripes("1-30")
    with pytest.raises(ValueError):
        editions.parse_stages("")


# -- the translations ---------------------------------------------------------------------------------------------


def _msgids_in_modules() -> set[str]:
    """Literal first arguments of tr(...) and Message(...), and the label tables translated with tr(variable)."""
    found = set(editions.MEASURES.values()) | set(editions._FIELD_LABELS.values()) | set(market._OUTCOME_TEXT.values())
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) in ("tr", "Message")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def test_every_label_of_lessons_7_to_9_has_an_italian_text_with_the_same_fields():
    catalog, used = italian(), _msgids_in_modules()  # one catalog for the kit: test_i18n checks no entry is dead
    assert len(used) > 100
    assert sorted(used - set(catalog)) == []
    fields = lambda text: {name for _, name, _, _ in string.Formatter().parse(text) if name}  # noqa: E731
    assert all(fields(msgid) == fields(catalog[msgid]) and catalog[msgid].strip() for msgid in used)
    assert tr("hold at {t} gems", "it", t=20) == "fermati a 20 gemme"
    assert (
        Message("Line {line}: {name} has already bid.", line=2, name="Bo").describe("it")
        == "Riga 2: Bo ha già fatto un'offerta."
    )


def test_figures_are_labelled_in_the_current_language():
    state = held_turn(MINI, (1, 2))
    i18n.set_language("it")
    figure = takeover_figure(fair_bounty_curve(state, 12), 4, 12, 4)
    assert figure.axes[0].get_xlabel() == "gemme di chi prende il posto, prima di pagare"
    exact = simulation.exact_turn("mini", 20)
    assert "legge dei grandi numeri" in simulation.running_mean_figure(np.array([1, -3, 2]), exact).axes[0].get_title()
    chart = editions.deck_figure({"mini": MINI}, {"mini": "mini"})
    assert chart.axes[0].get_xlabel() == "carte nel mazzo"


# -- the notebooks' exercises -------------------------------------------------------------------------------------


def _exercises(name: str) -> list:
    """Run the notebook's import cell and its exercise cells; return the exercises they build."""
    cells = [c for c in json.loads(NOTEBOOKS[name].read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    namespace: dict = {}
    exec("".join(cells[0]["source"]).replace("language_picker()", ""), namespace)
    built = []
    for cell in cells[1:]:
        source = "".join(cell["source"])
        if source.lstrip().startswith(("FractionExercise(", "ChoiceExercise(")):
            built.append(eval(source, namespace))
    return built


def _notes(name: str) -> str:
    cells = json.loads(NOTEBOOKS[name].read_text(encoding="utf-8"))["cells"]
    return "".join(cells[-1]["source"])


@pytest.mark.parametrize(
    "name, answers",
    [
        ("07-takeover-market", [Fraction(22, 5), Fraction(-8, 5), 0, 0, 0]),
        ("08-simulation", [Fraction(3, 5), 1600, 10, Fraction(-11, 8), 1, 1]),
        ("09-editions", [Fraction(7, 26), Fraction(703, 1275), Fraction(26, 17), 1, 2]),
    ],
)
def test_the_notebooks_exercises_have_the_right_answers_and_the_notes_give_them(name, answers):
    exercises = _exercises(name)
    assert [ex.answer for ex in exercises] == answers
    for ex in exercises:
        assert ex.hints and all(has_italian(h) for h in ex.hints) and has_italian(ex.question)
        if isinstance(ex.answer, Fraction):
            assert ex.check(str(ex.answer)) and not ex.check(str(ex.answer + 1))
    notes = _notes(name)
    assert "teacher_notes(" in notes
    for value in answers:
        if isinstance(value, Fraction) and value.denominator != 1:
            assert f"{value}" in notes or f"{value.numerator}/{value.denominator}".replace("-", "−") in notes


# -- a language switch never moves a control -------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: market.TakeoverExplorer(edition="mini", drawn="1+2"),
        lambda: market.AuctionSheet(edition="dragon-stripes", drawn="2+3+4", gems=40, treasure=60, seed=7),
        lambda: simulation.MonteCarloLab(edition="mini", policy=20, n=1_000, seed=1),
        lambda: simulation.CoverageLab(edition="mini", policy=20, n=100, experiments=200, level=0.95, seed=2),
        lambda: simulation.TournamentLab(bots=("threshold:5", "random"), games=5, seed=1),
        lambda: editions.EditionComparison(),
        lambda: editions.DeckDesigner(),
    ],
    ids=[
        "TakeoverExplorer",
        "AuctionSheet",
        "MonteCarloLab",
        "CoverageLab",
        "TournamentLab",
        "EditionComparison",
        "DeckDesigner",
    ],
)
@pytest.mark.slow
def test_language_switch_keeps_every_control(make):
    from tests.test_lessons_4_6 import assert_language_keeps_values

    assert_language_keeps_values(make)


def test_italian_calls_a_stage_fase():
    """ "Stage" is "fase" everywhere in lesson 9 (the catalog's word), never "stadio"."""
    text = (ROOT / "notebooks" / "it" / "09-editions.ipynb").read_text(encoding="utf-8")
    assert "stadio" not in text.lower() and "alla fase 0" in text
    assert i18n.tr("Stages", "it") == "Fasi"


def test_designer_speaks_of_its_own_boxes():
    """The teacher's cases: the stages/dangers mismatch names the boxes (not stages=/danger_cards=),
    a backwards range says so, -1 dangers is refused (not clipped), typed stages survive a change of dangers."""
    designer = editions.DeckDesigner()
    designer.stages.value = "1/4 x1; 1/3 x2"
    reason = editions.designer_reason(designer.error)
    assert reason.startswith("The Stages box lists 2 stage(s), but a deck with 1 danger card(s) needs 1")
    assert "danger_cards" not in designer.status.value and "stages must" not in designer.status.value
    i18n.set_language("it")
    assert "La casella Fasi elenca 2" in designer.status.value and "danger_cards" not in designer.status.value
    i18n.set_language("en")
    designer.stages.value = "1/4 x1; 1/2 x2; 1 x3"
    designer.dangers.value = 3
    assert designer.error is None and designer.rules.danger_cards == 3
    designer.dangers.value = 1
    assert designer.stages.value == "1/4 x1" and "the stages you typed are kept" in designer.status.value
    designer.dangers.value = 3
    assert designer.stages.value == "1/4 x1; 1/2 x2; 1 x3" and designer.error is None
    kept = designer.rules
    designer.dangers.value = -1
    assert designer.dangers.value == -1 and designer.rules is kept
    assert "Danger cards must be a whole number from 0 to 4, not -1." in designer.status.value
    designer.dangers.value = 3
    designer.stripes.value = "5-1"
    assert "The range 5-1 is backwards: write the smaller number first, such as 1-5." in designer.status.value
    with pytest.raises(ValueError, match="backwards"):
        editions.parse_stripes("1-3, 9-7")
    designer.close()


def test_exact_fractions_do_not_wrap_inside_a_number():
    comparison = editions.EditionComparison(editions=("dragon-stripes",))
    comparison.exact.value = True
    spans = re.findall(r'<span style="white-space:nowrap"><span class="dk-frac">([^<]*)</span>', comparison.html.value)
    assert spans and all("/" in s for s in spans)
    comparison.close()


# -- a mischievous student's inputs ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["$\\foo$", "a$b^$c", "$\\frac{1}{$"])
def test_designer_deck_named_like_mathtext_is_drawn_as_text(name):
    designer = editions.DeckDesigner()
    try:
        designer.name.value = name
        assert designer.error is None
        designer.add_to_comparison()  # matplotlib would parse "$...$" as maths and raise
        assert designer.comparison.entries[base.CUSTOM].name == name
        assert html.escape(name) in designer.comparison.html.value
    finally:
        designer.close()


def test_designer_refuses_a_very_long_name_and_keeps_the_last_deck():
    designer = editions.DeckDesigner()
    try:
        kept = designer.rules
        designer.name.value = "x" * 100_000
        assert designer.rules is kept and designer.analyse.disabled
        limit = editions.DESIGN_LIMITS["name"]
        assert f"at most {limit} characters" in designer.status.value
        i18n.set_language("it")
        assert f"al massimo {limit} caratteri" in designer.status.value
        i18n.set_language("en")
        designer.name.value = "x" * limit
        assert designer.error is None and designer.rules.name == "x" * limit
    finally:
        i18n.set_language("en")
        designer.close()


def test_an_emptied_edition_menu_changes_nothing():
    designer, explorer = editions.DeckDesigner(), market.TakeoverExplorer()
    try:
        rules, state = designer.rules, explorer.state
        designer.start.value = None  # the browser may send index null
        explorer.edition.value = None
        assert designer.rules is rules and designer.error is None and explorer.state is state
    finally:
        designer.close()
        explorer.close()


def test_tournament_refuses_more_coach_games_than_its_budget():
    lab = simulation.TournamentLab(bots=("threshold:5", "threshold:20"), games=10, run=False)
    try:
        lab.run()
        kept = lab.result
        for box in lab.checks.values():
            box.value = True
        lab.games.value = 400  # 5 opponents x 400 games of the coach: minutes
        opponents = len(simulation.BOT_CHOICES) - 1
        assert lab.run() is None and lab.result is kept
        assert f"at most {simulation.COACH_GAMES // opponents} games per pair" in lab.message.value
        i18n.set_language("it")
        assert "Il coach è lento" in lab.message.value
    finally:
        i18n.set_language("en")
        lab.close()
