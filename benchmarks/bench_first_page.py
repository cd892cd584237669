"""Benchmark: from ``dragonkit serve`` on an empty cache to the play page.  Run by hand:

    python benchmarks/bench_first_page.py [--runs 3]

Each run starts ``dragonkit serve --no-browser`` on a free port of 127.0.0.1 with a new, empty cache folder (as on a
new machine: no win table solved yet) and prints how long it took until

* the server answered at all (the port open),
* the play page answered 200 (Voilà renders the notebook before it answers: the app is on the page),
* every win table was solved by the server's background process (it goes on while the pages are served),

then stops the server.  The first two are what a teacher trying the kit waits for.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status == 200
    except OSError:
        return False


def run_once() -> tuple[float, float, float]:
    """Seconds to the open port, to the play page, to the last win table."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DRAGONKIT_CACHE": cache}
        command = [sys.executable, "-m", "dragonkit.cli", "serve", "--no-browser", f"--port={port}"]
        start = time.perf_counter()
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            opened = page = tables = float("nan")
            while time.perf_counter() - start < 120:
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", port)) == 0:
                        opened = time.perf_counter() - start
                        break
                time.sleep(0.05)
            while time.perf_counter() - start < 120:
                if _answers(f"http://127.0.0.1:{port}/voila/render/play.ipynb"):
                    page = time.perf_counter() - start
                    break
                time.sleep(0.1)
            while time.perf_counter() - start < 600:
                saved = list(Path(cache).glob("*win-table-*.npy"))
                if len(saved) == 4 and not list(Path(cache).glob(".*")):  # the four presets' tables, none half-written
                    tables = time.perf_counter() - start
                    break
                time.sleep(0.5)
        finally:
            proc.send_signal(signal.SIGTERM)  # not SIGINT, which a run in the background ignores
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    return opened, page, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'run':>4} {'port open s':>12} {'play page s':>12} {'all tables s':>13}")
    results = []
    for run in range(1, args.runs + 1):
        opened, page, tables = run_once()
        results.append((opened, page, tables))
        print(f"{run:>4} {opened:>12.1f} {page:>12.1f} {tables:>13.1f}")
    columns = list(zip(*results))
    print(f"{'median':>4} " + " ".join(f"{statistics.median(c):>12.1f}" for c in columns))


if __name__ == "__main__":
    main()
