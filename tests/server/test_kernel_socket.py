"""A kernel's message on its way to a page that closes: what the server's log says (dragonkit.server.kernel_socket).

Seen in the classroom's load test (a browser quit while its page's kernel was sending it messages): the server's log
held "Task exception was never retrieved" and two tracebacks, because jupyter_server sends a kernel's messages with
tornado's ``write_message`` without waiting for the write. Here a real tornado websocket, served and connected on
127.0.0.1, is closed while a message larger than the socket's buffers is being written to it."""

from __future__ import annotations

import asyncio
import base64
import gc
import logging
import os
import socket

from tornado import httpserver, testing, web, websocket

from dragonkit.server.kernel_socket import send_to_page

#: Larger than what the sockets' buffers take at once: the write is still on its way when the stream closes.
MESSAGE = b"x" * (32 * 1024 * 1024)


class _Page(websocket.WebSocketHandler):
    opened: asyncio.Future[_Page]

    def open(self) -> None:
        self.opened.set_result(self)


async def _write_while_the_page_closes(send) -> list[dict]:
    """Serve a websocket, connect a client that reads nothing, ``send(handler, MESSAGE)`` and close the server's side
    of the connection while it is written; returns what the event loop reported as unhandled."""
    loop = asyncio.get_running_loop()
    unhandled: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: unhandled.append(context))
    _Page.opened = loop.create_future()
    listening, port = testing.bind_unused_port()
    server = httpserver.HTTPServer(web.Application([("/ws", _Page)]))
    server.add_sockets([listening])
    client = socket.socket()  # a page that reads nothing more once connected: a browser as it quits
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    client.sendall(f"{upgrade}Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    page = await _Page.opened
    sending = send(page, MESSAGE)
    await asyncio.sleep(0.2)
    assert sending is not None and not sending.done(), "the write ended before the page closed: no test"
    page.ws_connection.stream.close()  # the page goes: a tab closed, a browser quit
    await asyncio.sleep(0.2)
    assert sending.done()
    del sending
    gc.collect()  # an exception nobody retrieved is reported when its task is collected
    await asyncio.sleep(0)
    client.close()
    server.stop()
    return unhandled


def test_a_message_to_a_page_that_closes_is_a_debug_line_not_a_traceback(caplog):
    log = logging.getLogger("test-kernel-socket")
    with caplog.at_level(logging.DEBUG, logger=log.name):
        unhandled = asyncio.run(_write_while_the_page_closes(lambda page, m: send_to_page(page.write_message, log, m)))
    assert unhandled == []
    assert [r.levelname for r in caplog.records] == ["DEBUG"]
    assert "closed while a kernel's message was on its way" in caplog.records[0].getMessage()


def test_without_it_the_event_loop_reports_the_failed_write():
    """The case the kit's connection mends, as jupyter_server sends: the handler's write, nobody waiting for it."""
    unhandled = asyncio.run(_write_while_the_page_closes(lambda page, m: page.write_message(m, binary=True)))
    assert [context["message"] for context in unhandled] == ["Task exception was never retrieved"]
    assert isinstance(unhandled[0]["exception"], websocket.WebSocketClosedError)


def test_a_page_closed_before_the_write_is_a_debug_line_too(caplog):
    log = logging.getLogger("test-kernel-socket")

    def closed(message, binary):
        raise websocket.WebSocketClosedError()

    with caplog.at_level(logging.DEBUG, logger=log.name):
        assert send_to_page(closed, log, b"{}", True) is None
    assert [r.levelname for r in caplog.records] == ["DEBUG"]
