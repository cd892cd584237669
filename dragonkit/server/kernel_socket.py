"""The kernel websocket that `dragonkit serve` offers visitors: the v1 protocol only.

Voilà 0.5 reads every binary frame it sends to a visitor as a frame of the
``v1.kernel.websocket.jupyter.org`` protocol (``VoilaKernelWebsocketHandler.write_message``,
which drops ``execute_input`` messages).  jupyter_server still lets a client that
offers no subprotocol speak the legacy protocol, whose binary frames start with a
4-byte big-endian count; read as an 8-byte little-endian count that is about
10**18, and the handler builds a list that long on the server's only thread: one
script froze the whole class (``benchmarks/legacy_websocket.py`` reproduces it).
Browsers always offer v1, so refusing the others costs a class nothing.

A message on its way to a page that closes (a tab closed, a browser quit) fails where nobody waits for it:
jupyter_server sends the kernel's messages without awaiting tornado's write, so the failed write was reported as
"Task exception was never retrieved" with two tracebacks in the server's log, which the teacher reads. The connection
here sends them through :func:`send_to_page`, which says it in a debug line instead.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web
from tornado.websocket import WebSocketClosedError

__all__ = ["V1_PROTOCOL", "V1OnlyWebsocketConnection", "send_to_page"]

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


class V1OnlyWebsocketConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket connection that refuses (HTTP 400) a client not offering the v1 protocol.

    Raises
    ------
    tornado.web.HTTPError
        400, before the websocket is opened, for a client that offers no
        ``v1.kernel.websocket.jupyter.org`` subprotocol.
    """

    async def prepare(self) -> None:
        offered = self.websocket_handler.request.headers.get("Sec-WebSocket-Protocol", "")
        if V1_PROTOCOL not in {protocol.strip() for protocol in offered.split(",")}:
            raise web.HTTPError(400, f"only the {V1_PROTOCOL} kernel websocket protocol is served")
        await super().prepare()  # type: ignore[no-untyped-call]  # unannotated in jupyter_server

    @property
    def write_message(self) -> Callable[..., asyncio.Future[None] | None]:
        """The websocket handler's ``write_message`` through :func:`send_to_page` (jupyter_server's is the handler's
        own)."""
        return functools.partial(send_to_page, self.websocket_handler.write_message, self.log)


def send_to_page(
    write: Callable[..., asyncio.Future[None] | None],
    log: logging.Logger | logging.LoggerAdapter[Any],
    message: bytes | str | dict[str, Any],
    binary: bool = False,
) -> asyncio.Future[None] | None:
    """Send ``message`` to a page with ``write`` (a websocket handler's ``write_message``), where the page may close
    before it arrives: a websocket closed before or during the write costs a debug line of ``log``, not an error.

    Returns
    -------
    asyncio.Future or None
        ``write``'s future (its failure, if any, already retrieved), or ``None`` when the websocket was closed before
        the write or ``write`` sent nothing.
    """
    try:
        sending = write(message, binary)
    except WebSocketClosedError:
        log.debug("A page closed before a kernel's message was sent to it")
        return None
    if sending is not None:
        sending.add_done_callback(functools.partial(_sent, log))
    return sending


def _sent(log: logging.Logger | logging.LoggerAdapter[Any], sending: asyncio.Future[None]) -> None:
    """Read how a write to a page ended: a page closed meanwhile is a debug line, any other failure an error."""
    if sending.cancelled():
        return
    failure = sending.exception()
    if isinstance(failure, WebSocketClosedError):
        log.debug("A page closed while a kernel's message was on its way to it")
    elif failure is not None:
        log.error("A kernel's message could not be sent to its page", exc_info=failure)
