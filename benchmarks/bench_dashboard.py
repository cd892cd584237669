"""The teacher's dashboard's costs: the simulated class it offers without a record, and its reads of a record.

Measured in this process, wall-clock (``time.perf_counter``), median of ``--repeats``:

* ``sample_class``: a class of ``--students`` students (3 games each, the exercises), the first time in the process
  (the win bot's table loaded from the cache, the solvers' first calls) and again; and the same class read from the
  kit's cache (``saved_sample_class``, what a page without a record does once a machine has simulated it);
* the dashboard over an SQLite record that such a class filled: its first read (every row, the view-models and the
  two figures drawn), an update with nothing new (three queries ``after`` the last ids and who is playing), and an
  update that brings one new decision (the sections redrawn).

Run: ``PYTHONPATH=. python benchmarks/bench_dashboard.py [--students 40] [--repeats 5]``
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path


def _median(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    from dragonkit.topics.sample_class import sample_class, saved_sample_class, write_sample

    start = time.perf_counter()
    sample = sample_class(students=args.students)
    first = time.perf_counter() - start
    again = _median(lambda: sample_class(students=args.students), args.repeats)
    print(
        f"sample_class({args.students}): {len(sample.decisions)} decisions, {len(sample.attempts)} answers, "
        f"{len(sample.games)} games; first {first:.2f} s, then {again:.2f} s (median of {args.repeats})"
    )
    saved_sample_class(args.students, 0)  # simulated and saved, unless this machine did it before
    read = _median(lambda: saved_sample_class(args.students, 0), args.repeats)
    print(f"saved_sample_class({args.students}), read from the kit's cache: {read:.3f} s (median of {args.repeats})")

    from dragonkit.record.store import connect
    from dragonkit.ui.dashboard import DashboardApp

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'record.sqlite'}"
        engine = connect(url)
        write_sample(engine, sample, end=datetime.now(UTC).replace(tzinfo=None))
        start = time.perf_counter()
        app = DashboardApp(url=url, klass=sample.class_name)
        opened = time.perf_counter() - start
        idle = _median(app.update, args.repeats * 4)
        extra = sample_class(students=1, seed=99, games=1, class_name=sample.class_name)

        one = replace(
            extra,
            decisions=extra.decisions.iloc[:1],
            attempts=extra.attempts.iloc[:0],
            games=extra.games.iloc[:0],
            visits=extra.visits.iloc[:0],
        )
        write_sample(engine, one)
        arrived = time.perf_counter()
        app.update()
        arrived = time.perf_counter() - arrived
        app.close()
        engine.dispose()
    print(
        f"dashboard over the record: first read {opened:.2f} s; an update with nothing new {idle * 1000:.1f} ms "
        f"(median of {args.repeats * 4}); an update with one new decision {arrived:.2f} s"
    )


if __name__ == "__main__":
    main()
