"""What the lessons' tests share: the lesson widgets a test opens (closed after it), a page's text without its
tags, a notebook's exercises run, every order of the classroom deck played card by card (a second method for
lessons 4-6), and the check that a language switch moves no control of a lesson widget."""

from __future__ import annotations

import ast
import html
import json
import re
from fractions import Fraction
from functools import cache
from pathlib import Path

import ipywidgets as widgets
import matplotlib

from dragonkit import Ruleset, i18n
from dragonkit.rules import Card
from dragonkit.teach import ChoiceExercise, FractionExercise

from ..catalogs import has_italian

matplotlib.use("Agg")


ROOT = Path(__file__).parents[2]


def _text(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


def _run_notebook(name: str) -> tuple[list, str]:
    """Run a lesson's code cells in this process: the exercises it shows, in order, and its teacher's notes."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    namespace: dict = {}
    shown = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, name, "exec"), namespace)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), name, "eval"), namespace))
    exercises = [x for x in shown if isinstance(x, (FractionExercise, ChoiceExercise))]
    notes = [x for x in shown if type(x).__name__ == "TeacherNotes"]
    assert len(notes) == 1 and shown[-1] is notes[0], f"{name}: the teacher's notes come last"
    return exercises, notes[0].markdown.replace("−", "-")


def _check(exercises, expected, notes):
    assert [x.answer for x in exercises] == expected
    for exercise in exercises:
        assert exercise.hints, "every exercise has a hint"
        for text in (exercise.question, *exercise.hints):
            assert has_italian(text), f"no Italian for {text!r}"
        if isinstance(exercise, FractionExercise):
            assert f"**{exercise.answer}**" in notes, f"the notes do not give {exercise.answer}"


MINI = Ruleset.preset("mini")


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
    """Exact law of a hold-at-h turn of the classroom deck by enumeration of the 1,680 orders."""
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


def _notes_text(name: str, lang: str = "en") -> str:
    """A lesson's teacher's notes as written in its notebook (without running it), in ``lang`` block by block."""
    from dragonkit.i18n.notebooks import translate_markdown

    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        tree = ast.parse("".join(cell["source"])) if cell["cell_type"] == "code" else None
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "teacher_notes":
                return translate_markdown(node.args[0].value, lang)
    raise LookupError(f"{name} has no teacher's notes")


def _notes_words(name: str, lang: str = "en") -> str:
    """:func:`_notes_text` on one line: its words with one space between them, wherever the Markdown broke a line."""
    return " ".join(_notes_text(name, lang).split())


def _prose(name: str, lang: str = "en") -> str:
    """A lesson's Markdown and the texts of its code cells (exercises, teacher's notes) as written in its notebook
    for ``lang`` (the Italian one for ``"it"``; the notes through the catalog), on one line: what a sentence
    of the lesson says, whatever its wrapping."""
    folder = "it/" if lang == "it" else ""
    cells = json.loads((ROOT / "notebooks" / f"{folder}{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    texts = ["".join(cell["source"]) for cell in cells]
    if lang == "it":
        texts.append(_notes_text(name, "it"))
    return " ".join(" ".join(texts).split())
