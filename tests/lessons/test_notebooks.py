"""The notebooks as a teacher receives them, in English and in Italian: the lessons' shape, clean files, and
every notebook rendered by Voilà with no error, no code and no teacher's notes; each lesson's page opened in
Chromium also passes axe-core and, in Italian, shows no English sentence.
(nbval runs each notebook, ``notebooks/it/`` included, top to bottom in the same test command.)"""

from __future__ import annotations

import ast
import html
import json
import re
import urllib.request
from pathlib import Path

import pytest

from dragonkit import i18n

from ..browser.test_accessibility import _assert_clean, _audit
from ..i18n.test_notebooks import english_words

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
LESSONS = [
    "01-play-and-observe",
    "02-the-next-card",
    "03-one-more-card",
    "04-absorbing-chain",
    "05-optimal-stopping",
    "06-risk",
    "07-takeover-market",
    "08-simulation",
    "09-editions",
    "10-gems-or-wins",
]
APPS = ["play", "trainer"]
#: Every page, as its path under notebooks/: the English lessons and the apps, and the Italian lessons.
PAGES = LESSONS + APPS + [f"it/{name}" for name in LESSONS]
#: What a lesson calls its learning goals, by the folder of its language.
GOALS = {"": "learning goals", "it/": "obiettivi di apprendimento"}
#: What a lesson says, in the Markdown before a code cell it shows, of the page that hides the code.
WEB_PAGE = {"": "web page", "it/": "pagina web"}


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def test_the_folder_holds_the_lessons_the_apps_and_an_index():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(LESSONS + APPS)
    index = (NOTEBOOKS / "README.md").read_text(encoding="utf-8")
    for name in LESSONS + APPS:
        assert f"{name}.ipynb" in index, f"the index does not list {name}"
    assert sorted(p.stem for p in (NOTEBOOKS / "it").glob("*.ipynb")) == LESSONS
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


def _shown_code(cells: list[dict]) -> list[int]:
    """The code cells a lesson shows in JupyterLab (their source not hidden), by index: code to read and run."""
    return [
        i
        for i, cell in enumerate(cells)
        if cell["cell_type"] == "code" and not cell["metadata"].get("jupyter", {}).get("source_hidden")
    ]


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


#: The lessons with a code cell to read and run.
CODE_LESSONS = [lesson for lesson in LESSONS if _shown_code(_cells(lesson))]


@pytest.mark.parametrize("name", [f"{folder}{lesson}" for folder in GOALS for lesson in CODE_LESSONS])
def test_a_lesson_page_shows_no_printout(voila_url, name):
    """A lesson's page in Voilà, where the code is hidden: no cell's output is plain text (a printout or a repr), and
    the numbers of the code cells' results are written as the page's language writes them."""
    page = _render(voila_url, name)
    _assert_no_code_or_notes(name, page)
    assert 'data-mime-type="text/plain"' not in page and "application/vnd.jupyter.stderr" not in page
    point = "," if name.startswith("it/") else "."
    number = {"04-absorbing-chain": f"t = 3{point}5366", "08-simulation": f"-1{point}375"}[name.removeprefix("it/")]
    assert number in page, f"{name}: {number} not on the page"


def _render(voila_url: str, name: str) -> str:
    with urllib.request.urlopen(f"{voila_url}/voila/render/{name}.ipynb", timeout=180) as response:
        return html.unescape(response.read().decode("utf-8"))


def _assert_no_code_or_notes(name: str, page: str) -> None:
    """Nothing of the notebook's code, and no teacher's notes, in a page's HTML."""
    assert "There was an error when executing cell" not in page
    assert "Traceback" not in page and "Error displaying widget" not in page
    for cell in _cells(name):
        source = _source(cell).strip()
        if cell["cell_type"] == "code" and len(source) > 12:
            assert source not in page, f"{name}: code shown in the page"
    assert "Teacher's notes" not in page and "TeacherNotes" not in page and "<dragonkit." not in page
    assert "Note per l'insegnante" not in page


@pytest.mark.parametrize(
    "page, lang, title",
    [
        ("play.ipynb", "en", "Dragon Stripes — play"),
        ("play.ipynb?lang=it", "it", "Dragon Stripes — gioca"),
        ("trainer.ipynb?lang=it", "it", "Dragon Stripes — allenamento sulle mani"),
        ("02-the-next-card.ipynb", "en", "Lesson 2 — The next card"),
        ("it/02-the-next-card.ipynb", "it", "Lezione 2 — La prossima carta"),
    ],
)
def test_a_served_page_has_its_title_in_its_language(voila_url, page, lang, title):
    """The served page's ``<title>`` (a browser's tab, a bookmark, the first thing a screen reader says) and its
    ``<html lang>``: an app's in its visitor's language, a lesson's in its own."""
    with urllib.request.urlopen(f"{voila_url}/voila/render/{page}", timeout=180) as response:
        head = response.read().decode("utf-8").split("</head>", 1)[0]
    assert f'<html lang="{lang}">' in head
    assert re.findall(r"<title>(.*?)</title>", head, re.S)[0] == title


@pytest.mark.parametrize("name", APPS)
def test_the_apps_render_in_voila_without_error_or_code(voila_url, name):
    page = _render(voila_url, name)
    assert "application/vnd.jupyter.widget-view+json" in page  # the widgets are there
    _assert_no_code_or_notes(name, page)


@pytest.mark.browser
@pytest.mark.parametrize("name", [f"{folder}{lesson}" for folder in GOALS for lesson in LESSONS])
def test_every_lesson_page_as_a_student_meets_it(voila_url, browser, name):
    """Each lesson in each language, opened in Chromium: its widgets drawn with no error, none of its code and
    none of its teacher's notes; no critical, serious or moderate axe-core violation; on an Italian page, no
    common English word; nothing asked of another host (a classroom may have no internet)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(voila_url) else None)
    page.goto(f"{voila_url}/voila/render/{name}.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_timeout(1000)  # the page's script has named the sliders
    _assert_no_code_or_notes(name, html.unescape(page.content()))
    text = page.inner_text("body")
    assert not any(e in text for e in ("Error displaying widget", "Something went wrong"))
    if name.startswith("it/"):
        assert english_words(text) == [], f"English on the Italian page {name}"
    found = _audit(page, name.replace("/", "-"))
    page.close()
    _assert_clean({name: found})
    assert outside == [], f"{name} asked other hosts for {outside}"
