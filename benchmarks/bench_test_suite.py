"""What the README's test command costs, and where: pytest's wall time, the machine's CPU-seconds by kind of process
(the pytest workers, the kernels, Chromium, the Voilà servers, the win tables' builder, the rest), the seconds each
test module held a worker, and the host's speed before and after, so that two runs at different hours compare.

    python benchmarks/bench_test_suite.py                                # the suite as the README runs it
    python benchmarks/bench_test_suite.py -- -m "browser or load"        # pytest's arguments after --
    python benchmarks/bench_test_suite.py --json report.json

Run it from the repository root, in the environment of the README's test command, with nothing else running: every
process of the machine that starts during the run is counted. Once a second each process's CPU time (user plus
system) is read and sorted by its command line into a kind; a process that lives less than a second may be missed, so
the kinds' sum is at most the machine's busy CPU-seconds (``/proc/stat``), which the report gives too. The test
modules' seconds come from this file loaded into pytest as a plugin (``-p bench_test_suite``): each test's start and
end on its worker. The host's speed is the CPU-seconds of a fixed loop (5 million squares, the median of three):
the same machine has measured 1.05 and 1.9 times the fastest within an hour, and the suite's CPU-seconds move with it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

#: Where the plugin writes each test's worker, start and end (set by the script for pytest and its workers).
TIMELINE = "DRAGONKIT_BENCH_TIMELINE"
#: The kinds of processes, in the order they are tried: (kind, what its command line holds).
KINDS = (
    ("kernels", ("ipykernel",)),
    ("Chromium renderers", ("--type=renderer",)),
    ("Chromium, GPU process", ("--type=gpu",)),
    ("Chromium, other processes", ("chrom",)),
    ("Voilà servers", ("dragonkit.server", "voila")),
    ("win tables' builder", ("dragonkit.analysis.win.model",)),
    ("Playwright's driver", ("playwright",)),
    ("pytest workers", ("execnet", "xdist", "exec(eval(sys.stdin")),
    ("pytest", ("pytest",)),
    ("PostgreSQL", ("postgres",)),
)


def kind(command: str) -> str:
    """The kind of a process of the test run, from its command line (:data:`KINDS`; else ``"other"``)."""
    return next((name for name, marks in KINDS if any(mark in command for mark in marks)), "other")


def host_speed() -> float:
    """CPU-seconds of a fixed loop in this process (5 million squares), the median of three: lower is faster."""
    times = []
    for _ in range(3):
        start = time.process_time()
        sum(i * i for i in range(5_000_000))
        times.append(time.process_time() - start)
    return statistics.median(times)


def _busy_seconds() -> float:
    """The machine's busy CPU-seconds since boot (``/proc/stat``: all but idle and iowait)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


class Sampler(threading.Thread):
    """Reads every process's CPU time once a second until stopped; :meth:`by_kind` sums those that started after it."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.started_at = time.time()
        self.cpu: dict[tuple[int, float], tuple[str, float]] = {}
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.sample()
            self.stopping.wait(1.0)
        self.sample()

    def sample(self) -> None:
        for process in psutil.process_iter(["pid", "create_time", "cmdline", "cpu_times"]):
            info = process.info
            if info["create_time"] is None or info["create_time"] < self.started_at or info["cpu_times"] is None:
                continue
            key = (info["pid"], info["create_time"])
            known = self.cpu.get(key)
            command = " ".join(info["cmdline"] or [])
            name = known[0] if known and not command else kind(command)  # a process ending has no command line
            self.cpu[key] = (name, info["cpu_times"].user + info["cpu_times"].system)

    def by_kind(self) -> dict[str, float]:
        totals: collections.Counter[str] = collections.Counter()
        for name, seconds in self.cpu.values():
            totals[name] += seconds
        return dict(totals.most_common())


def module_seconds(timeline: Path) -> dict[str, float]:
    """Each test module's seconds on a worker, from the plugin's lines, most first."""
    totals: collections.Counter[str] = collections.Counter()
    for line in timeline.read_text().splitlines():
        _worker, start, end, test = line.split("\t", 3)
        totals[test.split("::", 1)[0]] += float(end) - float(start)
    return dict(totals.most_common())


def run(pytest_args: list[str]) -> dict:
    """Run ``python -m pytest -n auto`` (or ``pytest_args``) with the plugin and the sampler; the report."""
    timeline = Path(tempfile.mkstemp(prefix="dragonkit-suite-", suffix=".tsv")[1])
    environment = {
        **os.environ,
        TIMELINE: str(timeline),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])),
    }
    speed_before = host_speed()
    sampler = Sampler()
    busy_before = _busy_seconds()
    sampler.start()
    start = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-p", "bench_test_suite", *(pytest_args or ["-n", "auto"])]
    result = subprocess.run(command, env=environment)  # its output as the README's command shows it
    wall = time.monotonic() - start
    sampler.stopping.set()
    sampler.join()
    busy = _busy_seconds() - busy_before
    report = {
        "command": " ".join(command[2:]),
        "exit_status": result.returncode,
        "wall_s": round(wall, 1),
        "machine_busy_cpu_s": round(busy, 1),
        "cpu_s_by_kind": {name: round(seconds, 1) for name, seconds in sampler.by_kind().items()},
        "module_worker_s": {name: round(seconds, 1) for name, seconds in module_seconds(timeline).items()},
        "host_speed_s": {"before": round(speed_before, 3), "after": round(host_speed(), 3)},
    }
    timeline.unlink()
    return report


def print_report(report: dict, modules: int = 25) -> None:
    print(f"\n{report['command']}: exit status {report['exit_status']}")
    speed = report["host_speed_s"]
    print(f"wall {report['wall_s']} s; the machine busy {report['machine_busy_cpu_s']} CPU-s")
    print(f"host's speed (a fixed loop's CPU-s, lower is faster): {speed['before']} before, {speed['after']} after")
    print("\nCPU-seconds by kind of process")
    for name, seconds in report["cpu_s_by_kind"].items():
        print(f"  {seconds:8.1f}  {name}")
    print(f"\nseconds on a worker, the {modules} test modules that held one longest")
    for name, seconds in list(report["module_worker_s"].items())[:modules]:
        print(f"  {seconds:8.1f}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--json", type=Path, help="also write the report to this file")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --); default: -n auto")
    args = parser.parse_args(argv)
    report = run(args.pytest_args)
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return int(report["exit_status"])  # pytest's: a failed test is not hidden by the report


# -- the pytest plugin (``-p bench_test_suite``): each test's worker, start and end, where it runs ---------------


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    start = time.time()
    yield
    path = os.environ.get(TIMELINE)
    if path:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "-")
        with open(path, "a") as out:
            out.write(f"{worker}\t{start:.2f}\t{time.time():.2f}\t{item.nodeid}\n")


if __name__ == "__main__":
    sys.exit(main())
