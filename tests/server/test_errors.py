"""The server's errors, served by a server with a record (tests/record_server.py): every handler answers with the
kit's page in the visitor's language, and the server's log gets the error's line, not a traceback. jupyter_server's
error page needs a ``static_path`` this server has not: its handlers answered with an empty page and three tracebacks
(a page's websocket to the kernel its page had just shut down, seen in the server's log of the browser tests)."""

from __future__ import annotations

import asyncio
import re

import tornado.httpclient
import tornado.websocket

from dragonkit.server.kernel_socket import V1_PROTOCOL

from ..record_server import TOKEN, Client, joined, marker


async def _open_websocket(url: str, cookies: str) -> int:
    """The HTTP status that answers a browser's request to open the kernel websocket at ``url`` (101 when it opens)."""
    request = tornado.httpclient.HTTPRequest(url, headers={"Cookie": cookies})
    try:
        socket = await tornado.websocket.websocket_connect(request, subprotocols=[V1_PROTOCOL])
    except tornado.httpclient.HTTPClientError as refused:
        return refused.code
    socket.close()
    return 101


def test_a_websocket_to_a_kernel_shut_down_is_a_404_and_no_traceback(record_server):
    """A page's kernel shut down (its page closed, or moved to another lesson), then the page's websocket to it: 404,
    as for any kernel that is not there."""
    student = joined(record_server.url)
    page = f"{record_server.url}/voila/render/lesson.ipynb?token={TOKEN}&probe={marker()}"
    status, _, body = student.request("GET", page)
    assert status == 200 and "a stand-in page" in body
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', body)[1]
    xsrf = student.cookie("_xsrf")
    assert xsrf is not None
    logged = len(record_server.log.read_text(errors="replace"))
    status, _, _ = student.request("POST", f"{record_server.url}/voila/api/shutdown/{kernel}?_xsrf={xsrf.value}")
    assert status == 204  # as the page's unload handler shuts it down
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in student.jar)
    channels = f"{record_server.url.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels?session_id={marker()}"
    assert asyncio.run(_open_websocket(channels, cookies)) == 404
    log = record_server.log.read_text(errors="replace")[logged:]
    assert f"404 GET /api/kernels/{kernel}/channels" in log
    assert "Traceback" not in log, log


def test_an_address_with_nothing_at_it_is_the_kits_page_in_the_visitors_language(record_server):
    """An address of a handler of jupyter_server's (the JupyterLab extensions' files): the kit's page, in Italian for
    ``?lang=it``, with its 404."""
    student = Client()
    logged = len(record_server.log.read_text(errors="replace"))
    status, headers, body = student.request(
        "GET", f"{record_server.url}/voila/labextensions/nothing-here.js?token={TOKEN}&lang=it"
    )
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    assert '<html lang="it">' in body and "<h1>Questa pagina non esiste</h1>" in body
    assert "Traceback" not in record_server.log.read_text(errors="replace")[logged:]
