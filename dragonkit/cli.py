"""The ``dragonkit`` command: ``dragonkit serve`` runs the notebooks as web apps
with Voilà on 127.0.0.1 and opens the play app in the browser, ready to play; served to a class
(:func:`serves_a_class`), it keeps the class's record and asks each student's nickname first; ``dragonkit
tournament`` plays a round robin between bots and prints the win rates; ``dragonkit
paper`` prints the worksheets, teacher's guides, rules and mini deck to PDF (:mod:`dragonkit.paper`); ``dragonkit
class`` exports, erases and checks the class's record (:mod:`dragonkit.record.command`)."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
import webbrowser
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn
from urllib.parse import urlencode

from .coach.views import DEFAULT_ESTIMATE_GAMES, GAMES_VARIABLE
from .i18n import LANGUAGES
from .i18n.notebooks import notebooks_dir
from .paper.arguments import add_arguments as add_paper_arguments
from .record.command import add_arguments as add_class_arguments
from .record.command import argument, checked_class, class_argument, prepare, record_argument
from .record.command import run as run_class
from .record.store import checked_url, default_url
from .record.where import CLASS_VARIABLE, DEFAULT_CLASS, RECORD_VARIABLE
from .rules import PRESETS
from .server.teacher import DASHBOARD, TEACHER_KEY_FD, TEACHER_KEY_VARIABLE, checked_key, new_key, write_key

__all__ = ["ServeOptions", "main", "notebooks_dir", "serves_a_class", "start_server", "voila_command"]

APP = "play.ipynb"
#: What ``dragonkit serve`` says of the record when it keeps none: for a class (``--no-record``), and for one learner
#: on their own machine (:func:`serves_a_class`).
NO_RECORD = "dragonkit: no record of the class is kept (--no-record)"
ALONE = "dragonkit: playing on your own: no nickname asked, no record kept (--class NAME serves a class)"
#: The most games per pair of bots ``dragonkit tournament`` plays (about an hour per pair on two cores), and the most
#: worker processes.
MAX_GAMES = 10_000_000
MAX_WORKERS = 256


@dataclass(frozen=True)
class ServeOptions:
    """How to serve the notebooks.

    Attributes
    ----------
    ip : str
        Bind address; a non-loopback address needs a token.
    port : int
    token : str or None
        Access token: visitors open ``...?token=TOKEN``.
    pool : int
        Preheated kernels kept ready for the play app (0: start one per visitor;
        the lessons always start one per visitor).
    cull_idle : int
        Seconds after which a kernel whose page is gone (closed, reloaded, or a browser that quit
        without saying so) and that has done nothing since is shut down (0: never); a kernel whose page
        is open is never shut down, however long its visitor stays idle.
    connect_wait : int
        Seconds a page's kernel waits for its browser to connect the first time before it may be shut down (at least
        ``cull_idle``): the page's scripts, about 5 MB on a first visit, may take a minute or more to reach a class
        that arrives at once over a school's Wi-Fi (:mod:`dragonkit.server.kernels`).
    max_kernels : int
        Kernels on the machine, the pool's included (0: as many as its memory holds,
        :func:`dragonkit.server.budget.default_max_kernels`): ``max_kernels - pool`` visitors at once.
    max_kernels_per_client : int
        Kernels of one visitor's address (0: no limit).
    cell_timeout : int
        Seconds a notebook cell may run before Voilà stops it.
    lang : str
        The language the pages open in (``"en"`` or ``"it"``; a page's ``?lang=`` overrides it).
    record : str or None
        The class's record, an SQLAlchemy URL (:mod:`dragonkit.record`); None: no record (and no join page).
        ``dragonkit serve`` gives a class (:func:`serves_a_class`) this machine's SQLite file by default
        (:func:`dragonkit.record.store.default_url`), and one learner alone none.
    class_name : str
        The class's name in the record.
    teacher_key : str
        What opens the teacher's dashboard (:mod:`dragonkit.server.teacher`; default: a new random key). It
        reaches the server through a pipe (:func:`start_server`), never its command line or its environment, and no
        kernel inherits it.
    coach_games : int
        Games per option, at most, of the coach's Monte Carlo estimate of the chance of winning (three players or
        more), which each kernel makes at its student's decisions within 1.5 s of a core
        (:func:`dragonkit.coach.views.estimate_games`): fewer spare a small machine's cores, for wider intervals.
    certfile, keyfile : str or None
        Serve over HTTPS with this certificate (PEM, its chain after it) and its private key (PEM; None: in the
        certificate's file): every cookie the server sets is then ``Secure``. None: plain HTTP.
    behind_proxy : bool
        The server is reached through a reverse proxy (nginx, Apache, a school's gateway) that terminates HTTPS: the
        scheme and the visitor's address are read from its ``X-Forwarded-Proto``/``X-Real-Ip`` headers (so the
        cookies are ``Secure`` and the budget counts each visitor's address). Only behind a proxy: a visitor who
        reaches the server directly could write those headers.
    """

    ip: str = "127.0.0.1"
    port: int = 8866
    token: str | None = None
    pool: int = 2
    cull_idle: int = 45
    connect_wait: int = 180
    max_kernels: int = 0
    max_kernels_per_client: int = 10
    cell_timeout: int = 60
    lang: str = "en"
    record: str | None = None
    class_name: str = DEFAULT_CLASS
    teacher_key: str = field(default_factory=new_key, repr=False)
    coach_games: int = DEFAULT_ESTIMATE_GAMES
    certfile: str | None = None
    keyfile: str | None = None
    behind_proxy: bool = False

    def check(self) -> None:
        """Raise ValueError for an unsafe or impossible setting."""
        if not 1 <= self.port <= 65535:
            raise ValueError(f"--port must lie in 1..65535, not {self.port}")
        if not _loopback(self.ip) and not self.token:
            raise ValueError(
                f"refusing to listen on {self.ip} without --token: anyone on the network could open the app"
            )
        if self.token is not None and not re.fullmatch(r"[A-Za-z0-9_-]{8,128}", self.token):
            raise ValueError("--token must be 8 to 128 letters, digits, '-' or '_'")
        for name in ("pool", "cull_idle", "connect_wait", "cell_timeout", "max_kernels", "max_kernels_per_client"):
            if getattr(self, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be >= 0")
        if self.coach_games < 1:
            raise ValueError(f"--coach-games must be >= 1, not {self.coach_games}")
        if self.max_kernels and self.pool >= self.max_kernels:
            raise ValueError(
                f"--pool ({self.pool}) must be smaller than --max-kernels ({self.max_kernels}): "
                "the pool's kernels count in it"
            )
        if self.lang not in LANGUAGES:
            raise ValueError(f"--lang must be one of {', '.join(LANGUAGES)}, not {self.lang!r}")
        for flag, value, check in (
            ("--record", self.record, checked_url),
            ("--class", self.class_name, checked_class),
            ("--teacher-key", self.teacher_key, checked_key),
        ):
            try:
                if value is not None:
                    check(value)
            except ValueError as exc:
                raise ValueError(f"{flag}: {exc}") from None
        if self.keyfile and not self.certfile:
            raise ValueError("--keyfile needs --certfile: the certificate that goes with the key")
        if self.certfile:
            try:
                ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(self.certfile, self.keyfile)
            except (OSError, ssl.SSLError) as exc:
                raise ValueError(
                    f"--certfile {self.certfile}{f' --keyfile {self.keyfile}' if self.keyfile else ''}: not a "
                    f"certificate and its private key in PEM ({exc})"
                ) from None

    @property
    def scheme(self) -> str:
        """``https`` where the server has a certificate, else ``http``."""
        return "https" if self.certfile else "http"

    def environment(self) -> dict[str, str]:
        """The environment of the Voilà server: this process's, with the language, the record, the class's name and
        the coach's games, which its kernels inherit, and without a teacher's key (:data:`TEACHER_KEY_VARIABLE`, one
        way ``dragonkit serve`` is given it: the server has its key through a pipe, :func:`start_server`)."""
        inherited = {name: value for name, value in os.environ.items() if name != TEACHER_KEY_VARIABLE}
        return {
            **inherited,
            "DRAGONKIT_LANG": self.lang,
            RECORD_VARIABLE: self.record or "off",
            CLASS_VARIABLE: self.class_name,
            GAMES_VARIABLE: str(self.coach_games),
        }

    def _address(self, page: str, **query: str) -> str:
        """The address of ``page`` (a path after the server's root), with the token if any, then ``query``."""
        host = f"[{self.ip}]" if ":" in self.ip else self.ip
        asked = urlencode({**({"token": self.token} if self.token else {}), **query})
        return f"{self.scheme}://{host}:{self.port}/{page}" + (f"?{asked}" if asked else "")

    @property
    def url(self) -> str:
        """The play app's address (with the token, if any)."""
        return self._address(f"voila/render/{APP}")

    @property
    def dashboard_url(self) -> str:
        """The teacher's dashboard's address, with the teacher's key (and the token, if any)."""
        return self._address(f"voila/render/{DASHBOARD}", key=self.teacher_key)

    @property
    def index_url(self) -> str:
        """The list of the notebooks: the lessons and the apps; in another language than English, the
        folder of its lessons (``notebooks/<lang>/``, :mod:`dragonkit.i18n.notebooks`)."""
        folder = "/" if self.lang == "en" else f"/voila/tree/{self.lang}"
        return self.url.replace(f"/voila/render/{APP}", folder)


def _loopback(ip: str) -> bool:
    """Whether ``ip`` is an address of this machine only (``127.0.0.1``, ``::1``, ``localhost``)."""
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return ip == "localhost"


def serves_a_class(args: argparse.Namespace) -> bool:
    """Whether ``dragonkit serve``'s options say that a class is served, not one learner on their own machine.

    A class is said by any of: a class's name (``--class``), a token for the students (``--token``), a teacher's key
    (``--teacher-key``, or ``$DRAGONKIT_TEACHER_KEY``), a record (``--record``), or an address beyond this machine
    (``--ip``, which needs a token). A class's server keeps the record (this machine's SQLite file unless ``--record``
    gives another; none with ``--no-record``), asks each student's nickname first (the join page, :mod:`.server.join`)
    and prints the teacher's dashboard's address; one learner's opens the game at once and keeps no record.

    Parameters
    ----------
    args : argparse.Namespace
        ``dragonkit serve``'s parsed arguments (:func:`main`): ``class_name``, ``token``, ``teacher_key`` and
        ``record`` None where not given, and ``ip``.
    """
    given = (args.class_name, args.token, args.teacher_key, args.record)
    return any(value is not None for value in given) or bool(_given_key(args)) or not _loopback(args.ip)


def _given_key(args: argparse.Namespace) -> str:
    """The teacher's key ``dragonkit serve`` was given: ``--teacher-key``, else ``$DRAGONKIT_TEACHER_KEY``, else
    ``""``."""
    return args.teacher_key or os.environ.get(TEACHER_KEY_VARIABLE, "").strip()


def voila_command(options: ServeOptions, directory: Path) -> list[str]:
    """The command line of the classroom's Voilà (:mod:`dragonkit.server`) for ``options``: only
    ``directory`` is served, with no source code, no tracebacks and no static files in the page, its template and
    theme the kit's whatever the address asks, kernel websockets only for the v1 protocol, under a kernel budget."""
    command = [
        sys.executable,
        "-m",
        "dragonkit.server",
        str(directory),
        "--no-browser",
        f"--port={options.port}",
        "--Voila.port_retries=0",  # the printed address must be the real one
        f"--Voila.ip={options.ip}",
        f"--Voila.token={options.token or ''}",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        # the apps draw everything inline: no file of the folder is served
        "--VoilaConfiguration.file_denylist=.*",
        # no query string chooses what a page loads: Voilà's other templates (?template=reveal, classic) fetch
        # their scripts from public CDNs, and a theme of the address is not the kit's
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.allow_theme_override=NO",
        f"--VoilaExecutor.timeout={options.cell_timeout}",
        # a busy machine (a whole class arriving) delivers outputs late: wait for them rather than
        # send a page without the app
        "--VoilaExecutor.iopub_timeout=120",
        # browsers speak the v1 kernel websocket protocol; a legacy client can freeze Voilà 0.5
        "--Voila.kernel_websocket_connection_class=dragonkit.server.kernel_socket.V1OnlyWebsocketConnection",
        f"--ClassroomVoila.max_kernels={options.max_kernels}",
        f"--ClassroomVoila.max_kernels_per_client={options.max_kernels_per_client}",
        # kernels talk over Unix sockets: no TCP port races when many start at once, nothing on the network
        "--KernelManager.transport=ipc",
    ]
    if options.pool:  # only the play app, the page a whole class opens at once, gets a pool
        pools = {APP: {"pool_size": options.pool}, "default": {"pool_size": 0}}
        command += [
            "--VoilaConfiguration.preheat_kernel=True",
            f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
        ]
    if options.certfile:
        command.append(f"--ClassroomVoila.certfile={options.certfile}")
    if options.keyfile:
        command.append(f"--ClassroomVoila.keyfile={options.keyfile}")
    if options.behind_proxy:
        command.append("--ClassroomVoila.trust_xheaders=True")
    if options.cull_idle:
        command += [
            f"--MappingKernelManager.cull_idle_timeout={options.cull_idle}",
            f"--MappingKernelManager.cull_interval={max(1, min(15, options.cull_idle // 3))}",
            "--MappingKernelManager.cull_connected=False",
            f"--ClassroomKernelManager.connect_wait={options.connect_wait}",
        ]
    return command


def start_server(
    options: ServeOptions,
    directory: Path,
    extra: Sequence[str] = (),
    environment: Mapping[str, str] | None = None,
    **popen: Any,
) -> subprocess.Popen[bytes]:
    """Start the classroom's Voilà for ``options``, serving ``directory``: the one way the kit, its tests and its
    benchmarks start it. The teacher's key goes through a pipe the server reads once at its start and closes
    (:func:`dragonkit.server.teacher.take_key`): neither its command line (``ps``) nor its environment
    (``/proc/<pid>/environ``, readable after the server took a variable out) ever holds it.

    Parameters
    ----------
    options : ServeOptions
    directory : pathlib.Path
        The notebooks' folder.
    extra : sequence of str
        Options of the server's command line (``--Class.trait=value``), each replacing the same option of
        :func:`voila_command`'s.
    environment : mapping of str to str, optional
        Variables added to :meth:`ServeOptions.environment` (a benchmark's ``PYTHONPATH``).
    **popen
        For :class:`subprocess.Popen` (``stdout``, ``cwd``...).

    Returns
    -------
    subprocess.Popen
        The server's process.
    """
    replaced = {option.split("=", 1)[0] for option in extra}
    command = [arg for arg in voila_command(options, directory) if arg.split("=", 1)[0] not in replaced]
    key = write_key(options.teacher_key)
    try:
        env = {**options.environment(), **(environment or {}), TEACHER_KEY_FD: str(key)}
        return subprocess.Popen([*command, *extra], env=env, pass_fds=(key,), **popen)
    finally:
        os.close(key)  # the server has its own copy


def _wait_for_port(options: ServeOptions, proc: subprocess.Popen[bytes], timeout: float) -> bool:
    host = "127.0.0.1" if options.ip in ("0.0.0.0", "localhost") else options.ip
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
            sock.settimeout(0.5)
            if sock.connect_ex((host, options.port)) == 0:
                return True
        time.sleep(0.2)
    return False


def serve(options: ServeOptions, open_browser: bool, record: str = NO_RECORD) -> int:
    """Serve the notebooks until interrupted (Ctrl-C or SIGTERM, which also stop Voilà
    and its kernels); returns Voilà's exit code.  The server solves the two-player win tables missing from the
    cache in a process of its own while it serves (:func:`dragonkit.analysis.win.model.prepare_in_background`).
    ``record`` is what to say of the record, printed with the addresses: where the class's record is
    (:func:`dragonkit.record.command.prepare`; the teacher's dashboard's address follows it when ``options`` keep a
    record), or why none is kept (:data:`NO_RECORD`, :data:`ALONE`)."""
    proc = start_server(options, notebooks_dir())

    def stop(_signum: int, _frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        if not _wait_for_port(options, proc, timeout=90):
            print(f"dragonkit: Voilà did not start on port {options.port}", file=sys.stderr)
            proc.terminate()
            return proc.wait() or 1
        lines = [
            f"dragonkit: the play app is at {options.url}",
            f"dragonkit: the lessons and the hand trainer are listed at {options.index_url}",
        ]
        lines.append(record)
        if options.record:
            lines.append(
                f"dragonkit: the teacher's dashboard (keep its address to yourself) is at {options.dashboard_url}"
            )
        print("\n".join([*lines, "dragonkit: Ctrl-C stops the server"]), flush=True)
        if open_browser:
            webbrowser.open(options.url)
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        return proc.wait()


def main(argv: list[str] | None = None) -> int:
    """Run the ``dragonkit`` command.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code.
    """
    parser = argparse.ArgumentParser(prog="dragonkit", description="Dragon Stripes teaching kit")
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser(
        "serve",
        help="serve the notebooks with Voilà and open the play app",
        description="Serve the notebooks with Voilà and open the play app. Alone, the game opens at once; "
        "--class, --token, --teacher-key, --record or an --ip beyond this machine serve a class: its record, "
        "each student's nickname asked first, the teacher's dashboard.",
    )
    defaults = ServeOptions()  # the options' defaults are the dataclass's
    p_serve.add_argument("--ip", default=defaults.ip, help="bind address (default %(default)s; others need --token)")
    p_serve.add_argument("--port", type=int, default=defaults.port, help="port (default %(default)s)")
    p_serve.add_argument("--token", default=defaults.token, help="access token that visitors must present")
    p_serve.add_argument(
        "--pool",
        type=int,
        default=defaults.pool,
        help="preheated kernels kept ready for the play app (default %(default)s)",
    )
    p_serve.add_argument(
        "--cull-idle",
        type=int,
        default=defaults.cull_idle,
        help="shut down a kernel whose page is gone after this many idle seconds (default %(default)s; 0 never)",
    )
    p_serve.add_argument(
        "--connect-wait",
        type=int,
        default=defaults.connect_wait,
        help="seconds a new page's kernel waits for its browser to connect (default %(default)s)",
    )
    p_serve.add_argument(
        "--max-kernels",
        type=int,
        default=defaults.max_kernels,
        help="kernels on the machine (default %(default)s: as many as the memory holds)",
    )
    p_serve.add_argument(
        "--max-kernels-per-client",
        type=int,
        default=defaults.max_kernels_per_client,
        help="kernels of one visitor's address (default %(default)s; 0 no limit)",
    )
    p_serve.add_argument(
        "--cell-timeout", type=int, default=defaults.cell_timeout, help="seconds a cell may run (default %(default)s)"
    )
    p_serve.add_argument(
        "--lang", default=defaults.lang, help=f"language of the pages: {' or '.join(LANGUAGES)} (default %(default)s)"
    )
    p_serve.add_argument(
        "--certfile",
        metavar="PEM",
        help="serve over HTTPS with this certificate (PEM, its chain after it); every cookie is then Secure",
    )
    p_serve.add_argument("--keyfile", metavar="PEM", help="the certificate's private key (default: in --certfile)")
    p_serve.add_argument(
        "--behind-proxy",
        action="store_true",
        help="a reverse proxy that terminates HTTPS forwards to this server: read the scheme and the visitor's "
        "address from its X-Forwarded-Proto and X-Real-Ip headers (only then: a visitor could write them)",
    )
    recording = p_serve.add_mutually_exclusive_group()
    recording.add_argument(
        "--record",
        type=record_argument,
        metavar="URL",
        help="the class's record, an SQLAlchemy URL (a class's default: an SQLite file of this machine's user, "
        "~/.local/share/dragonkit/class-record.sqlite; postgresql+psycopg://… for a school's server)",
    )
    recording.add_argument("--no-record", action="store_true", help="keep no record (and ask no nickname)")
    p_serve.add_argument(
        "--class",
        dest="class_name",
        type=class_argument,
        metavar="NAME",
        help=f"serve a class: its name in the record (a class served without --class: {defaults.class_name})",
    )
    p_serve.add_argument(
        "--teacher-key",
        type=argument(checked_key),
        metavar="KEY",
        help=f"what opens the teacher's dashboard (default: ${TEACHER_KEY_VARIABLE}, else a new random key; "
        "a key given here is visible to the machine's other users)",
    )
    p_serve.add_argument(
        "--coach-games",
        type=int,
        default=defaults.coach_games,
        metavar="N",
        help="games per option, at most, of the coach's estimate of the chance of winning with three players or more "
        "(default %(default)s, within 1.5 s of a core at each decision; fewer spare a small machine)",
    )
    p_serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p_tour = sub.add_parser("tournament", help="a round robin between bots; prints win rates")
    p_tour.add_argument(
        "--bots",
        nargs="+",
        default=["coach", "threshold:20", "random"],
        help=(
            "bot specs, each a kind of bot with its number after a colon where it takes one, e.g. coach, win, "
            "random, threshold:20 (an unknown spec is answered with every kind; default: coach threshold:20 random); "
            "win plays to win in two-player games, with more players as coach"
        ),
    )
    p_tour.add_argument(
        "--games", type=int, default=200, help=f"games per pair of bots, 1 to {MAX_GAMES:,} (default 200)"
    )
    p_tour.add_argument("--seed", type=int, default=0, help="the tournament's seed, 0 or more (default 0)")
    p_tour.add_argument(
        "--preset",
        "--edition",
        dest="preset",
        choices=list(PRESETS),
        default="dragon-stripes",
        help="the edition (default dragon-stripes)",
    )
    p_tour.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p_tour.add_argument(
        "--level", type=float, default=0.95, help="confidence level of the intervals, between 0 and 1 (default 0.95)"
    )
    p_paper = sub.add_parser(
        "paper", help="print the worksheets, teacher's guides, the rules and the mini deck to PDF (needs Chromium)"
    )
    add_paper_arguments(p_paper)
    p_class = sub.add_parser("class", help="export, erase or check the class's record")
    add_class_arguments(p_class)
    args = parser.parse_args(argv)
    if args.command == "tournament":
        return tournament(args, p_tour)
    if args.command == "paper":
        return paper(args)
    if args.command == "class":
        return run_class(args)
    key = _given_key(args)
    a_class = serves_a_class(args)
    options = ServeOptions(
        ip=args.ip,
        port=args.port,
        token=args.token,
        pool=args.pool,
        cull_idle=args.cull_idle,
        connect_wait=args.connect_wait,
        max_kernels=args.max_kernels,
        max_kernels_per_client=args.max_kernels_per_client,
        cell_timeout=args.cell_timeout,
        lang=args.lang,
        record=(args.record or default_url()) if a_class and not args.no_record else None,
        class_name=args.class_name or defaults.class_name,
        coach_games=args.coach_games,
        certfile=args.certfile,
        keyfile=args.keyfile,
        behind_proxy=args.behind_proxy,
        **({"teacher_key": key} if key else {}),
    )
    try:
        options.check()
    except ValueError as exc:
        parser.error(str(exc))
    try:  # the schema brought up to date, or a line saying the database cannot be reached now
        if options.record:
            record = prepare(options.record)
        else:
            record = NO_RECORD if a_class else ALONE
    except ValueError as exc:  # no driver for it
        parser.error(f"--record: {exc}")
    return serve(options, open_browser=not args.no_browser, record=record)


def paper(args: argparse.Namespace) -> int:
    """Run ``dragonkit paper`` (:func:`dragonkit.paper.build.run`): it imports the lessons, so only when asked."""
    from .paper.build import run

    return run(args)


def tournament(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``dragonkit tournament`` and print its standings."""
    from .rules import Ruleset
    from .simulate import round_robin
    from .simulate.games import parse_bots

    try:
        parse_bots(args.bots)
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    if len(args.bots) < 2:
        parser.error(f"--bots needs at least two bots to play each other, not {len(args.bots)}")
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be a whole number of games from 1 to {MAX_GAMES:,}, not {args.games}")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, not {args.seed}")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be from 1 to {MAX_WORKERS}, not {args.workers}")
    if not 0 < args.level < 1:
        parser.error(f"--level must lie strictly between 0 and 1 (0.95 for 95 % intervals), not {args.level}")
    try:
        result = round_robin(
            args.bots,
            args.games,
            seed=args.seed,
            rules=Ruleset.preset(args.preset),
            level=args.level,
            workers=args.workers,
            progress=sys.stderr.isatty(),
        )
    except ValueError as exc:
        parser.error(str(exc))
    table = result.standings.copy()
    table.columns = ["games", "wins", "win rate", "std error", f"{args.level:.0%} low", f"{args.level:.0%} high"]
    games = f"{args.games} game{'' if args.games == 1 else 's'}"
    print(f"Round robin, {args.preset}, {games} per pair, seed {args.seed}")
    print(table.to_string(float_format=lambda x: f"{x:.3f}", formatters={"wins": lambda w: f"{w:g}"}))
    print(
        f"\nendings: {', '.join(f'{k} {v}' for k, v in result.endings.items())}; {result.mean_turns:.1f} turns per game"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
