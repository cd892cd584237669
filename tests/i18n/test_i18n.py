"""The translation layer: the gettext catalogs are current with the code (template, Italian .po, compiled .mo),
every msgid written in the code has an Italian text with the same fields, no catalog entry is dead, plurals follow
the Italian rule, and a pseudo-locale shows that every message goes through the catalogs."""

from __future__ import annotations

import ast
import string
from fractions import Fraction
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo

from dragonkit import Game, Ruleset, i18n
from dragonkit.i18n import Gems, Phrase, notebooks, ntr, tr
from dragonkit.rules import DANGER_CARD, STOP_CARD, Card

from ..catalogs import CLOSE, OPEN, PO, POT, PSEUDO, extract, install_pseudo_locale, msgids, read

PACKAGE = Path(i18n.__file__).parents[1]
KEYWORDS = {"tr": (0,), "ntr": (0, 1), "N_": (0,), "Message": (0,), "_emit": (1,), "Event": (1, 5)}


def _msgids_in_code() -> set[str | tuple[str, ...]]:
    """The msgids written as literals in calls of the keywords (a plural as its two msgids), read from the code,
    and the lessons' texts (:mod:`dragonkit.i18n.notebooks`)."""
    found: set[str | tuple[str, ...]] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            positions = KEYWORDS.get(name, ())
            args = [node.args[p] if p < len(node.args) else None for p in positions]
            if args and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                texts = tuple(a.value for a in args)
                found.add(texts if len(texts) > 1 else texts[0])
    for lesson in PACKAGE.parent.joinpath("notebooks").glob("*.ipynb"):  # the lessons' blocks and exercises
        with lesson.open("rb") as f:
            found |= {message for _, _, message, _ in notebooks.messages(f, (), (), {})}
    return found


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.slow
def test_the_template_is_current_with_the_code(tmp_path):
    extracted = msgids(extract(tmp_path))
    assert extracted == _msgids_in_code()  # the extractor finds what the code writes, f-strings included
    assert len(extracted) > 500
    assert sorted(map(str, extracted ^ msgids(read(POT)))) == [], "run pybabel extract (README, Translations)"


def test_every_msgid_in_the_code_has_an_italian_text_and_no_entry_is_dead():
    po = read(PO)
    assert msgids(po) == msgids(read(POT)), "run pybabel update (README, Translations)"
    assert po.num_plurals == 2 and po.plural_expr == "(n != 1)"
    for message in po:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(t.strip() for t in texts) and "fuzzy" not in message.flags, message.id
        if not ("$" in ids[-1] or "\\" in ids[-1]):  # LaTeX's braces in a lesson's prose are not fields
            assert all(_fields(t) == _fields(ids[-1]) for t in texts), message.id
    assert not po.obsolete  # entries pybabel update set aside: dead
    assert [(m.id, errors) for m, errors in po.check()] == []  # what pybabel compile (and Poedit) would complain of


def test_the_compiled_catalogs_are_current(tmp_path):
    compiled = tmp_path / "dragonkit.mo"
    with compiled.open("wb") as f:
        write_mo(f, read(PO))
    assert compiled.read_bytes() == PO.with_suffix(".mo").read_bytes(), "run pybabel compile (README, Translations)"


def test_plurals_follow_the_italian_rule():
    assert [ntr("{n} gem", "{n} gems", n, "it", n=n) for n in (0, 1, 2)] == ["0 gemme", "1 gemma", "2 gemme"]
    assert [ntr("step", "steps", n, "en") for n in (0, 1, 2)] == ["steps", "step", "steps"]
    assert [Card.footprint(n).describe("it") for n in (1, 2)] == ["1 passo", "2 passi"]
    assert tr("{n} gems", "it", n="≈ 2.5") == "≈ 2.5 gemme"  # a decimal takes the plural, as a msgid of its own


def test_the_pseudo_locale_wraps_every_message(tmp_path, monkeypatch):
    install_pseudo_locale(tmp_path, monkeypatch)
    try:
        assert (
            tr("{name} declines.", PSEUDO, name=("Ann", "Bo"))
            == OPEN + "Ann" + OPEN + " and " + CLOSE + "Bo declines." + CLOSE
        )
        assert i18n.gems(1, PSEUDO) == OPEN + "1 gem" + CLOSE
        game = Game(["Ann", "Bo"], Ruleset.preset("mini"), seed=1)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        assert all(e.describe(PSEUDO).startswith(OPEN) and e.describe(PSEUDO).endswith(CLOSE) for e in game.events)
    finally:
        i18n.catalog.cache_clear()


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
    """Only its own modules (``from . import ...``), and the reader of the page's address for ``?lang=``, which
    imports nothing of the kit (tests/test_address.py)."""
    for module in Path(i18n.__file__).parent.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = [(node.level, node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        outside = [(level, name) for level, name in imported if level > 1 or (name or "").startswith("dragonkit")]
        assert outside == ([(2, "address")] if module.name == "__init__.py" else []), module.name


def test_unknown_language_and_missing_fields_are_refused_and_change_nothing():
    before = i18n.get_language()
    with pytest.raises(ValueError, match="en, it"):
        i18n.set_language("fr")
    with pytest.raises(ValueError, match="en, it"):
        i18n.settings.language = "fr"
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
