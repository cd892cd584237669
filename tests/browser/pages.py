"""The Italian pages as the browser tests open them: the lessons and the apps, and a page opened in Chromium
once its widgets are drawn."""

from __future__ import annotations

from dragonkit.i18n.notebooks import lessons

from ..notebooks import NOTEBOOKS

ERROR_TEXTS = ("Error displaying widget", "Traceback", "There was an error", "Something went wrong")


LESSONS = [path.name for path in lessons(NOTEBOOKS)]


APPS = ["play.ipynb", "trainer.ipynb"]


def _open(browser, url: str, selector: str = ".dk-exercise, .dk-app"):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url, timeout=180_000)
    page.wait_for_selector(selector, timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    return page
