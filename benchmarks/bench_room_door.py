"""Benchmark: the rooms' door under a guesser, and the students who type a right code meanwhile; a guesser of the
teacher's key; the door's memory with 100,000 browsers.  Run by hand:

    python benchmarks/bench_room_door.py [--attack 120] [--at-once 20] [--browsers 10] [--patience 0.4]
        [--students 10] [--quiet 15] [--attempts 200]

Starts ``dragonkit serve`` (a token, no pool, an SQLite record of its own) on a free port of 127.0.0.1 and opens one
room in its record. Every browser joins the class first, as the door asks (a nickname of its own). Then two phases:

* without the guesser: ``--students`` clients, each from its own loopback address (127.0.0.3, .4 …: its own computer,
  as the server sees it), ask ``/dragonkit/room?code=<the room's code>`` every 100 ms for ``--quiet`` seconds;
* with the guesser: the same students, while one address (127.0.0.2) tries wrong codes for ``--attack`` seconds,
  ``--at-once`` at a time, round the ``--browsers`` browsers it joined the class with. It waits ``--patience``
  seconds for an answer: a right code is let in at once, so an answer not come by then tells it the code was wrong
  (as a 404 does); refused (429), it takes one more nickname, for one more browser (what a student who wants to guess
  faster would do).

A classmate of the guesser, behind the same address (a school's), asks the right code every 100 ms in both phases.
Prints how the guesser's codes were answered (read and told wrong: a 404 or no answer in time; refused, 429, which
says nothing of the code), the codes a minute it learnt were wrong, the nicknames it took and was refused, and the
students' latency (median and 95th percentile, every answer a 302 to the room's page) without and with the guesser,
the classmate's apart (and how often it was refused). Then the same guesser tries ``--attempts`` wrong teacher's keys
at the dashboard's address, ``--at-once`` at a time: how they were answered, and how many a minute. Last, without a
server, the rooms' door (:class:`dragonkit.server.door.Door`) reads a wrong code from each of 100,000 browsers, each
behind an address of its own: its memory (``tracemalloc``), and the time of a wrong code once it is full.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout: benchmark the checkout's dragonkit
    sys.path.insert(0, str(ROOT))

from classroom import join_class  # noqa: E402  (benchmarks/, beside this script)
from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402
from tornado.simple_httpclient import HTTPTimeoutError  # noqa: E402

from dragonkit.bots import BotKind  # noqa: E402
from dragonkit.record import rooms  # noqa: E402
from dragonkit.record.store import connect  # noqa: E402
from dragonkit.server.door import FREE_WRONG, MOST_ADDRESSES, PACE, SLOWEST, Door  # noqa: E402

GUESSER = "127.0.0.2"
#: Seconds between two asks of one student.
EVERY = 0.1
#: An answer slower than this was made to wait by the door (its shortest wait is 2 s).
WAITED = 1.0


@dataclass
class Figures:
    """What one phase saw: the students' latencies (seconds), their answers that were not 302, the guesser's
    classmate's latencies, the guesser's answers as (status, seconds, when it came after the phase's start; status
    599: no answer within its patience), and the nicknames it took during the phase and was refused."""

    students: list[float] = field(default_factory=list)
    student_errors: list[str] = field(default_factory=list)
    classmate: list[float] = field(default_factory=list)
    classmate_refused: int = 0
    guesses: list[tuple[int, float, float]] = field(default_factory=list)
    seconds: float = 0.0
    joins: int = 0
    joins_refused: int = 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, token: str, record: str, log: Path, key: str) -> subprocess.Popen:
    """``dragonkit serve`` with the record ``record`` and the teacher's key ``key``, once it answers."""
    command = [sys.executable, "-m", "dragonkit.cli", "serve", "--no-browser", f"--port={port}", f"--token={token}"]
    command += ["--pool=0", f"--record={record}", "--class=bench", f"--teacher-key={key}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    with open(log, "wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and server.poll() is None:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return server
        time.sleep(0.2)
    server.kill()
    raise RuntimeError(f"the server did not start; see {log}")


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server as a service manager does (SIGTERM, which ``dragonkit serve`` handles as Ctrl-C), then SIGKILL
    after 30 s. Not SIGINT: a benchmark started in the background (``nohup … &``) ignores SIGINT, and so do its
    children; the SIGKILL that followed left the Voilà server running without its ``dragonkit serve``."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


async def _ask(client: AsyncHTTPClient, url: str, source: str, cookie: str) -> tuple[int, float]:
    headers = {"Cookie": cookie}
    request = HTTPRequest(url, follow_redirects=False, network_interface=source, request_timeout=120, headers=headers)
    started = time.perf_counter()
    response = await client.fetch(request, raise_error=False)
    return response.code, time.perf_counter() - started


async def _student(
    client: AsyncHTTPClient, url: str, source: str, cookie: str, figures: Figures, until: asyncio.Event
) -> None:
    while not until.is_set():
        started = time.perf_counter()
        status, seconds = await _ask(client, url, source, cookie)
        if source == GUESSER:  # behind the guesser's address: refused while it floods the door (429), else let in
            figures.classmate_refused += status == 429
            if status == 302:
                figures.classmate.append(seconds)
            elif status != 429:
                figures.student_errors.append(f"{source}: {status}")
        else:
            figures.students.append(seconds)
            if status != 302:
                figures.student_errors.append(f"{source}: {status}")
        await asyncio.sleep(max(0.0, EVERY - (time.perf_counter() - started)))


async def _guesser(
    client: AsyncHTTPClient, addresses: list[str], at_once: int, figures: Figures, started: float, browsers: list[str]
) -> None:
    guesses = enumerate(addresses)

    async def one_at_a_time() -> None:
        for n, address in guesses:
            status, seconds = await _ask(client, address, GUESSER, browsers[n % len(browsers)])
            figures.guesses.append((status, seconds, time.perf_counter() - started))

    await asyncio.gather(*(one_at_a_time() for _ in range(at_once)))


def _code() -> str:
    return "".join(random.choice(rooms.CODE_ALPHABET) for _ in range(rooms.CODE_LENGTH))


async def _code_guesser(
    client: AsyncHTTPClient,
    base: str,
    token: str,
    room: str,
    seconds: float,
    at_once: int,
    patience: float,
    figures: Figures,
    browsers: list[str],
) -> None:
    """Wrong codes for ``seconds``, ``at_once`` at a time, round ``browsers``; an answer not let in within
    ``patience`` seconds tells the code was wrong (a right one is let in at once), so the guesser waits no longer;
    refused (429), it takes one more nickname for one more browser."""
    host, started = base.split("/")[2], time.perf_counter()
    turn = iter(range(10**9))

    async def one_at_a_time() -> None:
        while time.perf_counter() - started < seconds:
            n = next(turn)
            code = _code()
            while code == room:
                code = _code()
            headers = {"Cookie": browsers[n % len(browsers)]}
            request = HTTPRequest(
                f"{base}&code={code}",
                follow_redirects=False,
                network_interface=GUESSER,
                request_timeout=patience,
                headers=headers,
            )
            asked = time.perf_counter()
            try:
                status = (await client.fetch(request, raise_error=False)).code
            except HTTPTimeoutError:
                status = 599
            figures.guesses.append((status, time.perf_counter() - asked, time.perf_counter() - started))
            if status == 429:
                try:
                    browsers.append(await join_class(host, token, f"Guesser {secrets.token_hex(4)}", GUESSER))
                    figures.joins += 1
                except ConnectionError:
                    figures.joins_refused += 1

    await asyncio.gather(*(one_at_a_time() for _ in range(at_once)))


async def phase(
    base: str,
    token: str,
    room: str,
    students: int,
    attack: float,
    at_once: int,
    quiet: float,
    browsers: int,
    patience: float,
) -> Figures:
    """One phase: the students for ``quiet`` seconds (``attack`` 0), or while the guesser guesses for ``attack``
    seconds from ``browsers`` browsers and more; each browser joins the class first."""
    client = AsyncHTTPClient(force_instance=True, max_clients=students + at_once + 8)
    figures, until = Figures(), asyncio.Event()
    host = base.split("/")[2]
    addresses = [f"127.0.0.{3 + n}" for n in range(students)]
    # a classmate of the guesser, behind the same address (a school's), types the right code too
    addresses.append(GUESSER)
    cookies = [await join_class(host, token, f"Student {secrets.token_hex(4)}", address) for address in addresses]
    asking = [
        asyncio.create_task(_student(client, f"{base}&code={room}", address, cookie, figures, until))
        for address, cookie in zip(addresses, cookies, strict=True)
    ]
    started = time.perf_counter()
    if attack:
        guessers = [await join_class(host, token, f"Guesser {secrets.token_hex(4)}", GUESSER) for _ in range(browsers)]
        started = time.perf_counter()
        await _code_guesser(client, base, token, room, attack, at_once, patience, figures, guessers)
    else:
        await asyncio.sleep(quiet)
    figures.seconds = time.perf_counter() - started
    until.set()
    await asyncio.gather(*asking)
    client.close()
    return figures


async def keys_phase(dashboard: str, attempts: int, at_once: int) -> Figures:
    """The guesser's ``attempts`` wrong teacher's keys at ``dashboard`` (its address ending ``key=``)."""
    client = AsyncHTTPClient(force_instance=True, max_clients=at_once + 4)
    figures, started = Figures(), time.perf_counter()
    keys = [f"{dashboard}{secrets.token_urlsafe(16)}" for _ in range(attempts)]
    await _guesser(client, keys, at_once, figures, started, [""])
    figures.seconds = time.perf_counter() - started
    client.close()
    return figures


def door_memory(addresses: int = MOST_ADDRESSES) -> tuple[float, float]:
    """The memory (MiB) of the rooms' door with each of its tables full: a wrong code read from each of ``addresses``
    browsers (a hold's digest is 64 characters), each behind an address of its own, then from each again behind one
    flooded address (each marked), all within a moment (nothing forgotten: the worst case); and the microseconds of one
    more wrong code read once it is full (the median of 1,000)."""
    import hashlib
    import tracemalloc

    def browser(n: int) -> str:
        return hashlib.sha256(str(n).encode()).hexdigest()

    def address(n: int) -> str:
        return f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    door = Door(lambda: 1000.0, pace=PACE)
    for n in range(addresses):
        ticket = door.admit(browser(n), address(n))
        assert ticket is not None
        door.wrong(ticket.who)
    for n in range(addresses):
        door.admit(browser(n), "11.0.0.1")
    mib = (tracemalloc.get_traced_memory()[0] - before) / 2**20
    tracemalloc.stop()
    times = []
    for n in range(1000):
        who = browser(addresses + n)
        started = time.perf_counter()
        ticket = door.admit(who, address(addresses + n))
        if ticket is not None:
            door.wrong(who)
        times.append(time.perf_counter() - started)
    assert len(door) >= 3 * min(addresses, MOST_ADDRESSES) - FREE_WRONG  # the first read before the flood: unmarked
    return mib, statistics.median(times) * 1e6


def _codes_read(log: str) -> int:
    """The wrong codes of the guesser's address the server read, as its log says: its 404s of the door (the guesser
    hangs up on a slow one, the server answers it all the same)."""
    return sum("404 GET /dragonkit/room" in line and f"@{GUESSER})" in line for line in log.splitlines())


def _percentiles(seconds: list[float]) -> str:
    if len(seconds) < 2:
        return "no answers"
    ninety_fifth = statistics.quantiles(seconds, n=20)[-1]
    return f"median {statistics.median(seconds) * 1000:.1f} ms, p95 {ninety_fifth * 1000:.1f} ms ({len(seconds)} asks)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=200, help="the guesser's wrong keys (default 200)")
    parser.add_argument("--at-once", type=int, default=20, help="the guesser's attempts at once (default 20)")
    parser.add_argument("--students", type=int, default=10, help="students typing the right code (default 10)")
    parser.add_argument("--quiet", type=float, default=15.0, help="seconds of the phase without the guesser")
    parser.add_argument("--browsers", type=int, default=10, help="the guesser's browsers, a nickname each (default 10)")
    parser.add_argument("--attack", type=float, default=120.0, help="seconds the guesser guesses codes (default 120)")
    parser.add_argument("--patience", type=float, default=0.4, help="seconds the guesser waits for an answer")
    args = parser.parse_args()
    port, token, key = _free_port(), secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory() as folder:
        record = f"sqlite:///{Path(folder) / 'record.sqlite'}"
        log = Path(folder) / "server.log"
        server = start_server(port, token, record, log, key)
        try:
            engine = connect(record)  # the server brought the record to the newest schema before it started
            room = rooms.open_room(engine, "bench", "Ana", "dragon-stripes", [("Ana", BotKind.HUMAN), ("Bo", "coach")])
            engine.dispose()
            base = f"http://127.0.0.1:{port}/dragonkit/room?token={token}"
            asked = (base, token, room.code, args.students)
            quiet = asyncio.run(phase(*asked, 0, args.at_once, args.quiet, 0, args.patience))
            attacked = asyncio.run(phase(*asked, args.attack, args.at_once, args.quiet, args.browsers, args.patience))
            time.sleep(SLOWEST + 1)  # the replies the guesser did not wait for, written in the log
            read_by_server = _codes_read(log.read_text(errors="replace"))
            dashboard = f"http://127.0.0.1:{port}/voila/render/dashboard.ipynb?token={token}&key="
            keys = asyncio.run(keys_phase(dashboard, args.attempts, args.at_once))
        finally:
            stop_server(server)
    read = sum(status in (404, 599) for status, _, _ in attacked.guesses)  # a code the door read, told wrong
    refused = sum(status == 429 for status, _, _ in attacked.guesses)
    other = len(attacked.guesses) - read - refused
    minutes = attacked.seconds / 60
    print(f"guesser: {len(attacked.guesses)} wrong codes from {GUESSER} in {attacked.seconds:.1f} s,", end=" ")
    print(f"{args.at_once} at a time, from {args.browsers} browsers and one more nickname at each refusal", end=" ")
    print(f"({attacked.joins} taken, {attacked.joins_refused} refused), each answer awaited {args.patience} s")
    print(f"  taken for wrong {read} (404 {sum(st == 404 for st, _, _ in attacked.guesses)},", end=" ")
    print(f"no answer in time {sum(st == 599 for st, _, _ in attacked.guesses)}), 429 refused {refused},", end=" ")
    print(f"other {other}")
    print(f"  codes a minute the guesser took for wrong: {read / minutes:.1f} (a slow refusal counts as one);", end=" ")
    print(f"the wrong codes the server read: {read_by_server} ({read_by_server / minutes:.1f} a minute)")
    print(f"students ({args.students}, one ask each 100 ms, each from its own address), the room's code:")
    print(f"  without the guesser: {_percentiles(quiet.students)}; not 302: {len(quiet.student_errors)}")
    print(f"  with the guesser:    {_percentiles(attacked.students)}; not 302: {len(attacked.student_errors)}")
    print(f"  the guesser's classmate, from its address: {_percentiles(attacked.classmate)}, ", end="")
    print(f"refused {attacked.classmate_refused} times while the guesser flooded (without: ", end="")
    print(f"{_percentiles(quiet.classmate)})")
    statuses = {code: sum(status == code for status, _, _ in keys.guesses) for code in (403, 429)}
    waited = sum(status == 403 and seconds >= WAITED for status, seconds, _ in keys.guesses)
    print(f"teacher's keys: {len(keys.guesses)} wrong keys from {GUESSER}, {args.at_once} at a time, ", end="")
    print(f"in {keys.seconds:.1f} s: 403 {statuses[403]} ({waited} after a wait), 429 {statuses[429]}; ", end="")
    print(f"answers a minute {len(keys.guesses) / (keys.seconds / 60):.1f}")
    mib, microseconds = door_memory()
    print(
        f"the rooms' door with {MOST_ADDRESSES:,} browsers, each behind an address of its own: {mib:.1f} MiB;", end=""
    )
    print(f" a wrong answer then {microseconds:.1f} µs")
    refused_classmate = attacked.classmate_refused or quiet.classmate_refused
    return 1 if other or quiet.student_errors or attacked.student_errors or refused_classmate else 0


if __name__ == "__main__":
    sys.exit(main())
