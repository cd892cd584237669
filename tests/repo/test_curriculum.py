"""The curriculum map (docs/curriculum.md, docs/curriculum.it.md): every lesson by its own title, the same times and
the same core/enrichment in both languages, calendars that give each lesson its hours, the civic thread's numbers."""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from ..english import english_words

ROOT = Path(__file__).resolve().parents[2]
MAPS = {"en": ROOT / "docs" / "curriculum.md", "it": ROOT / "docs" / "curriculum.it.md"}
CORE = {"en": ("core", "enrichment"), "it": ("nucleo", "approfondimento")}


def _lessons(lang: str) -> list[list[str]]:
    """The rows of the table of lessons: [number and link, school syllabus, school, university topics, university,
    time]."""
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in MAPS[lang].read_text(encoding="utf-8").splitlines()
        if re.match(r"\| \d+ \[", line)
    ]
    assert [int(row[0].split()[0]) for row in rows] == list(range(1, 11))
    return rows


def _hours(row: list[str]) -> int:
    return int(re.fullmatch(r"(\d) h", row[5]).group(1))


@pytest.mark.parametrize("lang", ["en", "it"])
def test_each_lesson_is_named_by_its_title_and_linked(lang):
    for row in _lessons(lang):
        title, target = re.search(r"\[([^\]]+)\]\(([^)]+)\)", row[0]).groups()
        notebook = (MAPS[lang].parent / target).resolve()
        assert notebook.exists(), target
        own = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]["title"]
        assert re.sub(r"^\w+ \d+ — ", "", own) == title


def test_both_languages_give_the_same_times_and_the_same_status():
    english, italian = _lessons("en"), _lessons("it")
    assert [_hours(r) for r in english] == [_hours(r) for r in italian]
    assert [n for n, r in enumerate(english, 1) if _hours(r) == 2] == [4, 5, 10]  # the double lessons
    for en, it in zip(english, italian, strict=True):
        for column in (2, 4):
            status = CORE["en"].index(en[column].split(",")[0].split()[0])
            assert it[column].split(",")[0].split()[0] == CORE["it"][status], (en[0], column)
    total = sum(_hours(r) for r in english)
    core = [n for n, r in enumerate(english, 1) if r[2].startswith("core")]
    assert f"In all: {total} hours, {len(core)} of them core" in MAPS["en"].read_text(encoding="utf-8")
    assert f"In tutto: {total} ore, di cui {len(core)} di nucleo" in MAPS["it"].read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_school_calendar_gives_each_lesson_its_hours(lang):
    text = MAPS[lang].read_text(encoding="utf-8")
    word = {"en": "lesson", "it": "lezione"}[lang]
    weeks = [line for line in text.splitlines() if re.match(r"\| [1-4] \| ", line)]
    assert len(weeks) == 4 and all(line.count("|") == 6 for line in weeks)
    hours = Counter(int(n) for line in weeks for n in re.findall(rf"{word} (\d+)", line))
    expected = {n: _hours(row) for n, row in enumerate(_lessons(lang), 1)}
    for lesson in (1, 2, 3, 4, 5, 6, 8, 10):
        assert hours[lesson] == expected[lesson], lesson
    assert hours[7] == hours[9] == 1  # "lesson 7 (the auction) or lesson 9"


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_civic_threads_numbers(lang):
    text = MAPS[lang].read_text(encoding="utf-8")
    single, red = Fraction(35 * 1 - 36 * 1, 37), Fraction(18 - 19, 37)  # paid 35 to 1; red paid 1 to 1
    assert single == red == Fraction(-1, 37)
    assert r"\frac{35 - 36}{37} = -\frac{1}{37}" in text and r"\frac{18 - 19}{37} = -\frac{1}{37}" in text
    assert round(float(-single) * 100, 1) == 2.7 and round(1000 / 37) == 27
    point = "," if lang == "it" else "."
    assert f"2{point}7 %" in text and re.search(r"\b27\s", text)


def test_the_italian_map_has_no_english():
    text = MAPS["it"].read_text(encoding="utf-8")
    text = re.sub(r"\]\([^)]*\)|`[^`]*`|\$[^$]*\$", " ", text)  # link targets, code and formulas
    assert english_words(text) == []


def _lesson_map() -> dict[int, tuple[int, set[int]]]:
    """Each lesson's minutes and the lessons it needs, from the lesson map (notebooks/README.md): the first number of
    its time and the lessons of its last column before any remark in parentheses (``1–3`` is 1, 2 and 3)."""
    found = {}
    for line in (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8").splitlines():
        if match := re.match(r"\| (\d+) \| \[", line):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            needs: set[int] = set()
            for part in re.split(r",\s*", cells[4].split("(")[0].strip()):
                if span := re.fullmatch(r"(\d+)–(\d+)", part):
                    needs |= set(range(int(span[1]), int(span[2]) + 1))
                elif part.isdigit():
                    needs.add(int(part))
            found[int(match[1])] = (int(re.match(r"\d+", cells[3])[0]), needs)
    assert sorted(found) == list(range(1, 11))
    return found


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("column", [2, 4], ids=["school", "university"])
def test_the_core_lessons_are_a_path_every_lesson_of_which_has_its_prerequisites_in_it(lang, column):
    """Issue 37, item 3: a core lesson needs no lesson outside the core (the lessons' own prerequisites, as the lesson
    map gives them)."""
    core = {n for n, row in enumerate(_lessons(lang), 1) if row[column].split()[0].rstrip(",") == CORE[lang][0]}
    needs = _lesson_map()
    assert {1, 2, 3, 6} <= core
    for lesson in sorted(core):
        assert needs[lesson][1] <= core, (lesson, needs[lesson][1] - core)


def test_each_lesson_says_in_its_first_cell_what_the_lesson_map_says_it_needs():
    """The lessons' own prerequisites (their first cell) are the map's."""
    for number, (_, needs) in _lesson_map().items():
        name = next((ROOT / "notebooks").glob(f"{number:02d}-*.ipynb"))
        first = "".join(json.loads(name.read_text(encoding="utf-8"))["cells"][0]["source"])
        said = first.split("**Prerequisites:**")[1] if "**Prerequisites:**" in first else ""
        named = {int(n) for n in re.findall(r"lessons? (\d+)", said)}
        named |= {int(n) for a, b in re.findall(r"lessons (\d+)–(\d+)", said) for n in range(int(a), int(b) + 1)}
        named |= {int(n) for n in re.findall(r"and (\d+)", said.split(";")[0])}
        assert needs <= named, (number, needs, named)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_calendars_fit_their_slots(lang):
    """A university slot of two hours holds at most 120 minutes of lessons (a lesson at home aside); at school the
    lessons of one hour (7 and 8 among them) take at most 50 minutes, the double ones at most 100."""
    minutes = {n: m for n, (m, _) in _lesson_map().items()}
    word = {"en": "lesson", "it": "lezione"}[lang]
    text = MAPS[lang].read_text(encoding="utf-8")
    days = [
        line for line in text.splitlines() if re.match(r"\| \w+ \| (lecture|lab|lezione|laboratorio), 2 h \|", line)
    ]
    assert len(days) == 5
    for line in days:
        in_class = re.split(r"; (?:lesson 1 played|la lezione 1 giocata)", line.split("|")[3])[0]
        taught = [int(n) for n in re.findall(rf"{word} (\d+)", in_class)]
        assert taught and sum(minutes[n] for n in taught) <= 120, line
    for n, row in enumerate(_lessons(lang), 1):
        assert minutes[n] <= (100 if _hours(row) == 2 else 50), n


def test_both_maps_quote_the_indicazioni_in_the_same_words():
    """The Indicazioni nazionali's own words for the second two-year period and the fifth year, quoted alike."""
    quotes = [
        [" ".join(q.split()) for q in re.findall(r"«(Lo studente[^»]+)»", MAPS[lang].read_text(encoding="utf-8"))]
        for lang in ("en", "it")
    ]
    assert len(quotes[0]) == 2 and quotes[0] == quotes[1]
    biennio, quinto = quotes[0]
    assert "probabilità condizionata e composta, la formula di Bayes" in biennio and "deviazione standard" in biennio
    assert "distribuzione binomiale, la distribuzione normale, la distribuzione di Poisson" in quinto
