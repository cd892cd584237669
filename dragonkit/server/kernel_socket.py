"""The kernel websocket that `dragonkit serve` offers visitors: the v1 protocol only.

Voilà 0.5 reads every binary frame it sends to a visitor as a frame of the
``v1.kernel.websocket.jupyter.org`` protocol (``VoilaKernelWebsocketHandler.write_message``,
which drops ``execute_input`` messages).  jupyter_server still lets a client that
offers no subprotocol speak the legacy protocol, whose binary frames start with a
4-byte big-endian count; read as an 8-byte little-endian count that is about
10**18, and the handler builds a list that long on the server's only thread: one
script froze the whole class (``benchmarks/legacy_websocket.py`` reproduces it).
Browsers always offer v1, so refusing the others costs a class nothing.
"""

from __future__ import annotations

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web

__all__ = ["V1_PROTOCOL", "V1OnlyWebsocketConnection"]

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
