"""End to end: two lessons in Voilà and headless Chromium, as a student meets them —
widgets and pictures, no code, no solutions; an exercise judged and hinted; a
slider that redraws; the switch to Italian."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser

ERROR_TEXTS = ("Error displaying widget", "Traceback", "There was an error", "Something went wrong")


def _body(page) -> str:
    return page.evaluate("document.body.innerHTML")


@pytest.mark.parametrize("lesson", ["02-the-next-card", "05-optimal-stopping"])
def test_a_lesson_in_chromium(voila_url, browser, lesson):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/{lesson}.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    text = page.inner_text("body")
    assert not any(e in text for e in ERROR_TEXTS)
    assert "import " not in text and "Exercise(" not in text  # no code
    assert "Teacher's notes" not in text  # no solutions
    assert page.locator(".dk-exercise").count() >= 3
    assert page.locator("img, svg").count() >= 1  # pictures
    page.screenshot(path=str(ARTIFACTS / f"{lesson}.png"), full_page=True)

    # a slider redraws what depends on it
    handle = page.locator(".noUi-handle").first
    before = _body(page)
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("before => document.body.innerHTML !== before", arg=before, timeout=30_000)

    # an exercise is judged, and a hint shown
    exercise = page.locator(".dk-exercise:has(input[type=text])").first
    exercise.scroll_into_view_if_needed()
    box = exercise.locator("input[type=text]")
    box.fill("999999")
    box.press("Enter")
    exercise.locator(".dk-message", has_text="too high").wait_for(timeout=30_000)
    hint = exercise.locator("button", has_text="Hint")
    if hint.is_visible():
        hint.click()
        exercise.locator(".dk-hints li").first.wait_for(timeout=30_000)

    # the whole page switches to Italian, the feedback included
    page.locator("button", has_text="Italiano").first.click()
    exercise.locator("button", has_text="Verifica").wait_for(timeout=30_000)
    exercise.locator(".dk-message", has_text="troppo alta").wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / f"{lesson}-it.png"), full_page=True)
    assert not any(e in page.inner_text("body") for e in ERROR_TEXTS)
    page.close()
