"""The ``dragonkit`` command: ``dragonkit serve`` runs the notebooks as web apps
with Voilà on 127.0.0.1 and opens the play app in the browser; ``dragonkit
tournament`` plays a round robin between bots and prints the win rates."""

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
    p_tour = sub.add_parser("tournament", help="a round robin between bots; prints win rates")
    p_tour.add_argument("--bots", nargs="+", default=["coach", "threshold:20", "random"],
                        help="bot specs: coach, random, threshold:T (default: coach threshold:20 random)")
    p_tour.add_argument("--games", type=int, default=200, help="games per pair of bots (default 200)")
    p_tour.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    p_tour.add_argument("--preset", default="dragon-stripes", help="the edition (default dragon-stripes)")
    p_tour.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p_tour.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    args = parser.parse_args(argv)
    if args.command == "tournament":
        return tournament(args, parser)
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must lie in 1..65535, not {args.port}")
    return serve(args.port, open_browser=not args.no_browser)


def tournament(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``dragonkit tournament`` and print its standings."""
    from .rules import Ruleset
    from .simulate import round_robin

    try:
        result = round_robin(args.bots, args.games, seed=args.seed, rules=Ruleset.preset(args.preset),
                             level=args.level, workers=args.workers, progress=sys.stderr.isatty())
    except ValueError as exc:
        parser.error(str(exc))
    table = result.standings.copy()
    table.columns = ["games", "wins", "win rate", "std error", f"{args.level:.0%} low", f"{args.level:.0%} high"]
    print(f"Round robin, {args.preset}, {args.games} games per pair, seed {args.seed}")
    print(table.to_string(float_format=lambda x: f"{x:.3f}"))
    print(f"\nendings: {', '.join(f'{k} {v}' for k, v in result.endings.items())}; "
          f"{result.mean_turns:.1f} turns per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
