"""The teacher's dashboard served by Voilà over a record that a simulated class of 40 filled, in Chromium: its five
sections with headings, tables and figures, in English and in Italian; axe-core finds nothing blocking; the edition
and stage are chosen with the keyboard; rows written while the page is open arrive and are announced. The students'
pages still open beat while the tests run, as they would in class. Screenshots:
``tests/artifacts/dashboard-en.png`` and ``dashboard-it.png``."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from dragonkit.cli import notebooks_dir
from dragonkit.record import holds
from dragonkit.record.schema import Visit
from dragonkit.record.session import HEARTBEAT
from dragonkit.record.store import connect
from dragonkit.topics.sample_class import sample_class, write_sample

from ..conftest import ARTIFACTS, POLLING, _worker_log, voila_server
from ..english import english_words
from .axe import _assert_clean, _audit
from .pages import ERROR_TEXTS, FORGED, SharedPages, other_hosts, wait_drawn

pytestmark = pytest.mark.browser

CLASS = "3B"
KEY = "teachers-key-dashboard"

HEADINGS = {
    "en": [
        "Teacher's dashboard",
        "Who is playing now",
        "Rooms",
        "Decisions over the optimal policy",
        "Expected gems given up",
        "Win rate against the bots",
        "Exercises",
        "Nicknames",
    ],
    "it": [
        "Pannello dell'insegnante",
        "Chi sta giocando adesso",
        "Stanze",
        "Le decisioni sulla politica ottima",
        "Gemme attese perse",
        "Percentuale di vittorie contro i bot",
        "Esercizi",
        "Soprannomi",
    ],
}


#: The nicknames' table: its caption, and its rows (Ada held since two hours, Bruno released an hour ago).
CAPTIONS = {"en": "The nicknames of the class", "it": "I soprannomi della classe"}
_EN, _IT = r"\w{3} \d+, \d+:\d\d [AP]M", r"\d+ \w{3}, \d\d:\d\d"  # a moment as each language writes it
RELEASES = {
    "en": re.compile(rf"Ada held since {_EN} never Bruno free {_EN} \(1 release\)"),
    "it": re.compile(rf"Ada in uso dal {_IT} mai Bruno libero {_IT} \(1 volta\)"),
}


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A record that a simulated class of 40 filled, its last rows just now (some students still playing); two
    browsers joined it, and the teacher released one of the two nicknames an hour ago."""
    url = f"sqlite:///{tmp_path_factory.mktemp('dashboard') / 'record.sqlite'}"
    engine = connect(url)
    now = datetime.now(UTC).replace(tzinfo=None)
    write_sample(engine, sample_class(students=40, class_name=CLASS), end=now)
    for nickname in ("Ada", "Bruno"):
        holds.take(engine, CLASS, nickname, now - timedelta(hours=2))
    holds.release(engine, CLASS, "Bruno", now - timedelta(hours=1))
    engine.dispose()
    return url


@pytest.fixture(scope="module")
def open_pages(record):
    """The students' pages still open at the sample's end beat every :data:`HEARTBEAT` seconds while the module's
    tests run, as they do in class: without it, "Who is playing now" emptied a minute after the sample was written,
    and a slow machine reached the Italian page later than that."""
    engine = connect(record)
    with engine.connect() as connection:
        latest = connection.execute(select(func.max(Visit.last_seen))).scalar_one()
        ids = connection.execute(select(Visit.id).where(Visit.last_seen == latest)).scalars().all()
    assert ids, "the sample has no page open at its end"
    stop = threading.Event()

    def beat() -> None:
        while True:
            with engine.begin() as connection:
                now = datetime.now(UTC).replace(tzinfo=None)
                connection.execute(update(Visit).where(Visit.id.in_(ids)).values(last_seen=now))
            if stop.wait(HEARTBEAT):
                return

    beating = threading.Thread(target=beat, daemon=True)
    beating.start()
    yield ids
    stop.set()
    beating.join()
    engine.dispose()


@pytest.fixture(scope="module")
def dashboard_url(record, open_pages):
    """The dashboard's address on a Voilà server that keeps ``record`` for the class 3B, as ``dragonkit serve`` does
    (with the teacher's key: the server sets its cookie, and sends the browser on without it)."""
    # no pool: the play app's preheated kernels would wait for pages these tests never open
    options = {"record": record, "class_name": CLASS, "teacher_key": KEY, "pool": 0}
    with voila_server(notebooks_dir(), _worker_log("voila-dashboard.log"), **options) as url:
        yield f"{url}/voila/render/dashboard.ipynb?key={KEY}"


@pytest.fixture(scope="module")
def no_record_url():
    """The dashboard's address (with the teacher's key) on a Voilà server that keeps no record."""
    with voila_server(notebooks_dir(), _worker_log("voila-no-record.log"), teacher_key=KEY, pool=0) as url:
        yield f"{url}/voila/render/dashboard.ipynb?key={KEY}"


@pytest.fixture(scope="module")
def dashboards(dashboard_url, context):
    """The English dashboard's page, met by the first test and then worked with the keyboard by a later one
    (:class:`~.pages.SharedPages`)."""
    pages = SharedPages(dashboard_url, context, taken=["en"])
    yield pages
    pages.close()


def _open(context, url: str):
    page = context.new_page()
    page.goto(url, timeout=180_000)
    wait_drawn(page, "document.querySelectorAll('.dk-dashboard h2').length == 7", _worker_log("voila-dashboard.log"))
    page.wait_for_selector(".dk-dashboard .dk-figure img >> nth=1", timeout=60_000)  # the record read, both figures
    page.wait_for_load_state("networkidle", timeout=60_000)
    return page


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_dashboard_shows_the_class_in_its_sections_and_passes_axe(dashboard_url, context, dashboards, lang):
    outside = other_hosts(context, dashboard_url.split("/voila/")[0])  # its address asks another template and theme
    page = _open(context, f"{dashboard_url}&lang={lang}&{FORGED[lang]}")
    headings = [h.strip() for h in page.locator(".dk-dashboard h1, .dk-dashboard h2").all_inner_texts()]
    assert headings == HEADINGS[lang]
    text = page.inner_text("body")
    assert not any(error in text for error in ERROR_TEXTS)
    assert (
        page.locator(".dk-dashboard table.dk-table caption").count() >= 5
    )  # who, by edition, by student, costliest, exercises
    assert page.locator(".dk-dashboard .dk-figure img[alt]").count() == 2
    assert page.locator(".dk-dashboard select").count() == 2  # the edition and stage; the nickname to release
    status = page.inner_text(".dk-dashboard .dk-caption >> nth=0")
    assert CLASS in status
    nicknames = page.locator(".dk-dashboard table.dk-table", has_text=CAPTIONS[lang]).inner_text()
    assert RELEASES[lang].search(" ".join(nicknames.split())), nicknames  # Ada held, Bruno released an hour ago
    if lang == "it":
        hidden = page.add_style_tag(content="code { display: none !important; }")  # the answers as typed
        assert english_words(page.inner_text("body")) == []
        hidden.evaluate("style => style.remove()")
    found = _audit(page, f"dashboard-{lang}")
    tall = page.eval_on_selector(".dk-dashboard", "e => Math.ceil(e.getBoundingClientRect().height) + 80")
    page.set_viewport_size({"width": 1280, "height": tall})  # Voilà's page scrolls in a panel: the whole of it, at once
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / f"dashboard-{lang}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    dashboards.keep(lang, page)
    _assert_clean({f"dashboard-{lang}": found})
    assert outside == [], outside


def test_the_edition_and_stage_are_chosen_with_the_keyboard_and_new_rows_arrive(
    dashboard_url, context, dashboards, record
):
    page = dashboards.take("en", lambda: _open(context, f"{dashboard_url}&lang=en"))
    alt = page.get_attribute(".dk-dashboard .dk-figure img >> nth=0", "alt")
    page.focus(".dk-dashboard select")
    page.keyboard.press("ArrowDown")
    page.wait_for_function(
        "alt => document.querySelector('.dk-dashboard .dk-figure img').alt !== alt",
        arg=alt,
        timeout=30_000,
        polling=POLLING,
    )
    announced = page.inner_text(".dk-dashboard .dk-announce")
    assert "The class's record so far:" in announced
    engine = connect(record)  # two more students play and answer while the page is open
    write_sample(engine, sample_class(students=2, seed=9, games=1, class_name=CLASS))
    engine.dispose()
    page.wait_for_function(
        "() => document.querySelector('.dk-dashboard .dk-announce').innerText.includes('New in the class')",
        timeout=30_000,
        polling=POLLING,
    )
    assert "decisions" in page.inner_text(".dk-dashboard .dk-announce")
    page.close()


#: How many times the teacher opens the dashboard beside a busy process.
OPENINGS = 4


def test_the_dashboard_draws_every_time_it_is_opened_beside_a_busy_process(dashboard_url, browser):
    """A teacher opening the dashboard while the machine is busy (a process keeping a core busy, beside the other
    tests): every opening draws the class, never 'Error displaying widget: model not found'. The page is served with
    the class drawn, and its kernel changes nothing until the browser has drawn it: a kernel that redrew its figures
    while the page fetched its widgets' state could leave the page without them (issue 35: 2 openings in 28)."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for opening in range(OPENINGS):
            lang = ("en", "it")[opening % 2]
            page = browser.new_page(viewport={"width": 1280, "height": 900})  # a first visit: nothing cached
            page.goto(f"{dashboard_url}&lang={lang}", timeout=180_000)
            wait_drawn(
                page,
                "document.querySelectorAll('.dk-dashboard h2').length == 7 || "
                "document.body.innerText.includes('model not found')",
                _worker_log("voila-dashboard.log"),
            )
            text = page.inner_text("body")
            assert not any(error in text for error in ERROR_TEXTS), (opening, text[:300])
            assert page.locator(".dk-dashboard .dk-figure img[alt]").count() == 2, opening
            page.close(run_before_unload=True)  # its kernel ends with it, as a closed tab's does
    finally:
        busy.kill()
        busy.wait()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_without_a_record_the_dashboard_offers_a_sample_class_labelled_as_one(no_record_url, context, lang):
    """Without a record the page says so, and its button shows the sample class, labelled as one in its status, its
    headings and its figures."""
    button = {"en": "Show a sample class", "it": "Mostra una classe di esempio"}[lang]
    sample = {"en": "(sample class)", "it": "(classe di esempio)"}[lang]
    page = context.new_page()
    page.goto(f"{no_record_url}&lang={lang}", timeout=180_000)
    page.wait_for_selector(f"button:has-text('{button}')", timeout=180_000)
    results = {"no record": _audit(page, f"dashboard-no-record-{lang}")}
    page.click(f"button:has-text('{button}')")
    page.wait_for_function(
        "document.querySelectorAll('.dk-dashboard h2').length == 5", timeout=120_000, polling=POLLING
    )
    page.wait_for_selector(".dk-dashboard .dk-figure img >> nth=1", timeout=60_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    headings = page.locator(".dk-dashboard h2").all_inner_texts()
    assert len(headings) == 5 and all(h.strip().endswith(sample) for h in headings)
    alts = [page.get_attribute(f".dk-dashboard .dk-figure img >> nth={i}", "alt") for i in range(2)]
    starts = {
        "en": ("A sample class's decisions", "A sample class against"),
        "it": ("Le decisioni di una classe di esempio", "Una classe di esempio contro"),
    }[lang]
    assert [alt[: len(start)] for alt, start in zip(alts, starts)] == list(starts)
    results["sample"] = _audit(page, f"dashboard-sample-{lang}")
    page.screenshot(path=str(ARTIFACTS / f"dashboard-sample-{lang}.png"))
    page.close()
    _assert_clean(results)
