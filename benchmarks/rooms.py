"""Rooms under load and under a kill: a class in rooms of four, each student's page a websocket visitor.

    python benchmarks/rooms.py --rooms 10 --actions 40                 # a class of 40 in 10 rooms of 4, dashboard open
    python benchmarks/rooms.py --rooms 4 --actions 60 --kill-after 20  # SIGKILL the server mid-play, start it again

Starts the server as ``dragonkit serve`` does (the record in an SQLite file of its own brought to the newest schema,
preheated kernels, the teacher's key) on 127.0.0.1. Each student joins the class as ``student-N``. In each room a host
opens the play app, sets four players and presses "Open a room"; three others open ``play.ipynb?room=<the code>``;
the host starts the game. Then the room plays ``--actions`` moves: the page whose buttons show (its player's turn)
clicks (reveal, hold now and then, decline offers), and every page of the room waits for the move to appear in its
event log. The visitors are the benchmark's websocket clients (benchmarks/classroom.py: they speak to Voilà as a
browser does), each from its own loopback address; the teacher's dashboard is open the whole time.

Reports, for every move, the time from the click being sent to the moment each of the **other three** pages received
the update that shows it (median, 95th percentile, max over every move and observer: the issue's target is a median of
150 ms and a 95th percentile of 500 ms on two cores), the mover's own click-to-update time, how long the rooms took to
open, errors, the machine's CPU, and the moves in the record against the moves made.

With ``--kill-after S`` the server is killed with SIGKILL after S seconds of play, started again on the same record;
each student opens the play app again (no code: the page finds its player's room and takes the seat back) and the
rooms play on to the end of their ``--actions``. It reports every move that all four pages had seen before the kill
and whether the record holds it, the rooms that resumed, the kernels the kill left behind (ipykernel ends itself when
its parent dies), and SQLite's integrity check.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout: benchmark the checkout's dragonkit
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import (  # noqa: E402
    PACE,
    V1_PROTOCOL,
    KernelSocket,
    PlayPage,
    Visitor,
    _free_port,
    _machine_busy_seconds,
    _page_kernel_and_root,
    _watch_dashboard,
    join_class,
    kernels_of,
    stop_server,
)

from dragonkit import cli  # noqa: E402
from dragonkit.cli import ServeOptions, notebooks_dir  # noqa: E402

SEATS = 4
TIMEOUT = 120.0
#: The coach's settings of a room, as the rooms' form labels them.
COACH_LABELS = {"on": "coach on", "off": "coach off", "after": "coach after the game"}
_CODE = re.compile(r'class="dk-room-code"[^>]*>([A-Z0-9]{5})<')


@dataclass
class Figures:
    seen: list[float] = field(default_factory=list)  # click -> each other page's update (seconds)
    own: list[float] = field(default_factory=list)  # click -> the mover's own update
    moves: dict[str, int] = field(default_factory=dict)  # room code -> moves all four pages saw
    errors: list[str] = field(default_factory=list)
    open_seconds: list[float] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)  # rooms whose game ended
    coach: str = "on"


async def open_page(base: str, token: str, visitor: Visitor, query: str = "") -> PlayPage:
    """A student's play app (their nickname held: :func:`join_class`), its widgets in sync."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    if visitor.cookie is None:
        visitor.cookie = await join_class(base, token, f"student-{visitor.number}", visitor.address, TIMEOUT)
    response = await AsyncHTTPClient().fetch(
        HTTPRequest(
            f"http://{base}/voila/render/play.ipynb?token={token}{query}",
            headers={"Cookie": visitor.cookie},
            request_timeout=TIMEOUT,
            connect_timeout=TIMEOUT,
            network_interface=visitor.address,
        )
    )
    kernel_id, root, errors = _page_kernel_and_root(response.body.decode())
    visitor.errors += errors
    session = uuid.uuid4().hex
    connection = await websocket_connect(
        HTTPRequest(
            f"ws://{base}/api/kernels/{kernel_id}/channels?session_id={session}&token={token}",
            connect_timeout=TIMEOUT,
            request_timeout=TIMEOUT,
            network_interface=visitor.address,
        ),
        subprotocols=[V1_PROTOCOL],
        max_message_size=64 * 2**20,
    )
    sock = KernelSocket(connection, session)
    await sock.request("kernel_info_request", {}, TIMEOUT)
    await sock.sync_widgets(TIMEOUT)
    await sock.update(root, _view_count=1)  # as a browser's widget manager says once it has drawn the page
    return PlayPage(sock, root)


def _button(page: PlayPage, label: str) -> str | None:
    for model_id in page.in_order():
        state = page.models[model_id]
        if state.get("_model_name") == "ButtonModel" and str(state.get("description", "")).startswith(label):
            return model_id
    return None


def _lobby(page: PlayPage) -> str:
    model_id = page.html_containing('class="dk-lobby"')
    return "" if model_id is None else str(page.models[model_id]["value"])


async def open_room(base: str, token: str, people: list[Visitor], figures: Figures) -> tuple[str, list[PlayPage]]:
    """The host opens a room of four; three others join it with its code; the host starts the game."""
    started = time.monotonic()
    host = await open_page(base, token, people[0])
    await host.socket.wait_for(lambda: _button(host, "Open a room"), TIMEOUT, "the rooms' form")
    dropdowns, _seed = host.form_fields()
    await host.choose(dropdowns[0], str(SEATS), SEATS - 2)
    await host.socket.wait_for(lambda: len(host.form_fields()[0]) >= SEATS + 2, TIMEOUT, "four seats")
    shown = [m for m in host.in_order() if host.models[m].get("_model_name") == "DropdownModel"]
    coach = next(d for d in shown if "coach off" in host.models[d].get("_options_labels", []))
    await host.choose(coach, COACH_LABELS[figures.coach], 0)
    await host.socket.finished(await host.socket.click(_button(host, "Open a room")), TIMEOUT)
    found = await host.socket.wait_for(lambda: _CODE.search(_lobby(host)), TIMEOUT, "the room's code")
    code = found.group(1)
    pages = [host]
    for visitor in people[1:]:
        page = await open_page(base, token, visitor, f"&room={code}")
        await page.socket.wait_for(lambda page=page: code in _lobby(page), TIMEOUT, "the lobby")
        pages.append(page)
    names = [f"student-{v.number}" for v in people]
    await host.socket.wait_for(lambda: all(n in _lobby(host) for n in names), TIMEOUT, "every player in the lobby")
    await host.socket.finished(await host.socket.click(host.button("start")), TIMEOUT)
    for page in pages:
        await page.socket.wait_for(lambda page=page: page.events() is not None, TIMEOUT, "the board")
    figures.open_seconds.append(time.monotonic() - started)
    return code, pages


def _move(page: PlayPage, made: int) -> str | None:
    """The button this page's player presses now, if it is their turn: reveal, hold every third move, decline."""
    for role in ("decline", "reveal", "hold"):
        button = page.button(role)
        if button is not None:
            if role == "reveal" and made % 3 == 2:
                return page.button("hold") or button
            return button
    return None


_EVENTS = re.compile(r'data-events="(\d+)"')


def _events(page: PlayPage, log: str) -> int:
    """The event count of the log widget ``log`` (found once: the client looks at it at every update)."""
    found = _EVENTS.search(str(page.models.get(log, {}).get("value", "")))
    return int(found.group(1)) if found else 0


async def _shown(page: PlayPage, count: int, clicked: float, code: str) -> float:
    """Seconds from ``clicked`` until ``page``'s event log holds more than ``count`` events."""
    log = page.html_containing('class="dk-log"') or ""
    await page.socket.wait_for(lambda: _events(page, log) > count, TIMEOUT, f"room {code}'s move")
    return time.monotonic() - clicked


async def play(code: str, pages: list[PlayPage], moves: int, figures: Figures, stop: asyncio.Event) -> None:
    """Play the room's game for ``moves`` moves (or to its end, or until ``stop``): each move clicked on its mover's
    page and timed until every page of the room shows it."""
    made = figures.moves.get(code, 0)
    while made < moves and not stop.is_set() and not pages[0].game_over():
        mover = None
        deadline = time.monotonic() + TIMEOUT
        while mover is None:
            mover = next((p for p in pages if _move(p, made) is not None), None)
            if mover is None:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"room {code}: no page may move")
                await asyncio.sleep(0.02)
        before = [p.events() or 0 for p in pages]
        clicked = time.monotonic()
        await mover.socket.click(_move(mover, made))

        delays = await asyncio.gather(*(_shown(p, n, clicked, code) for p, n in zip(pages, before)))
        for page, delay in zip(pages, delays):
            (figures.own if page is mover else figures.seen).append(delay)
        made += 1
        figures.moves[code] = made
        await asyncio.sleep(PACE)
        for page in pages:
            shown_messages = [m for m in page.messages() if "cannot be reached" not in m]
            if shown_messages:
                raise RuntimeError(f"room {code}: the app says {shown_messages[0]!r}")
    if pages[0].game_over():
        figures.ended.append(code)


def start_server(options: ServeOptions, record: str, key: str, log_path: Path) -> subprocess.Popen:
    from dragonkit.record.command import prepare

    print(prepare(record), flush=True)  # as dragonkit serve does before its first page
    served = replace(options, record=record, class_name="rooms", teacher_key=key)
    pythonpath = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with open(log_path, "ab") as log:
        server = cli.start_server(
            served, notebooks_dir(), environment={"PYTHONPATH": pythonpath}, stdout=log, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 120
    import socket

    while True:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", options.port)) == 0:
                return server
        if time.monotonic() > deadline or server.poll() is not None:
            raise RuntimeError(f"the server did not start (see {log_path})")
        time.sleep(0.3)


def _alive(pids: list[int]) -> int:
    """How many of ``pids`` are still running."""
    return sum(Path(f"/proc/{pid}").exists() for pid in pids)


def _stored(record: str) -> dict[str, int]:
    from dragonkit.record import rooms
    from dragonkit.record.reading import rooms as room_table
    from dragonkit.record.store import connect

    engine = connect(record)
    try:
        table = room_table(engine, "rooms")
        return {
            row["code"]: len(rooms.moves(engine, rooms.read(engine, row["code"]).id))
            for row in table.to_dict("records")
        }
    finally:
        engine.dispose()


async def _class(base: str, token: str, key: str, rooms_n: int, moves: int, figures: Figures, kill_after: float):
    stats: dict = {"errors": [], "updates": 0}
    done = asyncio.Event()
    teacher = asyncio.create_task(_watch_dashboard(base, token, key, TIMEOUT, stats, done))
    people = [Visitor(i) for i in range(rooms_n * SEATS)]
    tables = await asyncio.gather(
        *(open_room(base, token, people[r * SEATS : (r + 1) * SEATS], figures) for r in range(rooms_n))
    )
    stop = asyncio.Event()
    if kill_after:
        asyncio.get_running_loop().call_later(kill_after, stop.set)
    results = await asyncio.gather(
        *(play(code, pages, moves, figures, stop) for code, pages in tables), return_exceptions=True
    )
    figures.errors += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    done.set()
    await teacher
    figures.errors += stats["errors"]
    for _code, pages in tables:
        for page in pages:
            figures.errors += page.socket.errors
            with contextlib.suppress(Exception):
                await page.socket.close()
    return people, [code for code, _pages in tables], stats


async def _again(
    base: str, token: str, people: list[Visitor], codes: list[str], ended: set[str], moves: int, figures: Figures
):
    """After the restart: each student opens the play app again (no code) and takes their seat back; the rooms play
    on. The students of a room whose game had ended (``ended``) get the play app's setup: nothing to resume."""
    tables = []
    for r, code in enumerate(codes):
        pages = []
        for visitor in people[r * SEATS : (r + 1) * SEATS]:
            page = await open_page(base, token, visitor)
            if code in ended:
                await page.socket.wait_for(lambda page=page: _button(page, "Open a room"), TIMEOUT, "the setup")
                await page.socket.close()
                continue
            await page.socket.wait_for(lambda page=page: page.events() is not None, TIMEOUT, "the room again")
            pages.append(page)
        if pages:
            tables.append((code, pages))
    results = await asyncio.gather(
        *(play(code, pages, moves, figures, asyncio.Event()) for code, pages in tables), return_exceptions=True
    )
    figures.errors += [f"after the restart: {type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    resumed = sum(1 for code, _p in tables if figures.moves.get(code, 0) >= moves or _p[0].game_over())
    for _code, pages in tables:
        for page in pages:
            with contextlib.suppress(Exception):
                await page.socket.close()
    return resumed


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    p95 = statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]
    return (
        f"median {statistics.median(values) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {max(values) * 1000:.0f} ms ({len(values)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10, help="rooms of four (default 10: a class of 40)")
    parser.add_argument("--actions", type=int, default=40, help="moves each room plays (default 40)")
    parser.add_argument("--pool", type=int, default=4, help="preheated kernels (default 4)")
    parser.add_argument("--coach", choices=list(COACH_LABELS), default="on", help="the rooms' coach (default on)")
    parser.add_argument("--kill-after", type=float, default=0.0, help="SIGKILL the server after this many seconds")
    args = parser.parse_args()
    options = ServeOptions(port=_free_port(), token=secrets.token_urlsafe(16), pool=args.pool)
    key = secrets.token_urlsafe(16)
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"dragonkit-rooms-{options.port}"
    folder.mkdir()
    record, log_path = f"sqlite:///{folder / 'record.sqlite'}", folder / "server.log"
    base = f"127.0.0.1:{options.port}"
    figures = Figures(coach=args.coach)
    server = start_server(options, record, key, log_path)
    busy, wall, mine = _machine_busy_seconds(), time.monotonic(), time.process_time()
    try:
        people, codes, stats = asyncio.run(
            _class(base, options.token, key, args.rooms, args.actions, figures, args.kill_after)
        )
        if args.kill_after:
            seen_before = dict(figures.moves)
            ended = set(figures.ended)
            kernels = kernels_of(server.pid)  # the server's kernels
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            time.sleep(5)
            orphans = _alive(kernels)
            stored = _stored(record)
            kept = sum(min(seen_before.get(c, 0), stored.get(c, 0)) for c in codes)
            print(
                f"killed after {args.kill_after:.0f} s: {sum(seen_before.values())} moves seen by all four pages; "
                f"{kept} of them in the record; of the server's {len(kernels)} kernels, {orphans} still ran 5 s after"
            )
            server = start_server(options, record, key, log_path)
            resumed = asyncio.run(_again(base, options.token, people, codes, ended, args.actions, figures))
            from dragonkit.record.store import check_integrity, connect

            engine = connect(record)
            integrity = check_integrity(engine)
            engine.dispose()
            print(
                f"after the restart: {resumed} of {len(codes) - len(ended)} rooms resumed and played on to their end "
                f"({len(ended)} had ended before the kill: their students got the setup); integrity: {integrity}"
            )
    finally:
        stop_server(server)
    elapsed = time.monotonic() - wall
    cpu = (_machine_busy_seconds() - busy) / elapsed / (os.cpu_count() or 1)
    client = (time.process_time() - mine) / elapsed / (os.cpu_count() or 1)
    stored = _stored(record)
    print(
        f"{args.rooms} rooms of {SEATS} ({args.rooms * SEATS} students), the teacher's dashboard open "
        f"(updates {stats['updates']}); rooms opened in {_ms(figures.open_seconds)}"
    )
    print(f"a move seen by the other three pages: {_ms(figures.seen)}")
    print(f"a move seen by its mover's page:      {_ms(figures.own)}")
    print(f"moves made {sum(figures.moves.values())}, in the record {sum(stored.values())}; ", end="")
    print(f"machine CPU {cpu:.0%} (this script's visitors {client:.0%})")
    for error in figures.errors[:10]:
        print(f"error: {error}")
    print(f"errors: {len(figures.errors)}; server log: {log_path}")
    return 1 if figures.errors else 0


if __name__ == "__main__":
    sys.exit(main())
