"""Shared fixtures: a Voilà server on 127.0.0.1, a headless Chromium, and the class's record (a process that records as
a kernel does; an empty record on SQLite and on a real PostgreSQL server, tests/postgres.py)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import settings

from dragonkit.cli import ServeOptions, notebooks_dir, start_server
from dragonkit.paper.printer import CHROMIUM_FLAGS, chromium_executable
from dragonkit.record import session as record_session
from dragonkit.record.store import connect, upgrade

from .record_server import KEY, TOKEN, RecordServer, write_stand_ins

ARTIFACTS = Path(__file__).parent / "artifacts"

#: Hypothesis without its deadline (200 ms an example): on a loaded 2-core machine, a stalled example is not a
#: slow one (the speed is measured in benchmarks/, never asserted).
settings.register_profile("dragonkit", deadline=None)
settings.load_profile("dragonkit")


#: How often, in milliseconds, a test's ``wait_for_function`` reads its condition on the page. Playwright's default
#: reads it at every animation frame, which keeps Chromium drawing frames while the test waits (about a tenth of a
#: core, and more where the condition reads a large page's text): the waits for a kernel's answer grow long on a
#: loaded machine, and a tenth of a second more is nothing to a test.
POLLING = 100

#: Games per option of the coach's Monte Carlo estimates (three or more players) in the tests, in this process
#: (:func:`_quick_coach_estimates`) and in the kernels of the Voilà servers they start (``--coach-games``): enough to
#: write them in words; 2,000, a page's, would cost each human decision of a game 1.5 s of a core.
COACH_GAMES = 20

#: Fixtures that start Chromium or a Voilà server: a test that uses one is marked ``browser`` (``paper`` prints the
#: kit's paper with Chromium: tests/paper/conftest.py; ``record_server`` keeps a record: tests/record_server.py).
BROWSER_FIXTURES = {"browser", "voila_url", "pseudo_url", "paper", "record_server"}


def pytest_collection_modifyitems(config, items):
    """Mark ``browser`` every test that uses Chromium or a Voilà server (its fixtures, or a module of
    tests/browser/), so that the development command leaves them out (CONTRIBUTING.md)."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())) or "browser" in item.path.parent.parts[-1:]:
            item.add_marker(pytest.mark.browser)


def _worker_log(log: str) -> str:
    """``log``'s name for this pytest-xdist worker (``voila.log`` -> ``voila-gw1.log``): each worker starts its own
    servers, and their logs must not overwrite one another's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return log
    path = Path(log)
    return f"{path.stem}-{worker}{path.suffix}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_refusing(*args: str) -> subprocess.CompletedProcess[str]:
    """``dragonkit serve`` with ``args``, in a process of its own, its output read: an option it refuses ends it at
    once (exit status 2, the reason on its standard error)."""
    command = [sys.executable, "-m", "dragonkit.cli", "serve", *args, "--no-browser"]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@contextlib.contextmanager
def voila_process(
    folder: Path, log: str, extra: Sequence[str] = (), joins_at_once: int = 100_000, **options: object
) -> Iterator[tuple[str, subprocess.Popen]]:
    """A Voilà server as ``dragonkit serve`` starts it (with ``options`` of :class:`ServeOptions`, and its
    environment: no record unless ``record=URL`` is given; ``extra`` options of its command line), serving ``folder``
    on a free port of 127.0.0.1 (its output in ``tests/artifacts/<log>``); yields its base URL and its process, and
    stops it and its kernels afterwards. Every student of the tests joins from 127.0.0.1: the join page takes
    ``joins_at_once`` nicknames from it at once (more than a class's, the server's default, unless a test asks)."""
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / log, "wb") as out:
        # one client opens every page of the tests: no limit per visitor's address unless a test sets one
        # and the coach's estimates of the tests (COACH_GAMES), unless a test asks otherwise
        serve = ServeOptions(
            port=port,
            **{"max_kernels_per_client": 0, "coach_games": COACH_GAMES, **options},  # type: ignore[arg-type]
        )
        extra = (f"--ClassroomVoila.joins_at_once={joins_at_once}", *extra)
        proc = start_server(serve, folder, extra, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                assert proc.poll() is None, f"Voilà exited early; see tests/artifacts/{log}"
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.3)
            else:
                pytest.fail("Voilà did not start within 90 s")
            yield f"http://127.0.0.1:{port}", proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


@contextlib.contextmanager
def voila_server(folder: Path, log: str, extra: Sequence[str] = (), **options: object) -> Iterator[str]:
    """:func:`voila_process`'s base URL alone."""
    with voila_process(folder, log, extra, **options) as (url, _proc):
        yield url


@pytest.fixture(autouse=True)
def _quick_coach_estimates(monkeypatch):
    """The coach's Monte Carlo estimates take up to 1.5 s at each choice of a human: in the tests, of
    :data:`COACH_GAMES` games each (the tests of the estimate itself set their own number and time)."""
    from dragonkit.coach import views

    monkeypatch.setattr(views, "ESTIMATE_GAMES", COACH_GAMES)
    monkeypatch.setattr(views, "ESTIMATE_SECONDS", None)  # all 20, however loaded the machine: the same words


@pytest.fixture(scope="session")
def race_tables():
    """The race model's tables (``dragon-stripes``, ``mini``: seconds), solved or waited for while the process the
    root conftest.py started solves them: what the pages of the browser tests' games need at once."""
    from dragonkit.analysis.win.model import table
    from dragonkit.rules import Ruleset

    for name in ("dragon-stripes", "mini"):
        table(Ruleset.preset(name))


@pytest.fixture(scope="session")
def record_server(tmp_path_factory) -> Iterator[RecordServer]:
    """A server that keeps a record, with a token and a teacher's key, serving stand-in notebooks that say what their
    kernel was given (tests/record_server.py)."""
    from dragonkit.record.command import prepare

    record = f"sqlite:///{tmp_path_factory.mktemp('record') / 'record.sqlite'}"
    prepare(record)  # as dragonkit serve does at its start: the record at the newest schema
    folder, probes = tmp_path_factory.mktemp("served"), tmp_path_factory.mktemp("probes")
    write_stand_ins(folder, probes)
    log = _worker_log("record-server.log")
    options = {"pool": 1, "token": TOKEN, "teacher_key": KEY, "record": record, "class_name": "3B"}
    with voila_process(folder, log, **options) as (url, process):
        yield RecordServer(url, record, probes, ARTIFACTS / log, process.pid)


@pytest.fixture(scope="session")
def voila_url(race_tables):
    """Base URL of a Voilà server serving notebooks/ (stopped after the session), once the race tables are solved
    (a page's coach would say it is preparing one, and a win bot would wait for it)."""
    with voila_server(notebooks_dir(), _worker_log("voila.log")) as url:
        yield url


def log_events(page) -> int:
    """How many events the play app's log holds (its ``data-events``)."""
    return int(page.get_attribute(".dk-log", "data-events"))


def wait_for_log(page, before: int, timeout: float = 30_000) -> None:
    """Wait until the play app's log in ``page`` holds more events than ``before`` (:func:`log_events`): a move
    drawn."""
    page.wait_for_function(
        f"Number(document.querySelector('.dk-log').dataset.events) > {before}", timeout=timeout, polling=POLLING
    )


def click_shown(page, labels: tuple[str, ...]) -> bool:
    """Click the first shown button whose text is one of ``labels``; False when none is shown, or when it went
    before the click could land (the turn moved on: a bot's move), so that the caller looks again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    shown = [page.locator("button:visible", has_text=label) for label in labels]
    button = next((b for b in shown if b.count()), None)
    if button is None:
        return False
    try:
        button.first.click(timeout=10_000)
    except PlaywrightTimeoutError:
        return False
    return True


def play_until_over(page, labels: tuple[str, ...], limit: int = 400) -> None:
    """Play the play app's game in ``page`` to its end: the human presses the first of the buttons ``labels``
    shown (e.g. Reveal, then Decline), the bots play by themselves; each move waits for the log to grow."""
    from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS

    for _ in range(limit):
        if page.locator(".dk-over").count():
            return
        before = log_events(page)
        if click_shown(page, labels):
            page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)  # not a double click
        page.wait_for_function(
            f"Number(document.querySelector('.dk-log').dataset.events) > {before}"
            " || document.querySelector('.dk-over') !== null",
            timeout=30_000,
            polling=POLLING,
        )
    pytest.fail(f"the game did not end in {limit} moves")


@pytest.fixture(autouse=True)
def english_on_a_screen():
    """Every test starts and ends in English, on a screen (not the projector's view), whatever it switched to."""
    from dragonkit import i18n, view

    i18n.set_language("en")
    view.settings.projector = False
    yield
    i18n.set_language("en")
    view.settings.projector = False


@pytest.fixture(autouse=True)
def _widgets_stop_following_the_language(english_on_a_screen):
    """The widgets a test built stop following the language and the view when it ends: a later test's switch of
    language (or of view) redraws its own widgets, not every widget of the tests before it (hundreds, by the end of the
    session). Each widget's observer is removed, nothing else: a test checks the widgets it builds, while it runs.
    (The observers go before :func:`english_on_a_screen` switches back: the switch redraws none of them.)"""
    from dragonkit import i18n, view

    followed = [
        i18n.settings._trait_notifiers.setdefault("language", {}).setdefault("change", []),
        view.settings._trait_notifiers.setdefault("projector", {}).setdefault("change", []),
    ]
    before = [list(observers) for observers in followed]
    yield
    for observers, kept in zip(followed, before):
        observers[:] = kept


@pytest.fixture
def projector():
    """The test runs in the projector's view (``?view=projector``); :func:`english_on_a_screen` puts the screen back."""
    from dragonkit import view

    view.settings.projector = True


@pytest.fixture
def lesson_widgets_closed(monkeypatch):
    """The lesson widgets the test made are closed when it ends (else every later switch of language would redraw
    them all): every test of tests/lessons/ (its conftest.py), and the figures' tests that draw a lesson's widget."""
    from dragonkit.lessons import base

    made = []
    follow = base.LessonWidget._follow_language

    def record(widget):
        made.append(widget)
        follow(widget)

    monkeypatch.setattr(base.LessonWidget, "_follow_language", record)
    yield
    for widget in made:
        widget.close()


@pytest.fixture(scope="module")
def playwright():
    """Playwright, for a module's tests. Not one for the whole session: Playwright's event loop runs as long as it
    does, and a later test of the same worker could not run one of its own (``asyncio.run``)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        yield playwright


def _chromium() -> str:
    """Debian's Chromium (never a downloaded browser): the system's, as dragonkit paper prints with."""
    try:
        return chromium_executable()
    except FileNotFoundError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def browser(playwright):
    """Chromium for a module's tests, each page in a context of its own (``browser.new_context()``, or
    ``new_page()``): a visitor of its own, with nothing cached, as a first visit is."""
    browser = playwright.chromium.launch(executable_path=_chromium(), args=list(CHROMIUM_FLAGS))
    try:
        yield browser
    finally:
        browser.close()


def chromium_profile_context(playwright, folder: Path, **options: object):
    """Chromium with its profile in ``folder`` (a persistent context, as a learner's own browser: its cache on disk,
    and the scripts it has run compiled there), ``options`` those of Playwright's contexts; closing it quits it."""
    return playwright.chromium.launch_persistent_context(
        folder, executable_path=_chromium(), args=list(CHROMIUM_FLAGS), **options
    )


@pytest.fixture(scope="session")
def chromium_profile(tmp_path_factory) -> Path:
    """The folder of this worker's Chromium profile (:func:`context`), kept from module to module."""
    return tmp_path_factory.mktemp("chromium-profile")


@pytest.fixture(scope="module")
def context(playwright, chromium_profile):
    """The pages of a module's tests, in one browser context, 1280 x 900, as one learner's tabs share a browser.
    The context is Chromium's profile on disk (a persistent context, as a learner's own browser is), kept by the
    worker from module to module with its cookies cleared at each: the kit's scripts (about 5 MB a page) are fetched
    once and then come from its cache, compiled (V8's code cache, which a private context has not): a page costs
    Chromium 1.2-1.4 CPU-seconds instead of 2.0-2.2 (the play app; benchmarks/bench_page_cache.py). A test that
    needs a visitor of its own (its own cookies: a class's nickname, a room's seat) or a first visit with nothing
    cached opens a context of its own (:func:`browser`)."""
    context = chromium_profile_context(playwright, chromium_profile, viewport={"width": 1280, "height": 900})
    try:
        context.clear_cookies()  # a module's visitor is its own: no nickname or teacher's key of an earlier one
        yield context
    finally:
        context.close()


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL server for this worker's tests (a temporary cluster, tests/postgres.py)."""
    from tests.postgres import temporary_postgres

    with temporary_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def record_url(request, tmp_path) -> Iterator[str]:
    """An empty record at its newest schema, on SQLite and on PostgreSQL."""

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'record.sqlite'}"
    else:
        server = request.getfixturevalue("postgres")
        name = f"t{abs(hash(request.node.nodeid)) % 10**9}"
        server.psql(f"DROP DATABASE IF EXISTS {name}", database="postgres")
        server.psql(f"CREATE DATABASE {name}", database="postgres")
        url = server.url.rsplit("/", 1)[0] + f"/{name}"
    engine = connect(url)
    upgrade(engine)
    engine.dispose()
    yield url


@pytest.fixture
def recording(monkeypatch, tmp_path) -> Iterator[str]:
    """This process records to a new SQLite record, as a kernel of ``dragonkit serve`` does, with the nickname
    ``Ada`` and the class ``3B``; yields the record's URL (read it after :func:`dragonkit.record.session.flush`)."""

    url = f"sqlite:///{tmp_path / 'record.sqlite'}"
    engine = connect(url)
    upgrade(engine)  # as `dragonkit serve` does before its first page
    engine.dispose()
    monkeypatch.setenv("DRAGONKIT_RECORD", url)
    monkeypatch.setenv("DRAGONKIT_CLASS", "3B")
    monkeypatch.setenv("DRAGONKIT_NICKNAME", "Ada")
    yield url
    record_session.flush()
