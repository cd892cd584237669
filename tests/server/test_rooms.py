"""The rooms' door (dragonkit.server.rooms): its arithmetic without a server; then served by a server with a record
(tests/record_server.py): the door's page, a right code sent on to the play app, a wrong one answered with the page
and an alert, the play app's page with a wrong code answered before any kernel starts, wrong codes from one address
slowed while a right one is not, and a crowd of them refused."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import urllib.parse

import pytest

from dragonkit.record import rooms
from dragonkit.record.store import connect, upgrade
from dragonkit.server.door import CROWD, FORGET, FREE_WRONG, SLOWEST, Door
from dragonkit.server.rooms import door_page

from ..conftest import ARTIFACTS, voila_server
from ..record_server import KEY, TOKEN, Client, joined, write_notebook


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_door_answers_the_first_wrong_codes_at_once_then_ever_slower():
    clock = Clock()
    door = Door(clock)
    waits = [door.wrong("10.0.0.1") for _ in range(FREE_WRONG + 6)]
    assert waits[:FREE_WRONG] == [0.0] * FREE_WRONG
    assert waits[FREE_WRONG:] == [2.0, 4.0, 8.0, 16.0, SLOWEST, SLOWEST]
    assert door.wrong("10.0.0.2") == 0.0  # another address: its own count
    clock.now += FORGET + 1
    assert door.wrong("10.0.0.1") == 0.0  # forgotten ten minutes after its last wrong code


def test_the_door_is_crowded_when_enough_answers_wait_and_forgets_an_address_with_none():
    door = Door(Clock())

    async def crowd(n: int) -> None:
        await asyncio.gather(*(door.wait_wrong("10.0.0.1") for _ in range(n)))

    async def watch() -> tuple[bool, bool]:
        waiting = asyncio.ensure_future(crowd(FREE_WRONG + CROWD))  # the first five at once, ten that wait
        await asyncio.sleep(0.05)
        seen = door.crowded("10.0.0.1"), door.crowded("10.0.0.2")
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        return seen

    assert asyncio.run(watch()) == (True, False)
    assert door.waiting == {}  # no answer waits: the address is not kept


def test_the_doors_tables_are_bounded_and_forgetting_reads_only_the_oldest():
    """At most ``most`` addresses are kept, the oldest forgotten first; after ten minutes of quiet every address is
    forgotten at the next wrong code."""
    clock = Clock()
    door = Door(clock, most=50)
    for n in range(120):
        door.wrong(f"10.0.{n // 256}.{n % 256}")
        clock.now += 1
    assert len(door) == 50 and door.wrong("10.0.0.119") == 0.0  # the newest kept: its second wrong code
    assert door.wrong("10.0.0.0") == 0.0 and len(door) == 50  # the oldest was forgotten: a new address again
    clock.now += FORGET + 1
    door.wrong("10.9.9.9")
    assert len(door) == 1


def test_the_doors_page_is_labelled_in_both_languages():
    for lang, label, button in (
        ("en", "Room code", "Join the room"),
        ("it", "Codice della stanza", "Entra nella stanza"),
    ):
        page = door_page(lang)
        assert f'<html lang="{lang}"' in page and label in page and button in page
        assert 'for="code"' in page and 'id="code"' in page
    wrong = door_page("en", "<b>K0MQX</b>" * 3, unknown=True)
    assert 'role="alert"' in wrong and 'aria-invalid="true"' in wrong and "<b>" not in wrong
    assert "No room has the code" in wrong


@pytest.fixture(scope="module")
def room(record_server):
    engine = connect(record_server.record)
    upgrade(engine)
    opened = rooms.open_room(engine, "3B", "Ana", "dragon-stripes", [("Ana", "human"), ("Bo", "coach")])
    engine.dispose()
    return opened


def _door(record_server, **query: str) -> str:
    return f"{record_server.url}/dragonkit/room?{urllib.parse.urlencode({'token': TOKEN, **query})}"


def test_the_door_sends_a_right_code_on_to_the_play_app_in_its_room(record_server, room):
    status, _headers, body = Client().request("GET", _door(record_server))
    assert status == 200 and 'id="code"' in body
    for typed in (room.code, f" {room.code[:2].lower()}-{room.code[2:]} "):
        status, headers, _body = Client().request("GET", _door(record_server, code=typed, lang="it"))
        assert status == 302
        target = urllib.parse.urlsplit(headers["Location"])
        assert target.path == "/voila/render/play.ipynb"
        assert urllib.parse.parse_qs(target.query) == {"room": [room.code], "lang": ["it"]}


def test_a_wrong_code_gets_the_page_again_with_an_alert(record_server, room):
    wrong = "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY"
    status, _headers, body = Client().request("GET", _door(record_server, code=wrong))
    assert status == 404 and 'role="alert"' in body and wrong in body


def test_the_play_app_with_a_wrong_code_starts_no_kernel(record_server, room):
    wrong = "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY"
    address = f"{record_server.url}/voila/render/lesson.ipynb?token={TOKEN}&room={wrong}&probe=door"
    status, _headers, body = joined(record_server.url).request("GET", address)
    assert status == 404 and "No room has the code" in body and "a stand-in page" not in body
    assert not any("probe=door" in p.read_text() for p in record_server.probes.glob("*.json"))


def _ask(url: str) -> None:
    """Ask, and let the answer go (a refused or cut request is what this client expects)."""
    with contextlib.suppress(OSError):
        Client().request("GET", url)


def test_wrong_codes_are_slowed_and_a_crowd_refused_while_a_right_code_goes_through(tmp_path):
    """On a server of its own (the address's count is the server's): the first wrong codes answer at once, the next
    one waits; a right code from the same address is answered while a slowed answer still waits; with enough
    answers waiting, the next code is refused with 429 and Retry-After, a right one too (else a 429 would answer a
    guess at once). Wrong teacher's keys are slowed alike (they were answered 1,250 a second), the right key never."""
    record = f"sqlite:///{tmp_path / 'record.sqlite'}"
    engine = connect(record)
    upgrade(engine)
    opened = rooms.open_room(engine, "3B", "Ana", "mini", [("Ana", "human"), ("Bo", "coach")])
    engine.dispose()
    write_notebook(tmp_path / "play.ipynb", "print('play')")
    options = {"token": TOKEN, "teacher_key": KEY, "record": record, "class_name": "3B", "pool": 0}
    with voila_server(tmp_path, "voila-door.log", **options) as url:
        door = f"{url}/dragonkit/room?token={TOKEN}&code="
        client = Client()
        for _ in range(FREE_WRONG):
            assert client.request("GET", door + "ZZZZZ")[0] == 404
        start = time.monotonic()
        assert client.request("GET", door + "ZZZZZ")[0] == 404
        assert time.monotonic() - start >= 2.0  # the 6th wrong code waited
        answers: list[int] = []
        slowed = threading.Thread(target=lambda: answers.append(client.request("GET", door + "ZZZZZ")[0]))
        slowed.start()  # waits 4 s on the server
        time.sleep(0.5)
        assert client.request("GET", door + opened.code.lower())[0] == 302  # a right code, at once
        assert slowed.is_alive() and answers == []  # while the wrong one still waits
        waiting = [threading.Thread(target=_ask, args=(door + "ZZZZZ",), daemon=True) for _ in range(CROWD)]
        for thread in waiting:
            thread.start()
        # once the crowd waits (each of its answers waits 8 s or more), the address's right codes are refused too (a
        # 429 must not say "wrong"): asked again until then, as the crowd's requests may take a while to arrive
        deadline = time.monotonic() + 20.0
        while client.request("GET", door + opened.code)[0] != 429:
            assert time.monotonic() < deadline, "the crowd's answers never all waited"
            time.sleep(0.1)
        status, headers, body = client.request("GET", door + "ZZZZZ")
        assert status == 429 and int(headers["Retry-After"]) > 0 and "Too many wrong codes" in body
        slowed.join()
        assert answers == [404]

        # wrong teacher's keys, on the door of keys: the first at once, the next one slowed, the right key at once
        dashboard = f"{url}/voila/render/dashboard.ipynb?token={TOKEN}&key="
        guesser = Client()
        for n in range(FREE_WRONG):
            assert guesser.request("GET", f"{dashboard}wrong-key-{n:08d}")[0] == 403
        start = time.monotonic()
        assert guesser.request("GET", f"{dashboard}wrong-key-99999999")[0] == 403
        assert time.monotonic() - start >= 2.0  # the 6th wrong key waited
        start = time.monotonic()
        assert guesser.request("GET", f"{dashboard}{KEY}")[0] == 302 and time.monotonic() - start < 2.0


def test_a_class_server_closes_the_waiting_rooms_left_idle(tmp_path):
    """Every ``closing_every`` seconds (here 1; a minute in class) the server closes the rooms waiting with nothing
    changed and no page seen for ``waiting_idle`` seconds (here 2; 20 minutes in class), and writes so in its log; a
    room playing is left as it is."""
    record = f"sqlite:///{tmp_path / 'record.sqlite'}"
    engine = connect(record)
    upgrade(engine)
    left = rooms.open_room(engine, "3B", "Ana", "mini", [("Ana", "human"), ("Bo", "coach")])
    playing = rooms.open_room(engine, "3B", "Cy", "mini", [("Cy", "human"), ("Bo", "coach")], holder="page-cy")
    rooms.start(engine, playing.id, "page-cy")
    write_notebook(tmp_path / "play.ipynb", "print('play')")
    faster = ("--ClassroomVoila.waiting_idle=2", "--ClassroomVoila.closing_every=1")
    log = ARTIFACTS / "voila-closing.log"
    with voila_server(tmp_path, log.name, faster, token=TOKEN, record=record, class_name="3B", pool=0):
        deadline = time.monotonic() + 120  # the room is closed, then the log says so
        while "dragonkit: 1 waiting room(s) idle for 2 s closed" not in log.read_text(errors="replace"):
            assert time.monotonic() < deadline, f"the waiting room left idle was not closed: see {log}"
            time.sleep(0.5)
        assert rooms.read(engine, room_id=left.id).status is rooms.RoomStatus.CLOSED
        assert rooms.read(engine, room_id=playing.id).status is rooms.RoomStatus.PLAYING
    engine.dispose()
    assert "Traceback" not in log.read_text(errors="replace")
