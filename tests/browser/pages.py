"""The pages as the browser tests open them: the Italian lessons and apps, a page opened in Chromium once its
widgets are drawn, the page as Voilà served it, and a lesson's page met as a student meets it."""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Callable, Iterable

import pytest

from dragonkit.i18n.notebooks import lessons

from ..conftest import ARTIFACTS, POLLING
from ..english import english_words
from ..notebooks import LESSONS as LESSON_NAMES
from ..notebooks import NOTEBOOKS, _assert_no_code_or_notes, _cells, _shown_code
from .axe import _assert_clean, _audit

ERROR_TEXTS = ("Error displaying widget", "Traceback", "There was an error", "Something went wrong")


LESSONS = [path.name for path in lessons(NOTEBOOKS)]


APPS = ["play.ipynb", "trainer.ipynb"]

#: The lessons with a code cell to read and run.
CODE_LESSONS = [lesson for lesson in LESSON_NAMES if _shown_code(_cells(lesson))]

#: The ``<title>`` of a few served pages, which a browser's tab, a bookmark and a screen reader say first.
TITLES = {
    "02-the-next-card": "Lesson 2 — The next card",
    "it/02-the-next-card": "Lezione 2 — La prossima carta",
}

#: The number a lesson with code to read shows as its code's result, written as the page's language writes it.
RESULTS = {"04-absorbing-chain": "t = 3{point}5366", "08-simulation": "\u22121{point}375"}


def wait_drawn(page, expression: str, log: str, timeout: float = 180_000) -> None:
    """Wait until the JavaScript ``expression`` holds on ``page`` (its widgets drawn); else fail with what the page
    shows and the warnings of the server's log ``tests/artifacts/<log>`` (a kernel culled or dead, say), which a CI
    run's report keeps when its files are gone."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(expression, timeout=timeout, polling=500)
    except PlaywrightTimeoutError:
        shown = " ".join(page.inner_text("body").split())[:400]
        path = ARTIFACTS / log
        lines = path.read_text(errors="replace").splitlines() if path.exists() else []
        signs = ("WARNING", "ERROR", "Culling '", "died")
        warnings = [line for line in lines if any(s in line for s in signs) and "is not trusted" not in line]
        pytest.fail(f"not drawn in {timeout / 1000:.0f} s; the page shows {shown!r}; {log} warns: {warnings[-8:]}")


def _open(context, url: str, selector: str = ".dk-exercise, .dk-app"):
    page = context.new_page()
    page.goto(url, timeout=180_000)
    page.wait_for_selector(selector, timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    return page


def _open_served(context, url: str, selector: str = ".dk-exercise, .dk-app"):
    """A new page of ``url`` once ``selector`` is drawn and the network is idle, and the page as Voilà served it
    (:func:`served`)."""
    page = context.new_page()
    response = page.goto(url, timeout=180_000)
    page.wait_for_selector(selector, timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    return page, served(response)


def served(response) -> str:
    """The page as Voilà served it (the response to the page's own request, its entities read): what a client without
    a browser reads, before any script ran."""
    assert response is not None and response.ok, response
    return html.unescape(response.text())


def assert_served_in_its_language(name: str, page: str, lang: str, title: str | None = None) -> None:
    """The served page ``name`` says its language in ``<html lang>`` (a screen reader reads it aloud in that
    language) and, where given, has the ``<title>`` ``title``."""
    head = page.split("</head>", 1)[0]
    assert f'<html lang="{lang}">' in head, f"{name}: not served as lang={lang!r}"
    if title is not None:
        assert re.findall(r"<title>(.*?)</title>", head, re.S)[0] == title, f"{name}: its title"


def assert_app_served(name: str, page: str) -> None:
    """An app's page as served: its widgets there, with no error, no code and no teacher's notes."""
    assert "application/vnd.jupyter.widget-view+json" in page, f"{name}: no widget served"
    _assert_no_code_or_notes(name.split(".ipynb", 1)[0], page)


def assert_no_printout(name: str, page: str) -> None:
    """A lesson's page as served, where the code is hidden: no cell's output is plain text (a printout or a repr), and
    the number of its code's result is written as the page's language writes it."""
    _assert_no_code_or_notes(name, page)
    assert 'data-mime-type="text/plain"' not in page, f"{name}: a printout on the page"
    assert "application/vnd.jupyter.stderr" not in page, f"{name}: standard error on the page"
    number = RESULTS[name.removeprefix("it/")].format(point="," if name.startswith("it/") else ".")
    escaped = number.replace("\u2212", "\\u2212")  # the minus sign as the widgets' JSON state writes it
    assert number in page or escaped in page, f"{name}: {number} not on the page"


class SharedPages:
    """The lesson pages of one module's tests, each opened once: a test that only reads a page leaves it open
    (:meth:`keep`) for a later test of the module that needs the same page, which takes it (:meth:`take`) or, run
    alone, opens its own. A page nobody will take is closed at once; the rest when the module ends.

    Parameters
    ----------
    voila_url : str
    context : playwright.sync_api.BrowserContext
        The module's pages' context (the ``context`` fixture).
    taken : iterable of str
        The pages (lessons' names, ``it/02-the-next-card``) that later tests of the module take.
    """

    def __init__(self, voila_url: str, context, taken: Iterable[str]) -> None:
        self.voila_url, self.context, self.taken = voila_url, context, set(taken)
        self.pages: dict[str, object] = {}

    def open(self, name: str, query: str = ""):
        """A new page of the lesson ``name`` (its address with ``query``) and the response to its request, once
        its exercises are drawn and the network is idle."""
        page = self.context.new_page()
        response = page.goto(f"{self.voila_url}/voila/render/{name}.ipynb{query}", timeout=180_000)
        page.wait_for_selector(".dk-exercise", timeout=180_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        return page, response

    def keep(self, name: str, page) -> None:
        """Leave ``page`` (the lesson ``name``, as a student sees it) open for a later test that takes it."""
        if name in self.taken and name not in self.pages:
            self.pages[name] = page
        else:
            page.close()

    def take(self, name: str, opened: Callable[[], object] | None = None):
        """The page of the lesson ``name`` an earlier test kept, now this test's alone; else a new one
        (``opened()``, or :meth:`open`'s)."""
        page = self.pages.pop(name, None)
        if page is not None and not page.is_closed():
            return page
        return opened() if opened is not None else self.open(name)[0]

    def close(self) -> None:
        for page in self.pages.values():
            page.close()
        self.pages.clear()


#: Whether every slider of the page has been named for screen readers by the page's script (dragonkit/style.py).
SLIDERS_NAMED_JS = "() => [...document.querySelectorAll('.widget-slider .noUi-handle')].every(h => h.ariaLabel)"


#: What a forged address asks of Voilà, by the page's language: another template (each of Voilà's others, which fetch
#: their scripts and style sheets from public CDNs) and another theme. The server lets no address choose them
#: (tests/server/test_overrides.py): a page asked so is the kit's page, and asks nothing of another host.
FORGED = {"en": "template=reveal&theme=dark", "it": "template=classic&theme=dark"}


def other_hosts(page, base: str) -> list[str]:
    """The addresses of the requests ``page`` (a page, or a browser context: all its pages) makes from now on to
    anywhere but ``base`` (filled as they are made)."""
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base) else None)
    return outside


def meet_as_a_student(pages: SharedPages, name: str) -> None:
    """Each lesson in each language, opened in Chromium: its widgets drawn with no error, none of its code and
    none of its teacher's notes; no critical, serious or moderate axe-core violation; on an Italian page, no
    common English word; nothing asked of another host (a classroom may have no internet), although its address
    asks for another template and theme (:data:`FORGED`). As served (before any script runs): in its language, the
    lessons with code to read with no printout, and a few with their title. The page is kept for the module's later
    tests (:class:`SharedPages`)."""
    voila_url = pages.voila_url
    page = pages.context.new_page()
    outside = other_hosts(page, voila_url)
    forged = FORGED["it" if name.startswith("it/") else "en"]
    response = page.goto(f"{voila_url}/voila/render/{name}.ipynb?{forged}", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    as_served = served(response)
    assert_served_in_its_language(name, as_served, "it" if name.startswith("it/") else "en", TITLES.get(name))
    if name.removeprefix("it/") in CODE_LESSONS:
        assert_no_printout(name, as_served)
    # the page's script has named the sliders (a slider it could not name is axe-core's to report, below)
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(SLIDERS_NAMED_JS, timeout=5_000, polling=POLLING)
    _assert_no_code_or_notes(name, html.unescape(page.content()))
    text = page.inner_text("body")
    assert not any(e in text for e in ("Error displaying widget", "Something went wrong"))
    hidden = page.add_style_tag(content="pre, code { display: none !important; }")  # code reads alike in any language
    text = page.inner_text("body")
    hidden.evaluate("style => style.remove()")
    if name.startswith("it/"):
        assert english_words(text) == [], f"English on the Italian page {name}: {english_words(text)}"
    found = _audit(page, name.replace("/", "-"))
    pages.keep(name, page)
    _assert_clean({name: found})
    assert outside == [], f"{name} asked other hosts for {outside}"


#: What a learner reads on a lesson's page, by the page's language.
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

#: The lessons whose widgets :func:`a_lesson_in_chromium` works, in each language.
WORKED = ["02-the-next-card", "05-optimal-stopping"]


def _body(page) -> str:
    return page.evaluate("document.body.innerHTML")


def a_lesson_in_chromium(pages: SharedPages, lesson: str, lang: str):
    """A lesson as a student works it, in its language: widgets and pictures, no code, no solutions; a slider that
    redraws what depends on it, an exercise judged and hinted, the language links to the same lesson in the other
    language. Returns the page (the module's :class:`SharedPages` one where an earlier test kept it)."""
    words = WORDS[lang]
    name = f"{words['folder']}{lesson}"
    page = pages.take(name)
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
    page.wait_for_function("before => document.body.innerHTML !== before", arg=before, timeout=30_000, polling=POLLING)

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
    return page
