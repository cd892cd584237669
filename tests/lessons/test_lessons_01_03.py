"""What lessons 1-3 check together (each lesson's own tests: test_lesson_01_*.py to test_lesson_03_*.py):
every msgid of their modules has an Italian text, their widgets speak Italian, a language switch moves no control."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import matplotlib
import pytest

from dragonkit import i18n
from dragonkit.lessons import next_card
from dragonkit.lessons.next_card import DeckExplorer
from dragonkit.lessons.observe import ClassStops, DeckView, FirstGuess
from dragonkit.lessons.one_more_card import MyopicVsOptimal, OnePushExplorer
from dragonkit.rules import Card

from ..catalogs import italian
from .helpers import _text

matplotlib.use("Agg")


ROOT = Path(__file__).parents[2]


MODULES = [ROOT / "dragonkit" / "lessons" / f"{name}.py" for name in ("observe", "next_card", "one_more_card")]


def _msgids() -> list[str]:
    ids = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr":
                assert isinstance(node.args[0], ast.Constant), f"{path.name}: tr() with a computed msgid"
                ids.append(node.args[0].value)
    return ids


def test_every_msgid_has_an_italian_text_with_the_same_fields():
    merged = italian()  # one catalog for the kit: test_i18n checks that no entry is dead
    ids = set(_msgids())
    assert ids <= set(merged), sorted(ids - set(merged))
    fields = re.compile(r"{(\w*)}")
    for msgid in ids:
        assert sorted(fields.findall(msgid)) == sorted(fields.findall(merged[msgid])), msgid


ENGLISH = {
    "cards",
    "left",
    "discarded",
    "the",
    "with",
    "without",
    "replacement",
    "pot",
    "gems",
    "hold",
    "reveal",
    "next",
    "card",
    "probability",
    "deck",
    "footprint",
    "footprints",
    "danger",
    "knight",
    "stage",
    "your",
    "guess",
    "optimal",
    "play",
    "step",
    "steps",
    "head",
    "pays",
    "one",
    "more",
    "gain",
    "then",
    "break-even",
}


def _words(*texts: str) -> set[str]:
    text = " ".join(_text(t) for t in texts)
    text = re.sub(r"scipy\.stats\.\w+", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]*", text)}


@pytest.mark.slow
def test_the_widgets_speak_italian():
    deck, guess, push, myopic = (
        DeckExplorer(discards=next_card.EXERCISE_DISCARDS),
        FirstGuess(),
        OnePushExplorer(),
        MyopicVsOptimal(),
    )
    guess.record()
    before = (deck.picture.value, push.picture.value)
    i18n.set_language("it")
    assert deck.sliders[Card.footprint(2)].description == "scartate (2 passi)"
    assert "Restano 40 carte (11 scartate), di cui 31 impronte." in _text(deck.summary.value)
    assert guess.submit.description == "Invia la mia ipotesi"
    assert push.sliders["gems"].description == "le tue gemme"
    assert "FERMATI" in _text(push.verdict.value)
    assert (deck.picture.value, push.picture.value) != before  # the charts are drawn again in Italian
    texts = [
        deck.summary.value,
        deck.next_card.value,
        deck.runs.value,
        guess.report.value,
        guess.prompt.value,
        push.table.value,
        push.verdict.value,
        push.deck.value,
        myopic.summary.value,
        *(s.description for s in deck.sliders.values()),
        deck.k_slider.description,
        *(s.description for s in push.sliders.values()),
    ]
    assert not _words(*texts) & ENGLISH, _words(*texts) & ENGLISH


@pytest.mark.parametrize(
    "make",
    [DeckView, FirstGuess, ClassStops, DeckExplorer, OnePushExplorer, MyopicVsOptimal],
    ids=lambda make: make.__name__,
)
@pytest.mark.slow
def test_language_switch_keeps_every_control(make):
    from tests.lessons.helpers import assert_language_keeps_values

    assert_language_keeps_values(make)
