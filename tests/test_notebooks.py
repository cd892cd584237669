"""The notebooks as a teacher receives them, in English and in Italian: the lessons' shape, clean files, and
every notebook rendered by Voilà with no error, no code and no teacher's notes; each lesson's page opened in
Chromium also passes axe-core and, in Italian, shows no English sentence.
(nbval runs each notebook, ``notebooks/it/`` included, top to bottom in the same test command.)"""

from __future__ import annotations

import html
import json
import re
import urllib.request
from pathlib import Path

import pytest

from .test_a11y import _assert_clean, _audit
from .test_lessons_i18n import english_words

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"
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
