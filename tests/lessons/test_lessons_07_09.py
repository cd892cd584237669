"""What lessons 7-9 check together (each lesson's own tests: test_lesson_07_*.py to test_lesson_09_*.py):
every label has an Italian text, figures are labelled in the current language, the notebooks' exercises have the
right answers, a language switch moves no control."""

from __future__ import annotations

import ast
import json
import string
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis.turn.market import fair_bounty_curve, held_turn
from dragonkit.i18n import tr
from dragonkit.lessons import editions, market, simulation
from dragonkit.plots.market import takeover_figure
from dragonkit.rules import Message

from ..catalogs import has_italian, italian

ROOT = Path(__file__).parents[2]


MODULES = [ROOT / "dragonkit" / "lessons" / f"{name}.py" for name in ("market", "simulation", "editions")]


NOTEBOOKS = {
    name: ROOT / "notebooks" / f"{name}.ipynb" for name in ("07-takeover-market", "08-simulation", "09-editions")
}


MINI = Ruleset.preset("mini")


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
        ("07-takeover-market", [Fraction(22, 5), Fraction(-8, 5), 0, 0, 0, 0]),
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
        lambda: simulation.ClassCards(),
    ],
    ids=[
        "TakeoverExplorer",
        "AuctionSheet",
        "MonteCarloLab",
        "CoverageLab",
        "TournamentLab",
        "EditionComparison",
        "DeckDesigner",
        "ClassCards",
    ],
)
@pytest.mark.slow
def test_language_switch_keeps_every_control(make):
    from tests.lessons.helpers import assert_language_keeps_values

    assert_language_keeps_values(make)
