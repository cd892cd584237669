"""The lessons in Italian (dragonkit.i18n.notebooks): written from the English ones and the catalog, with
the same structure, every block translated, no English sentence left; the rules and the lesson map too."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from dragonkit import i18n
from dragonkit.i18n.notebooks import (
    TEXT_CALLS,
    blocks,
    code_texts,
    lessons,
    translate_markdown,
    translate_notebook,
)

from ..english import english_words

ROOT = Path(__file__).parents[2]


NOTEBOOKS = ROOT / "notebooks"


LESSONS = lessons(NOTEBOOKS)


def _notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    return "".join(cell["source"])


class _TextsBlanked(ast.NodeTransformer):
    """Every string inside a call of TEXT_CALLS made empty: a lesson's code without its texts."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if isinstance(node.func, ast.Name) and node.func.id in TEXT_CALLS:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    inner.value = ""
            return node
        return self.generic_visit(node)


def _code(source: str) -> str:
    """What a code cell runs, its texts and comments aside."""
    return ast.dump(_TextsBlanked().visit(ast.parse(source)))


def test_there_are_ten_lessons_in_each_language():
    assert [p.name for p in LESSONS] == [p.name for p in lessons(NOTEBOOKS / "it")]
    assert len(LESSONS) == 10


@pytest.mark.parametrize("english", LESSONS, ids=lambda p: p.stem)
def test_the_italian_lesson_is_written_from_the_english_one_and_the_catalog(english):
    """Committed as ``python -m dragonkit.i18n.notebooks`` writes it: the two languages cannot drift apart."""
    italian = NOTEBOOKS / "it" / english.name
    assert _notebook(italian) == translate_notebook(_notebook(english), "it"), (
        "run python -m dragonkit.i18n.notebooks (README, Translations)"
    )


@pytest.mark.parametrize("english", LESSONS, ids=lambda p: p.stem)
def test_both_languages_have_the_same_cells_exercises_answers_and_code(english):
    en, it = _notebook(english), _notebook(NOTEBOOKS / "it" / english.name)
    assert [(c["cell_type"], c.get("id"), c["metadata"]) for c in en["cells"]] == [
        (c["cell_type"], c.get("id"), c["metadata"]) for c in it["cells"]
    ]
    for a, b in zip(en["cells"], it["cells"]):
        if a["cell_type"] == "code":
            page = (f'lesson_page("{english.name}", "en")', f'lesson_page("{english.name}", "it")')
            assert _code(_source(b)) == _code(_source(a).replace(*page))  # the same code, texts and comments aside
            assert list(code_texts(_source(b))) == [  # each text written in Italian, the notes block by block
                i18n.tr(text, "it") for text in code_texts(_source(a))
            ]
        else:
            assert len(blocks(_source(a))) == len(blocks(_source(b)))  # block for block
    code = "".join(_source(c) for c in it["cells"] if c["cell_type"] == "code")
    assert f'lesson_page("{english.name}", "it")' in code
    assert it["metadata"]["language"] == "it"


@pytest.mark.parametrize("english", LESSONS, ids=lambda p: p.stem)
def test_every_text_of_the_italian_lesson_is_italian(english):
    """Each Markdown block, exercise text and block of the teacher's notes has its Italian text (a formula alone may
    stay as it is), and no common English word is left in it."""
    texts = []
    for cell in _notebook(english)["cells"]:
        source = _source(cell)
        texts += blocks(source) if cell["cell_type"] == "markdown" else list(code_texts(source))
    assert len(texts) > 20
    for text in texts:
        italian = i18n.tr(text, "it")
        if english_words(text):  # prose, not only maths or numbers
            assert italian != text, f"not translated: {text[:80]!r}"
        assert english_words(italian) == [], f"English words in the Italian text {italian[:200]!r}"


def _file_texts(cell: dict) -> list[str]:
    """What a reader of a notebook's file reads in a cell: a Markdown cell's text; a code cell's comments and its
    strings of words (every one, not only the exercises' and the notes'; a key, a file's or an edition's name
    aside)."""
    source = _source(cell)
    if cell["cell_type"] != "code":
        return [source]
    tree = ast.parse(source)
    keys = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
    strings = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in keys and " " in n.value.strip()
    ]
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return strings + [t.string for t in tokens if t.type == tokenize.COMMENT]


@pytest.mark.parametrize("english", LESSONS, ids=lambda p: p.stem)
def test_an_italian_notebook_reads_as_italian_before_it_runs(english):
    """An Italian teacher opening the file in JupyterLab, its outputs cleared, reads no English: not in the
    Markdown, nor in the code cells' exercises, teacher's notes and comments."""
    cells = _notebook(NOTEBOOKS / "it" / english.name)["cells"]
    english_left = {text[:120]: words for cell in cells for text in _file_texts(cell) if (words := english_words(text))}
    assert english_left == {}
    assert sum(len(_file_texts(c)) for c in cells if c["cell_type"] == "code") > 10


@pytest.mark.parametrize("english", LESSONS, ids=lambda p: p.stem)
def test_each_italian_text_of_a_lesson_reads_back_to_its_own_msgid(english):
    """No two texts of the catalogs share an Italian text that a lesson writes: read back, each is its own."""
    texts = [
        text
        for cell in _notebook(english)["cells"]
        if cell["cell_type"] == "code"
        for text in code_texts(_source(cell))
    ]
    assert texts and [i18n.msgid(i18n.tr(text, "it")) for text in texts] == texts


def test_an_exercise_written_in_italian_keeps_its_english_msgid():
    """The Italian lesson's exercises are the English lesson's: the same place in the class's record, and written in
    either language."""
    from dragonkit.rules import Message
    from dragonkit.teach import ChoiceExercise

    question = "Quante carte ha il mazzo all'inizio della partita?"
    english = "How many cards does the deck hold at the start of the game?"
    assert i18n.tr(english, "it") == question and i18n.msgid(question) == english and i18n.msgid(english) == english
    options = [
        Message("{name}, con {gems}", name="Ada", gems=i18n.Gems(4)),
        "Nessuno: tutti e tre perdono gemme in media",
    ]
    written = ChoiceExercise(question, options, 0, hint="Suggerimento")
    read = ChoiceExercise(
        english, [Message("{name}, with {gems}", name="Ada", gems=i18n.Gems(4)), i18n.msgid(options[1])], 0
    )
    assert written.key == read.key
    assert written.question_text("en") == english and written.question_text("it") == question
    assert [label for label, _ in written._labels("en")] == [
        "Ada, with 4 gems",
        "Nobody: all three lose gems on average",
    ]
    assert written._labels("it") == read._labels("it") and written.hint_texts("en") == ["Hint"]
    assert i18n.msgid("Un testo che nessun catalogo conosce") == "Un testo che nessun catalogo conosce"


def test_markdown_blocks_are_paragraphs_headings_lists_tables_and_fenced_code_whole():
    markdown = (
        "# Title\n\nA paragraph\non two lines.\n\n- one\n- two\n\n```python\nx = 1\n\ny = 2\n```\n\n| a |\n|---|\n"
    )
    assert blocks(markdown) == [
        "# Title",
        "A paragraph\non two lines.",
        "- one\n- two",
        "```python\nx = 1\n\ny = 2\n```",
        "| a |\n|---|",
    ]
    assert translate_markdown(markdown, "en") == "\n\n".join(blocks(markdown))


def test_a_notebook_that_does_not_name_its_page_cannot_be_translated():
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": ["1 + 1"]}], "metadata": {}}
    with pytest.raises(ValueError, match="lesson_page"):
        translate_notebook(notebook, "it")
    with pytest.raises(ValueError, match="language"):
        translate_notebook(notebook, "xx")


def _outline(markdown: str) -> list[tuple[str, int]]:
    """A document's skeleton: its headings' levels and numbers, its tables' rows, its numbers."""
    headings = [(m.group(1), len(m.group(2) or "")) for m in re.finditer(r"^(#+) (\d*)", markdown, re.M)]
    rows = len(re.findall(r"^\|", markdown, re.M))
    return [*headings, ("rows", rows)]


def test_the_italian_rules_say_what_the_english_ones_say():
    english = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    italian = (ROOT / "docs" / "RULES.it.md").read_text(encoding="utf-8")
    assert _outline(italian) == _outline(english)

    def numbers(text):
        return sorted(re.sub(r"(\d),(\d)", r"\1.\2", n) for n in re.findall(r"\d+(?:[.,]\d+)?", text))

    assert numbers(italian) == numbers(english)
    assert "RULES.md" in italian and english_words(re.sub(r"`[^`]*`", "", italian)) == []


def test_the_italian_lesson_map_lists_every_lesson_and_app_with_working_links():
    index = (NOTEBOOKS / "it" / "README.md").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert f"({lesson.name})" in index, lesson.name
    assert "../play.ipynb" in index and "../trainer.ipynb" in index
    for target in re.findall(r"\]\(([^)#?]+)", index):
        if not target.startswith("http") and not target.startswith("/"):
            assert (NOTEBOOKS / "it" / target).resolve().exists(), target


def _bold_numbers(markdown: str) -> list[str]:
    """The bold answers of teacher's notes that hold a number, written the English way (0,6 -> 0.6; 1.600 -> 1600)."""
    found = []
    markdown = markdown.replace("{,}", ",")  # LaTeX's decimal comma
    for bold in re.findall(r"\*\*([^*]*\d[^*]*)\*\*", markdown):
        numbers = re.findall(r"[−-]?\d+(?:[.,]\d+)*(?:/\d+)?", bold)
        found += [re.sub(r"(\d)\.(\d{3})\b", r"\1\2", n).replace(",", ".").replace("−", "-") for n in numbers]
    return sorted(found)


@pytest.mark.parametrize("english", LESSONS, ids=lambda p: p.stem)
def test_the_italian_teachers_notes_give_the_same_answers(english):
    """The solutions an Italian teacher reads are the English ones: every number set in bold is there."""
    cells = [_source(c) for c in _notebook(english)["cells"] if "teacher_notes(" in _source(c)]
    notes = "\n\n".join(text for cell in cells for text in code_texts(cell))
    assert _bold_numbers(notes), "the notes give no answer in bold"
    assert _bold_numbers(translate_markdown(notes, "it")) == _bold_numbers(notes)
