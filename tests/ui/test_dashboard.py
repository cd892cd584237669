"""The teacher's dashboard in a kernel: the rows a student's page writes appear at the next update, an update with
nothing new redraws nothing, a record that cannot be read leaves a note and the next update recovers, a page without
a record offers the sample class, labelled as one; English and Italian."""

from __future__ import annotations

import asyncio
import html
import os
import re

import pytest
from sqlalchemy.exc import OperationalError

from dragonkit import i18n
from dragonkit.analysis import TurnOptions
from dragonkit.engine import Game
from dragonkit.game_state import Phase
from dragonkit.record import AttemptRow, DecisionRow, GameRow, session, visit
from dragonkit.rules import Ruleset
from dragonkit.ui import dashboard
from dragonkit.ui.dashboard import DashboardApp

from .test_app_i18n import ENGLISH_WORDS, _widget_texts, _words


def _text(value: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", value))).strip()


def _choice(seed: int = 3):
    """A reveal-or-hold decision of a real game of the mini deck: its state, and its options' exact values."""
    game = Game(["Ada", "Bot"], Ruleset.preset("mini"), seed=seed)
    while game.phase is not Phase.CHOOSE:
        game.apply("reveal")
    return game, TurnOptions().values(game.state)


@pytest.fixture
def app(recording):
    """A dashboard of the class 3B, whose record ``recording`` holds (read once, as the page opens)."""
    page = visit("play")
    game, values = _choice()
    page.decision(DecisionRow.of(game.state, "hold", app="play", seconds=4.0, gems=values))
    page.attempt(AttemptRow("01-play-and-observe", "1", "38", False, 0, "en"))
    assert session.flush()
    shown = DashboardApp(interval=0.1)
    yield shown
    shown.close()


def test_the_dashboard_reads_the_class_record_at_once(app):
    assert app.feed is not None and not app.sample and app.message.value == ""
    assert app.sample_button.layout.display == "none" and app.body.layout.display is None
    assert "Class 3B" in _text(app.status.value)
    playing = _text(app.sections["playing"].value)
    assert "1 student is on the kit's pages." in playing and "play app 1 Ada (0 min)" in playing
    assert "1 decision with a choice" in _text(app.sections["gems"].value)
    assert "lesson 1, exercise 1 1 1 0% 0 38 (1×)" in _text(app.sections["exercises"].value)
    assert "No game against the bots yet." in _text(app.sections["wins"].value)
    assert app.picker.options[0][1] == ("mini", 0) and "mini (classroom deck), stage 0: 1 decision" in app.picker.label
    assert "The class's record so far: 1 decision, 1 answer, 0 games." in _text(app.announce.value)
    assert "<img" in app.map_figure.value
    assert "The class's decisions over the optimal policy" in html.unescape(app.map_figure.value)


def test_rows_written_by_a_students_page_appear_at_the_next_update_and_are_announced(app):
    page = visit("01-play-and-observe")
    game, values = _choice(seed=8)
    page.decision(DecisionRow.of(game.state, "reveal", app="play", seconds=1.0, gems=values))
    page.attempt(AttemptRow("01-play-and-observe", "1", "51", True, 1, "en"))
    page.attempt(AttemptRow("01-play-and-observe", "2", "0.1", False, 0, "en"))
    over = Game(["Ada", "Bot"], Ruleset.preset("mini"), seed=1)
    while not over.is_over:
        over.apply("reveal" if over.phase is not Phase.OFFER else "decline")
    page.game(GameRow.of("g1", over.state, ["human", "coach"]))
    assert session.flush()
    app.update()
    assert "New in the class's record: 1 decision, 2 answers, 1 game." in _text(app.announce.value)
    assert "2 decisions with a choice" in _text(app.sections["gems"].value)
    exercises = _text(app.sections["exercises"].value)
    assert "lesson 1, exercise 1 2 1 50% 1" in exercises and "lesson 1, exercise 2 1 1 0% 0 0.1 (1×)" in exercises
    assert app.wins_figure.layout.display is None and "coach bot" in app.wins_figure.value
    assert len(app.feed.decisions) == 2 and app.feed.last_id("attempts") == 3


def test_an_update_with_nothing_new_redraws_nothing(app):
    before = [(type(w).__name__, t, v) for w, t, v in _widget_texts(app.widget)]
    figure, announced = app.map_figure.value, app.announce.value
    app.update()
    assert app.map_figure.value is figure and app.announce.value is announced
    assert [(type(w).__name__, t, v) for w, t, v in _widget_texts(app.widget)] == before


def test_a_record_that_cannot_be_read_leaves_a_note_and_the_next_update_recovers(app, monkeypatch):
    read = app.feed.read

    def down():
        raise OperationalError("SELECT", {}, ConnectionError("the server is gone"))

    monkeypatch.setattr(app.feed, "read", down)
    app.update()
    assert app.unreachable and "cannot be read right now; trying again every 1 s" in _text(app.message.value)
    assert "Traceback" not in app.message.value and "1 decision with a choice" in _text(app.sections["gems"].value)
    monkeypatch.setattr(app.feed, "read", read)
    app.update()
    assert not app.unreachable and app.message.value == ""


def test_a_record_on_a_server_that_is_not_there_shows_a_note_not_an_error():
    shown = DashboardApp(url="postgresql+psycopg://teacher:secret@127.0.0.1:9/record", klass="3B", interval=5)
    try:
        assert shown.unreachable and "trying again every 5 s" in _text(shown.message.value)
        assert "secret" not in shown.message.value and shown.body.layout.display is None
    finally:
        shown.close()


def test_without_a_record_the_page_says_so_and_offers_a_sample_class_labelled_as_one(monkeypatch):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)
    monkeypatch.setattr(dashboard, "SAMPLE_STUDENTS", 6)
    shown = DashboardApp()
    try:
        assert shown.feed is None and "has no class record" in _text(shown.status.value)
        assert shown.body.layout.display == "none" and shown.sample_button.layout.display is None
        shown.sample_button.click()
        assert shown.sample and shown.sample_button.layout.display == "none"
        assert "A sample class: 6 simulated students" in _text(shown.status.value)
        for name in ("playing", "map", "gems", "wins", "exercises"):
            assert "(sample class)</h2>" in shown.sections[name].value, name
        assert "A sample class's decisions over the optimal policy" in html.unescape(shown.map_figure.value)
        assert "A sample class against each bot" in html.unescape(shown.wins_figure.value)
        assert "students are on the kit's pages" in _text(shown.sections["playing"].value)
        assert shown.sections["nicknames"].layout.display == "none"  # simulated students hold nothing
        assert shown.release_row.layout.display == "none"
    finally:
        shown.close()


def test_the_teacher_releases_a_nickname_and_the_page_says_when(app, recording):
    """Two browsers joined (Ada, Bo): the section lists both as held; releasing Ada from the dashboard frees it (the
    next browser to join holds it), says so beside the control, and the table gives the release's time."""
    from dragonkit.record import holds
    from dragonkit.record.store import connect

    engine = connect(recording)
    try:
        ada = holds.take(engine, "3B", "Ada")
        holds.take(engine, "3B", "Bo")
        app.update()
        section = _text(app.sections["nicknames"].value)
        assert "2 nicknames are held, each by the browser that joined with it" in section
        assert re.search(r"Ada held since \w{3} \d+, .+ never Bo held since", section), section
        assert app.release_picker.options == ("Ada", "Bo") and app.release_picker.value is None
        assert app.release_button.disabled  # nothing chosen yet
        app.release_picker.value = "Ada"
        assert not app.release_button.disabled
        app.release_button.click()
        assert app.release_picker.value is None and app.release_button.disabled  # a second press releases nobody
        assert holds.holder(engine, "3B", ada) is None
        assert "Ada released: the next browser to join the class with this nickname holds it." in _text(
            app.released.value
        )
        section = _text(app.sections["nicknames"].value)
        assert "1 nickname is held" in section and re.search(r"Ada free \w{3} \d+, .+ \(1 release\)", section)
        assert app.release_picker.options == ("Bo",)
        assert not app.release("Ada") and "Ada was not held by any browser" in _text(app.released.value)
        assert holds.holder(engine, "3B", holds.take(engine, "3B", "Ada")) == "Ada"  # the next browser holds it
    finally:
        engine.dispose()


def test_the_dashboard_speaks_italian(app):
    i18n.set_language("it")
    assert "Pannello dell'insegnante" in _text(app.title.value)
    assert "Chi sta giocando adesso" in _text(app.sections["playing"].value)
    assert "Le decisioni sulla politica ottima" in _text(app.sections["map"].value)
    assert "fase 0: 1 decisione" in app.picker.label and app.picker.description == "Edizione e fase"
    assert "Le decisioni della classe sulla politica ottima" in html.unescape(app.map_figure.value)
    assert "Il registro della classe finora: 1 decisione, 1 risposta, 0 partite." in _text(app.announce.value)
    shown = " ".join(str(v) for _, _, v in _widget_texts(app.body) if isinstance(v, str))
    shown = re.sub(r"<style.*?</style>|<code>.*?</code>|<img[^>]*>", " ", shown, flags=re.S)  # typed answers, pictures
    assert not (_words(shown) - {"ada"}) & ENGLISH_WORDS, (_words(shown) - {"ada"}) & ENGLISH_WORDS


def test_the_page_is_drawn_as_it_is_made_and_updates_only_once_a_browser_shows_it(recording):
    """With the kernel's event loop running (as in Voilà): the record is read and drawn before the page is sent, and
    nothing is read or redrawn while no browser shows the page (its widgets' state is being fetched then); once the
    front end counts a view, the page reads every interval."""

    async def open_the_page() -> tuple[DashboardApp, list[str], list[str]]:
        shown = DashboardApp(interval=0.05)
        reads: list[str] = []
        changes: list[str] = []
        read = shown.feed.read
        shown.feed.read = lambda: reads.append("read") or read()  # type: ignore[method-assign]
        shown.announce.observe(lambda change: changes.append(change["new"]), names="value")
        await asyncio.sleep(0.3)  # the page's scripts loading, the front end fetching the widgets' state
        quiet = (list(reads), list(changes))
        page = visit("play")
        game, values = _choice()
        page.decision(DecisionRow.of(game.state, "hold", app="play", seconds=4.0, gems=values))
        assert session.flush()
        shown.widget._view_count = 1  # the front end has drawn the dashboard
        for _ in range(600):  # up to 30 s: a loaded machine draws the figures slowly
            await asyncio.sleep(0.05)
            if "New in the class's record" in _text(shown.announce.value):  # (its HTML escapes the apostrophe)
                break
        shown.close()
        return shown, *quiet

    shown, reads, changes = asyncio.run(open_the_page())
    assert "The class's record so far" not in "".join(changes)  # drawn before any observer: as the page was made
    assert reads == [] and changes == [], (reads, changes)
    assert "New in the class's record: 1 decision." in _text(shown.announce.value)


KERNEL_OPEN = r"""
from dragonkit.ui.dashboard import DashboardApp
app = DashboardApp(interval=0.2)
app.widget._view_count = 1  # as the front end says once it has drawn the dashboard
"""

KERNEL_WAIT = r"""
import asyncio, html, json, re
for _ in range(150):  # the dashboard reads the record by itself, on the kernel's event loop
    if "{expected}" in app.announce.value:
        break
    await asyncio.sleep(0.1)
print(json.dumps({{"announced": html.unescape(re.sub("<[^>]+>", "", app.announce.value)),
                   "gems": html.unescape(re.sub("<[^>]+>", " ", app.sections["gems"].value))}}))
"""


@pytest.mark.slow
def test_in_a_kernel_the_dashboard_updates_itself_while_the_class_plays(recording):
    """In a real IPython kernel, as Voilà runs the notebook: the first read as the page is made, every later one on
    the kernel's event loop once the page is shown, without a call; the rows a student's page writes meanwhile are
    announced."""
    jupyter_client = pytest.importorskip("jupyter_client")
    from .test_kernel import _run

    env = {**os.environ, "DRAGONKIT_RECORD": recording, "DRAGONKIT_CLASS": "3B"}
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3", env=env)
    try:
        client.execute_interactive(KERNEL_OPEN, timeout=120)
        first = _run(client, KERNEL_WAIT.format(expected="record so far"))
        assert first["announced"] == "The class's record so far: 0 decisions, 0 answers, 0 games."
        page = visit("play")
        game, values = _choice()
        page.decision(DecisionRow.of(game.state, "hold", app="play", seconds=3.0, gems=values))
        assert session.flush()
        later = _run(client, KERNEL_WAIT.format(expected="New in"))
        assert later["announced"] == "New in the class's record: 1 decision."
        assert "1 decision with a choice" in later["gems"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
