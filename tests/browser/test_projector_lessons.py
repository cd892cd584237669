"""The lessons on a class's projector, in headless Chromium at 1920 x 1080: ``?view=projector`` draws a lesson's
prose, widgets and figures large over the full width, in English and in Italian (``?lang=it&view=projector``), and
its widgets work as usual; axe-core audits it. Screenshots: ``tests/artifacts/projector-lesson*.png``. That every
lesson fits the board is read on the pages of the pseudo-locale, opened on the projector (test_pseudo_locale.py)."""

from __future__ import annotations

import pytest

from ..conftest import POLLING
from .axe import _assert_clean, _audit
from .projector import BOARD, LARGE, assert_on_the_board, drawn_size

pytestmark = pytest.mark.browser

#: Lesson 3: prose with formulas, the explorer's sliders and figures, exercises with hints, and the hand trainer.
LESSON = "03-one-more-card.ipynb"

HINT = {"en": "Hint", "it": "Suggerimento"}

#: Each figure's picture: its pixels across, and its width on the page in CSS pixels (the board's pixels over the
#: cells' zoom).
PICTURES_JS = """() => [...document.querySelectorAll('.dk-figure img')].map(
  image => [image.naturalWidth, image.getBoundingClientRect().width / image.currentCSSZoom])"""


def _open(context, url: str):
    page = context.new_page()
    page.set_viewport_size(BOARD)
    page.goto(url, timeout=180_000)
    return page


def _drawn(page) -> None:
    """Wait for the lesson's widgets and figures, and the page's script."""
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_selector(".dk-figure img", timeout=60_000)
    page.wait_for_timeout(1000)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_lesson_on_the_projector_is_large_works_as_usual_and_passes_axe(voila_url, context, lang):
    # the English lesson's address with ?lang=: the page in that language, on the projector still
    page = _open(context, f"{voila_url}/voila/render/{LESSON}?lang={lang}&view=projector")
    if lang == "it":
        page.wait_for_url(f"**/it/{LESSON}?lang=it&view=projector", timeout=60_000)
    _drawn(page)
    assert page.locator(".dk-projector .dk-languages").count() == 1  # the language links mark the page
    for text in (".jp-RenderedMarkdown p", ".dk-question", ".dk-lesson .widget-label", ".dk-exercise button"):
        assert drawn_size(page.locator(f"{text}:visible")) >= LARGE, text
    other = page.locator(".dk-languages a").get_attribute("href")
    assert other == {"en": f"it/{LESSON}", "it": f"../{LESSON}"}[lang] + "?view=projector"
    pictures = page.evaluate(PICTURES_JS)
    # sharp at twice the size: about twice the pixels of their width on the page (on a screen, about as many)
    assert pictures and all(pixels >= 1.5 * width for pixels, width in pictures), pictures

    # the widgets work as usual: the first exercise's hints, one a click
    exercise = page.locator(".dk-exercise").first
    exercise.scroll_into_view_if_needed()
    hint = exercise.locator("button", has_text=HINT[lang])
    for shown in (1, 2):
        hint.click()
        page.wait_for_function(
            f"document.querySelector('.dk-exercise .dk-hints') && "
            f"document.querySelector('.dk-exercise .dk-hints').children.length === {shown}",
            timeout=30_000,
            polling=POLLING,
        )
    assert drawn_size(exercise.locator(".dk-hints li")) >= LARGE
    suffix = "" if lang == "en" else "-it"
    exercise.evaluate("element => element.scrollIntoView({block: 'start'})")
    assert_on_the_board(page, f"projector-lesson-exercise{suffix}")
    page.locator(".dk-lesson").first.evaluate("element => element.scrollIntoView({block: 'start'})")  # the explorer
    assert_on_the_board(page, f"projector-lesson{suffix}")
    found = _audit(page, f"projector-lesson-{lang}")
    page.close()
    _assert_clean({lang: found})
