"""The rooms' door (dragonkit.server.rooms): its arithmetic without a server; then served by a server with a record
(tests/record_server.py): the door's page, a right code sent on to the play app, a wrong one answered with the page
and an alert, the play app's page with a wrong code answered before any kernel starts, wrong codes from one address
slowed while a right one is not, and a crowd of them refused."""

from __future__ import annotations

import asyncio
import contextlib
import time
import urllib.parse

import pytest

from dragonkit.record import holds, rooms
from dragonkit.record.store import connect, upgrade
from dragonkit.server.app import ClassroomVoila
from dragonkit.server.door import (
    CROWD,
    FIRST_MARK,
    FORGET,
    FREE_WRONG,
    JOIN_EVERY,
    JOINS_AT_ONCE,
    PACE,
    SLOWEST,
    Door,
    JoinPace,
    Pace,
)
from dragonkit.server.join import NICKNAME_COOKIE
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
    for _ in range(2000):  # a patient guesser of teacher's keys, 20 a minute for 100 minutes (2.0 ** 1025 overflowed)
        assert door.wrong("10.0.0.3") <= SLOWEST
        clock.now += 3.0
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
    paced = Door(clock, most=50, pace=PACE)  # browsers and their addresses, each table bounded alike
    for n in range(120):
        _guess(paced, f"browser-{n}", f"10.0.{n // 256}.{n % 256}")
    assert len(paced) == 100
    clock.now += 60  # an address whose pace is met is forgotten at the next code read
    _guess(paced, "browser-0", "10.9.9.9")
    assert len(paced) == 50 + 1


def _guess(door: Door, who: str, address: str, right: bool = False) -> bool:
    """One code of ``who`` at the door as the server gives it: whether it was read (a right one is refunded)."""
    ticket = door.admit(who, address)
    if ticket is None:
        return False
    if right:
        door.right(ticket)
    else:
        door.wrong(who)
    return True


def test_a_pacing_door_reads_an_address_no_faster_than_its_pace_however_many_browsers_guess():
    """A guesser who joined under 30 nicknames asks a wrong code every 0.1 s round its browsers for an hour (a script
    that does not wait for the slow answers: an answer not let in at once told it the code was wrong): the codes read
    from its address are the pace's in the long run (each browser read again as its mark ends, that read charged
    too), never 40 in a minute (the guesser's rate before); another address and a door that does not pace are not
    slowed by it."""
    clock = Clock()
    door = Door(clock, pace=PACE)
    read = []
    for n in range(36_000):
        if _guess(door, f"browser-{n % 30}", "10.0.0.1"):
            read.append(clock.now)
        clock.now += 0.1
    assert len([t for t in read if t < 1060.0]) <= FREE_WRONG + PACE + 30  # the burst, the pace, each browser once
    by_minute = [len([t for t in read if 1000.0 + 60 * m <= t < 1060.0 + 60 * m]) for m in range(60)]
    assert max(by_minute) < 40
    assert len(read) <= 60 * PACE + FREE_WRONG + 30  # the pace, its burst, and the last flood's browsers read once
    assert _guess(door, "browser-a", "10.0.0.2")  # another address is read
    unpaced = Door(Clock())
    assert all(_guess(unpaced, f"b{n}", "10.0.0.1") for n in range(100))


def test_a_classmate_behind_a_flooded_address_is_read_and_let_in_at_once():
    """While a guesser floods the address, a classmate's right codes are read every time (a right code never marks),
    the guesser's are refused before they are read; a classmate's typo marks it until the flood ends. A right code
    is refunded: it costs the address nothing."""
    clock = Clock()
    door = Door(clock, pace=PACE)
    while not door.flooded("10.0.0.1"):
        _guess(door, "guesser", "10.0.0.1")
    assert _guess(door, "guesser", "10.0.0.1")  # read once in the flood: marked
    assert not _guess(door, "guesser", "10.0.0.1")  # then refused before its codes are read
    assert not door.admit("guesser", "10.0.0.1")  # its right code too (a refusal of wrong codes only would tell)
    for _ in range(100):
        assert _guess(door, "classmate", "10.0.0.1", right=True)
    clock.now += 60.0 / PACE * 2.5  # the guesser's two charges past the burst are paid, the classmate's cost nothing
    assert not door.flooded("10.0.0.1")
    while not door.flooded("10.0.0.1"):
        _guess(door, f"guesser-{clock.now}", "10.0.0.1")  # new browsers, each read once
    assert _guess(door, "typo", "10.0.0.1")  # a classmate's typo in the flood is read…
    assert not door.admit("typo", "10.0.0.1")  # …and marks it a minute, while the flood lasts
    assert door.retry_after("typo") == FIRST_MARK and door.retry_after("guesser") <= FIRST_MARK
    flood_on(door, clock, minutes=FIRST_MARK / 60)  # the guesser keeps the address flooded
    assert _guess(door, "typo", "10.0.0.1")  # the minute over: read again, in the flood; wrong again…
    assert door.retry_after("typo") == 2 * FIRST_MARK  # …two minutes
    clock.now += 2 * FIRST_MARK
    door.waiting["typo"] = CROWD  # its mark over, but ten of its replies wait: the replies' time, not the mark's
    assert door.crowded("typo", "10.0.0.1") and door.retry_after("typo") == SLOWEST
    del door.waiting["typo"]
    clock.now -= 2 * FIRST_MARK
    flood_on(door, clock, minutes=2 * FIRST_MARK / 60)
    assert _guess(door, "typo", "10.0.0.1", right=True)  # right, in the flood: in at once, and again
    assert _guess(door, "typo", "10.0.0.1", right=True) and door.marked_for("typo") == 0
    assert _guess(door, "typo", "10.0.0.1")  # a third typo: four minutes (a right code did not start its marks again,
    assert door.retry_after("typo") == 4 * FIRST_MARK  # else a guesser who knows its own room's code would be read
    flood_on(door, clock, minutes=4 * FIRST_MARK / 60)  # once a minute by each of its browsers)
    clock.now += 600
    assert not door.flooded("10.0.0.1") and _guess(door, "typo", "10.0.0.1", right=True)
    assert door.waiting == {}


def flood_on(door: Door, clock: Clock, minutes: float) -> None:
    """A guesser's browser keeps the address 10.0.0.1 flooded for ``minutes``, a code every second: it is read as
    its marks end, and from the first it is refused in between."""
    end = clock.now + minutes * 60
    while clock.now < end:
        _guess(door, "keeper", "10.0.0.1")
        assert door.flooded("10.0.0.1")
        clock.now += 1.0


def test_the_join_pace_takes_a_class_at_once_then_one_a_minute():
    clock = Clock()
    joins = Pace(JOIN_EVERY, JOINS_AT_ONCE, clock)
    for _ in range(JOINS_AT_ONCE):
        assert not joins.over("10.0.0.1")
        joins.charge("10.0.0.1")
    assert joins.over("10.0.0.1") and 59.0 < joins.ahead("10.0.0.1") <= 60.0
    assert not joins.over("10.0.0.2")  # another address
    joins.refund("10.0.0.1")  # a join that took nothing
    assert not joins.over("10.0.0.1")
    joins.charge("10.0.0.1")
    clock.now += JOIN_EVERY
    assert not joins.over("10.0.0.1")
    taking = JoinPace(JOINS_AT_ONCE, clock)  # each nickname taken kept with its address, while its charge lasts
    for n in range(JOINS_AT_ONCE):
        taking.pace.charge("10.0.0.1")
        taking.taken(f"hold-{n}", "10.0.0.1")
    assert taking.pace.over("10.0.0.1") and len(taking.holds()) == JOINS_AT_ONCE
    taking.released(["hold-0", "hold-0", "unknown"])  # the teacher released one: one back, once
    assert not taking.pace.over("10.0.0.1")
    taking.pace.charge("10.0.0.1")
    assert taking.pace.over("10.0.0.1")
    clock.now += JOINS_AT_ONCE * JOIN_EVERY + 1
    taking.taken("hold-late", "10.0.0.2")
    assert taking.holds() == {"hold-late"}  # the others' charges have run out: nothing left to give back
    assert ClassroomVoila.joins_at_once.default_value == JOINS_AT_ONCE  # what dragonkit serve leaves to the server
    assert ClassroomVoila.codes_a_minute.default_value == PACE


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
    student = joined(record_server.url)
    status, _headers, body = student.request("GET", _door(record_server))
    assert status == 200 and 'id="code"' in body
    for typed in (room.code, f" {room.code[:2].lower()}-{room.code[2:]} "):
        status, headers, _body = student.request("GET", _door(record_server, code=typed, lang="it"))
        assert status == 302
        target = urllib.parse.urlsplit(headers["Location"])
        assert target.path == "/voila/render/play.ipynb"
        assert urllib.parse.parse_qs(target.query) == {"room": [room.code], "lang": ["it"]}


def test_a_browser_that_holds_no_nickname_is_asked_to_join_before_its_code_is_read(record_server, room):
    """The door is the class's students': a browser with no nickname of the class (a script that drops its cookies)
    gets the join page, whose form comes back to the door, and no answer about the code."""
    for code in (room.code, "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY"):
        status, _headers, body = Client().request("GET", _door(record_server, code=code))
        assert status == 200 and 'name="nickname"' in body and "No room has the code" not in body
        assert "next=%2Fdragonkit%2Froom%3F" in body


def test_a_wrong_code_gets_the_page_again_with_an_alert(record_server, room):
    wrong = "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY"
    status, _headers, body = joined(record_server.url).request("GET", _door(record_server, code=wrong))
    assert status == 404 and 'role="alert"' in body and wrong in body


def test_the_play_app_with_a_wrong_code_starts_no_kernel(record_server, room):
    wrong = "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY"
    address = f"{record_server.url}/voila/render/lesson.ipynb?token={TOKEN}&room={wrong}&probe=door"
    status, _headers, body = joined(record_server.url).request("GET", address)
    assert status == 404 and "No room has the code" in body and "a stand-in page" not in body
    assert not any("probe=door" in p.read_text() for p in record_server.probes.glob("*.json"))


def test_wrong_codes_are_slowed_and_a_guesser_refused_while_its_classmates_go_through(tmp_path):
    """On a server of its own (the counts are the server's; its pace 2 codes a minute, so that the flood outlasts a
    loaded machine's slowness): a guesser's first wrong codes answer at once, until the address is flooded; its
    next wrong code is read and waits; then it is refused (429, Retry-After) before its codes are read, a right one
    too (else a 429 would answer a guess at once), while a classmate behind the same address (a school's) gets in at
    once with the right code, again and again. A classmate's typo in the flood marks it too. The join page takes
    JOINS_AT_ONCE nicknames from an address at once, then refuses (a browser per nickname would be a new guesser).
    Wrong teacher's keys are slowed alike (they were answered 1,250 a second), the right key never."""
    record = f"sqlite:///{tmp_path / 'record.sqlite'}"
    engine = connect(record)
    upgrade(engine)
    opened = rooms.open_room(engine, "3B", "Ana", "mini", [("Ana", "human"), ("Bo", "coach")])
    engine.dispose()
    write_notebook(tmp_path / "play.ipynb", "print('play')")
    options = {"token": TOKEN, "teacher_key": KEY, "record": record, "class_name": "3B", "pool": 0}
    with voila_server(
        tmp_path,
        "voila-door.log",
        ("--ClassroomVoila.codes_a_minute=2", "--ClassroomVoila.release_check_every=1"),
        joins_at_once=JOINS_AT_ONCE,
        **options,
    ) as url:
        door = f"{url}/dragonkit/room?token={TOKEN}&code="
        guesser, classmate, typist = joined(url, "Guesser"), joined(url, "Classmate"), joined(url, "Typist")
        for _ in range(FREE_WRONG):
            assert guesser.request("GET", door + "ZZZZZ")[0] == 404
        start = time.monotonic()
        assert guesser.request("GET", door + "ZZZZZ")[0] == 404  # read once in the flood
        assert time.monotonic() - start >= 2.0  # its 6th wrong code waited
        status, headers, body = guesser.request("GET", door + "ZZZZZ")
        assert status == 429 and int(headers["Retry-After"]) > 0 and "Too many wrong codes" in body
        assert guesser.request("GET", door + opened.code.lower())[0] == 429  # a right code too: nothing told
        for _ in range(3):
            start = time.monotonic()
            assert classmate.request("GET", door + opened.code)[0] == 302  # the same address, another browser
            assert time.monotonic() - start < 2.0
        assert typist.request("GET", door + "ZZZZZ")[0] == 404  # a typo in the flood: read…
        status, headers, body = typist.request("GET", door + opened.code)  # …and the typist refused a minute at most
        assert status == 429 and 0 < int(headers["Retry-After"]) <= FIRST_MARK
        assert f"try again in {headers['Retry-After']} seconds" in body
        # a browser per nickname: the join page takes a class at once from an address, then one a minute
        for n in range(JOINS_AT_ONCE - 3):
            joined(url, f"Student {n}")
        late = Client()
        late.request("GET", f"{url}/?token={TOKEN}")
        status, headers, body = late.join(f"{url}/dragonkit/join?next=/", "Latecomer")
        assert status == 429 and int(headers["Retry-After"]) > 0 and "Too many nicknames" in body
        assert late.cookie(NICKNAME_COOKIE) is None
        # the teacher releases two of the nicknames taken (a student took the class's in a second): two come back
        released = connect(record)
        assert holds.release(released, "3B", "Student 0") and holds.release(released, "3B", "Student 1")
        released.dispose()
        deadline = time.monotonic() + 30  # the server looks for releases every second here
        while late.join(f"{url}/dragonkit/join?next=/", "Latecomer")[0] == 429:
            assert time.monotonic() < deadline, "the released nicknames gave the address none back"
            time.sleep(0.5)
        assert late.cookie(NICKNAME_COOKIE) is not None
        assert joined(url, "Another").cookie(NICKNAME_COOKIE) is not None  # the second one given back
        third = Client()
        third.request("GET", f"{url}/?token={TOKEN}")
        assert third.join(f"{url}/dragonkit/join?next=/", "A third")[0] == 429  # and no more

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
