"""Each Italian lesson's page opened in Chromium, once, as a student meets it: no code or notes, axe-core passes, no
English sentence, and as served no printout and its language (the English pages: test_lesson_pages.py). Then, on the
same pages, lessons 2 and 5 worked as a student works them, an answer typed with a decimal comma, and lesson 2's link
to the glossary."""

from __future__ import annotations

import pytest

from ..notebooks import LESSONS
from .pages import WORKED, SharedPages, a_lesson_in_chromium, meet_as_a_student

pytestmark = pytest.mark.browser

#: The Italian lesson whose glossary link is followed: lesson 2's page, once it has been worked.
LINKED = "02-the-next-card"


@pytest.fixture(scope="module")
def lesson_pages(voila_url, context):
    """The lesson pages this module's tests share (:class:`~.pages.SharedPages`): the first test meets each page, the
    later ones work on the ones they need."""
    pages = SharedPages(voila_url, context, taken=[*(f"it/{lesson}" for lesson in WORKED), "it/08-simulation"])
    assert LINKED in WORKED
    yield pages
    pages.close()


@pytest.mark.parametrize("name", [f"it/{lesson}" for lesson in LESSONS])
def test_every_lesson_page_as_a_student_meets_it(lesson_pages, name):
    """Each Italian lesson as a student meets it (:func:`~.pages.meet_as_a_student`)."""
    meet_as_a_student(lesson_pages, name)


@pytest.mark.parametrize("lesson", WORKED)
def test_a_lesson_in_chromium(lesson_pages, lesson):
    """Widgets and pictures, no code, no solutions; an exercise judged and hinted; a slider that redraws; the language
    links (:func:`~.pages.a_lesson_in_chromium`); lesson 2's page is kept for its glossary link."""
    page = a_lesson_in_chromium(lesson_pages, lesson, "it")
    if lesson == LINKED:
        lesson_pages.keep(f"it/{lesson}", page)
    else:
        page.close()


def test_an_italian_exercise_takes_a_decimal_comma_and_explains_a_decimal_point(lesson_pages):
    page = lesson_pages.take("it/08-simulation")
    exercise = page.locator(".dk-exercise:has(input[type=text])").first  # the standard error: 12/20 gems
    exercise.scroll_into_view_if_needed()
    box = exercise.locator("input[type=text]")
    assert box.get_attribute("placeholder") == "es. 13/47; 0,277; 27,7%"
    box.fill("0.6")
    box.press("Enter")
    exercise.locator(".dk-message", has_text="intendevi 0,6?").wait_for(timeout=30_000)
    box.fill("0,6")
    box.press("Enter")
    exercise.locator(".dk-message", has_text="Giusto").wait_for(timeout=30_000)
    page.close()


def test_a_lessons_glossary_link_opens_the_glossary_in_its_language(lesson_pages):
    page = lesson_pages.take(f"it/{LINKED}")
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.get_by_role("link", name="Glossario").click()
    page.wait_for_selector(".dk-glossary", timeout=180_000)
    assert page.url.endswith("/it/glossary.ipynb")
    assert "ipergeometrica" in page.inner_text("body")
    page.close()
