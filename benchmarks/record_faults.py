"""The class's record under faults: the server killed with SIGKILL in the middle of a class, and PostgreSQL stopped
for a minute in the middle of a class.

    python benchmarks/record_faults.py kill --visitors 20 --seconds 40
    python benchmarks/record_faults.py postgres --visitors 20 --outage 60

``kill``: ``dragonkit serve`` with its default kind of record (an SQLite file) on 127.0.0.1; websocket visitors
(``benchmarks/classroom.py``'s, each with the nickname ``student-N``) play the play app; after ``--seconds`` the server
is killed with SIGKILL (its kernels follow it). The record must then hold every decision a visitor had seen the app
act on (a click whose event arrived) and pass SQLite's integrity check; the server is started again on the same file
and a few visitors play again, whose decisions must arrive too.

``postgres``: the record on a PostgreSQL server (a temporary cluster of Debian's ``postgresql``, as the tests start
it); the visitors play while PostgreSQL is stopped for ``--outage`` seconds and started again. No click may fail, the
action latency is reported before, during and after the outage, and once PostgreSQL is back the record must come to
hold every decision (how long that takes is reported).

Prints a JSON report; exits with status 1 when a decision is missing, a click failed or the database is damaged.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:  # run from a checkout: the checkout's dragonkit, classroom.py beside this file
        sys.path.insert(0, str(folder))

from classroom import Visitor, _free_port, _visit_ws, kernel_memory, stop_server  # noqa: E402

from dragonkit import cli  # noqa: E402
from dragonkit.cli import ServeOptions, notebooks_dir  # noqa: E402
from dragonkit.record.reading import decisions  # noqa: E402
from dragonkit.record.store import check_integrity, connect, upgrade  # noqa: E402
from tests.postgres import temporary_postgres  # noqa: E402

CLASS = "faults"


def start_server(options: ServeOptions, record: str, log_path: Path, pool: int) -> subprocess.Popen:
    """``dragonkit serve``'s Voilà with the record ``record``, up and with its pool filled."""
    served = dataclasses.replace(options, record=record, class_name=CLASS)
    pythonpath = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with open(log_path, "ab") as log:
        server = cli.start_server(
            served, notebooks_dir(), environment={"PYTHONPATH": pythonpath}, stdout=log, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 120
    while True:
        with socket.socket() as sock:
            up = sock.connect_ex(("127.0.0.1", options.port)) == 0
        if up and kernel_memory(server.pid)[0] >= pool:
            return server
        if time.monotonic() > deadline or server.poll() is not None:
            raise RuntimeError(f"the server did not start (see {log_path})")
        time.sleep(0.5)


def recorded(record: str) -> dict[str, int]:
    """The decisions in the record, by nickname."""
    engine = connect(record)
    try:
        found = decisions(engine, CLASS)
    finally:
        engine.dispose()
    return {str(k): int(v) for k, v in found.groupby("nickname").size().items()} if not found.empty else {}


def acknowledged(visitors: Sequence[Visitor]) -> dict[str, int]:
    """The decisions each visitor saw the app act on (a click whose event arrived), by nickname."""
    return {f"student-{v.number}": len(v.latencies) for v in visitors if v.latencies}


def missing(seen: dict[str, int], kept: dict[str, int]) -> int:
    """Decisions seen by a visitor and not in the record."""
    return sum(max(0, n - kept.get(name, 0)) for name, n in seen.items())


def _median_ms(values: Sequence[float]) -> float | None:
    return round(1000 * statistics.median(values)) if values else None


async def _class(options: ServeOptions, visitors: list[Visitor], actions: int, ramp: float, timeout: float) -> None:
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=max(10, len(visitors) + 4))
    base = f"127.0.0.1:{options.port}"
    await asyncio.gather(
        *(_visit_ws(base, options.token, v, actions, timeout, ramp * i / len(visitors)) for i, v in enumerate(visitors))
    )


def _options(pool: int) -> ServeOptions:
    return ServeOptions(port=_free_port(), token=secrets.token_urlsafe(16), pool=pool, max_kernels_per_client=0)


def kill(visitors: int, seconds: float, pool: int, again: int) -> dict:
    """The ``kill`` scenario (see the module's docstring)."""
    folder = Path(tempfile.mkdtemp(prefix="dragonkit-kill-"))
    record = f"sqlite:///{folder / 'record.sqlite'}"
    options = _options(pool)
    log_path = folder / "server.log"
    server = start_server(options, record, log_path, pool)
    people = [Visitor(i) for i in range(visitors)]

    async def class_then_kill() -> dict[str, int]:
        playing = asyncio.ensure_future(_class(options, people, 10_000, ramp=10, timeout=60))
        await asyncio.sleep(seconds)
        seen = acknowledged(people)  # before the kill: every one of these must be in the record
        os.kill(server.pid, signal.SIGKILL)
        await asyncio.wait([playing], timeout=90)
        return seen

    seen = asyncio.run(class_then_kill())
    server.wait(timeout=30)
    time.sleep(3)  # the kernels see their server gone within a second, and exit
    kept = recorded(record)
    engine = connect(record)
    integrity = check_integrity(engine)
    engine.dispose()
    # the class goes on: the server started again on the same record
    server = start_server(options, record, log_path, pool)
    later = [Visitor(visitors + i) for i in range(again)]
    try:
        asyncio.run(_class(options, later, 10, ramp=2, timeout=120))
    finally:
        stop_server(server)
    time.sleep(1)
    after = recorded(record)
    engine = connect(record)
    integrity_after = check_integrity(engine)
    engine.dispose()
    seen_later = acknowledged(later)
    return {
        "scenario": "kill",
        "visitors": visitors,
        "killed_after_s": seconds,
        "decisions_seen_before_kill": sum(seen.values()),
        "decisions_in_record_after_kill": sum(kept.values()),
        "missing_after_kill": missing(seen, kept),
        "integrity_after_kill": integrity,
        "restarted_visitors": again,
        "restarted_decisions_seen": sum(seen_later.values()),
        "restarted_missing": missing(seen_later, after),
        "restarted_errors": [e for v in later for e in v.errors],
        "integrity_at_end": integrity_after,
        "record": record,
        "server_log": str(log_path),
    }


def postgres(visitors: int, outage: float, before: float, pool: int, actions: int) -> dict:
    """The ``postgres`` scenario (see the module's docstring)."""
    folder = Path(tempfile.mkdtemp(prefix="dragonkit-pg-outage-"))
    log_path = folder / "server.log"
    with temporary_postgres() as database:
        record = database.url
        engine = connect(record)
        upgrade(engine)
        engine.dispose()
        options = _options(pool)
        server = start_server(options, record, log_path, pool)
        people = [Visitor(i) for i in range(visitors)]
        marks: dict[str, list[int]] = {}

        async def class_with_outage() -> None:
            playing = asyncio.ensure_future(_class(options, people, actions, ramp=10, timeout=120))
            await asyncio.sleep(before)
            marks["stopped"] = [len(v.latencies) for v in people]
            await asyncio.to_thread(database.stop)
            await asyncio.sleep(outage)
            await asyncio.to_thread(database.start)
            marks["started"] = [len(v.latencies) for v in people]
            await playing

        try:
            asyncio.run(class_with_outage())
            seen = acknowledged(people)
            back = time.monotonic()
            caught_up = None
            while time.monotonic() - back < 120:
                kept = recorded(record)
                if missing(seen, kept) == 0:
                    caught_up = time.monotonic() - back
                    break
                time.sleep(1)
        finally:
            stop_server(server)
        kept = recorded(record)

    def phase(start: list[int] | None, stop: list[int] | None) -> list[float]:
        return [
            x
            for i, v in enumerate(people)
            for x in v.latencies[(start[i] if start else 0) : (stop[i] if stop else None)]
        ]

    return {
        "scenario": "postgres",
        "visitors": visitors,
        "outage_s": outage,
        "clicks_failed": [f"visitor {v.number}: {e}" for v in people for e in v.errors],
        "decisions_seen": sum(seen.values()),
        "decisions_in_record": sum(kept.values()),
        "missing": missing(seen, kept),
        "record_caught_up_after_class_s": None if caught_up is None else round(caught_up, 1),
        "latency_median_ms_before": _median_ms(phase(None, marks.get("stopped"))),
        "latency_median_ms_during": _median_ms(phase(marks.get("stopped"), marks.get("started"))),
        "latency_median_ms_after": _median_ms(phase(marks.get("started"), None)),
        "actions_during_outage": len(phase(marks.get("stopped"), marks.get("started"))),
        "server_log": str(log_path),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=("kill", "postgres"))
    parser.add_argument("--visitors", type=int, default=20)
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=40, help="kill: seconds of class before the kill")
    parser.add_argument("--again", type=int, default=4, help="kill: visitors who play after the restart")
    parser.add_argument("--outage", type=float, default=60, help="postgres: seconds PostgreSQL is stopped")
    parser.add_argument("--before", type=float, default=30, help="postgres: seconds of class before the outage")
    parser.add_argument("--actions", type=int, default=200, help="postgres: actions per visitor")
    args = parser.parse_args()
    if args.scenario == "kill":
        report = kill(args.visitors, args.seconds, args.pool, args.again)
        bad = report["missing_after_kill"] or report["restarted_missing"] or report["restarted_errors"]
        bad = bad or report["integrity_after_kill"] != ["ok"] or report["integrity_at_end"] != ["ok"]
    else:
        report = postgres(args.visitors, args.outage, args.before, args.pool, args.actions)
        bad = report["missing"] or report["clicks_failed"]
    print(json.dumps(report, indent=2))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
