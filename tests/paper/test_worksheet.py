"""The worksheets (dragonkit/paper/worksheet.py): every exercise of the lesson, in the sheet's language, with room
to write, under the text the exercises refer to, with the lesson's figures."""

from __future__ import annotations

from dragonkit.i18n import LANGUAGES, tr
from dragonkit.paper.document import WHO
from dragonkit.paper.worksheet import SHEETS
from dragonkit.teach.exercises import ChoiceExercise

from ..catalogs import italian
from .pdfs import plain, text


def test_every_exercise_is_on_its_lessons_worksheet_in_each_language(paper, lessons_read):
    for lesson in lessons_read:
        for lang in LANGUAGES:
            sheet = text(paper.folder / lang / f"{lesson.path.stem}-worksheet.pdf")
            assert plain(tr(lesson.title, lang)) in sheet
            for number, exercise in enumerate(lesson.exercises, start=1):
                assert f"{number}. {plain(exercise.question_text(lang))}" in sheet, (lesson.path.name, lang, number)
                if isinstance(exercise, ChoiceExercise):
                    for letter, option in zip("ABCDEFG", exercise.option_texts(lang)):
                        assert f"{letter} {plain(option)}" in sheet, (lesson.path.name, lang, number)
            for label in WHO:
                assert f"{tr(label, lang)}:" in sheet


def test_the_italian_sheet_says_the_catalogs_italian(paper, lessons_read):
    """Lesson 3's first question as the .po writes it in Italian, and the sheet's own words."""
    exercise = lessons_read[2].exercises[0]
    sheet = text(paper.folder / "it" / "03-one-more-card-worksheet.pdf")
    assert plain(italian()[exercise.question]) in sheet
    assert "Scheda di lavoro" in sheet and "Nome:" in sheet and "Classe:" in sheet and "Data:" in sheet
    assert "Risposta:" in sheet


def test_a_sheet_carries_the_text_its_exercises_refer_to_and_the_lessons_figures(paper, lessons_read):
    """Lesson 3: the situation of the lesson (a section without exercises that :data:`SHEETS` names); lesson 7: the
    takeover explorer's figure, its words (SVG text) in the sheet's language."""
    assert SHEETS["03-one-more-card.ipynb"].sections == ("The expected value of one more card",)
    situation = next(block for block in lessons_read[2].sections[0].markdown.split("\n\n") if "situation" in block)
    for lang in LANGUAGES:
        sheet = text(paper.folder / lang / "03-one-more-card-worksheet.pdf")
        assert plain(tr(situation, lang).replace("**", ""))[:80] in sheet
    assert "the rules' bounty b = 4" in text(paper.folder / "en" / "07-takeover-market-worksheet.pdf")
    assert "la taglia delle regole b = 4" in text(paper.folder / "it" / "07-takeover-market-worksheet.pdf")


def test_every_section_and_widget_a_sheet_names_is_in_its_lesson(lessons_read):
    """:data:`SHEETS` names sections by their heading and widgets by their call: a lesson that renames one must say
    so there too."""
    by_file = {lesson.path.name: lesson for lesson in lessons_read}
    assert set(SHEETS) == set(by_file)
    for name, sheet in SHEETS.items():
        sections = by_file[name].sections
        assert set(sheet.sections) <= {section.heading for section in sections}, name
        assert set(sheet.figures) <= {cell.call for section in sections for cell in section.cells}, name
