"""Every notebook rendered by Voilà with no error, no code and no teacher's notes, its title in its
language (the pages read as served, without a browser)."""

from __future__ import annotations

import html
import re
import urllib.request

import pytest

from ..notebooks import APPS, GOALS, LESSONS, _assert_no_code_or_notes, _cells, _shown_code

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
    number = {"04-absorbing-chain": f"t = 3{point}5366", "08-simulation": f"\u22121{point}375"}[
        name.removeprefix("it/")
    ]
    escaped = number.replace("\u2212", "\\u2212")  # the minus sign as the widgets' JSON state writes it
    assert number in page or escaped in page, f"{name}: {number} not on the page"


def _render(voila_url: str, name: str) -> str:
    with urllib.request.urlopen(f"{voila_url}/voila/render/{name}.ipynb", timeout=180) as response:
        return html.unescape(response.read().decode("utf-8"))


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
