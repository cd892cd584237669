"""The glossary's page in Chromium, in both languages: every term shown, axe-core clean, no English on the Italian
page but the English words it gives on purpose (marked ``lang="en"``), and reached from a lesson's link."""

from __future__ import annotations

import pytest

from dragonkit.teach.glossary import TERMS

from ..english import english_words
from .axe import _assert_clean, _audit

#: Hides the elements in another language than the page's (the glossary's column of the other language's words).
_HIDE_OTHER_LANGUAGES = """() => document.querySelectorAll('[lang]:not(html)').forEach(e => {
    if (e.lang !== document.documentElement.lang) e.style.display = 'none';
})"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_glossary_page_shows_every_term_and_passes_axe(voila_url, browser, lang):
    folder = "" if lang == "en" else "it/"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/{folder}glossary.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-glossary", timeout=180_000)
    page.wait_for_selector(".dk-languages", timeout=180_000)  # the language links' widget drawn: the page's layout
    page.wait_for_load_state("networkidle", timeout=60_000)
    terms = page.locator(".dk-glossary dfn").all_inner_texts()
    assert sorted(terms) == sorted(t.words[lang] for t in TERMS)
    assert page.locator("html").get_attribute("lang") == lang
    if lang == "it":
        assert page.title().startswith("Glossario")
        page.evaluate(_HIDE_OTHER_LANGUAGES)
        assert english_words(page.inner_text("body")) == []
        page.reload()
        page.wait_for_selector(".dk-glossary", timeout=180_000)
        page.wait_for_selector(".dk-languages", timeout=180_000)
    found = _audit(page, f"glossary-{lang}")
    page.close()
    _assert_clean({f"glossary-{lang}": found})


@pytest.mark.browser
def test_a_lessons_glossary_link_opens_the_glossary_in_its_language(voila_url, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/it/02-the-next-card.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.get_by_role("link", name="Glossario").click()
    page.wait_for_selector(".dk-glossary", timeout=180_000)
    assert page.url.endswith("/it/glossary.ipynb")
    assert "ipergeometrica" in page.inner_text("body")
    page.close()
