"""The Italian pages in Voilà and headless Chromium, as an Italian class meets them: the apps opened with
``?lang=it`` show no English sentence (the lessons are checked in test_lesson_pages.py); answers typed with a decimal
comma; ``?lang=it`` and the language links lead to the Italian lesson."""

from __future__ import annotations

import pytest

from ..english import english_words
from .pages import ERROR_TEXTS, _open

pytestmark = pytest.mark.browser


#: The apps opened with ?lang=it (the ten Italian lessons are checked with the other checks of a lesson's page, in
#: tests/browser/test_lesson_pages.py).
PAGES = ["trainer.ipynb?lang=it", "play.ipynb?lang=it"]


@pytest.mark.parametrize("path", PAGES)
def test_an_italian_page_has_no_english_sentence(voila_url, browser, path):
    page = _open(browser, f"{voila_url}/voila/render/{path}")
    text = page.inner_text("body")
    assert not any(e in text for e in ERROR_TEXTS)
    assert "import " not in text and "Exercise(" not in text and "Note per l'insegnante" not in text
    assert english_words(text) == [], f"English on the Italian page {path}"
    assert page.evaluate("document.querySelector('.dk-language') !== null")
    # a screen reader speaks Italian here (the play app's page was run ahead, in English, by a preheated kernel)
    page.wait_for_function("document.documentElement.lang === 'it'", timeout=10_000)
    if path.startswith("play"):  # and English once the app's switch says so
        page.locator(".dk-language button", has_text="English").click()
        page.wait_for_function("document.documentElement.lang === 'en'", timeout=30_000)
    page.close()


def test_an_italian_exercise_takes_a_decimal_comma_and_explains_a_decimal_point(voila_url, browser):
    page = _open(browser, f"{voila_url}/voila/render/it/08-simulation.ipynb")
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


def test_lang_it_and_the_language_links_lead_to_the_lesson_in_each_language(voila_url, browser):
    page = _open(browser, f"{voila_url}/voila/render/03-one-more-card.ipynb?lang=it")
    page.wait_for_url("**/it/03-one-more-card.ipynb?lang=it", timeout=60_000)
    assert "Lezione 3" in page.inner_text("h1")
    page.locator(".dk-languages a[hreflang=en]").click()
    page.wait_for_url("**/voila/render/03-one-more-card.ipynb", timeout=60_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    assert "Lesson 3" in page.inner_text("h1")
    page.close()
