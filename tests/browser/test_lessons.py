"""End to end: lessons in Voilà and headless Chromium, in English and in Italian, as a student meets them —
widgets and pictures, no code, no solutions; an exercise judged and hinted; a slider that redraws; the language
links, one switch on lesson 1 with the play app embedded."""

from __future__ import annotations

import pytest

from ..conftest import ARTIFACTS

pytestmark = pytest.mark.browser


ERROR_TEXTS = ("Error displaying widget", "Traceback", "There was an error", "Something went wrong")


def _body(page) -> str:
    return page.evaluate("document.body.innerHTML")


#: What a learner reads on the page, by the page's language.
WORDS = {
    "en": {"folder": "", "notes": "Teacher's notes", "high": "too high", "hint": "Hint", "other": "Italiano"},
    "it": {
        "folder": "it/",
        "notes": "Note per l'insegnante",
        "high": "troppo alta",
        "hint": "Suggerimento",
        "other": "English",
    },
}


@pytest.mark.parametrize("lang", WORDS)
@pytest.mark.parametrize("lesson", ["02-the-next-card", "05-optimal-stopping"])
def test_a_lesson_in_chromium(voila_url, browser, lesson, lang):
    words = WORDS[lang]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/{words['folder']}{lesson}.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    text = page.inner_text("body")
    assert not any(e in text for e in ERROR_TEXTS)
    assert "import " not in text and "Exercise(" not in text  # no code
    assert words["notes"] not in text  # no solutions
    assert page.locator(".dk-exercise").count() >= 3
    assert page.locator("img, svg").count() >= 1  # pictures
    page.screenshot(path=str(ARTIFACTS / f"{lesson}-{lang}.png"), full_page=True)

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
    exercise.locator(".dk-message", has_text=words["high"]).wait_for(timeout=30_000)
    hint = exercise.locator("button", has_text=words["hint"])
    if hint.is_visible():
        hint.click()
        exercise.locator(".dk-hints li").first.wait_for(timeout=30_000)
    assert not any(e in page.inner_text("body") for e in ERROR_TEXTS)

    # the language links lead to the same lesson in the other language
    link = page.locator(".dk-languages a", has_text=words["other"])
    assert link.count() == 1 and page.locator(".dk-languages [aria-current=page]").count() == 1
    page.close()


def test_lesson_1_shows_one_language_switch(voila_url, browser):
    """The lesson's own language links, and the play app embedded without its own switch."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/01-play-and-observe.ipynb", timeout=180_000)
    page.wait_for_selector("text=Start the game", timeout=180_000)
    page.wait_for_selector(".dk-languages", timeout=60_000)
    page.wait_for_timeout(3000)  # every output of the page drawn
    assert page.locator(".dk-languages").count() == 1 and page.locator(".dk-language").count() == 0
    page.click(".dk-languages a:has-text('Italiano')")
    page.wait_for_selector("text=Inizia la partita", timeout=180_000)  # the Italian lesson, its app in Italian
    page.close()
