"""The Italian pages in Voilà and headless Chromium, as an Italian class meets them: the apps opened with
``?lang=it`` show no English sentence (the lessons are checked in tests/test_notebooks.py); answers typed with a
decimal comma; ``?lang=it`` and the language links lead to the Italian lesson; and, with a pseudo-locale that wraps
every message in markers, no visible text of the trainer or of any lesson escapes the catalogs, nor any of the play
app's first page."""

from __future__ import annotations

import json
import re

import pytest

from dragonkit.i18n.notebooks import lessons

from .. import catalogs
from ..conftest import voila_server
from ..i18n.test_notebooks import NOTEBOOKS, english_words

pytestmark = pytest.mark.browser

ERROR_TEXTS = ("Error displaying widget", "Traceback", "There was an error", "Something went wrong")
LESSONS = [path.name for path in lessons(NOTEBOOKS)]
APPS = ["play.ipynb", "trainer.ipynb"]
#: The apps opened with ?lang=it (the ten Italian lessons are checked with the other checks of a lesson's page, in
#: tests/test_notebooks.py).
PAGES = ["trainer.ipynb?lang=it", "play.ipynb?lang=it"]


def _open(browser, url: str, selector: str = ".dk-exercise, .dk-app"):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url, timeout=180_000)
    page.wait_for_selector(selector, timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    return page


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


# -- the pseudo-locale ---------------------------------------------------------------------------------------------

#: Names shown that are not messages: the languages', the editions' (with the title of the German Kali), the players'
#: in the lessons' situations; and the names of the matrices in lesson 4's buttons.
NOT_MESSAGES = ("English", "Italiano", "Pseudo", "Die Augen der Kali", "Drago Rosso", "Dragon Stripes", "PQRNtBBr")
NAMES = {"Alex", "Ada", "Bea", "Cy", "Dan", "Tess", "Randi", "Blaise", "Kali", "mini", "kali"}
#: What lesson 8's code prints (a pandas table's column, a boolean): code, the same in every language.
CODE = {"estimate", "True"}

#: The first cell of a pseudo-locale page: the kernel learns the pseudo-locale (a test's language, not the kit's).
SETUP = """import pathlib
from dragonkit import i18n
i18n.LANGUAGES["qps"] = "Pseudo"
i18n.LOCALE_DIR = pathlib.Path({locales!r})
i18n.catalog.cache_clear()
i18n.set_language("qps")"""


def _cell(source: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


@pytest.fixture(scope="module")
def pseudo_url(tmp_path_factory):
    """A Voilà server over the lessons and the trainer written in the pseudo-locale."""
    from dragonkit import i18n
    from dragonkit.i18n.notebooks import translate_notebook

    folder = tmp_path_factory.mktemp("pseudo")
    locales = folder / "locales"
    with pytest.MonkeyPatch.context() as monkeypatch:
        catalogs.install_pseudo_locale(locales, monkeypatch)
        try:
            for name in LESSONS:
                english = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
                notebook = translate_notebook(english, catalogs.PSEUDO)
                notebook["cells"].insert(0, _cell(SETUP.format(locales=str(locales))))
                (folder / name).write_text(json.dumps(notebook), encoding="utf-8")
        finally:
            i18n.catalog.cache_clear()
    for app in APPS:
        notebook = json.loads((NOTEBOOKS / app).read_text(encoding="utf-8"))
        notebook["cells"].insert(0, _cell(SETUP.format(locales=str(locales))))
        (folder / app).write_text(json.dumps(notebook), encoding="utf-8")
    # no pool: a page whose first cell sets the language, run ahead by a preheated kernel, comes up in English
    # (noticed, not yet understood; the real pages take their language from ?lang= or the server's, and do)
    with voila_server(folder, "voila-pseudo.log", pool=0) as url:
        yield url


def _unmarked(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo-locale's markers (nested markers: a field inside a message), names,
    code (``scipy.stats.hypergeom``, ``expected_gain``) and editions (``dragon-stripes``) aside."""
    text = re.sub(r"\s+", " ", text)
    for name in NOT_MESSAGES:
        text = text.replace(name, " ")
    text = re.sub(r"[A-Za-z]²", " ", text)  # maths: E[X²]
    while True:
        inner = re.sub(rf"{catalogs.OPEN}[^{catalogs.OPEN}{catalogs.CLOSE}]*{catalogs.CLOSE}", " ", text)
        if inner == text:
            text = re.sub(r"[\w.]*[._-][\w.-]*", " ", text)  # identifiers and edition names
            return sorted(set(re.findall(r"[^\W\d_]{2,}", text)) - NAMES - CODE)
        text = inner


@pytest.mark.xdist_group("pseudo-locale")  # with -n: one worker, one server of the pseudo-locale pages
@pytest.mark.parametrize("name", [*APPS, *LESSONS])
def test_no_visible_text_of_the_apps_or_a_lesson_escapes_the_catalogs(pseudo_url, browser, name):
    page = _open(browser, f"{pseudo_url}/voila/render/{name}")
    text = page.inner_text("body")
    assert not any(e in text for e in ERROR_TEXTS)
    escaped = _unmarked(text)
    assert escaped == [], f"{name}: words outside the catalogs: {escaped}"
    page.close()
