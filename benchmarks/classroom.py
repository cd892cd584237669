"""A classroom on one machine: many visitors play the app at once through `dragonkit serve`.

    python benchmarks/classroom.py --visitors 40 --actions 10

Starts the server (token, preheated kernels, idle culling) on 127.0.0.1, opens
one headless-Chromium context per visitor (Debian's chromium, driven by
Playwright), and lets every visitor start a game against a random bot and play
``--actions`` human actions.  The visitors arrive over ``--ramp`` seconds (a class
walking in), then play at the same time.  It reports the time to interactive, the latency of
each action (click to the next event in the log), the kernel memory per visitor,
every error seen, and whether the kernels are culled and the memory given back
after the visitors leave.  Exits with status 1 on any error.  All traffic stays
on the loopback address; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from dragonkit.cli import ServeOptions, notebooks_dir, voila_command

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
IGNORED_CONSOLE = ("ERR_NAME_NOT_RESOLVED", "ERR_INTERNET_DISCONNECTED", "Failed to load resource")
PAGE_ERRORS = ("Traceback", "Error displaying widget", "Something went wrong", "File \"")


@dataclass
class Visitor:
    number: int
    tti: float | None = None
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def _rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def kernel_memory(server_pid: int) -> tuple[int, float]:
    """Number of kernels of the server and their total resident memory (MiB)."""
    kernels = _children(server_pid)
    return len(kernels), sum(_rss_mib(k) for k in kernels)


async def _visit(browser, url: str, visitor: Visitor, actions: int, timeout_ms: int, delay: float) -> None:
    await asyncio.sleep(delay)  # students arrive one after another, then all play at once
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    page.on("console", lambda m: visitor.errors.append(f"console: {m.text.splitlines()[0][:300]}")
            if m.type == "error" and not any(s in m.text for s in IGNORED_CONSOLE) else None)
    page.on("pageerror", lambda e: visitor.errors.append(f"page error: {str(e).splitlines()[0][:300]}"))
    try:
        start = time.monotonic()
        await page.goto(url, timeout=timeout_ms)
        await page.wait_for_selector("text=Start the game", timeout=timeout_ms)
        visitor.tti = time.monotonic() - start
        seed = 1000 + visitor.number
        while len(visitor.latencies) < actions:
            await page.select_option(".dk-setup select >> nth=0", "2")
            await page.select_option(".dk-setup select >> nth=3", "random bot")
            await page.fill(".dk-setup input[placeholder=random]", str(seed))
            await page.click("text=Start the game")
            await page.wait_for_selector(".dk-board", timeout=timeout_ms)
            while len(visitor.latencies) < actions and not await page.locator(".dk-over").count():
                before = int(await page.get_attribute(".dk-log", "data-events"))
                button = None
                for label in ("Reveal", "Hold", "Decline", "Take over"):
                    candidate = page.locator("button:visible", has_text=label)
                    if await candidate.count():
                        button = candidate.first
                        # hold now and then, so that turns end and the bot plays too
                        if label == "Reveal" and len(visitor.latencies) % 3 == 2:
                            hold = page.locator("button:visible", has_text="Hold")
                            button = hold.first if await hold.count() else button
                        break
                clicked = time.monotonic()
                if button is not None:
                    await button.click()
                await page.wait_for_function(
                    f"Number(document.querySelector('.dk-log').dataset.events) > {before}", timeout=timeout_ms)
                if button is not None:
                    visitor.latencies.append(time.monotonic() - clicked)
                    await page.wait_for_timeout(400)  # a person's pace
            if len(visitor.latencies) < actions:
                await page.click("text=New game")
                seed += 100
        body = await page.inner_text("body")
        visitor.errors += [f"page shows {text!r}" for text in PAGE_ERRORS if text in body]
    except Exception as exc:  # a timeout or a broken page counts as an error of this visitor
        visitor.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        await context.close()


async def _classroom(url: str, visitors: list[Visitor], actions: int, timeout_ms: int, server_pid: int,
                     ramp: float) -> dict:
    from playwright.async_api import async_playwright

    executable = os.environ.get("DRAGONKIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        peak = {"kernels": 0, "mib": 0.0}

        async def watch():
            while True:
                kernels, mib = kernel_memory(server_pid)
                if mib > peak["mib"]:
                    peak.update(kernels=kernels, mib=mib)
                await asyncio.sleep(1)

        watcher = asyncio.create_task(watch())
        try:
            await asyncio.gather(*(_visit(browser, url, v, actions, timeout_ms, ramp * v.number / len(visitors))
                                   for v in visitors))
        finally:
            watcher.cancel()
            await browser.close()
    return peak


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def run(visitors: int = 40, actions: int = 10, pool: int = 4, cull_idle: int = 120,
        timeout_s: int = 240, ramp: float = 60.0) -> dict:
    """Run a classroom; return the report as a dict (see the module docstring)."""
    options = ServeOptions(port=_free_port(), token=secrets.token_urlsafe(16), pool=pool, cull_idle=cull_idle)
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"dragonkit-classroom-{options.port}.log", "wb")
    server = subprocess.Popen(voila_command(options, notebooks_dir()), stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:  # the server is up, and its pool is filled
            kernels, _ = kernel_memory(server.pid)
            with socket.socket() as sock:
                up = sock.connect_ex(("127.0.0.1", options.port)) == 0
            if up and kernels >= pool:
                break
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.5)
        time.sleep(3)
        idle_kernels, idle_mib = kernel_memory(server.pid)
        people = [Visitor(i) for i in range(visitors)]
        started = time.monotonic()
        peak = asyncio.run(_classroom(options.url, people, actions, timeout_s * 1000, server.pid, ramp))
        elapsed = time.monotonic() - started
        deadline = time.monotonic() + cull_idle * 4 + 60
        while time.monotonic() < deadline:  # the visitors have left: wait for the culling
            kernels, mib = kernel_memory(server.pid)
            if kernels <= idle_kernels:
                break
            time.sleep(2)
        after_kernels, after_mib = kernel_memory(server.pid)
        server_mib = _rss_mib(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    latencies = [x for v in people for x in v.latencies]
    ttis = [v.tti for v in people if v.tti is not None]
    busy = max(peak["kernels"] - idle_kernels, 1)
    return {
        "visitors": visitors,
        "actions_played": len(latencies),
        "errors": [f"visitor {v.number}: {e}" for v in people for e in v.errors],
        "seconds": round(elapsed, 1),
        "ramp_s": ramp,
        "tti_median_s": round(statistics.median(ttis), 2) if ttis else None,
        "tti_p95_s": round(_percentile(ttis, 0.95), 2) if ttis else None,
        "latency_median_ms": round(1000 * statistics.median(latencies)) if latencies else None,
        "latency_p95_ms": round(1000 * _percentile(latencies, 0.95)) if latencies else None,
        "kernels_idle": idle_kernels,
        "kernels_peak": peak["kernels"],
        "kernels_after": after_kernels,
        "kernel_mib_idle": round(idle_mib),
        "kernel_mib_peak": round(peak["mib"]),
        "kernel_mib_per_visitor": round((peak["mib"] - idle_mib) / busy, 1),
        "kernel_mib_after": round(after_mib),
        "server_mib_after": round(server_mib),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=40)
    parser.add_argument("--actions", type=int, default=10)
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds over which the visitors arrive")
    parser.add_argument("--cull-idle", type=int, default=120,
                        help="must exceed the slowest page load: a kernel is culled before its page connects")
    args = parser.parse_args()
    report = run(args.visitors, args.actions, args.pool, args.cull_idle, ramp=args.ramp)
    print(json.dumps(report, indent=2))
    return 1 if report["errors"] or report["actions_played"] < args.visitors * args.actions else 0


if __name__ == "__main__":
    sys.exit(main())
