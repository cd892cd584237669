"""Shared fixtures: a Voilà server on 127.0.0.1 and a headless Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from dragonkit.cli import ServeOptions, notebooks_dir, voila_command

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def voila_url():
    """Base URL of a Voilà server serving notebooks/ (stopped after the session)."""
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "voila.log", "wb") as out:
        proc = subprocess.Popen(
            voila_command(ServeOptions(port=port), notebooks_dir()), stdout=out, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                assert proc.poll() is None, "Voilà exited early; see tests/artifacts/voila.log"
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.3)
            else:
                pytest.fail("Voilà did not start within 90 s")
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = os.environ.get("DRAGONKIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        pytest.fail(
            "Chromium is missing: install Debian's package (apt-get install -y chromium) "
            "or set DRAGONKIT_CHROMIUM to a Chromium binary"
        )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()
