"""The glossary's page in Chromium, in both languages: every term shown, axe-core clean, and no English on the Italian
page but the English words it gives on purpose (marked ``lang="en"``). (Reached from a lesson's link: in
test_lesson_pages_italian.py, from the lesson's page that module opens.)"""

from __future__ import annotations

import pytest

from dragonkit.teach.glossary import TERMS

from ..english import english_words
from .axe import _assert_clean, _audit
from .pages import FORGED, other_hosts

#: Hides the elements in another language than the page's, ``{lang}`` (the glossary's column of the other language's
#: words), while the style sheet is on the page.
_HIDE_OTHER_LANGUAGES = '[lang]:not(html):not([lang="{lang}"]) {{ display: none !important; }}'


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_glossary_page_shows_every_term_and_passes_axe(voila_url, context, lang):
    folder = "" if lang == "en" else "it/"
    page = context.new_page()
    outside = other_hosts(page, voila_url)  # asked with another template and theme: the kit's page all the same
    page.goto(f"{voila_url}/voila/render/{folder}glossary.ipynb?{FORGED[lang]}", timeout=180_000)
    page.wait_for_selector(".dk-glossary", timeout=180_000)
    page.wait_for_selector(".dk-languages", timeout=180_000)  # the language links' widget drawn: the page's layout
    page.wait_for_load_state("networkidle", timeout=60_000)
    terms = page.locator(".dk-glossary dfn").all_inner_texts()
    assert sorted(terms) == sorted(t.words[lang] for t in TERMS)
    assert page.locator("html").get_attribute("lang") == lang
    if lang == "it":
        assert page.title().startswith("Glossario")
        hidden = page.add_style_tag(content=_HIDE_OTHER_LANGUAGES.format(lang=lang))
        assert english_words(page.inner_text("body")) == []
        hidden.evaluate("style => style.remove()")  # the page as it was, for axe-core
    found = _audit(page, f"glossary-{lang}")
    page.close()
    _assert_clean({f"glossary-{lang}": found})
    assert outside == [], outside
