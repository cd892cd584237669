"""The teacher's guides (dragonkit/paper/guide.py): the lesson's goals, time and prerequisites, every answer of the
worksheet, and the teacher's notes with their solutions."""

from __future__ import annotations

from dragonkit.i18n import LANGUAGES, tr
from dragonkit.i18n.notebooks import blocks
from dragonkit.teach.exercises import ChoiceExercise

from .pdfs import plain, text


def test_every_guide_has_the_goals_the_answers_and_the_notes(paper, lessons_read):
    for lesson in lessons_read:
        for lang in LANGUAGES:
            guide = text(paper.folder / lang / f"{lesson.path.stem}-teacher-guide.pdf")
            assert plain(tr(lesson.title, lang)) in guide
            for start in ("**Learning goals**", "**Time"):  # their first words, without the Markdown's stars
                block = next(block for block in blocks(lesson.opening) if block.startswith(start))
                assert tr(block, lang).split("\n")[0].replace("*", "")[:20] in guide, (lesson.path.name, lang, start)
            for number, exercise in enumerate(lesson.exercises, start=1):
                answer = plain(exercise.answer_text(lang))
                if isinstance(exercise, ChoiceExercise):  # its letter on the worksheet first
                    answer = f"{'ABCDEFG'[exercise.answer]}: {answer}"
                assert f"{number} {answer}"[:60] in guide, (lesson.path.name, lang, number)
            assert tr("Teacher's notes", lang) in guide


def test_lesson_3s_guide_has_the_solutions_key_numbers(paper):
    for lang in LANGUAGES:
        guide = text(paper.folder / lang / "03-one-more-card-teacher-guide.pdf")
        for number in ("1028/47", "212/13", "17/13", "316/13"):
            assert number in guide
    assert "1028/47 ≈ 21,8723" in text(paper.folder / "it" / "03-one-more-card-teacher-guide.pdf")
    assert "1028/47 ≈ 21.8723" in text(paper.folder / "en" / "03-one-more-card-teacher-guide.pdf")
