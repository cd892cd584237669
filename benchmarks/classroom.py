"""A classroom on one machine: many visitors play the app at once through `dragonkit serve`.

    python benchmarks/classroom.py --visitors 40 --actions 10 --ramp 60            # websocket visitors
    python benchmarks/classroom.py --visitors 3 --actions 10 --client browser      # headless Chromium
    python benchmarks/classroom.py --visitors 40 --record off                       # without the class's record

Starts the server (token, preheated kernels, idle culling) on 127.0.0.1 and lets
every visitor open the play app, start a game against a random bot and play
``--actions`` human actions.  The visitors arrive over ``--ramp`` seconds (a class
walking in), then play at the same time.

Two kinds of visitor:

* ``--client ws`` (the default): a visitor speaks to Voilà as a browser does, without
  a browser.  It requests the page, reads the kernel id Voilà writes into it, opens
  the kernel's websocket with the ``v1.kernel.websocket.jupyter.org`` subprotocol (as
  JupyterLab's services do), fetches every widget's state through the
  ``jupyter.widget.control`` comm (``request_states``, as ipywidgets 8 does), keeps
  the states up to date from the kernel's ``update`` messages, and clicks buttons
  with the widget protocol's ``custom`` ``click`` message.  It costs the server
  what a browser costs it, and almost no CPU of its own: 40 of them fit on the
  two cores that also run the server and the kernels.
* ``--client browser``: one headless-Chromium context per visitor (Debian's chromium,
  driven by Playwright); the browsers share the server's cores.

Each visitor joins the class with the nickname ``student-N`` (the join page's form, as a browser sends it: its
browser then holds the nickname, :func:`join_class`); the class's record is an SQLite file of its own (``--record
off``: no record), and with ``--dashboard`` the teacher's dashboard is open the whole time (a websocket client with
the teacher's key, as a browser keeps it: it takes every update the dashboard sends). At the end the report says how
many of the visitors' decisions are in the record, and how many updates the dashboard sent.

It reports the time to interactive (page request until the app is usable: the Start
button shown, or its state synced), the latency of each action (click to the next
event in the log), the kernel memory per visitor, the server's memory before, at
its peak and after, every error seen, and whether the kernels are culled and the
memory given back after the visitors leave.  Exits with status 1 on any error.
All traffic stays on the loopback address; every wait is bounded, and the server
is killed if its memory passes ``--max-server-mib``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout: benchmark the checkout's dragonkit
    sys.path.insert(0, str(ROOT))

from dragonkit.cli import ServeOptions, notebooks_dir, start_server  # noqa: E402
from dragonkit.paper.printer import CHROMIUM_FLAGS as KIT_FLAGS  # noqa: E402
from dragonkit.paper.printer import chromium_executable  # noqa: E402

#: The kit's Chromium flags, and /dev/shm left alone: many contexts at once outgrow a container's small one.
CHROMIUM_FLAGS = [*KIT_FLAGS, "--disable-dev-shm-usage"]
IGNORED_CONSOLE = ("ERR_NAME_NOT_RESOLVED", "ERR_INTERNET_DISCONNECTED", "Failed to load resource")
PAGE_ERRORS = ("Traceback", "Error displaying widget", "Something went wrong", 'File "')
CLIENTS = ("ws", "browser")
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
PACE = 0.4  # seconds a person waits after seeing the result of a click


@dataclass
class Visitor:
    number: int
    tti: float | None = None
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cookie: str | None = None  # its browser's cookies once it joined the class (join_class)

    @property
    def address(self) -> str:
        """The visitor's own loopback address (127.0.0.2, .3 …): a student's own computer, as the
        server's kernel budget per visitor's address sees it (Linux routes all of 127/8 to loopback)."""
        return f"127.0.0.{2 + self.number % 250}"


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


def kernels_of(pid: int) -> list[int]:
    """The kernels among the children of the server ``pid``: its other children (the process that solves the missing
    win tables, started with the server) are no visitor's."""
    found = []
    for child in _children(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if b"ipykernel" in f.read():
                    found.append(child)
        except OSError:
            pass
    return found


def _rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_seconds(pid: int, children: bool = True) -> float:
    """CPU time of a process (and of its reaped children), in seconds (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = sum(int(x) for x in fields[11 : 15 if children else 13])
    return ticks / os.sysconf("SC_CLK_TCK")


def _machine_busy_seconds() -> float:
    """CPU time all cores spent busy since boot, in seconds (Linux /proc/stat)."""
    with open("/proc/stat") as f:
        values = [int(x) for x in f.readline().split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def server_cpu_seconds(server_pid: int) -> float:
    """CPU time of the server and of its kernels, the live and the shut down ones."""
    return _cpu_seconds(server_pid) + sum(_cpu_seconds(k) for k in _children(server_pid))


def kernel_memory(server_pid: int) -> tuple[int, float]:
    """Number of kernels of the server (:func:`kernels_of`) and their total resident memory (MiB)."""
    kernels = kernels_of(server_pid)
    return len(kernels), sum(_rss_mib(k) for k in kernels)


# -- a visitor in headless Chromium --------------------------------------------------------


async def _visit_browser(browser, url: str, visitor: Visitor, actions: int, timeout_ms: int, delay: float) -> None:
    await asyncio.sleep(delay)  # students arrive one after another, then all play at once
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    page.on(
        "console",
        lambda m: (
            visitor.errors.append(f"console: {m.text.splitlines()[0][:300]}")
            if m.type == "error" and not any(s in m.text for s in IGNORED_CONSOLE)
            else None
        ),
    )
    page.on("pageerror", lambda e: visitor.errors.append(f"page error: {str(e).splitlines()[0][:300]}"))
    try:
        start = time.monotonic()
        await page.goto(url, timeout=timeout_ms)
        await page.wait_for_selector("text=Start the game, #nickname", timeout=timeout_ms)
        if await page.locator("#nickname").count():  # a class with a record: join it first, as a student does
            await page.fill("#nickname", f"student-{visitor.number}")
            await page.click("button[type=submit]")
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
                    f"Number(document.querySelector('.dk-log').dataset.events) > {before}", timeout=timeout_ms
                )
                if button is not None:
                    visitor.latencies.append(time.monotonic() - clicked)
                    await page.wait_for_timeout(PACE * 1000)  # a person's pace
            if len(visitor.latencies) < actions:
                await page.click("text=New game")
                seed += 100
        body = await page.inner_text("body")
        visitor.errors += [f"page shows {text!r}" for text in PAGE_ERRORS if text in body]
    except Exception as exc:  # a timeout or a broken page counts as an error of this visitor
        visitor.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        await context.close()


# -- a visitor speaking the kernel and widget protocols over a websocket -------------------


class KernelSocket:
    """A kernel websocket as a browser's widget manager uses it: Jupyter messages in the
    ``v1.kernel.websocket.jupyter.org`` framing, and a mirror of every widget's state.

    The mirror (:attr:`models`, model id -> state) is filled by ``request_states`` on the
    ``jupyter.widget.control`` comm and kept current by the kernel's ``update`` and
    ``echo_update`` comm messages; :meth:`wait_for` waits until a condition on it holds.
    The socket is read all the time, by :meth:`_reader`, so the server never has to
    hold messages for this client.
    """

    def __init__(self, connection, session: str):
        self.connection = connection
        self.session = session
        self.models: dict[str, dict] = {}
        self.errors: list[str] = []
        self.closed = False
        self._replies: dict[str, asyncio.Future] = {}
        self.handled: set[str] = set()  # requests the kernel has finished with (status idle)
        self._changed = asyncio.Event()
        self._reader_task = asyncio.create_task(self._reader())

    # framing (jupyter_server's serialize_msg_to_ws_v1 / deserialize_msg_from_ws_v1)
    @staticmethod
    def encode(channel: str, parts: list[bytes]) -> bytes:
        offsets = [8 * (1 + 1 + len(parts) + 1)]
        offsets.append(offsets[-1] + len(channel.encode()))
        for part in parts:
            offsets.append(offsets[-1] + len(part))
        return b"".join(
            [len(offsets).to_bytes(8, "little"), *(o.to_bytes(8, "little") for o in offsets), channel.encode(), *parts]
        )

    @staticmethod
    def decode(data: bytes) -> dict:
        count = int.from_bytes(data[:8], "little")
        if not 3 <= count <= 1024 or len(data) < 8 * (count + 1):
            raise ValueError(f"not a v1 kernel message ({count} offsets)")
        offsets = [int.from_bytes(data[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
        parts = [data[offsets[i] : offsets[i + 1]] for i in range(count - 1)]
        message = {
            key: json.loads(parts[i + 1]) for i, key in enumerate(("header", "parent_header", "metadata", "content"))
        }
        message["channel"] = parts[0].decode()
        message["buffers"] = parts[5:]
        return message

    async def send(
        self,
        msg_type: str,
        content: dict,
        channel: str = "shell",
        metadata: dict | None = None,
        msg_id: str | None = None,
    ) -> str:
        msg_id = msg_id or uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "msg_type": msg_type,
            "username": "classroom",
            "session": self.session,
            "date": datetime.datetime.now(datetime.UTC).isoformat(),
            "version": "5.3",
        }
        parts = [json.dumps(p).encode() for p in (header, {}, metadata or {}, content)]
        await self.connection.write_message(self.encode(channel, parts), binary=True)
        return msg_id

    async def request(self, msg_type: str, content: dict, timeout: float, **kwargs) -> dict:
        """Send a shell request and return its reply."""
        msg_id = uuid.uuid4().hex
        future = self._replies[msg_id] = asyncio.get_running_loop().create_future()  # before the reply can come
        try:
            await self.send(msg_type, content, msg_id=msg_id, **kwargs)
            return await asyncio.wait_for(future, timeout)
        finally:
            self._replies.pop(msg_id, None)

    async def _reader(self) -> None:
        try:
            while True:
                data = await self.connection.read_message()
                if data is None:
                    break
                if isinstance(data, str):
                    self.errors.append(f"a text frame on a {V1_PROTOCOL} socket: {data[:100]!r}")
                    continue
                self._handle(self.decode(data))
        except Exception as exc:  # a broken socket ends the visit; the visitor reports it
            self.errors.append(f"websocket: {type(exc).__name__}: {exc}")
        finally:
            self.closed = True
            self._changed.set()

    def _handle(self, message: dict) -> None:
        msg_type = message["header"].get("msg_type")
        content = message["content"]
        parent = message["parent_header"].get("msg_id")
        if parent in self._replies and (  # the reply to a request, or the widget states asked for
            (message["channel"] in ("shell", "control") and msg_type.endswith("_reply"))
            or (msg_type == "comm_msg" and content.get("data", {}).get("method") == "update_states")
        ):
            future = self._replies.pop(parent)
            if not future.done():
                future.set_result(message)
        if msg_type == "status" and content.get("execution_state") == "idle" and parent:
            self.handled.add(parent)
        elif msg_type == "comm_msg":
            data = content.get("data", {})
            if data.get("method") in ("update", "echo_update") and content.get("comm_id") in self.models:
                self.models[content["comm_id"]].update(data.get("state", {}))
        elif msg_type == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
        elif msg_type == "comm_close":
            self.models.pop(content.get("comm_id"), None)
        elif msg_type == "error":
            self.errors.append(f"kernel error: {content.get('ename')}: {content.get('evalue')}")
        elif msg_type == "stream" and content.get("name") == "stderr" and "Traceback" in content.get("text", ""):
            self.errors.append(f"kernel stderr: {content['text'].strip().splitlines()[-1][:300]}")
        self._changed.set()

    async def sync_widgets(self, timeout: float) -> None:
        """Fetch every widget's state at once, as ipywidgets 8's manager does."""
        comm_id = uuid.uuid4().hex
        await self.send(
            "comm_open",
            {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            metadata={"version": "1.0.0"},
        )
        reply = await self.request("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}, timeout)
        await self.send("comm_close", {"comm_id": comm_id, "data": {}})
        for model_id, model in reply["content"]["data"]["states"].items():
            self.models[model_id] = dict(model["state"])

    async def wait_for(self, condition, timeout: float, what: str):
        """Wait until ``condition()`` is true (returns its value); raise TimeoutError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if self.closed:
                raise ConnectionError(f"the websocket closed while waiting for {what}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"waiting for {what}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def update(self, model_id: str, **state) -> None:
        await self.send(
            "comm_msg", {"comm_id": model_id, "data": {"method": "update", "state": state, "buffer_paths": []}}
        )

    async def click(self, model_id: str) -> str:
        """Click a button; returns the message id (see :meth:`finished`)."""
        return await self.send(
            "comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content": {"event": "click"}}}
        )

    async def finished(self, msg_id: str, timeout: float) -> None:
        """Wait until the kernel has handled a message and sent everything it changed: a
        person looks at the whole page, not at its first update, before clicking again."""
        await self.wait_for(lambda: msg_id in self.handled, timeout, "the kernel to finish a click")
        self.handled.discard(msg_id)

    async def close(self) -> None:
        self.connection.close()
        try:
            await asyncio.wait_for(self._reader_task, 5)
        except (TimeoutError, Exception):
            self._reader_task.cancel()


class PlayPage:
    """The play app as the widget states describe it: which buttons show, the event count."""

    # a button is found by its label or, should the labels be translated, by its icon
    BUTTONS: ClassVar[dict[str, tuple[str, str]]] = {
        "start": ("Start the game", "play"),
        "reveal": ("Reveal", "eye"),
        "hold": ("Hold", "hand-paper-o"),
        "take_over": ("Take over", "exchange"),
        "decline": ("Decline", "times"),
        "new_game": ("New game", "refresh"),
    }

    def __init__(self, socket: KernelSocket, root: str):
        self.socket, self.root = socket, root

    @property
    def models(self) -> dict[str, dict]:
        return self.socket.models

    @staticmethod
    def _ref(value) -> str | None:
        return value[len("IPY_MODEL_") :] if isinstance(value, str) and value.startswith("IPY_MODEL_") else None

    def in_order(self, model_id: str | None = None, shown_only: bool = True) -> list[str]:
        """The widgets under the root in document order (depth first), the hidden ones left out."""
        model_id = model_id or self.root
        state = self.models.get(model_id)
        if state is None or (shown_only and not self._shown(model_id)):
            return []
        out = [model_id]
        for child in state.get("children", []):
            out += self.in_order(self._ref(child), shown_only)
        return out

    def _shown(self, model_id: str) -> bool:
        layout = self.models.get(self._ref(self.models[model_id].get("layout")) or "", {})
        return layout.get("display") != "none" and layout.get("visibility") != "hidden"

    def button(self, role: str) -> str | None:
        """The shown button of this role (see :attr:`BUTTONS`), if any."""
        label, icon = self.BUTTONS[role]
        for model_id in self.in_order():
            state = self.models[model_id]
            if state.get("_model_name") == "ButtonModel" and (
                str(state.get("description", "")).startswith(label) or state.get("icon") == icon
            ):
                return model_id
        return None

    def html_containing(self, marker: str) -> str | None:
        for model_id in self.in_order():
            if marker in str(self.models[model_id].get("value", "")):
                return model_id
        return None

    def events(self) -> int | None:
        """The event log's ``data-events`` count (None while no game is shown)."""
        model_id = self.html_containing('class="dk-log"')
        if model_id is None:
            return None
        match = re.search(r'data-events="(\d+)"', self.models[model_id]["value"])
        return int(match.group(1)) if match else None

    def game_over(self) -> bool:
        return self.html_containing('class="dk-status dk-over"') is not None

    def messages(self) -> list[str]:
        """Warnings and errors the app shows (a refused action, something that went wrong)."""
        out = []
        for model_id in self.in_order():
            value = str(self.models[model_id].get("value", ""))
            if "dk-message dk-danger" in value or "dk-message dk-warning" in value:
                out.append(re.sub(r"<[^>]+>", "", value).strip()[:300])
        return out

    def form_fields(self) -> tuple[list[str], str | None]:
        """The setup form's dropdowns (document order) and the seed field: the dropdowns of the app's part that holds
        the seed field (the rooms' form, beside it where the kernel keeps a record, has its own)."""
        shown = self.in_order()
        seed = next(
            (
                m
                for m in shown
                if self.models[m].get("_model_name") == "TextModel" and self.models[m].get("placeholder") == "random"
            ),
            None,
        )
        parts = [self._ref(child) for child in self.models[self.root].get("children", [])]
        form = next((self.in_order(part) for part in parts if seed is not None and seed in self.in_order(part)), shown)
        dropdowns = [m for m in form if self.models[m].get("_model_name") == "DropdownModel"]
        return dropdowns, seed

    async def choose(self, model_id: str, label: str, fallback: int) -> None:
        labels = list(self.models[model_id].get("_options_labels", []))
        index = labels.index(label) if label in labels else fallback
        if self.models[model_id].get("index") != index:
            await self.socket.update(model_id, index=index)


def _page_kernel_and_root(html: str) -> tuple[str, str, list[str]]:
    """The kernel id Voilà wrote into the page, the displayed widget's model id, and
    the error outputs of the notebook's cells."""
    config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S)
    if config is None:
        raise ValueError("no jupyter-config-data in the page")
    kernel_id = json.loads(config.group(1)).get("kernelId")
    root, errors = None, []
    for block in re.findall(r'<script type="application/vnd.voila.cell-output\+json">(.*?)</script>', html, re.S):
        output = json.loads(block)
        view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
        if view:
            root = view["model_id"]
        if output.get("output_type") == "error" or output.get("name") == "stderr":
            errors.append(f"the page shows an error output: {str(output)[:300]}")
    if not kernel_id or root is None:
        raise ValueError(f"the page has no kernel id or no app (kernel {kernel_id!r}, app {root!r})")
    return kernel_id, root, errors


async def join_class(base: str, token: str, nickname: str, address: str | None = None, timeout: float = 60) -> str:
    """Join the class served at ``base`` with ``nickname`` as a browser does (the join page's form with its ``_xsrf``
    field and cookie), from ``address``: the ``Cookie`` header of that browser's next pages, whose hold's secret makes
    them the student's. A server without a record asks no nickname: its ``_xsrf`` cookie alone.

    Raises
    ------
    ConnectionError
        If the server did not take the nickname (taken by another browser, refused).
    """
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    cookies: dict[str, str] = {}

    def keep(response) -> None:
        for header in response.headers.get_list("Set-Cookie"):
            name, _, value = header.split(";", 1)[0].partition("=")
            cookies[name.strip()] = value.strip()

    def header() -> str:
        return "; ".join(f"{name}={value}" for name, value in cookies.items())

    client = AsyncHTTPClient()
    join = f"http://{base}/dragonkit/join?next=/&token={token}"
    asked = dict(request_timeout=timeout, connect_timeout=timeout, network_interface=address)
    page = await client.fetch(HTTPRequest(join, **asked), raise_error=False)
    keep(page)
    if page.code == 404:  # no record: no join page
        return header()
    found = re.search(r'name="_xsrf" value="([^"]+)"', page.body.decode())
    if page.code != 200 or found is None:
        raise ConnectionError(f"the join page answered {page.code}")
    form = urllib.parse.urlencode({"_xsrf": found[1], "nickname": nickname})
    sent = await client.fetch(
        HTTPRequest(join, method="POST", body=form, headers={"Cookie": header()}, follow_redirects=False, **asked),
        raise_error=False,
    )
    if sent.code != 303:
        raise ConnectionError(f"the class did not take the nickname {nickname!r}: {sent.code}")
    keep(sent)
    return header()


async def _visit_ws(base: str, token: str, visitor: Visitor, actions: int, timeout: float, delay: float) -> None:
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    await asyncio.sleep(delay)  # students arrive one after another, then all play at once
    sock = None
    try:
        start = time.monotonic()
        cookie = await join_class(base, token, f"student-{visitor.number}", visitor.address, timeout)
        response = await AsyncHTTPClient().fetch(
            HTTPRequest(
                f"http://{base}/voila/render/play.ipynb?token={token}",
                headers={"Cookie": cookie},
                request_timeout=timeout,
                connect_timeout=timeout,
                network_interface=visitor.address,
            )
        )
        kernel_id, root, page_errors = _page_kernel_and_root(response.body.decode())
        visitor.errors += page_errors
        session = uuid.uuid4().hex
        connection = await asyncio.wait_for(
            websocket_connect(
                HTTPRequest(
                    f"ws://{base}/api/kernels/{kernel_id}/channels?session_id={session}&token={token}",
                    connect_timeout=timeout,
                    request_timeout=timeout,
                    network_interface=visitor.address,
                ),
                subprotocols=[V1_PROTOCOL],
                max_message_size=64 * 2**20,
            ),
            timeout,
        )
        if connection.selected_subprotocol != V1_PROTOCOL:
            raise ConnectionError(f"the server chose the subprotocol {connection.selected_subprotocol!r}")
        sock = KernelSocket(connection, session)
        await sock.request("kernel_info_request", {}, timeout)  # what a browser's kernel connection does first
        await sock.sync_widgets(timeout)
        await sock.update(root, _view_count=1)  # as a browser's widget manager says once it has drawn the page
        page = PlayPage(sock, root)
        await sock.wait_for(lambda: page.button("start"), timeout, "the Start button")
        visitor.tti = time.monotonic() - start
        seed = 1000 + visitor.number
        for _game in range(actions + 1):  # a game gives at least one action
            if len(visitor.latencies) >= actions:
                break
            dropdowns, seed_field = page.form_fields()
            if len(dropdowns) < 4 or seed_field is None:
                raise RuntimeError(f"the setup form has {len(dropdowns)} dropdowns and seed field {seed_field!r}")
            await page.choose(dropdowns[0], "2", 0)  # two players
            await page.choose(dropdowns[3], "random bot", 3)  # seat 2: a random bot
            await sock.update(seed_field, value=str(seed))
            await sock.wait_for(
                lambda seed_field=seed_field, seed=seed: (
                    len(page.form_fields()[0]) == 4 and page.models[seed_field]["value"] == str(seed)
                ),
                timeout,
                "the form to take the choices",
            )
            await sock.finished(await sock.click(page.button("start")), timeout)
            await sock.wait_for(lambda: page.events() is not None, timeout, "the board")
            while len(visitor.latencies) < actions and not page.game_over():
                before = page.events()
                button = None
                for role in ("reveal", "hold", "decline", "take_over"):
                    button = page.button(role)
                    if button is not None:
                        # hold now and then, so that turns end and the bot plays too
                        if role == "reveal" and len(visitor.latencies) % 3 == 2:
                            button = page.button("hold") or button
                        break
                if button is None:  # a bot's move: wait for it, or for the human's buttons
                    await sock.wait_for(
                        lambda before=before: (
                            (page.events() or 0) > before
                            or page.game_over()
                            or any(page.button(r) for r in ("reveal", "hold", "decline", "take_over"))
                        ),
                        timeout,
                        f"the bot's move after event {before}",
                    )
                    continue
                clicked = time.monotonic()
                msg_id = await sock.click(button)
                label = page.models[button].get("description")
                await sock.wait_for(
                    lambda before=before: (page.events() or 0) > before,
                    timeout,
                    f"an event after {before} (clicked {label!r})",
                )
                visitor.latencies.append(time.monotonic() - clicked)
                await sock.finished(msg_id, timeout)
                await asyncio.sleep(PACE)  # a person's pace
                shown = page.messages()
                if shown:
                    raise RuntimeError(f"the app says {shown[0]!r}")
            if len(visitor.latencies) < actions:
                await sock.wait_for(lambda: page.button("new_game"), timeout, "the New game button")
                await sock.finished(await sock.click(page.button("new_game")), timeout)
                await sock.wait_for(lambda: page.button("start"), timeout, "the setup form again")
                seed += 100
    except Exception as exc:  # a timeout or a broken page counts as an error of this visitor
        visitor.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    finally:
        if sock is not None:
            visitor.errors += sock.errors
            await sock.close()


# -- the teacher's dashboard --------------------------------------------------------------


async def _watch_dashboard(base: str, token: str, key: str, timeout: float, stats: dict, done: asyncio.Event) -> None:
    """The teacher opens the dashboard with the key (the server sets its cookie and sends the browser to the address
    without the key), keeps its widgets in sync until ``done`` is set, and counts the updates it receives."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    client = AsyncHTTPClient()
    sock = None
    try:
        start = time.monotonic()
        url = f"http://{base}/voila/render/dashboard.ipynb?token={token}"
        try:
            await client.fetch(HTTPRequest(f"{url}&key={key}", follow_redirects=False, request_timeout=timeout))
            raise RuntimeError("the key did not send the teacher on to the dashboard")
        except HTTPClientError as exc:  # 302: the key's cookie, and the address without the key
            if exc.code != 302 or exc.response is None:
                raise
            cookie = "; ".join(c.split(";", 1)[0] for c in exc.response.headers.get_list("Set-Cookie"))
        page = await client.fetch(HTTPRequest(url, headers={"Cookie": cookie}, request_timeout=timeout))
        kernel_id, root, errors = _page_kernel_and_root(page.body.decode())
        stats["errors"] += errors
        session = uuid.uuid4().hex
        connection = await websocket_connect(
            HTTPRequest(
                f"ws://{base}/api/kernels/{kernel_id}/channels?session_id={session}&token={token}",
                headers={"Cookie": cookie},
                connect_timeout=timeout,
                request_timeout=timeout,
            ),
            subprotocols=[V1_PROTOCOL],
            max_message_size=64 * 2**20,
        )
        sock = KernelSocket(connection, session)
        await sock.request("kernel_info_request", {}, timeout)
        await sock.sync_widgets(timeout)
        # as a browser's widget manager says once it has drawn the page: the dashboard updates itself from then on
        await sock.update(root, _view_count=1)
        stats["tti_s"] = round(time.monotonic() - start, 2)
        seen = {model_id: dict(state) for model_id, state in sock.models.items()}
        while not done.is_set() and not sock.closed:
            await asyncio.sleep(1)
            changed = sum(seen.get(m) != s for m, s in sock.models.items())
            stats["updates"] += changed
            seen = {model_id: dict(state) for model_id, state in sock.models.items()}
    except Exception as exc:
        stats["errors"].append(f"dashboard: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    finally:
        if sock is not None:
            stats["errors"] += sock.errors
            await sock.close()


# -- a reload storm ----------------------------------------------------------------------


async def _storm(base: str, token: str, count: int, seconds: float, statuses: dict[int, int]) -> None:
    """One client (127.0.0.1) requests the play app's page ``count`` times over ``seconds``
    (``--storm-seconds``), four at a time at most, and never opens a kernel's websocket: a script,
    or a student holding F5."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    gate = asyncio.Semaphore(4)
    cookie = await join_class(base, token, "storm")

    async def one(delay: float) -> None:
        await asyncio.sleep(delay)
        async with gate:
            try:
                response = await AsyncHTTPClient().fetch(
                    f"http://{base}/voila/render/play.ipynb?token={token}",
                    headers={"Cookie": cookie},
                    request_timeout=120,
                )
                code = response.code
            except HTTPClientError as exc:
                code = exc.code
            except OSError:
                code = 0
            statuses[code] = statuses.get(code, 0) + 1

    await asyncio.gather(*(one(seconds * i / count) for i in range(count)))


# -- the class ---------------------------------------------------------------------------


async def _classroom(
    options: ServeOptions,
    visitors: list[Visitor],
    actions: int,
    timeout_s: float,
    server: subprocess.Popen,
    ramp: float,
    client: str,
    max_server_mib: float,
    storm: int = 0,
    storm_s: float = 60.0,
    teacher_key: str | None = None,
) -> dict:
    peak = {"kernels": 0, "mib": 0.0, "server_mib": 0.0, "killed": None, "most_kernels": 0, "storm": {}}
    peak["dashboard"] = {"updates": 0, "errors": [], "tti_s": None}
    done = asyncio.Event()

    async def watch():
        while True:
            kernels, mib = kernel_memory(server.pid)
            peak["most_kernels"] = max(peak["most_kernels"], kernels)
            if mib > peak["mib"]:
                peak.update(kernels=kernels, mib=mib)
            server_mib = _rss_mib(server.pid)
            peak["server_mib"] = max(peak["server_mib"], server_mib)
            if server_mib > max_server_mib and peak["killed"] is None:  # never let it take the machine down
                peak["killed"] = f"the server passed {max_server_mib:.0f} MiB ({server_mib:.0f} MiB): killed"
                server.kill()
            await asyncio.sleep(1)

    watcher = asyncio.create_task(watch())
    delays = [ramp * v.number / len(visitors) for v in visitors]
    try:
        if client == "ws":
            from tornado.httpclient import AsyncHTTPClient

            AsyncHTTPClient.configure(None, max_clients=max(10, len(visitors) + 4))
            base = f"127.0.0.1:{options.port}"
            stormy = [_storm(base, options.token, storm, storm_s, peak["storm"])] if storm else []
            teacher = (
                asyncio.ensure_future(
                    _watch_dashboard(base, options.token, teacher_key, timeout_s, peak["dashboard"], done)
                )
                if teacher_key
                else None
            )
            await asyncio.gather(
                *(
                    _visit_ws(f"127.0.0.1:{options.port}", options.token, v, actions, timeout_s, d)
                    for v, d in zip(visitors, delays)
                ),
                *stormy,
            )
            await asyncio.sleep(5 if teacher else 0)  # the dashboard's next update takes in the last decisions
            done.set()
            if teacher is not None:
                await teacher
        else:
            from playwright.async_api import async_playwright

            executable = chromium_executable()
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
                try:
                    await asyncio.gather(
                        *(
                            _visit_browser(browser, options.url, v, actions, timeout_s * 1000, d)
                            for v, d in zip(visitors, delays)
                        )
                    )
                finally:
                    await browser.close()
    finally:
        watcher.cancel()
    return peak


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server (and, with it, its kernels): SIGTERM, then SIGKILL after 30 s."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


def _decisions_recorded(url: str) -> int:
    """The decisions the record at ``url`` holds."""
    from dragonkit.record.reading import decisions
    from dragonkit.record.store import connect

    engine = connect(url)
    try:
        return len(decisions(engine))
    finally:
        engine.dispose()


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def run(
    visitors: int = 40,
    actions: int = 10,
    pool: int = 4,
    cull_idle: int = ServeOptions.cull_idle,
    timeout_s: int = 240,
    ramp: float = 60.0,
    client: str = "ws",
    max_server_mib: float = 2048,
    server_args: tuple[str, ...] = (),
    storm: int = 0,
    max_kernels: int = 0,
    storm_s: float = 60.0,
    record: bool = True,
    dashboard: bool = False,
    connect_wait: int = ServeOptions.connect_wait,
    coach_games: int = ServeOptions.coach_games,
) -> dict:
    """Run a classroom; return the report as a dict (see the module docstring).

    ``client`` is ``"ws"`` (websocket visitors, no browser) or ``"browser"`` (headless
    Chromium); ``server_args`` are extra Voilà options, to try a server setting; ``record``: the class's record in
    an SQLite file of its own; ``dashboard``: the teacher's dashboard open (websocket visitors only);
    ``coach_games``: the coach's estimates, as ``dragonkit serve --coach-games`` sets them.
    """
    if client not in CLIENTS:
        raise ValueError(f"client must be one of {CLIENTS}, not {client!r}")
    if storm and client != "ws":
        raise ValueError("a reload storm runs beside websocket visitors only")
    if dashboard and not (record and client == "ws"):
        raise ValueError("the dashboard is opened beside websocket visitors, with a record")
    port = _free_port()
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"dragonkit-classroom-{port}.log"
    teacher_key = secrets.token_urlsafe(16) if dashboard else None
    options = ServeOptions(
        port=port,
        token=secrets.token_urlsafe(16),
        pool=pool,
        cull_idle=cull_idle,
        connect_wait=connect_wait,
        max_kernels=max_kernels,
        # browsers all come from 127.0.0.1; websocket visitors each from their own address
        max_kernels_per_client=0 if client == "browser" else ServeOptions.max_kernels_per_client,
        record=f"sqlite:///{log_path.with_suffix('.sqlite')}" if record else None,
        class_name="classroom",
        coach_games=coach_games,
        **({"teacher_key": teacher_key} if teacher_key else {}),
    )
    # the server's environment as dragonkit serve gives it; the kernels import the same dragonkit as this script
    pythonpath = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with open(log_path, "wb") as log:  # the server keeps its own copy of the file descriptor
        server = start_server(
            options,
            notebooks_dir(),
            server_args,
            {"PYTHONPATH": pythonpath},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while True:  # the server is up, and its pool is filled
            kernels, _ = kernel_memory(server.pid)
            with socket.socket() as sock:
                up = sock.connect_ex(("127.0.0.1", options.port)) == 0
            if up and kernels >= pool:
                break
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"the server did not start (see {log_path})")
            time.sleep(0.5)
        # a pool kernel exists before it has run the notebook: wait until the pool's memory settles
        idle_kernels, idle_mib = kernel_memory(server.pid)
        for _ in range(60):
            time.sleep(2)
            previous, (idle_kernels, idle_mib) = idle_mib, kernel_memory(server.pid)
            if abs(idle_mib - previous) < 2:
                break
        server_mib_idle = _rss_mib(server.pid)
        people = [Visitor(i) for i in range(visitors)]
        started = time.monotonic()
        cpu_before = (
            _machine_busy_seconds(),
            server_cpu_seconds(server.pid),
            _cpu_seconds(os.getpid()),
            _cpu_seconds(server.pid, children=False),
        )
        peak = asyncio.run(
            _classroom(
                options, people, actions, timeout_s, server, ramp, client, max_server_mib, storm, storm_s, teacher_key
            )
        )
        elapsed = time.monotonic() - started
        cpu = [
            after - before
            for after, before in zip(
                (
                    _machine_busy_seconds(),
                    server_cpu_seconds(server.pid),
                    _cpu_seconds(os.getpid()),
                    _cpu_seconds(server.pid, children=False),
                ),
                cpu_before,
            )
        ]
        left = time.monotonic()
        culled_after = None
        # a storm's pages never connect: their kernels wait connect_wait seconds before the culling may take them
        deadline = time.monotonic() + max(cull_idle, connect_wait if storm else 0) + cull_idle * 3 + 60
        while time.monotonic() < deadline and server.poll() is None:  # the visitors have left: wait for the culling
            kernels, _mib = kernel_memory(server.pid)
            if kernels <= idle_kernels:
                culled_after = time.monotonic() - left
                break
            time.sleep(2)
        after_kernels, after_mib = kernel_memory(server.pid)
        server_mib = _rss_mib(server.pid)
        server_alive = server.poll() is None
    finally:
        stop_server(server)
    latencies = [x for v in people for x in v.latencies]
    in_record = _decisions_recorded(options.record) if options.record else None
    ttis = [v.tti for v in people if v.tti is not None]
    busy = max(peak["kernels"] - idle_kernels, 1)
    errors = [f"visitor {v.number}: {e}" for v in people for e in v.errors]
    errors += peak["dashboard"]["errors"]
    if peak["killed"]:
        errors.insert(0, peak["killed"])
    elif not server_alive:
        errors.insert(0, f"the server exited during the run (see {log_path})")
    return {
        "client": client,
        "visitors": visitors,
        "visitors_done": sum(len(v.latencies) >= actions for v in people),
        "actions_played": len(latencies),
        "errors": errors,
        "seconds": round(elapsed, 1),
        "ramp_s": ramp,
        "tti_median_s": round(statistics.median(ttis), 2) if ttis else None,
        "tti_p95_s": round(_percentile(ttis, 0.95), 2) if ttis else None,
        "tti_max_s": round(max(ttis), 2) if ttis else None,
        "latency_median_ms": round(1000 * statistics.median(latencies)) if latencies else None,
        "latency_p95_ms": round(1000 * _percentile(latencies, 0.95)) if latencies else None,
        "latency_max_ms": round(1000 * max(latencies)) if latencies else None,
        "kernels_idle": idle_kernels,
        "kernels_peak": peak["kernels"],
        "kernels_most": peak["most_kernels"],
        "record": options.record,
        "record_decisions": in_record,
        "dashboard_tti_s": peak["dashboard"]["tti_s"],
        "dashboard_updates": peak["dashboard"]["updates"] if dashboard else None,
        "storm_statuses": {str(code): n for code, n in sorted(peak["storm"].items())},
        "kernels_after": after_kernels,
        "culled_after_s": round(culled_after) if culled_after is not None else None,
        "kernel_mib_idle": round(idle_mib),
        "kernel_mib_peak": round(peak["mib"]),
        "kernel_mib_per_visitor": round((peak["mib"] - idle_mib) / busy, 1),
        "kernel_mib_after": round(after_mib),
        "server_mib_idle": round(server_mib_idle),
        "server_mib_peak": round(peak["server_mib"]),
        "server_mib_after": round(server_mib),
        # CPU seconds while the visitors played: the machine's (all cores), the server's with its
        # kernels', this script's (with its browsers), and everything else's (other users of the machine)
        "cpu_cores": os.cpu_count(),
        "cpu_machine_s": round(cpu[0]),
        "cpu_server_and_kernels_s": round(cpu[1]),
        "cpu_server_s": round(cpu[3], 1),
        "cpu_kernels_s": round(cpu[1] - cpu[3], 1),
        "cpu_per_visitor_s": round(cpu[1] / visitors, 2),
        "cpu_visitors_s": round(cpu[2]),
        "cpu_others_s": round(cpu[0] - cpu[1] - cpu[2]),
        "server_log": str(log_path),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=40)
    parser.add_argument("--actions", type=int, default=10)
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds over which the visitors arrive")
    parser.add_argument(
        "--cull-idle",
        type=int,
        default=ServeOptions.cull_idle,
        help="seconds after which a kernel whose page is gone is culled",
    )
    parser.add_argument(
        "--connect-wait",
        type=int,
        default=ServeOptions.connect_wait,
        help="seconds a new page's kernel waits for its visitor to connect (a storm's kernels wait as long)",
    )
    parser.add_argument(
        "--client",
        choices=CLIENTS,
        default="ws",
        help="ws: visitors speak the kernel and widget protocols (no browser, the default); "
        "browser: one headless Chromium context per visitor",
    )
    parser.add_argument("--timeout", type=int, default=240, help="seconds any one wait may take")
    parser.add_argument("--storm", type=int, default=0, help="pages a script on 127.0.0.1 requests beside the visitors")
    parser.add_argument("--storm-seconds", type=float, default=60.0, help="the seconds the storm's requests span")
    parser.add_argument("--max-kernels", type=int, default=0, help="the server's kernel budget (0: from its memory)")
    parser.add_argument(
        "--record", choices=("sqlite", "off"), default="sqlite", help="the class's record (default: a file)"
    )
    parser.add_argument("--dashboard", action="store_true", help="the teacher's dashboard open during the class")
    parser.add_argument(
        "--max-server-mib", type=float, default=2048, help="kill the server if its memory passes this (MiB)"
    )
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        help="an extra Voilà option (replacing the same option of dragonkit serve), "
        "e.g. --server-arg=--VoilaExecutor.iopub_timeout=120",
    )
    args = parser.parse_args()
    report = run(
        args.visitors,
        args.actions,
        args.pool,
        args.cull_idle,
        args.timeout,
        args.ramp,
        args.client,
        args.max_server_mib,
        tuple(args.server_arg),
        args.storm,
        args.max_kernels,
        args.storm_seconds,
        args.record == "sqlite",
        args.dashboard,
        args.connect_wait,
    )
    print(json.dumps(report, indent=2))
    clean = (
        not report["errors"]
        and report["actions_played"] >= args.visitors * args.actions
        and report["kernels_after"] <= report["kernels_idle"]
        and (report["record_decisions"] is None or report["record_decisions"] >= report["actions_played"])
    )
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
