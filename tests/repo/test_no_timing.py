"""No test asserts how fast something ran: a wall-clock bound fails on a loaded machine (two cores shared with other
work) and passes on a fast one whatever the code does. Speed is measured in ``benchmarks/``, whose scripts print
figures (``python benchmarks/bench_markov.py``, ...); a test checks what is computed, and may count the work done.
``time.monotonic`` stays allowed: the tests wait for a server with it, until a deadline."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
#: The clocks a speed measurement reads (``time.perf_counter()``, ``timeit.timeit(...)``...).
CLOCKS = {"perf_counter", "perf_counter_ns", "process_time", "process_time_ns", "thread_time", "timeit"}


def clock_reads(source: str) -> list[int]:
    """The lines of ``source`` that read one of :data:`CLOCKS` (a call or an import of it, or ``time.time()``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            owner = getattr(getattr(node.func, "value", None), "id", None)
            if name in CLOCKS or (owner == "time" and name == "time"):
                lines.append(node.lineno)
        elif isinstance(node, ast.Import | ast.ImportFrom) and any(alias.name in CLOCKS for alias in node.names):
            lines.append(node.lineno)
    return lines


def test_the_check_finds_a_timed_assertion():
    timed = "import time\nstart = time.perf_counter()\nwork()\nassert time.perf_counter() - start < 5\n"
    assert clock_reads(timed) == [2, 4]
    assert clock_reads("from time import perf_counter\n") == [1]
    assert clock_reads("import time\ndeadline = time.monotonic() + 90\n") == []


def test_no_test_reads_a_clock_to_time_its_code():
    found = {
        path.name: lines
        for path in sorted(TESTS.rglob("*.py"))
        if (lines := clock_reads(path.read_text(encoding="utf-8"))) and path.name != Path(__file__).name
    }
    assert found == {}, f"timing in tests (measure it in benchmarks/ instead): {found}"
