"""Benchmark: what Chromium spends on a served page, in a private context and in a profile on disk.  Run by hand:

    python benchmarks/bench_page_cache.py [--page play.ipynb] [--pages 6]

Starts a Voilà server as ``dragonkit serve`` does (no pool) on a free port of 127.0.0.1 and opens ``--pages`` pages of
``--page`` one after another, each until it is drawn and the network is idle, in two contexts of Debian's Chromium:

* a private context (Playwright's ``browser.new_context()``): its cache is in memory and it keeps no compiled code;
* a persistent context (``launch_persistent_context``, a profile on disk, as a learner's own browser): the kit's
  scripts come from its disk cache, compiled by V8 once they have run twice (V8's code cache).

Prints the CPU-seconds of all Chromium's processes for each page (the kernel's and the server's are not counted).
What the tests' ``context`` fixture (tests/conftest.py) is built on.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable

import psutil
from classroom import _free_port  # benchmarks/, beside this script
from playwright.sync_api import sync_playwright

from dragonkit.cli import ServeOptions, notebooks_dir, start_server
from dragonkit.paper.printer import CHROMIUM_FLAGS, chromium_executable


def _chromium_cpu() -> float:
    """CPU-seconds of every Chromium process running now."""
    total = 0.0
    for process in psutil.process_iter(["cmdline", "cpu_times"]):
        times = process.info["cpu_times"]
        if times is not None and "chromium" in " ".join(process.info["cmdline"] or []):
            total += times.user + times.system
    return total


def _pages(context, url: str, pages: int) -> list[float]:
    spent = []
    for _ in range(pages):
        page = context.new_page()
        before = _chromium_cpu()
        page.goto(url, timeout=120_000)
        page.wait_for_selector(".dk-app, .dk-exercise", timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        time.sleep(1.0)  # what the page does once drawn
        spent.append(_chromium_cpu() - before)
        page.close()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", default="play.ipynb")
    parser.add_argument("--pages", type=int, default=6)
    args = parser.parse_args()
    port = _free_port()
    options = ServeOptions(port=port, pool=0, max_kernels_per_client=0, coach_games=20)
    server = start_server(options, notebooks_dir(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/voila/render/{args.page}"
        executable, flags = chromium_executable(), list(CHROMIUM_FLAGS)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=flags)
            profile = tempfile.mkdtemp(prefix="bench-page-cache-")
            contexts: dict[str, Callable[[], object]] = {
                "private context": lambda: browser.new_context(),
                "profile on disk": lambda: playwright.chromium.launch_persistent_context(
                    profile, executable_path=executable, args=flags
                ),
            }
            for name, make in contexts.items():
                context = make()
                spent = _pages(context, url, args.pages)
                context.close()
                later = spent[1:] or spent
                print(
                    f"{name:16} Chromium CPU-s a page: first {spent[0]:.2f}, then "
                    f"{min(later):.2f}-{max(later):.2f} (mean {sum(later) / len(later):.2f})"
                )
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
