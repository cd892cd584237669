"""Each English lesson's page opened in Chromium, once, as a student meets it: no code or notes, axe-core passes, and
as served no printout and its language (the Italian pages: test_lesson_pages_italian.py, a module of their own so
that each runs on a worker of its own). Then, on the same pages, lessons 2 and 5 worked as a student works them, and
lesson 1's one language switch."""

from __future__ import annotations

import pytest

from ..notebooks import LESSONS
from .pages import WORKED, SharedPages, a_lesson_in_chromium, meet_as_a_student

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lesson_pages(voila_url, context):
    """The lesson pages this module's tests share (:class:`~.pages.SharedPages`): the first test meets each page, the
    later ones work on the ones they need."""
    pages = SharedPages(voila_url, context, taken=[*WORKED, "01-play-and-observe"])
    yield pages
    pages.close()


@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_page_as_a_student_meets_it(lesson_pages, name):
    """Each English lesson as a student meets it (:func:`~.pages.meet_as_a_student`)."""
    meet_as_a_student(lesson_pages, name)


@pytest.mark.parametrize("lesson", WORKED)
def test_a_lesson_in_chromium(lesson_pages, lesson):
    """Widgets and pictures, no code, no solutions; an exercise judged and hinted; a slider that redraws; the language
    links (:func:`~.pages.a_lesson_in_chromium`)."""
    a_lesson_in_chromium(lesson_pages, lesson, "en").close()


def test_lesson_1_shows_one_language_switch(lesson_pages):
    """The lesson's own language links, and the play app embedded without its own switch."""
    page = lesson_pages.take("01-play-and-observe")
    page.wait_for_selector("text=Start the game", timeout=180_000)
    page.wait_for_selector(".dk-languages", timeout=60_000)
    page.wait_for_timeout(3000)  # every output of the page drawn
    assert page.locator(".dk-languages").count() == 1 and page.locator(".dk-language").count() == 0
    page.click(".dk-languages a:has-text('Italiano')")
    page.wait_for_selector("text=Inizia la partita", timeout=180_000)  # the Italian lesson, its app in Italian
    page.close()
