"""No visible text of the apps or of a lesson escapes the catalogs: every page served in a pseudo-locale, whose every
message is marked, and read in Chromium. The lessons are read as a class's projector shows them (``?view=projector``,
1920 x 1080), and every lesson fits the board there: its prose large, nothing beyond the board's width or hidden in a
box too narrow for it, with every message a little longer than the English (its markers), as a pseudo-locale is meant
to show. Screenshots: ``tests/artifacts/projector-<lesson>.png``."""

from __future__ import annotations

import json
import re

import pytest

from .. import catalogs
from ..conftest import voila_server
from ..notebooks import NOTEBOOKS
from .pages import APPS, ERROR_TEXTS, LESSONS
from .projector import BOARD, LARGE, assert_on_the_board, drawn_size

pytestmark = pytest.mark.browser


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


@pytest.mark.parametrize("name", [*APPS, *LESSONS])
def test_no_visible_text_of_the_apps_or_a_lesson_escapes_the_catalogs(pseudo_url, context, name):
    """An app as a student opens it; a lesson on the projector, where it also fits the board (the English and Italian
    lesson 3 on the projector, widgets worked: tests/browser/test_projector_lessons.py)."""
    lesson = name in LESSONS
    page = context.new_page()
    if lesson:
        page.set_viewport_size(BOARD)
    page.goto(f"{pseudo_url}/voila/render/{name}{'?view=projector' if lesson else ''}", timeout=180_000)
    page.wait_for_selector(".dk-exercise, .dk-app", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    text = page.inner_text("body")
    assert not any(e in text for e in ERROR_TEXTS)
    escaped = _unmarked(text)
    assert escaped == [], f"{name}: words outside the catalogs: {escaped}"
    if lesson:
        assert page.locator(".dk-projector").count() >= 1, f"{name}: not drawn for the projector"
        assert drawn_size(page.locator(".jp-RenderedMarkdown p")) >= LARGE
        assert_on_the_board(page, f"projector-{name.removesuffix('.ipynb')}")
    page.close()
