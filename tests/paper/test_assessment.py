"""The assessment and the curriculum map on paper (dragonkit/paper/assessment.py, curriculum.py): read back, the
students' sheet has every question and room to write and no answer, the teacher's every answer the kit computes."""

from __future__ import annotations

import re

import pytest

from dragonkit.paper.assessment import assessment_sheet
from dragonkit.paper.curriculum import curriculum_map
from dragonkit.teach.assessment import answers

from ..english import english_words
from .pdfs import pages, text

FOLDERS = {"en": "", "it": "it/"}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_students_sheet_asks_every_question_and_gives_no_answer(paper, lang):
    read = text(paper.folder / lang / "assessment.pdf")
    name, klass = ("Name", "Class") if lang == "en" else ("Nome", "Classe")
    assert name in read and klass in read
    labels = re.findall(r"\b(1a|1b|1c|2|3|4|5a|5b|6|7a|7b|8|9a|9b|9c|10|11|a|b|c|d)\. ", read)
    for label in (
        "1a",
        "1b",
        "1c",
        "2",
        "3",
        "4",
        "5a",
        "5b",
        "6",
        "7a",
        "7b",
        "8",
        "9a",
        "9b",
        "9c",
        "10",
        "11",
        "a",
        "b",
        "c",
        "d",
    ):
        assert label in labels, label
    assert "1785" not in read and "16127" not in read and "3159" not in read  # no solution on the students' sheet
    assert "4101" not in read and "13/8" not in read
    assert assessment_sheet(lang).body.count('class="dk-lines"') == 21


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_teachers_sheet_gives_the_kits_answers_and_the_marking_grid(paper, lang):
    read = text(paper.folder / lang / "assessment-solutions.pdf")
    a = answers()
    for value in (a.three_footprints, a.one_card_variance, a.after_three_value, a.problem_variance, a.chain_variance):
        assert str(value.numerator) in read and str(value.denominator) in read, value
    assert ("Marking grid" if lang == "en" else "Griglia di valutazione") in read
    point = "," if lang == "it" else "."
    assert f"0{point}4128" in read and f"49{point}36" in read


def test_the_italian_assessment_and_map_are_italian(paper):
    for name in ("assessment.pdf", "assessment-solutions.pdf", "curriculum.pdf"):
        read = re.sub(r"\S+\.(?:ipynb|md)", " ", text(paper.folder / "it" / name))
        assert english_words(read) == [], name


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_curriculum_map_prints_its_tables_whole(paper, lang):
    read = pages(paper.folder / lang / "curriculum.pdf")
    assert 2 <= len(read) <= 5
    whole = " ".join(read)
    for title in ("Play and observe", "Gems or wins?") if lang == "en" else ("Gioca e osserva", "Gemme o vittorie?"):
        assert title in whole
    assert curriculum_map(lang).title == ("Curriculum map" if lang == "en" else "Mappa del curricolo")
