"""A room in Chromium, as the issue of rooms asks: four laptops (four browser contexts, each its own cookies) join
with their nicknames; one opens a room from the play app's setup, the three others come in with its code; they play
the room's game to its end, each clicking only on their own page and only on their turn, one of them reloading their
page in the middle and taking their seat back; a fifth page, the teacher's, sees the room on the dashboard. The record
is read back at the end: every move is in it, in order, and no page ever held the deck's seed."""

from __future__ import annotations

import re

import pytest

from dragonkit.cli import notebooks_dir
from dragonkit.engine import Action, Game
from dragonkit.record import rooms
from dragonkit.record.rooms import MoveBy, RoomStatus
from dragonkit.record.store import connect
from dragonkit.rules import Ruleset

from ..conftest import ARTIFACTS, POLLING, _worker_log, click_shown, log_events, voila_server, wait_for_log
from ..room_decks import first_seed, give_deck
from .axe import _assert_clean, _audit
from .pages import ERROR_TEXTS

pytestmark = pytest.mark.browser

TOKEN = "room-token-1234"
KEY = "teachers-key-1234"
CLASS = "4A"
PLAYERS = ("Ana", "Bo", "Cy", "Di")
#: After how many events of the game's log Bo reloads their page.
RELOAD_AT = 8
#: The pages' way of playing: the first of these buttons that shows (hold when they may, decline offers, else reveal).
CLICKS = ("Hold", "Decline", "Reveal")


def _deck(players: tuple[str, ...], bo_after: int) -> int:
    """A seed for the room's deck (:mod:`tests.room_decks`) whose game, played as the pages play it (:data:`CLICKS`),
    has Bo moving once ``bo_after`` events and moves have been made, and ends within 30 moves."""
    rules = Ruleset.preset("mini")

    def wanted(seed: int) -> bool:
        game = Game(players, rules, seed=seed)
        bo_moves = False
        while not game.is_over and len(game.actions) <= 30:
            choice = next(a for a in (Action.HOLD, Action.DECLINE, Action.REVEAL) if a in game.legal_actions())
            if min(len(game.events), len(game.actions)) >= bo_after and game.to_move == 1:
                bo_moves = True
            game.apply(choice, by=game.to_move)
        return game.is_over and len(game.actions) <= 30 and bo_moves

    return first_seed(wanted)


@pytest.fixture(scope="module")
def room_server(tmp_path_factory, race_tables):
    """``dragonkit serve`` for a class, with its record in an SQLite file: the base URL and the record's URL."""
    record = f"sqlite:///{tmp_path_factory.mktemp('rooms') / 'record.sqlite'}"
    options = {"token": TOKEN, "teacher_key": KEY, "record": record, "class_name": CLASS}
    with voila_server(notebooks_dir(), _worker_log("voila-rooms.log"), **options) as url:
        yield url, record


def _laptop(browser, url: str, nickname: str, room: str | None = None):
    """A student's laptop: their own browser, the join page, then the play app (the room's, with a code)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    address = f"{url}/voila/render/play.ipynb?token={TOKEN}" + (f"&room={room}" if room else "")
    page.goto(address, timeout=180_000)
    page.wait_for_selector("#nickname", timeout=60_000)
    page.fill("#nickname", nickname)
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Start the game", state="attached", timeout=180_000)
    return context, page


def _moves(page) -> int:
    return log_events(page) if page.locator(".dk-log").count() else 0


def _wait_for_the_move(page, name: str, before: int, pages: dict, record: str, code: str) -> None:
    """Wait until ``page``'s log holds more than ``before`` events (the move its click made); else fail saying what
    every page shows (its room line, its message, its buttons) and what the record holds, each page's screenshot in
    tests/artifacts/room-stuck-<name>.png."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        wait_for_log(page, before)
    except PlaywrightTimeoutError:
        shown = {}
        for who, other in pages.items():
            other.screenshot(path=str(ARTIFACTS / f"room-stuck-{who}.png"))
            messages = other.locator(".dk-message").all_inner_texts()
            buttons = other.locator("button:visible").all_inner_texts()
            shown[who] = (_moves(other), other.inner_text(".dk-room-line"), messages, buttons)
        engine = connect(record)
        try:
            room = rooms.read(engine, code)
            stored = [(m.seq, m.seat, m.action, m.by.value) for m in rooms.moves(engine, room.id)]
        finally:
            engine.dispose()
        pytest.fail(
            f"{name}'s click (after {before} events) was not in its log in 30 s; pages: {shown}; "
            f"the record's moves: {stored}, seats: {room.seats}"
        )


def test_four_laptops_play_a_room_to_its_end_while_the_teacher_watches(room_server, browser):
    url, record = room_server
    teacher = browser.new_context(viewport={"width": 1280, "height": 900})
    dashboard = teacher.new_page()
    dashboard.goto(f"{url}/voila/render/dashboard.ipynb?token={TOKEN}&key={KEY}", timeout=180_000)
    dashboard.wait_for_function(
        "document.querySelectorAll('.dk-dashboard h2').length == 7", timeout=180_000, polling=POLLING
    )

    # Ana opens a room for four seats of the mini edition, from the play app's setup
    ana_context, ana = _laptop(browser, url, "Ana")
    ana.select_option(".dk-setup select >> nth=0", label="4")
    ana.select_option(".dk-setup select >> nth=1", label="mini (classroom deck)")
    ana.click("button:has-text('Open a room')")
    ana.wait_for_selector(".dk-lobby .dk-room-code", timeout=60_000)
    code = ana.inner_text(".dk-lobby .dk-room-code").strip()
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{5}", code), code
    give_deck(record, code, _deck(PLAYERS, bo_after=RELOAD_AT))
    ana.screenshot(path=str(ARTIFACTS / "room-lobby.png"))
    audits = {"lobby": _audit(ana, "room-lobby")}

    # the three others come in with the code, each from their own laptop
    laptops = {"Ana": (ana_context, ana)}
    for name in PLAYERS[1:]:
        laptops[name] = _laptop(browser, url, name, room=code)
        laptops[name][1].wait_for_selector(f".dk-lobby:has-text('{code}')", timeout=60_000)
    ana.wait_for_function(
        "names => names.every(n => document.querySelector('.dk-lobby').innerText.includes(n))",
        arg=list(PLAYERS),
        timeout=60_000,
        polling=POLLING,
    )
    # the keyboard: the room opened with the focus on its Start button
    ana.wait_for_function(
        "(document.activeElement?.innerText || '').includes('Start the game')", timeout=30_000, polling=POLLING
    )
    ana.keyboard.press("Enter")
    pages = {name: page for name, (_context, page) in laptops.items()}
    for page in pages.values():
        page.wait_for_selector(".dk-board", timeout=60_000)
        page.wait_for_selector(f".dk-room-line:has-text('{code}')", timeout=60_000)
    audits["table"] = _audit(pages["Cy"], "room-table")

    # they play: each page clicks only when its own buttons show (its turn); Bo reloads once, mid-game
    reloaded = False
    for _ in range(600):
        if all(page.locator(".dk-over").count() for page in pages.values()):
            break
        if not reloaded and _moves(pages["Ana"]) >= RELOAD_AT:
            bo = pages["Bo"]
            bo.reload(timeout=180_000)
            bo.wait_for_selector(f".dk-room-line:has-text('{code}')", timeout=180_000)
            assert "you play Bo" in bo.inner_text(".dk-room-line")
            assert _moves(bo) >= RELOAD_AT  # the game as it was: nothing lost
            reloaded = True
        for name, page in pages.items():
            before = _moves(page)
            if click_shown(page, CLICKS):
                _wait_for_the_move(page, name, before, pages, record, code)
    else:
        pytest.fail("the room's game did not end")
    assert reloaded
    ends = {name: page.inner_text(".dk-over") for name, page in pages.items()}
    assert len(set(ends.values())) == 1, ends  # the same end on every laptop
    for page in pages.values():
        assert not any(error in page.inner_text("body") for error in ERROR_TEXTS)
    pages["Bo"].screenshot(path=str(ARTIFACTS / "room-over.png"))
    audits["over"] = _audit(pages["Bo"], "room-over")
    _assert_clean(audits)

    # the teacher's dashboard shows the room and its game
    dashboard.wait_for_function(
        "code => { const t = document.querySelector('.dk-dashboard').innerText;"
        " return t.includes(code) && t.includes('game over'); }",
        arg=code,
        timeout=60_000,
        polling=POLLING,
    )

    # the record: every move in order, by the seat's own player, and no page held the deck's seed
    engine = connect(record)
    try:
        room = rooms.read(engine, code)
        stored = rooms.moves(engine, room.id)
    finally:
        engine.dispose()
    assert room.status is RoomStatus.OVER and room.players == PLAYERS
    assert [m.seq for m in stored] == list(range(1, len(stored) + 1))
    assert {m.by for m in stored} == {MoveBy.PLAYER}
    assert {m.seat for m in stored if m.seq > RELOAD_AT} >= {1}  # Bo played on after the reload
    for page in pages.values():
        assert str(room.seed) not in page.content()
    # the coach's review after the game, on Bo's reloaded page: every decision of Bo's, from both pages
    decided = sum(1 for m in stored if m.seat == 1)
    pages["Bo"].wait_for_function(  # (the old page's last rows may reach the record a moment after the end)
        f"document.querySelectorAll('.dk-review tbody tr').length == {decided}", timeout=30_000, polling=POLLING
    )
    for context, _page in laptops.values():
        context.close()
    teacher.close()


def test_two_servers_on_one_postgresql_seat_the_players_of_one_room(postgres, browser, race_tables):
    """A JupyterHub gives each student a server of their own: two servers on one PostgreSQL record, Ana on the first
    opens a room, Bo on the second joins it with the code, and each sees the other's moves."""
    postgres.psql("DROP DATABASE IF EXISTS rooms_two_servers", database="postgres")
    postgres.psql("CREATE DATABASE rooms_two_servers", database="postgres")
    record = postgres.url.rsplit("/", 1)[0] + "/rooms_two_servers"
    options = {"token": TOKEN, "record": record, "class_name": CLASS}
    with (
        voila_server(notebooks_dir(), _worker_log("voila-rooms-a.log"), **options) as first,
        voila_server(notebooks_dir(), _worker_log("voila-rooms-b.log"), **options) as second,
    ):
        ana_context, ana = _laptop(browser, first, "Ana")
        ana.select_option(".dk-setup select >> nth=0", label="2")
        ana.select_option(".dk-setup select >> nth=1", label="mini (classroom deck)")
        ana.click("button:has-text('Open a room')")
        ana.wait_for_selector(".dk-lobby .dk-room-code", timeout=60_000)
        code = ana.inner_text(".dk-lobby .dk-room-code").strip()
        give_deck(record, code, _deck(("Ana", "Bo"), bo_after=2))
        bo_context, bo = _laptop(browser, second, "Bo", room=code)
        bo.wait_for_selector(f".dk-lobby:has-text('{code}')", timeout=60_000)
        ana.wait_for_selector(".dk-lobby:has-text('Bo')", timeout=60_000)
        ana.click("button:visible:has-text('Start the game')")
        pages = {"Ana": ana, "Bo": bo}
        for page in pages.values():
            page.wait_for_selector(".dk-board", timeout=60_000)
        played = {"Ana": 0, "Bo": 0}
        for _ in range(200):
            if min(played.values()) >= 2 or ana.locator(".dk-over").count():
                break
            for name, page in pages.items():
                before = _moves(page)
                if click_shown(page, CLICKS):
                    played[name] += 1
                    for other in pages.values():  # the move reaches both servers' pages
                        wait_for_log(other, before)
        assert min(played.values()) >= 1, played
        assert _moves(ana) == _moves(bo)
        assert ana.inner_text(".dk-log") == bo.inner_text(".dk-log")
        ana_context.close()
        bo_context.close()
    engine = connect(record)
    try:
        room = rooms.read(engine, code)
        stored = rooms.moves(engine, room.id)
    finally:
        engine.dispose()
    assert room.players == ("Ana", "Bo")
    assert {m.seat for m in stored} == {0, 1}
