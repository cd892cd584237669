"""The ``dragonkit`` command: ``dragonkit serve`` runs the notebooks as web apps
with Voilà on 127.0.0.1 and opens the play app in the browser."""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import webbrowser
from pathlib import Path

__all__ = ["main", "notebooks_dir", "voila_command"]

APP = "play.ipynb"


def notebooks_dir() -> Path:
    """Where the notebooks are: the checkout's ``notebooks/`` (editable install)
    or the copy inside the installed package.

    Raises
    ------
    FileNotFoundError
        If neither holds the play app.
    """
    package = Path(__file__).resolve().parent
    for candidate in (package.parent / "notebooks", package / "notebooks"):
        if (candidate / APP).is_file():
            return candidate
    raise FileNotFoundError(f"cannot find {APP} next to the dragonkit package ({package})")


def voila_command(port: int, directory: Path) -> list[str]:
    """The Voilà command line that serves ``directory`` on 127.0.0.1:``port``
    without source code or tracebacks in the page."""
    return [
        sys.executable, "-m", "voila", str(directory),
        f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1",
        "--VoilaConfiguration.strip_sources=True", "--VoilaConfiguration.show_tracebacks=False",
    ]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.2)
    return False


def serve(port: int, open_browser: bool) -> int:
    """Serve the notebooks until interrupted; returns Voilà's exit code."""
    proc = subprocess.Popen(voila_command(port, notebooks_dir()))
    try:
        if not _wait_for_port(port, proc, timeout=60):
            print(f"dragonkit: Voilà did not start on port {port}", file=sys.stderr)
            proc.terminate()
            return proc.wait() or 1
        url = f"http://127.0.0.1:{port}/voila/render/{APP}"
        print(f"dragonkit: the play app is at {url}  (Ctrl-C stops the server)", flush=True)
        if open_browser:
            webbrowser.open(url)
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        return proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dragonkit", description="Dragon Stripes teaching kit")
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", help="serve the notebooks with Voilà and open the play app")
    p_serve.add_argument("--port", type=int, default=8866, help="port on 127.0.0.1 (default 8866)")
    p_serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must lie in 1..65535, not {args.port}")
    return serve(args.port, open_browser=not args.no_browser)


if __name__ == "__main__":
    sys.exit(main())
