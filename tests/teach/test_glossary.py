"""The glossary: one word per term and language, the Italian catalog holds to it, and its page in both languages."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from dragonkit import i18n
from dragonkit.teach import glossary
from dragonkit.teach.glossary import FIELD, GAME, TERMS, glossary_html, term
from dragonkit.teach.notes import LessonPage

from ..catalogs import italian

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

#: Terms of the field the catalog must name with the glossary's word wherever the English names them: the English
#: pattern (word forms included) and the Italian forms of the glossary's word.
STRICT = {
    "hypergeometric": r"ipergeometric[ao]",
    "expected value": r"valor[ei] attes[oi]",
    "break-even pot": r"piatt[oi] di pareggio",
    "transient state": r"stat[oi] transitori[o]?",
    "absorbing state": r"stat[oi] assorbent[ei]",
    "absorbing Markov chain": r"catena di Markov assorbente",
    "fundamental matrix": r"matrice fondamentale",
    "absorption probabilit": r"probabilità di assorbimento",
    "backward induction": r"induzione all'indietro",
    "Bellman's equation|Bellman equation": r"equazione di Bellman",
    "value function": r"funzione valore",
    "winner's curse": r"maledizione del vincitore",
    "confidence interval": r"intervall[oi] di confidenza|intervall[oi]",
    "law of large numbers": r"legge dei grandi numeri",
    "standard deviation": r"deviazion[ei] standard",
    "optimal stopping": r"arresto ottimo",
}

#: What is code, a placeholder or a file name in a text: not words of the page.
_CODE = re.compile(r"`[^`]*`|```.*?```|\{[^{}]*\}|\S+\.(?:md|py|ipynb)\b", re.S)


def _words(text: str) -> str:
    """``text`` without its code, placeholders, file names and emphasis, on one line."""
    return " ".join(_CODE.sub(" ", text).replace("*", "").split())


def test_every_term_has_a_word_and_a_meaning_in_every_language():
    assert {t.part for t in TERMS} == {GAME, FIELD}
    for item in TERMS:
        assert set(item.words) == set(i18n.LANGUAGES) and all(item.words.values())
        assert i18n.tr(item.meaning, "it") != item.meaning, item.words["en"]  # translated
        assert item.lessons and all(1 <= number <= 10 for number in item.lessons)
    english = [t.words["en"] for t in TERMS]
    assert len(set(english)) == len(english) and len({t.words["it"] for t in TERMS}) == len(TERMS)
    assert term("coach").words["it"] == "allenatore" and "coach" in term("coach").avoid["it"]
    with pytest.raises(KeyError, match="no term"):
        term("dragon's nephew")


def test_each_term_matters_in_the_lessons_it_lists():
    """The lessons a term lists name it (in English): a glossary that points to the wrong lesson misleads."""
    lessons = {
        int(path.name[:2]): path.read_text(encoding="utf-8").lower() for path in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")
    }
    for item in TERMS:
        word = item.words["en"].lower().split()[0].rstrip("s")
        for number in item.lessons:
            assert word in lessons[number], (item.words["en"], number)


def test_the_italian_catalog_uses_the_glossarys_words():
    texts = " ".join(_words(text) for text in italian().values()).lower()
    for item in TERMS:
        first = re.split(r" \(", item.words["it"])[0].lower()  # "politica (strategia)": "politica"
        assert first in texts, item.words["it"]


def test_no_italian_text_uses_a_word_the_glossary_avoids():
    for msgid, text in italian().items():
        words = _words(text).lower()
        for item in TERMS:
            for avoided in item.avoid.get("it", ()):
                assert not re.search(rf"\b{re.escape(avoided.lower())}\b", words), (avoided, msgid[:80])


@pytest.mark.parametrize("english, forms", STRICT.items())
def test_a_text_naming_a_term_of_the_field_names_it_with_the_glossarys_word(english, forms):
    found = 0
    for msgid, text in italian().items():
        if re.search(rf"\b(?:{english})", _words(msgid), re.I):
            found += 1
            assert re.search(forms, _words(text), re.I), msgid[:100]
    assert found, english


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_glossary_page_lists_every_term_in_alphabetical_order(lang):
    page = glossary_html(lang)
    other = "it" if lang == "en" else "en"
    rows = re.findall(r"<dfn>(.*?)</dfn></th><td lang=\"(\w+)\">(.*?)</td><td>(.*?)</td>", page)
    assert len(rows) == len(TERMS) and {r[1] for r in rows} == {other}
    assert {html.unescape(r[0]) for r in rows} == {t.words[lang] for t in TERMS}
    for part in (GAME, FIELD):
        words = [t.words[lang] for t in TERMS if t.part == part]
        shown = [html.unescape(r[0]) for r in rows if html.unescape(r[0]) in words]
        assert shown == sorted(shown, key=glossary._sort_key)
    assert page.count('<th scope="col">') == 8 and page.count("<caption>") == 2
    if lang == "it":
        assert {html.unescape(r[3]) for r in rows} == {i18n.tr(t.meaning, "it") for t in TERMS}
        assert "Le parole del gioco" in page and "significato" in page
    with pytest.raises(ValueError, match="speaks"):
        glossary_html("fr")


def test_every_lesson_links_to_the_glossary_in_its_language_and_the_glossary_has_its_italian_page():
    for lang in ("en", "it"):
        links = LessonPage("03-one-more-card.ipynb", lang, None).links_html()
        assert f'<a href="glossary.ipynb">{i18n.tr("Glossary", lang)}</a>' in links
        assert 'href="glossary.ipynb"' not in LessonPage("glossary.ipynb", lang, None).links_html()
    italian_page = json.loads((NOTEBOOKS / "it" / "glossary.ipynb").read_text(encoding="utf-8"))
    assert italian_page["metadata"]["title"] == "Glossario"
    assert 'lesson_page("glossary.ipynb", "it")' in "".join(italian_page["cells"][1]["source"])
