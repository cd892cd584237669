"""Benchmark: the rooms' door under a guesser, and the students who type a right code meanwhile; a guesser of the
teacher's key; the door's memory with 100,000 addresses.  Run by hand:

    python benchmarks/bench_room_door.py [--attempts 200] [--at-once 20] [--students 10] [--quiet 15]

Starts ``dragonkit serve`` (a token, no pool, an SQLite record of its own) on a free port of 127.0.0.1 and opens one
room in its record. Then two phases:

* without the guesser: ``--students`` clients, each from its own loopback address (127.0.0.3, .4 …: its own computer,
  as the server sees it), ask ``/dragonkit/room?code=<the room's code>`` every 100 ms for ``--quiet`` seconds;
* with the guesser: the same students, while one address (127.0.0.2) tries ``--attempts`` wrong codes, ``--at-once``
  at a time, each new one as soon as an answer comes (a script that does not heed ``Retry-After``); the phase ends
  with the guesser's last answer.

A classmate of the guesser, behind the same address (a school's), asks the right code every 100 ms in both phases.
Prints how the guesser's attempts were answered (404 at once, 404 after a wait, 429 refused), its wrong codes
answered a minute (those that got a 404, the only answer that says a code is wrong: while the guesser floods the door,
every code from its address is refused, a right one too), and the students' latency (median and 95th percentile,
every answer a 302 to the room's page) without and with the guesser, the classmate's apart (and how often it was
refused while the guesser flooded). Then the same guesser tries ``--attempts`` wrong teacher's keys at the dashboard's
address, ``--at-once`` at a time: how they were answered, and how many a minute. Last, without a server, a door
(:class:`dragonkit.server.door.Door`) is given a wrong answer from each of 100,000 addresses: its memory
(``tracemalloc``), and the time of a wrong answer once it is full.
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

from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402

from dragonkit.bots import BotKind  # noqa: E402
from dragonkit.record import rooms  # noqa: E402
from dragonkit.record.store import connect  # noqa: E402
from dragonkit.server.door import MOST_ADDRESSES, Door  # noqa: E402

GUESSER = "127.0.0.2"
#: Seconds between two asks of one student.
EVERY = 0.1
#: An answer slower than this was made to wait by the door (its shortest wait is 2 s).
WAITED = 1.0


@dataclass
class Figures:
    """What one phase saw: the students' latencies (seconds), their answers that were not 302, the guesser's
    classmate's latencies, and the guesser's answers as (status, seconds, when it came after the phase's start)."""

    students: list[float] = field(default_factory=list)
    student_errors: list[str] = field(default_factory=list)
    classmate: list[float] = field(default_factory=list)
    classmate_refused: int = 0
    guesses: list[tuple[int, float, float]] = field(default_factory=list)
    seconds: float = 0.0


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
    """Stop the server as Ctrl-C does (SIGINT), then SIGKILL after 30 s."""
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


async def _ask(client: AsyncHTTPClient, url: str, source: str) -> tuple[int, float]:
    request = HTTPRequest(url, follow_redirects=False, network_interface=source, request_timeout=120)
    started = time.perf_counter()
    response = await client.fetch(request, raise_error=False)
    return response.code, time.perf_counter() - started


async def _student(client: AsyncHTTPClient, url: str, source: str, figures: Figures, until: asyncio.Event) -> None:
    while not until.is_set():
        started = time.perf_counter()
        status, seconds = await _ask(client, url, source)
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
    client: AsyncHTTPClient, addresses: list[str], at_once: int, figures: Figures, started: float
) -> None:
    guesses = iter(addresses)

    async def one_at_a_time() -> None:
        for address in guesses:
            status, seconds = await _ask(client, address, GUESSER)
            figures.guesses.append((status, seconds, time.perf_counter() - started))

    await asyncio.gather(*(one_at_a_time() for _ in range(at_once)))


def _code() -> str:
    return "".join(random.choice(rooms.CODE_ALPHABET) for _ in range(rooms.CODE_LENGTH))


async def phase(base: str, room: str, students: int, attempts: int, at_once: int, quiet: float) -> Figures:
    """One phase: the students for ``quiet`` seconds (``attempts`` 0), or while the guesser makes its attempts."""
    client = AsyncHTTPClient(force_instance=True, max_clients=students + at_once + 8)
    figures, until = Figures(), asyncio.Event()
    asking = [
        asyncio.create_task(_student(client, f"{base}&code={room}", f"127.0.0.{3 + n}", figures, until))
        for n in range(students)
    ]
    # a classmate of the guesser, behind the same address (a school's), types the right code too
    asking.append(asyncio.create_task(_student(client, f"{base}&code={room}", GUESSER, figures, until)))
    started = time.perf_counter()
    if attempts:
        codes = [code for code in (_code() for _ in range(attempts * 2)) if code != room][:attempts]
        await _guesser(client, [f"{base}&code={code}" for code in codes], at_once, figures, started)
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
    await _guesser(client, keys, at_once, figures, started)
    figures.seconds = time.perf_counter() - started
    client.close()
    return figures


def door_memory(addresses: int = MOST_ADDRESSES) -> tuple[float, float]:
    """The memory (MiB) of a door that counts a wrong answer from each of ``addresses`` addresses, and the
    microseconds of one more wrong answer once it is full (the median of 1,000)."""
    import tracemalloc

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    door = Door()
    for n in range(addresses):
        door.wrong(f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}")
    mib = (tracemalloc.get_traced_memory()[0] - before) / 2**20
    tracemalloc.stop()
    times = []
    for n in range(1000):
        started = time.perf_counter()
        door.wrong(f"11.0.{n >> 8 & 255}.{n & 255}")
        times.append(time.perf_counter() - started)
    assert len(door) == min(addresses, MOST_ADDRESSES)
    return mib, statistics.median(times) * 1e6


def _percentiles(seconds: list[float]) -> str:
    if len(seconds) < 2:
        return "no answers"
    ninety_fifth = statistics.quantiles(seconds, n=20)[-1]
    return f"median {statistics.median(seconds) * 1000:.1f} ms, p95 {ninety_fifth * 1000:.1f} ms ({len(seconds)} asks)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=200, help="the guesser's wrong codes (default 200)")
    parser.add_argument("--at-once", type=int, default=20, help="the guesser's attempts at once (default 20)")
    parser.add_argument("--students", type=int, default=10, help="students typing the right code (default 10)")
    parser.add_argument("--quiet", type=float, default=15.0, help="seconds of the phase without the guesser")
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
            quiet = asyncio.run(phase(base, room.code, args.students, 0, args.at_once, args.quiet))
            attacked = asyncio.run(phase(base, room.code, args.students, args.attempts, args.at_once, args.quiet))
            dashboard = f"http://127.0.0.1:{port}/voila/render/dashboard.ipynb?token={token}&key="
            keys = asyncio.run(keys_phase(dashboard, args.attempts, args.at_once))
        finally:
            stop_server(server)
    at_once = sum(status == 404 and seconds < WAITED for status, seconds, _ in attacked.guesses)
    slowed = sum(status == 404 and seconds >= WAITED for status, seconds, _ in attacked.guesses)
    refused = sum(status == 429 for status, _, _ in attacked.guesses)
    last_refused = max((done for status, _, done in attacked.guesses if status == 429), default=0.0)
    other = len(attacked.guesses) - at_once - slowed - refused
    minutes = attacked.seconds / 60
    answered = at_once + slowed + refused
    print(f"guesser: {len(attacked.guesses)} wrong codes from {GUESSER}, {args.at_once} at a time,", end=" ")
    print(f"in {attacked.seconds:.1f} s")
    print(f"  404 at once {at_once}, 404 after a wait {slowed}, 429 refused {refused}, other {other}")
    print(f"  wrong codes a minute the guesser learnt were wrong (a 404): {(at_once + slowed) / minutes:.1f}")
    print("  answers a minute (a 429 says nothing of the code: right codes are refused too meanwhile): ", end="")
    print(f"{answered / minutes:.1f}")
    if refused:
        print(f"  the last 429 came {last_refused:.2f} s after the guesser began")
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
    print(f"the door with {MOST_ADDRESSES:,} addresses: {mib:.1f} MiB; a wrong answer then {microseconds:.1f} µs")
    return 1 if other or quiet.student_errors or attacked.student_errors else 0


if __name__ == "__main__":
    sys.exit(main())
