"""The translation layer: every msgid written in the code has an Italian text with
the same fields, and no catalog entry is dead."""

from __future__ import annotations

import ast
import json
import string
from fractions import Fraction
from pathlib import Path

import pytest

from dragonkit import Game, Ruleset, i18n
from dragonkit.i18n import Gems, Phrase, tr
from dragonkit.rules import DANGER_CARD, STOP_CARD, Card

PACKAGE = Path(i18n.__file__).parents[1]
CATALOG_DIR = Path(i18n.__file__).parent / "it"


def _string_constants() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def _msgids_in_code() -> set[str]:
    """First arguments of tr(...) and Message(...) and templates of the engine's events, where written as literals."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            position = {"tr": 0, "_emit": 1, "Message": 0}.get(name)
            if position is not None and len(node.args) > position:
                arg = node.args[position]
                candidates = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
                found |= {c.value for c in candidates if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return found


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_msgid_in_the_code_has_an_italian_text():
    italian = i18n.catalog("it")
    msgids = _msgids_in_code()
    assert len(msgids) > 30
    missing = sorted(m for m in msgids if m not in italian)
    assert missing == []


def test_translations_use_the_same_fields_and_are_not_dead():
    constants = _string_constants()
    for path in CATALOG_DIR.glob("*.json"):
        for msgid, text in json.loads(path.read_text(encoding="utf-8")).items():
            assert _fields(text) == _fields(msgid), (path.name, msgid)
            assert text.strip(), (path.name, msgid)
            assert msgid in constants, f"{path.name}: {msgid!r} is used nowhere in the code"


def test_words_for_gems_cards_phrases_and_names():
    assert tr("{n} gems", "it", n=3) == "3 gemme"
    assert i18n.gems(1, "en") == "1 gem" and i18n.gems(1, "it") == "1 gemma" and i18n.gems(0, "it") == "0 gemme"
    assert [c.describe("it") for c in (Card.footprint(1), Card.footprint(3), STOP_CARD, DANGER_CARD)] == [
        "1 passo",
        "3 passi",
        "stop",
        "pericolo",
    ]
    assert tr("{name} declines.", "it", name=("Ann", "Bo", "Cy")) == "Ann, Bo e Cy rinuncia."
    assert (
        tr(
            "Game over ({ending}): {names} wins with {best}.",
            "en",
            ending=Phrase("the final danger"),
            names=("Ann",),
            best=Gems(5),
        )
        == "Game over (the final danger): Ann wins with 5 gems."
    )
    assert tr("a msgid nobody translated", "it") == "a msgid nobody translated"  # falls back to English


def test_any_describable_field_is_written_in_the_language_asked_for():
    class Weather:
        def describe(self, lang=None):
            return {"en": "rain", "it": "pioggia"}[lang or i18n.get_language()]

    assert isinstance(Card.footprint(2), i18n.Describable) and isinstance(Weather(), i18n.Describable)
    assert tr("{name} declines.", "it", name=Weather()) == "pioggia rinuncia."
    assert tr("{name} declines.", "it", name=Card.footprint(2)) == "2 passi rinuncia."


def test_the_translation_layer_imports_nothing_else_of_the_kit():
    tree = ast.parse(Path(i18n.__file__).read_text(encoding="utf-8"))
    relative = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level]
    assert relative == []


def test_unknown_language_and_missing_fields_are_refused_and_change_nothing():
    before = i18n.get_language()
    with pytest.raises(ValueError, match="en, it"):
        i18n.set_language("fr")
    with pytest.raises(ValueError, match="language"):
        tr("Check", "de")
    assert i18n.get_language() == before
    with pytest.raises(KeyError):
        tr("{taker} pays {bounty} to {holder} and takes over.", "en", taker="Ann", bounty=Gems(3))


def test_the_language_setting_notifies_and_the_query_string_chooses():
    seen = []
    i18n.settings.observe(seen.append, names="language")
    try:
        i18n.set_language("it")
        i18n.set_language("en")
    finally:
        i18n.settings.unobserve(seen.append, names="language")
    assert [c["new"] for c in seen] == ["it", "en"]
    assert i18n.initial_language({"QUERY_STRING": "lang=it"}) == "it"
    assert i18n.initial_language({"QUERY_STRING": "token=x&lang=en", "DRAGONKIT_LANG": "it"}) == "en"
    assert i18n.initial_language({"QUERY_STRING": "lang=xx", "DRAGONKIT_LANG": "it"}) == "it"
    assert i18n.initial_language({}) == "en"


def test_every_event_of_whole_games_reads_in_both_languages():
    english_words = {"reveals", "holds", "takes", "pays", "declines", "knight", "treasure", "Turn", "wins"}
    for preset in ("dragon-stripes", "mini", "kali", "drago-rosso"):
        for seed in range(4):
            game = Game(["Ann", "Bo", "Cy"], Ruleset.preset(preset), seed=seed)
            while not game.is_over:
                actions = game.legal_actions()
                game.apply(actions[(seed + len(game.events)) % len(actions)])
            for event in game.events:
                assert event.describe("en") == event.text
                italian = event.describe("it")
                assert not english_words & set(italian.replace(".", " ").replace(":", " ").split()), italian
                digits = [w for w in event.text.replace(".", " ").split() if w.isdigit()]
                assert digits == [w for w in italian.replace(".", " ").split() if w.isdigit()]


def test_fractions_are_not_words():
    assert tr("Right! The answer is {answer}.", "it", answer=str(Fraction(13, 47))) == "Giusto! La risposta è 13/47."
