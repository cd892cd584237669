"""What lessons 4-6 check together (each lesson's own tests: test_lesson_04_*.py to test_lesson_06_*.py):
the teacher's notes give the computed answers, every label has an Italian translation, the widgets speak Italian,
bad input is refused, a language switch moves no control."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from dragonkit import i18n
from dragonkit.i18n.numbers import fraction_text
from dragonkit.lessons import base
from dragonkit.lessons import chain as L4
from dragonkit.lessons import risk as L6
from dragonkit.lessons import stopping as L5
from dragonkit.topics import named

from ..catalogs import italian
from .helpers import _prose, assert_language_keeps_values

ROOT = Path(__file__).parents[2]


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
        shown = fraction_text(answers[key])  # a true minus sign: **−37/14**
        assert f"**{shown}**" in notes, f"{name}: the notes do not give {key} = {shown}"
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
    assert "pareggia" in catch.verdict.value and catch.deck.options[0][0].startswith("mazzo per la classe")
    i18n.set_language("en")  # and back, redrawn at once
    assert lab.slider.description.startswith("Policy") and "From <b>@0, pot 0</b>" in lab.reading.value


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


@pytest.mark.parametrize("lesson", ["04-absorbing-chain", "05-optimal-stopping", "06-risk"])
def test_the_students_page_says_the_treasure_of_400_is_the_kits_assumption(lesson):
    english, italian = _prose(lesson), _prose(lesson, "it")
    assert re.search(
        r"treasure 400: the kit assumes|400 in it, an assumption of the kit|400 .{0,40}the kit's assumption", english
    )
    assert re.search(r"il kit suppone che una partita cominci con 400|un'ipotesi del kit", italian)


def test_what_lessons_5_and_6_say_of_the_treasure_in_play_is_what_the_kits_games_give():
    """Over the games the kit plays between coach bots, from the 400 it assumes: the number of turns, the least
    treasure a turn met and the median, as lesson 5 gives them (and lesson 6 repeats the least)."""
    import numpy as np

    from dragonkit import Ruleset
    from dragonkit.simulate.games import parse_bots, turn_start_treasures

    rules = Ruleset.preset("dragon-stripes")
    met = np.concatenate([turn_start_treasures(rules, parse_bots(["coach"] * n), 2026, 20) for n in (2, 3, 4)])
    assert (len(met), met.min(), np.median(met)) == (579, 365, 430)
    lesson_5 = _prose("05-optimal-stopping")
    assert (
        "over the 579 turns of 60 games" in lesson_5
        and "never below 365 gems" in lesson_5
        and "430 at the median" in lesson_5
    )
    italian = _prose("05-optimal-stopping", "it")
    assert (
        "nei 579 turni di 60 partite" in italian and "sotto le 365 gemme" in italian and "la mediana è 430" in italian
    )
    assert "never below 365" in _prose("06-risk")
