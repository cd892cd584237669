"""The pages as the browser tests open them: the Italian lessons and apps, a page opened in Chromium once its
widgets are drawn, and a lesson's page met as a student meets it."""

from __future__ import annotations

import html

from dragonkit.i18n.notebooks import lessons

from ..english import english_words
from ..notebooks import NOTEBOOKS, _assert_no_code_or_notes
from .axe import _assert_clean, _audit

ERROR_TEXTS = ("Error displaying widget", "Traceback", "There was an error", "Something went wrong")


LESSONS = [path.name for path in lessons(NOTEBOOKS)]


APPS = ["play.ipynb", "trainer.ipynb"]


def _open(browser, url: str, selector: str = ".dk-exercise, .dk-app"):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url, timeout=180_000)
    page.wait_for_selector(selector, timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    return page


def meet_as_a_student(voila_url, browser, name: str) -> None:
    """Each lesson in each language, opened in Chromium: its widgets drawn with no error, none of its code and
    none of its teacher's notes; no critical, serious or moderate axe-core violation; on an Italian page, no
    common English word; nothing asked of another host (a classroom may have no internet)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(voila_url) else None)
    page.goto(f"{voila_url}/voila/render/{name}.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_timeout(1000)  # the page's script has named the sliders
    _assert_no_code_or_notes(name, html.unescape(page.content()))
    text = page.inner_text("body")
    assert not any(e in text for e in ("Error displaying widget", "Something went wrong"))
    hidden = page.add_style_tag(content="pre, code { display: none !important; }")  # code reads alike in any language
    text = page.inner_text("body")
    hidden.evaluate("style => style.remove()")
    if name.startswith("it/"):
        assert english_words(text) == [], f"English on the Italian page {name}: {english_words(text)}"
    found = _audit(page, name.replace("/", "-"))
    page.close()
    _assert_clean({name: found})
    assert outside == [], f"{name} asked other hosts for {outside}"
