"""Benchmark: :class:`dragonkit.markov.AbsorbingChain` on large sparse chains.  Run by hand or by CI as a report:

    python benchmarks/bench_markov.py

For the gambler's-ruin random walk on 0..n-1 (absorbing at both ends, a step up with probability ``up``; the chain
``tests/test_markov.py`` checks against the closed forms) it prints the best and the median of several timings
(``best/median``, milliseconds) of:

* building the chain from a CSR matrix (validation, canonical form, sparse ``Q`` and ``R``);
* the expected steps from every transient state (one sparse solve);
* the absorption probabilities from seven starts and the expected steps from three, one row each (what the test
  asks of a 2,000-state walk).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from dragonkit.markov import AbsorbingChain

REPEATS = 7


def walk(n: int, up: float) -> sp.csr_matrix:
    """Random walk on 0..n-1, absorbing at 0 and n-1, a step up with probability ``up``, as CSR."""
    i = np.arange(1, n - 1)
    rows = np.concatenate([[0], i, i, [n - 1]])
    cols = np.concatenate([[0], i + 1, i - 1, [n - 1]])
    vals = np.concatenate([[1.0], np.full(n - 2, up), np.full(n - 2, 1 - up), [1.0]])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


def timed(function: Callable[[], object]) -> tuple[float, float]:
    """The best and the median of ``REPEATS`` timings (milliseconds) after one untimed run."""
    function()
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1e3)
    return min(times), statistics.median(times)


def rows_of(chain: AbsorbingChain, n: int) -> None:
    """The rows the test reads: absorption probabilities from seven starts, expected steps from three."""
    top = n - 1
    for s in (1, 2, 17, n // 4, n // 2, 3 * n // 4, top - 1):
        chain.absorption_probabilities(start=s)
    for s in (1, n // 2, top - 1):
        chain.expected_steps(start=s)


def main() -> None:
    print(f"{'states':>8}{'up':>6}{'build ms':>16}{'all steps ms':>16}{'10 rows ms':>16}")
    for n in (2_000, 20_000, 200_000):
        for up in (0.5, 0.6):
            P = walk(n, up)
            chain = AbsorbingChain(P)
            columns = (
                timed(lambda P=P: AbsorbingChain(P)),
                timed(lambda chain=chain: chain.expected_steps()),
                timed(lambda chain=chain, n=n: rows_of(chain, n)),
            )
            cells = "".join(f"{f'{best:.1f}/{median:.1f}':>16}" for best, median in columns)
            print(f"{n:>8,}{up:>6}{cells}")


if __name__ == "__main__":
    main()
