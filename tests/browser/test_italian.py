"""The Italian pages in Voilà and headless Chromium, as an Italian class meets them: the apps opened with
``?lang=it`` show no English sentence and are served in Italian, with their title, their widgets and no code (the
lessons are checked in test_lesson_pages_italian.py, an answer typed with a decimal comma too); ``?lang=it`` and the
language links lead to the Italian lesson."""

from __future__ import annotations

import pytest

from ..conftest import POLLING
from ..english import english_words
from ..record_server import Client
from .pages import ERROR_TEXTS, _open, _open_served, assert_app_served, assert_served_in_its_language

pytestmark = pytest.mark.browser


#: The apps opened with ?lang=it, and their titles (the ten Italian lessons are checked with the other checks of a
#: lesson's page, in tests/browser/test_lesson_pages_italian.py).
PAGES = {
    "trainer.ipynb?lang=it": "Dragon Stripes — allenamento sulle mani",
    "play.ipynb?lang=it": "Dragon Stripes — gioca",
}


@pytest.mark.parametrize("path", PAGES)
def test_an_italian_page_has_no_english_sentence(voila_url, context, path):
    page, as_served = _open_served(context, f"{voila_url}/voila/render/{path}")
    # as served: an app's page in its visitor's language (the tab, a bookmark, what a screen reader says first)
    assert_served_in_its_language(path, as_served, "it", PAGES[path])
    assert_app_served(path, as_served)
    text = page.inner_text("body")
    assert not any(e in text for e in ERROR_TEXTS)
    assert "import " not in text and "Exercise(" not in text and "Note per l'insegnante" not in text
    assert english_words(text) == [], f"English on the Italian page {path}"
    assert page.evaluate("document.querySelector('.dk-language') !== null")
    # a screen reader speaks Italian here (the play app's page was run ahead, in English, by a preheated kernel)
    page.wait_for_function("document.documentElement.lang === 'it'", timeout=10_000, polling=POLLING)
    if path.startswith("play"):  # and English once the app's switch says so
        page.locator(".dk-language button", has_text="English").click()
        page.wait_for_function("document.documentElement.lang === 'en'", timeout=30_000, polling=POLLING)
    page.close()


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize(
    ("asked", "served"),
    [
        ("03-one-more-card.ipynb?lang=it", "it/03-one-more-card.ipynb?lang=it"),
        ("it/03-one-more-card.ipynb?lang=en&view=projector", "03-one-more-card.ipynb?lang=en&view=projector"),
        ("glossary.ipynb?lang=it", "it/glossary.ipynb?lang=it"),
    ],
)
def test_a_page_asked_in_the_other_language_is_sent_there_before_any_kernel(voila_url, method, asked, served):
    """The server sends the browser to the page written in the language asked for, with the address's query, before
    it starts a kernel (the English lesson's kernel once ran the lesson until its page sent the browser on, and
    its page's websocket then met a kernel shut down: a traceback in the server's log)."""
    status, headers, _ = Client().request(method, f"{voila_url}/voila/render/{asked}")
    assert (status, headers["Location"]) == (302, f"/voila/render/{served}")


def test_lang_it_and_the_language_links_lead_to_the_lesson_in_each_language(voila_url, context):
    """``?lang=it`` on an English lesson leads to the Italian one, whose English link leads back to the English
    lesson (as the browser resolves it; a click on a language link is followed in
    test_lesson_pages.py::test_lesson_1_shows_one_language_switch)."""
    page = _open(context, f"{voila_url}/voila/render/03-one-more-card.ipynb?lang=it")
    page.wait_for_url("**/it/03-one-more-card.ipynb?lang=it", timeout=60_000)
    assert "Lezione 3" in page.inner_text("h1")
    english = page.locator(".dk-languages a[hreflang=en]")
    assert english.inner_text() == "English"
    assert english.evaluate("a => a.href") == f"{voila_url}/voila/render/03-one-more-card.ipynb"
    page.close()
