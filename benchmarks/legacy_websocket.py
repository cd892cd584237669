"""Does one client of the legacy kernel-websocket protocol freeze the server?

    python benchmarks/legacy_websocket.py [--server-arg=--Voila.OPTION=VALUE ...]

Starts `dragonkit serve` (as benchmarks/classroom.py does), opens the play app and its
kernel's websocket *without* the ``v1.kernel.websocket.jupyter.org`` subprotocol (the
legacy JSON protocol, which jupyter_server still accepts), and asks for the state of
the app's image widget, whose reply carries a binary buffer.  Then it checks, with a
second client speaking the v1 protocol as browsers do, that the server still answers.

Voilà 0.5's kernel websocket handler (``VoilaKernelWebsocketHandler.write_message``,
written to drop ``execute_input`` messages) parses every binary frame as a v1 frame.
A legacy binary frame starts with a 4-byte big-endian count, which read as an 8-byte
little-endian count is about 10**18: the handler builds a list that long, on the
server's only thread.  The server answers nobody any more and its memory grows by
gigabytes a minute.  Browsers always speak v1 and never trigger it; any script can.

Prints one of: ``refused`` (the server turned the legacy socket away: protected),
``answered`` (the server kept serving everyone: not affected), ``frozen`` (the server
stopped answering; it is killed, and so is any server passing ``--max-server-mib``).
Exits with status 0 unless frozen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import classroom


async def _legacy_request_image_state(base: str, token: str, timeout: float) -> str:
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    page = await AsyncHTTPClient().fetch(
        f"http://{base}/voila/render/play.ipynb?token={token}", request_timeout=timeout
    )
    kernel_id, _root, _errors = classroom._page_kernel_and_root(page.body.decode())
    session = uuid.uuid4().hex
    url = f"ws://{base}/api/kernels/{kernel_id}/channels?session_id={session}&token={token}"
    try:
        legacy = await websocket_connect(HTTPRequest(url, request_timeout=timeout))  # no subprotocol: legacy
    except HTTPClientError as exc:
        return f"refused ({exc.code})"
    if legacy.selected_subprotocol is not None:
        return f"the server chose {legacy.selected_subprotocol!r}"

    def message(msg_type: str, content: dict) -> str:
        header = {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": "legacy",
            "session": session,
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "version": "5.3",
        }
        return json.dumps(
            {
                "header": header,
                "parent_header": {},
                "metadata": {},
                "content": content,
                "channel": "shell",
                "buffers": [],
            }
        )

    await legacy.write_message(message("comm_info_request", {"target_name": "jupyter.widget"}))
    comms = {}
    while not comms:
        frame = await asyncio.wait_for(legacy.read_message(), timeout)
        if frame is None:
            return "refused (closed)"
        if isinstance(frame, str) and json.loads(frame)["header"]["msg_type"] == "comm_info_reply":
            comms = json.loads(frame)["content"]["comms"]
    # ask every widget for its state, as ipywidgets < 7.6 front ends did; the image's reply is binary
    for comm_id in comms:
        await legacy.write_message(message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}}))
    answered = 0
    try:
        while answered < len(comms):
            frame = await asyncio.wait_for(legacy.read_message(), 10)
            if frame is None:
                break
            answered += isinstance(frame, bytes) or json.loads(frame)["header"]["msg_type"] == "comm_msg"
    except TimeoutError:
        pass
    legacy.close()
    return f"legacy client: {answered} of {len(comms)} widget states answered"


async def _probe(options, timeout: float) -> dict:
    from tornado.httpclient import AsyncHTTPClient

    base = f"127.0.0.1:{options.port}"
    report = {"legacy": await _legacy_request_image_state(base, options.token, timeout)}
    # a second visitor, speaking v1 as browsers do: is the server still serving the class?
    visitor = classroom.Visitor(0)
    started = time.monotonic()
    await asyncio.wait_for(classroom._visit_ws(base, options.token, visitor, 1, timeout, 0), timeout + 5)
    report["v1_visitor"] = {
        "errors": visitor.errors,
        "actions": len(visitor.latencies),
        "seconds": round(time.monotonic() - started, 1),
    }
    AsyncHTTPClient().close()
    return report


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def run(server_args: tuple[str, ...] = (), max_server_mib: float = 1024, timeout: float = 20) -> dict:
    """Probe a fresh server started with ``server_args``; return the report (see the module docstring)."""
    options = classroom.ServeOptions(
        port=classroom._free_port(), token=secrets.token_urlsafe(16), pool=1, cull_idle=600
    )
    pythonpath = os.pathsep.join([str(classroom.ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"dragonkit-legacy-{options.port}.log"
    with open(log_path, "wb") as log:
        server = classroom.start_server(
            options,
            classroom.notebooks_dir(),
            server_args,
            {"PYTHONPATH": pythonpath},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        peak = {"mib": 0.0, "killed": False}
        try:
            deadline = time.monotonic() + 120
            while classroom.kernel_memory(server.pid)[0] < 1 or not _listening(options.port):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the server did not start (see {log_path})")
                time.sleep(0.5)
            time.sleep(2)
            idle_mib = classroom._rss_mib(server.pid)

            async def guarded():
                async def watch():
                    while True:
                        mib = classroom._rss_mib(server.pid)
                        peak["mib"] = max(peak["mib"], mib)
                        if mib > max_server_mib and not peak["killed"]:
                            peak["killed"] = True
                            server.kill()
                        await asyncio.sleep(0.5)

                watcher = asyncio.create_task(watch())
                try:
                    return await _probe(options, timeout)
                finally:
                    watcher.cancel()

            report = asyncio.run(guarded())
            time.sleep(1)
            peak["mib"] = max(peak["mib"], classroom._rss_mib(server.pid))
        finally:
            server.kill() if peak["killed"] else server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a frozen server does not handle SIGTERM
                server.kill()
                server.wait(timeout=10)
    v1 = report["v1_visitor"]
    if report["legacy"].startswith("refused"):
        verdict = "refused"
    elif peak["killed"] or v1["errors"] or not v1["actions"]:
        verdict = "frozen"
    else:
        verdict = "answered"
    report.update(
        verdict=verdict,
        server_mib_idle=round(idle_mib),
        server_mib_peak=round(peak["mib"]),
        server_killed=peak["killed"],
        server_log=str(log_path),
    )
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server-arg", action="append", default=[], help="an extra Voilà option")
    parser.add_argument("--max-server-mib", type=float, default=1024, help="kill the server past this (MiB)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds the second visitor may wait")
    args = parser.parse_args()
    report = run(tuple(args.server_arg), args.max_server_mib, args.timeout)
    print(json.dumps(report, indent=2))
    return 1 if report["verdict"] == "frozen" else 0


if __name__ == "__main__":
    sys.exit(main())
