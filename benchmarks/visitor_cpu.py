"""Where one visitor's CPU goes: the play app's kernel and the classroom server, measured apart.

    python benchmarks/visitor_cpu.py                 # median of 5 fresh runs, as a table
    python benchmarks/visitor_cpu.py --repeats 3 --json

Every number is **process CPU time**, user plus system (fields 14 and 15 of
``/proc/<pid>/stat``), read before and after a stage: the CPU-seconds the process
itself spent, not the time it waited for a core: other work on a shared 2-core machine
slows a stage down but changes its cost far less (a busy neighbour on the same core's
caches can still add a tenth or two, hence the median).  Wall-clock time is never used
as a measure.  Linux counts CPU time in ticks of 0.01 s, so a reading is good to
0.01 s; a waiting kernel costs about a millisecond a second.  Each stage is measured
``--repeats`` times, each time in a fresh kernel (and, for the server side, a fresh
server), and the table gives the median, the least and the most.

**The kernel side.**  This script starts an IPython kernel itself, as ``dragonkit
serve`` has Voilà start one (``jupyter_client``, ``transport="ipc"``), and speaks to
it as Voilà and then the visitor's browser do.  Only the kernel process is measured:

1. *kernel start*: from the start of the process until it answers ``kernel_info``
   (the interpreter, IPython, ipykernel, zmq).
2. *imports*: ``from dragonkit.ui import PlayApp``, the first line of
   ``notebooks/play.ipynb`` (ipywidgets, numpy, the rules and the analysis, the styles,
   the translations, and the hand trainer, which ``dragonkit.ui`` imports too).
3. *running the notebook*: ``app = PlayApp(); app``, the notebook's last line: the app
   builds its widgets, each opens a comm (its whole state goes to the front end), and
   the app is displayed.
4. *widget state*: what the browser asks next, as ipywidgets 8 does: a comm to
   ``jupyter.widget.control`` and ``{"method": "request_states"}``, until the
   ``update_states`` reply (every widget's state again, in one message).
   Then, not measured, the visitor unticks "bots play by themselves" (a widget update
   from the browser): the bot then moves when the "Next bot move" button is clicked,
   which runs the same ``PlayApp.step`` as the app's own timer would, one move at a
   time, so that every move is waited for and the game is the same in every run.
5. *first coach solve*: ``app.start(GameConfig(...))`` with two seats, a human and a
   random bot (``--seed``, the same in every run): the board is drawn and the coach
   panel, shown by default, solves the first turn exactly.
6. *ten actions*: ten human actions, clicked as a browser does (a ``custom`` ``click``
   comm message to the button's widget): Reveal, Reveal, Hold and again, whichever is
   offered, as ``benchmarks/classroom.py``'s visitors do, with the bot's moves in between
   ("Next bot move").  Every click is waited for until the kernel has sent all it changed
   (the status ``idle`` of that message); a click repeated within the app's
   double-click time waits that long first.
7. *playing on to the end*: the human reveals (or declines a takeover) until the game
   ends, the bot moving in between: every move but the last.
8. *end-of-game figure*: the game's last move, the one that ends it: the final
   redraw, and the figure of the gems over the game (an SVG, drawn without
   matplotlib: ``benchmarks/bench_game_end.py`` measures this stage alone).

**The server side.**  A fresh ``python -m dragonkit.server`` (the command line of
``dragonkit serve``, ``--pool 0``: a kernel per page) for each run; measured is the
server process's own CPU, not its kernels' (they are its children, counted apart):

9. *server start*: from the start of the process until it listens and has settled
   (once per class, not per visitor).
10. *page rendering, first page*: one ``GET /voila/render/play.ipynb``: Voilà starts a
    kernel, runs the notebook in it, relays every output and widget it sends, and
    renders the page with nbconvert and jinja.  The first page after the start also
    loads what the server loads lazily.
11. *page rendering, later pages*: the same for the next visitor: what each visitor costs.
12. *relaying a game*: the same visitor then opens the kernel's websocket (the v1
    protocol), fetches the widget states, starts a game against a random bot and plays
    ten actions (``benchmarks/classroom.py``'s websocket visitor, at a person's pace,
    the bot playing by itself): the server relays every message between the kernel
    and the browser.

Each of a page's kernels is measured too, for comparison with stages 1 to 6: the
kernel's total CPU when its page had arrived (start, imports, notebook, as Voilà runs
it) and over the relayed game.

The total per visitor is the kernel's stages 1 to 6 and the server's rendering of a
later page.  A pool (``dragonkit serve --pool N``) moves stages 1 to 3, and most of the
server's page rendering, to before the visitor arrives, so that the page comes sooner;
the CPU is still spent once per visitor, since the pool refills itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import queue
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout: measure the checkout's dragonkit
    sys.path.insert(0, str(ROOT))

from dragonkit.cli import APP, ServeOptions, notebooks_dir, start_server  # noqa: E402
from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS  # noqa: E402


def _load_classroom():
    """``benchmarks/classroom.py`` as a module (its websocket visitor and its view of the play app's widgets)."""
    spec = importlib.util.spec_from_file_location("classroom", Path(__file__).with_name("classroom.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["classroom"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


classroom = _load_classroom()

HUMAN_ROLES = ("reveal", "hold", "decline", "take_over")


@dataclass(frozen=True)
class Stage:
    key: str
    label: str
    process: str  # "kernel" or "server"
    per_visitor: bool = False  # counted in the total per visitor


STAGES = (
    Stage("kernel_start", "1 kernel start", "kernel", True),
    Stage("imports", "2 imports", "kernel", True),
    Stage("notebook", "3 running the notebook", "kernel", True),
    Stage("widget_state", "4 widget state", "kernel", True),
    Stage("first_solve", "5 first coach solve", "kernel", True),
    Stage("ten_actions", "6 ten actions", "kernel", True),
    Stage("to_the_end", "7 playing on to the end", "kernel"),
    Stage("end_figure", "8 end-of-game figure", "kernel"),
    Stage("server_start", "9 server start (once a class)", "server"),
    Stage("first_page", "10 page rendering, first page", "server"),
    Stage("first_page_kernel", "   its kernel (start, imports, notebook)", "kernel of the page"),
    Stage("page", "11 page rendering, later pages", "server", True),
    Stage("page_kernel", "   its kernel (start, imports, notebook)", "kernel of the page"),
    Stage("relay", "12 relaying a game (10 actions)", "server"),
    Stage("relay_kernel", "   its kernel over the game", "kernel of the page"),
)


def process_cpu(pid: int) -> float:
    """CPU-seconds a process has spent itself, user and system, its children's not counted."""
    return classroom._cpu_seconds(pid, children=False)


def _start_time(pid: int) -> int | None:
    """When a process started (field 22 of ``/proc/<pid>/stat``): with its id, it names one process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


# -- the kernel side ---------------------------------------------------------------------


class PlayPage(classroom.PlayPage):
    """The play app as its widgets' states describe it, with the "Next bot move" button too."""

    BUTTONS: ClassVar[dict[str, tuple[str, str]]] = {
        **classroom.PlayPage.BUTTONS,
        "next": ("Next bot move", "step-forward"),
    }


class KernelVisit:
    """A kernel that this script starts and speaks to as Voilà and a browser do, keeping a mirror of
    every widget's state (:attr:`models`) from what the kernel sends on IOPub."""

    def __init__(self, folder: Path, timeout: float):
        from jupyter_client import KernelManager

        self.timeout = timeout
        # ipc, as ``dragonkit serve``'s kernels; the sockets go to a folder of ours, not the working directory
        self.manager = KernelManager(transport="ipc", ip=str(folder / "kernel-ipc"))
        self.client = None
        self.pid: int | None = None
        self.models: dict[str, dict] = {}
        self.root: str | None = None
        self.errors: list[str] = []
        self.page: PlayPage | None = None
        self.state_replies = 0  # ``update_states`` messages received

    def start(self) -> None:
        env = {**os.environ, "DRAGONKIT_LANG": "en"}
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.manager.start_kernel(env=env)
        self.pid = self.manager.provisioner.pid
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=self.timeout)  # kernel_info answered

    def cpu(self) -> float:
        return process_cpu(self.pid)

    def close(self) -> None:
        if self.client is not None:
            self.client.stop_channels()
        if self.manager.has_kernel:
            self.manager.shutdown_kernel(now=True)

    # messages

    def send(self, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        message = self.client.session.msg(msg_type, content, metadata=metadata)
        self.client.shell_channel.send(message)
        return message["header"]["msg_id"]

    def wait_idle(self, msg_id: str) -> None:
        """Read IOPub until the kernel has finished with ``msg_id`` (its status ``idle``)."""
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"the kernel did not finish a request within {self.timeout} s")
            try:
                message = self.client.get_iopub_msg(timeout=remaining)
            except queue.Empty:
                continue
            self._handle(message)
            content = message["content"]
            if (
                message["msg_type"] == "status"
                and content.get("execution_state") == "idle"
                and message["parent_header"].get("msg_id") == msg_id
            ):
                return

    def _handle(self, message: dict) -> None:
        msg_type, content = message["msg_type"], message["content"]
        if msg_type == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
        elif msg_type == "comm_msg":
            data = content.get("data", {})
            if data.get("method") in ("update", "echo_update") and content.get("comm_id") in self.models:
                self.models[content["comm_id"]].update(data.get("state", {}))
            elif data.get("method") == "update_states":
                self.state_replies += 1
                for model_id, model in data.get("states", {}).items():
                    self.models[model_id] = dict(model["state"])
        elif msg_type == "comm_close":
            self.models.pop(content.get("comm_id"), None)
        elif msg_type == "display_data":
            view = content.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                self.root = view["model_id"]
        elif msg_type == "error":
            self.errors.append(f"{content.get('ename')}: {content.get('evalue')}")
        elif msg_type == "stream" and content.get("name") == "stderr" and "Traceback" in content.get("text", ""):
            self.errors.append(content["text"].strip().splitlines()[-1])

    def execute(self, code: str) -> None:
        msg_id = self.client.execute(code, allow_stdin=False)
        self.wait_idle(msg_id)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                reply = self.client.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"no reply to {code!r} within {self.timeout} s") from None
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        if reply["content"]["status"] != "ok" or self.errors:
            raise RuntimeError(f"the kernel failed on {code!r}: {self.errors or reply['content'].get('evalue')}")

    def request(self, msg_type: str, content: dict, metadata: dict | None = None) -> None:
        """Send a shell message that has no reply (a comm's) and wait until the kernel has handled it."""
        self.wait_idle(self.send(msg_type, content, metadata))
        if self.errors:
            raise RuntimeError(f"the kernel failed on a {msg_type}: {self.errors}")

    # what a browser does

    def request_states(self) -> None:
        comm_id = secrets.token_hex(16)
        self.request(
            "comm_open",
            {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            metadata={"version": "1.0.0"},
        )
        self.request("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        self.request("comm_close", {"comm_id": comm_id, "data": {}})
        if self.state_replies != 1 or self.root not in self.models:
            raise RuntimeError(
                f"{self.state_replies} update_states replies, app {self.root!r} in them: {self.root in self.models}"
            )
        self.page = PlayPage(self, self.root)

    def update(self, model_id: str, **state: Any) -> None:
        self.request(
            "comm_msg", {"comm_id": model_id, "data": {"method": "update", "state": state, "buffer_paths": []}}
        )

    def click(self, model_id: str) -> None:
        self.request("comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content": {"event": "click"}}})


@dataclass
class Player:
    """Clicks through a game in a :class:`KernelVisit`: the human's buttons, or "Next bot move"."""

    visit: KernelVisit
    human_actions: int = 0
    last: tuple[str | None, float] = (None, 0.0)  # the human's last button and when the kernel was done with it
    moves: list[str] = field(default_factory=list)

    def move(self, mix_in_holds: bool, on_click: Callable[[], None] | None = None) -> bool:
        """Play one move (a human action, or the bot's), calling ``on_click()`` just before the click is sent;
        returns whether it was the human's."""
        page = self.visit.page
        role = next((r for r in HUMAN_ROLES if page.button(r)), None)
        if role == "reveal" and mix_in_holds and self.human_actions % 3 == 2 and page.button("hold"):
            role = "hold"  # reveal, reveal, hold …: turns end, and the bot plays too
        if role is None and page.button("next") is None:
            raise RuntimeError("neither a human's button nor the bot's is shown, and the game is not over")
        if role is not None and self.last[0] == role:  # the app takes a quick second click for a double click
            time.sleep(max(0.0, self.last[1] + DOUBLE_CLICK_SECONDS + 0.05 - time.monotonic()))
        before = page.events()
        if on_click is not None:
            on_click()
        self.visit.click(page.button(role or "next"))
        if not page.game_over() and (page.events() or 0) <= (before or 0):
            raise RuntimeError(f"a click on {role or 'next'} changed nothing: {page.messages()}")
        self.moves.append(role or "bot")
        if role is not None:
            self.human_actions += 1
            self.last = (role, time.monotonic())
        return role is not None


def kernel_run(seed: int, timeout: float) -> tuple[dict[str, float], dict[str, Any]]:
    """Stages 1 to 8 in a fresh kernel: CPU-seconds of the kernel process for each, and the moves played."""
    out: dict[str, float] = {}
    game: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="dragonkit-visitor-cpu-") as folder:
        visit = KernelVisit(Path(folder), timeout)
        try:
            visit.start()
            cpu = visit.cpu()
            out["kernel_start"] = cpu

            def stage(key: str, action) -> None:
                nonlocal cpu
                action()
                now = visit.cpu()
                out[key], cpu = now - cpu, now

            stage("imports", lambda: visit.execute("from dragonkit.ui import PlayApp"))
            stage("notebook", lambda: visit.execute("app = PlayApp()\napp"))
            stage("widget_state", visit.request_states)
            # not measured: the visitor unticks "bots play by themselves"; the bot moves at "Next bot move"
            hidden = visit.page.in_order(shown_only=False)  # the game's view is hidden until a game starts
            checkbox = next(m for m in hidden if visit.models[m].get("_model_name") == "CheckboxModel")
            visit.update(checkbox, value=False)
            cpu = visit.cpu()
            stage(
                "first_solve",
                lambda: visit.execute(
                    "from dragonkit.ui import GameConfig, SeatConfig\n"
                    f'game = app.start(GameConfig((SeatConfig("Ann", "human"), SeatConfig("Randi", "random")), '
                    f"seed={seed}))"
                ),
            )
            player = Player(visit)

            def ten_actions() -> None:
                while player.human_actions < 10:
                    if visit.page.game_over():
                        raise RuntimeError(f"the game with seed {seed} ended within ten actions: try another --seed")
                    player.move(mix_in_holds=True)

            stage("ten_actions", ten_actions)
            game["ten_actions"] = ", ".join(player.moves)
            played = len(player.moves)
            clicks = [cpu]  # the kernel's CPU as each move's click goes out
            for _ in range(2000):
                if visit.page.game_over():
                    break
                player.move(mix_in_holds=False, on_click=lambda: clicks.append(visit.cpu()))
            else:
                raise RuntimeError("the game did not end within 2000 moves")
            end = visit.cpu()
            out["to_the_end"], out["end_figure"] = clicks[-1] - cpu, end - clicks[-1]
            game["to_the_end_moves"] = len(player.moves) - played - 1
            game["last_move"] = player.moves[-1]
            if visit.page.html_containing('<svg class="dk-gems-over-game"') is None:
                raise RuntimeError("the game is over but no figure was drawn")
        finally:
            visit.close()
    return out, game


# -- the server side ---------------------------------------------------------------------


def _settle(pid: int, timeout: float) -> None:
    """Wait (at most ``timeout`` s) until a process spends less than 0.02 CPU-seconds in a second."""
    deadline = time.monotonic() + timeout
    before = process_cpu(pid)
    while time.monotonic() < deadline:
        time.sleep(1)
        now = process_cpu(pid)
        if now - before < 0.02:
            return
        before = now


def _relay_visit(base: str, token: str, timeout: float, on_page: Callable[[], None]) -> list[str]:
    """``classroom.py``'s websocket visitor (page, websocket, widget states, a game, ten actions), with
    ``on_page()`` called the moment the page has arrived whole; returns the visitor's errors."""
    from tornado.httpclient import AsyncHTTPClient
    from tornado.simple_httpclient import SimpleAsyncHTTPClient

    class StampedClient(SimpleAsyncHTTPClient):
        """Tornado's HTTP client, calling ``on_response()`` when a response has come in whole."""

        def initialize(self, on_response=None, **kwargs: Any) -> None:
            super().initialize(**kwargs)
            self.on_response = on_response

        def fetch_impl(self, request, callback) -> None:
            def done(response) -> None:
                self.on_response()
                callback(response)

            super().fetch_impl(request, done)

    visitor = classroom.Visitor(0)  # from 127.0.0.2, as a student's own computer
    AsyncHTTPClient.configure(StampedClient, on_response=on_page)
    try:
        asyncio.run(classroom._visit_ws(base, token, visitor, 10, timeout, 0.0))
    finally:
        AsyncHTTPClient.configure(None)
    if len(visitor.latencies) < 10 and not visitor.errors:
        visitor.errors.append(f"played {len(visitor.latencies)} actions of 10")
    return visitor.errors


def server_run(timeout: float, relay: bool) -> dict[str, float]:
    """Stages 9 to 12 with a fresh server: CPU-seconds of the server process itself, and of each page's kernel."""
    out: dict[str, float] = {}
    options = ServeOptions(port=classroom._free_port(), token=secrets.token_urlsafe(16), pool=0, cull_idle=0)
    base = f"127.0.0.1:{options.port}"
    pythonpath = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory(prefix="dragonkit-visitor-cpu-") as folder:
        log_path = Path(folder) / "server.log"
        with open(log_path, "wb") as log:  # the server's kernels' ipc sockets go to its working directory
            server = start_server(
                options,
                notebooks_dir(),
                environment={"PYTHONPATH": pythonpath},
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=folder,
            )
        kernels: set[int] = set()
        try:
            deadline = time.monotonic() + timeout
            while True:
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", options.port)) == 0:
                        break
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the server did not start: {log_path.read_text()[-2000:]}")
                time.sleep(0.2)
            _settle(server.pid, 30)
            out["server_start"] = process_cpu(server.pid)

            before = process_cpu(server.pid)
            url = f"http://{base}/voila/render/{APP}?token={options.token}"
            with urllib.request.urlopen(url, timeout=timeout) as response:
                html = response.read().decode()
            out["first_page"] = process_cpu(server.pid) - before
            kernels = set(classroom.kernels_of(server.pid))
            classroom._page_kernel_and_root(html)  # raises if the page has no app
            if len(kernels) != 1:
                raise RuntimeError(f"the first page left {len(kernels)} kernels, not one")
            out["first_page_kernel"] = sum(process_cpu(k) for k in kernels)
            _settle(server.pid, 10)

            if relay:
                stamp: dict[str, Any] = {}

                def on_page() -> None:
                    stamp["server"] = process_cpu(server.pid)
                    stamp["kernels"] = new = set(classroom.kernels_of(server.pid)) - kernels
                    stamp["kernel"] = sum(process_cpu(k) for k in new)

                before = process_cpu(server.pid)
                errors = _relay_visit(base, options.token, timeout, on_page)
                if errors or "server" not in stamp:
                    raise RuntimeError(f"the websocket visitor failed: {errors}")
                new = stamp["kernels"]
                kernels |= new
                if len(new) != 1:
                    raise RuntimeError(f"the second page left {len(new)} kernels, not one")
                out["page"] = stamp["server"] - before
                out["page_kernel"] = stamp["kernel"]
                out["relay"] = process_cpu(server.pid) - stamp["server"]
                out["relay_kernel"] = sum(process_cpu(k) for k in new) - stamp["kernel"]
            else:
                before = process_cpu(server.pid)
                with urllib.request.urlopen(url, timeout=timeout) as response:
                    classroom._page_kernel_and_root(response.read().decode())
                out["page"] = process_cpu(server.pid) - before
                new = set(classroom.kernels_of(server.pid)) - kernels
                kernels |= new
                out["page_kernel"] = sum(process_cpu(k) for k in new)
        finally:
            kernels |= set(classroom.kernels_of(server.pid))
            started = {pid: _start_time(pid) for pid in kernels}
            server.terminate()  # Voilà shuts its kernels down on the way out
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=30)
            time.sleep(1)
            for pid, start in started.items():  # a kernel left behind (the server was killed): ours, by its id
                if start is not None and _start_time(pid) == start:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
    return out


# -- the report --------------------------------------------------------------------------


def _source_compile_seconds() -> float | None:
    """None if dragonkit's modules are cached as bytecode (``__pycache__``); otherwise the CPU-seconds of
    compiling the source of those this script has loaded (``dragonkit.ui``'s, as a kernel's imports do),
    which every kernel spends again (as where ``PYTHONDONTWRITEBYTECODE`` is set)."""
    import dragonkit

    if any(Path(dragonkit.__file__).parent.rglob("__pycache__/*.pyc")):
        return None
    files = [Path(m.__file__) for n, m in list(sys.modules.items()) if n.startswith("dragonkit") and m.__file__]
    start = time.process_time()
    for path in files:
        compile(path.read_bytes(), str(path), "exec")
    return time.process_time() - start


def measure(repeats: int, seed: int, timeout: float, relay: bool, server: bool = True) -> dict:
    """Run the stages ``repeats`` times; return the report (see the module docstring)."""
    runs: dict[str, list[float]] = {s.key: [] for s in STAGES}
    game: dict[str, Any] = {}
    for _ in range(repeats):
        cpu, game = kernel_run(seed, timeout)
        for key, value in cpu.items():
            runs[key].append(value)
    if server:
        for _ in range(repeats):
            for key, value in server_run(timeout, relay).items():
                runs[key].append(value)
    stages = [
        {
            "stage": s.label.strip(),
            "key": s.key,
            "process": s.process,
            "per_visitor": s.per_visitor,
            "median_s": round(statistics.median(runs[s.key]), 3),
            "min_s": round(min(runs[s.key]), 3),
            "max_s": round(max(runs[s.key]), 3),
            "runs_s": [round(x, 3) for x in runs[s.key]],
        }
        for s in STAGES
        if runs[s.key]
    ]
    per_visitor = [s for s in stages if s["per_visitor"]]
    return {
        "repeats": repeats,
        "seed": seed,
        "game": game,  # the kernel side's moves (the same game in every run)
        "cpu_cores": os.cpu_count(),
        "stages": stages,
        "total_per_visitor_s": round(sum(s["median_s"] for s in per_visitor), 2),
        "total_per_visitor_stages": [s["stage"] for s in per_visitor],
        "source_compile_s": None if (c := _source_compile_seconds()) is None else round(c, 3),
    }


def table(report: dict) -> str:
    labels = {s.key: s.label for s in STAGES}
    rows = [("stage", "process", f"CPU s (median of {report['repeats']})", "min", "max")]
    rows += [
        (labels[s["key"]], s["process"], f"{s['median_s']:.2f}", f"{s['min_s']:.2f}", f"{s['max_s']:.2f}")
        for s in report["stages"]
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = [
        " | ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    stages = ", ".join(s.split(" ", 1)[0] for s in report["total_per_visitor_stages"])
    game = report["game"]
    if game:
        lines += [
            "",
            f"the kernel side's game (seed {report['seed']}): stage 6 played {game['ten_actions']}; "
            f"stage 7 {game['to_the_end_moves']} moves; stage 8 the last move ({game['last_move']})",
        ]
    if report.get("source_compile_s") is not None:
        lines += [
            "",
            "dragonkit has no bytecode cache (__pycache__; PYTHONDONTWRITEBYTECODE?): every kernel compiled its "
            f"source, about {report['source_compile_s']:.2f} s of stage 2 that an installed package does not spend",
        ]
    lines += [
        "",
        f"per visitor (stages {stages}): {report['total_per_visitor_s']:.2f} CPU-seconds "
        f"(with a whole game, stages 7, 8 and 12 add to it)",
        "with --pool N, stages 1-3 and most of the page rendering happen before the visitor comes "
        "(a shorter wait), but still once per visitor: the pool refills itself.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh runs of every stage (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed, the same in every run (default 1)")
    parser.add_argument("--timeout", type=float, default=180, help="seconds any one wait may take")
    parser.add_argument("--no-relay", action="store_true", help="skip stage 12 (a game through the server)")
    parser.add_argument("--kernel-only", action="store_true", help="skip the server side (stages 9 to 12)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    report = measure(args.repeats, args.seed, args.timeout, relay=not args.no_relay, server=not args.kernel_only)
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
