"""The notebooks as a teacher receives them, in English and in Italian: the lessons' shape, clean files,
titles, and the code a lesson shows (their pages served by Voilà and opened in Chromium:
tests/browser/test_lesson_pages.py and test_lesson_pages_italian.py; nbval runs every notebook)."""

from __future__ import annotations

import ast
import json
import re

import pytest

from dragonkit import i18n

from ..notebooks import APPS, GOALS, LESSONS, NOTEBOOKS, TEACHER, _cells, _shown_code, _source

#: Every page, as its path under notebooks/: the English lessons, the apps and the teacher's dashboard, and the Italian
#: lessons.
PAGES = LESSONS + APPS + TEACHER + [f"it/{name}" for name in LESSONS]


#: What a lesson says, in the Markdown before a code cell it shows, of the page that hides the code.
WEB_PAGE = {"": "web page", "it/": "pagina web"}


def test_the_folder_holds_the_lessons_the_apps_and_an_index():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted([*LESSONS, *APPS, *TEACHER, "glossary"])
    index = (NOTEBOOKS / "README.md").read_text(encoding="utf-8")
    for name in [*LESSONS, *APPS, *TEACHER, "glossary"]:
        assert f"{name}.ipynb" in index, f"the index does not list {name}"
    assert sorted(p.stem for p in (NOTEBOOKS / "it").glob("*.ipynb")) == sorted([*LESSONS, "glossary"])
    assert (NOTEBOOKS / "it" / "README.md").exists()


@pytest.mark.parametrize("name", PAGES)
def test_notebooks_are_committed_clean(name):
    notebook = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, f"{name}: outputs not cleared"


@pytest.mark.parametrize("folder", GOALS)
@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_has_goals_widgets_checked_exercises_and_teacher_notes(folder, lesson):
    name = folder + lesson
    cells = _cells(name)
    markdown = "\n".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    code = "\n".join(_source(c) for c in cells if c["cell_type"] == "code")
    assert cells[0]["cell_type"] == "markdown" and _source(cells[0]).startswith("# ")
    assert re.search(GOALS[folder], markdown, re.I), f"{name}: no learning goals"
    lang = folder.strip("/") or "en"
    assert f'lesson_page("{lesson}.ipynb", "{lang}")' in _source(cells[1]), f"{name}: no language links"
    assert len(re.findall(r"\b(FractionExercise|ChoiceExercise)\(", code)) >= 3, f"{name}: fewer than 3 exercises"
    assert re.findall(r"\bhint\s*=", code), f"{name}: exercises without hints"
    assert "teacher_notes(" in _source([c for c in cells if c["cell_type"] == "code"][-1]), (
        f"{name}: the teacher's notes are not the last code cell"
    )
    for app in re.findall(r"\b(?:PlayApp|HandTrainer)\([^)]*\)", code):  # one language switch per page
        assert "language_switch=False" in app, f"{name}: {app} shows a second language switch"


#: The apps' titles, in English and in Italian (a page of an app takes the language of its visitor).
APP_TITLES = {
    "play": ("Dragon Stripes — play", "Dragon Stripes — gioca"),
    "trainer": ("Dragon Stripes — hand trainer", "Dragon Stripes — allenamento sulle mani"),
    "dashboard": ("Dragon Stripes — teacher's dashboard", "Dragon Stripes — pannello dell'insegnante"),
}


@pytest.mark.parametrize("name", PAGES)
def test_every_page_has_a_title_a_lesson_its_own_in_its_language(name):
    """Voilà titles a page with its notebook's metadata ``title`` (else its file name, "play"): a lesson's is its
    heading, in the lesson's language, which its metadata names; an app, which speaks its visitor's language, names
    none, and its title (an English text of the catalog) is translated by the server (see the served pages below)."""
    metadata = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["metadata"]
    if name in APP_TITLES:
        english, italian_ = APP_TITLES[name]
        assert metadata["title"] == english and "language" not in metadata
        assert i18n.tr(english, "it") == italian_
    else:
        heading = _source(_cells(name)[0]).split("\n", 1)[0]
        assert heading == f"# {metadata['title']}", name
        assert metadata["language"] == ("it" if name.startswith("it/") else "en")


@pytest.mark.parametrize("folder", GOALS)
@pytest.mark.parametrize("lesson", LESSONS)
def test_a_code_cell_a_lesson_shows_is_for_jupyterlab_and_its_result_reads_on_the_page(folder, lesson):
    """Voilà shows a cell's result without its code. A code cell that a lesson shows prints nothing (a printout,
    ``t = 3.5366``, under a page with no code is Python talking, not the lesson) and ends with what it displays (a
    table, a figure, a widget), and the Markdown just before it says that the cell is run in JupyterLab and that the
    web page hides the code."""
    name = folder + lesson
    cells = _cells(name)
    for i in _shown_code(cells):
        tree = ast.parse(_source(cells[i]))
        called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and hasattr(node.func, "id")}
        assert "print" not in called, f"{name}: cell {i} prints"
        assert isinstance(tree.body[-1], ast.Expr), f"{name}: cell {i} displays nothing"
        before = _source(cells[i - 1])
        assert cells[i - 1]["cell_type"] == "markdown" and "JupyterLab" in before, f"{name}: cell {i} unexplained"
        assert WEB_PAGE[folder] in before, f"{name}: the text before cell {i} does not say the web page hides it"
