"""A server that keeps the class's record, with stand-in notebooks that tell the test what their kernel was given
(the ``record_server`` fixture of tests/conftest.py), and a client with cookies that follows no redirection, which
joins the class as a browser does (:meth:`Client.join`, :func:`joined`): tests/server/test_join.py,
tests/server/test_teacher.py, tests/browser/test_join.py."""

from __future__ import annotations

import json
import re
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from email.message import Message
from http.cookiejar import Cookie, CookieJar
from pathlib import Path

import nbformat
import pytest

TOKEN = "students-token-1"
KEY = "teachers-key-0012"

#: A notebook whose kernel writes, once its visitor's request has come (at once, or through Voilà's request-info
#: socket for a preheated kernel), what it was given into ``{probes}/<its pid>.json`` (written beside and renamed, so
#: that the test never reads half of it).
PROBE = """
import asyncio, json, os, pathlib
from dragonkit.ui.visitor import follow_the_visitor

follow_the_visitor()
NAMES = ("QUERY_STRING", "VOILA_PREHEAT", "DRAGONKIT_RECORD", "DRAGONKIT_CLASS", "DRAGONKIT_TEACHER_KEY")

async def _report():
    while "probe=" not in os.environ.get("QUERY_STRING", ""):
        await asyncio.sleep(0.1)
    seen = {{name: os.environ.get(name) for name in NAMES}}
    written = pathlib.Path({probes!r}, f"{{os.getpid()}}.part")
    written.write_text(json.dumps(seen))
    written.replace(written.with_suffix(".json"))  # whole: the test may read it the moment it exists

_reporting = asyncio.ensure_future(_report())
print("a stand-in page")
"""
DASHBOARD = """
import os, pathlib
pathlib.Path({probes!r}, f"dashboard-{{os.getpid()}}").write_text("ran")
print("the teacher's stand-in dashboard")
"""


def write_notebook(path: Path, code: str) -> None:
    """A notebook of one code cell, ``code``."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, path)


@dataclass(frozen=True)
class RecordServer:
    """A running server with a record (pool 1 for ``play.ipynb``; ``lesson.ipynb`` starts a kernel per page)."""

    url: str
    record: str
    probes: Path
    log: Path
    pid: int

    def wait_for_the_pool(self, timeout: float = 90) -> None:
        """Wait until play.ipynb's preheated kernel has run its page (Voilà says so in its log)."""
        deadline = time.monotonic() + timeout
        while "Kernel pool of play.ipynb is filled" not in self.log.read_text(errors="replace"):
            if time.monotonic() > deadline:
                pytest.fail(f"the pool was not filled within {timeout} s; see {self.log}")
            time.sleep(0.3)

    def probe(self, marker: str, timeout: float = 90) -> dict[str, str | None]:
        """What the kernel of the page asked with ``probe=<marker>`` was given."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for path in self.probes.glob("*.json"):
                seen = json.loads(path.read_text())
                if f"probe={marker}" in (seen["QUERY_STRING"] or ""):
                    return seen
            time.sleep(0.2)
        pytest.fail(f"no kernel reported the page probe={marker}")

    def dashboards_run(self) -> int:
        """How many times the stand-in dashboard ran (each time a kernel)."""
        return len(list(self.probes.glob("dashboard-*")))


def write_stand_ins(folder: Path, probes: Path) -> None:
    """The stand-in notebooks of ``folder``: ``play.ipynb`` and ``lesson.ipynb`` (:data:`PROBE`), ``dashboard.ipynb``
    (:data:`DASHBOARD`), reporting to ``probes``."""
    for name in ("play.ipynb", "lesson.ipynb"):
        write_notebook(folder / name, PROBE.format(probes=str(probes)))
    write_notebook(folder / "dashboard.ipynb", DASHBOARD.format(probes=str(probes)))


def marker() -> str:
    """A new value for a page's ``?probe=``."""
    return uuid.uuid4().hex[:12]


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args, **_kwargs):
        return None  # the redirection is the answer


class Client:
    """A browser's cookies without a browser: each request answers as it is (a redirection is not followed)."""

    def __init__(self, context: ssl.SSLContext | None = None) -> None:
        """``context``: the TLS settings of HTTPS requests (a test's own certificate trusted)."""
        self.jar = CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.jar), _Stay]
        if context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)

    def request(self, method: str, url: str, form: dict[str, str] | None = None) -> tuple[int, Message, str]:
        """``(status, headers, body)`` of ``method`` on ``url`` (a POST of ``form``)."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(urllib.request.Request(url, data=data, method=method), timeout=90) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers, answer.read().decode()

    def cookie(self, name: str) -> Cookie | None:
        return next((c for c in self.jar if c.name == name), None)

    def join(self, join_url: str, nickname: str) -> tuple[int, Message, str]:
        """Send the join page's form at ``join_url`` (``…/dragonkit/join?next=…``) as a browser does: the ``_xsrf``
        field of the page it got, its cookie, and ``nickname``."""
        server = join_url.split("/dragonkit/join", 1)[0]
        status, _headers, page = self.request("GET", f"{server}/dragonkit/join?next=/")
        assert status == 200, page
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
        assert xsrf is not None, page
        return self.request("POST", join_url, {"_xsrf": xsrf[1], "nickname": nickname})


def joined(server: str, nickname: str | None = None) -> Client:
    """A browser that logged in with the students' token and joined the class of ``server`` with ``nickname`` (by
    default one of its own, :func:`marker`'s): it holds it, and its pages are served."""
    client = Client()
    client.request("GET", f"{server}/?token={TOKEN}")
    status, _headers, page = client.join(f"{server}/dragonkit/join?next=/", nickname or f"Student {marker()}")
    assert status == 303, page
    return client
