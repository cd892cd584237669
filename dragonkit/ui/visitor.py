"""A preheated kernel meets its visitor: the language and the view the page's address asks for, learnt late.

In a preheated Voilà kernel (``dragonkit serve --pool``) the page ran before its visitor came, so the ``?lang=`` and
``?view=`` of its address were unknown when the app was built. :func:`follow_the_visitor` waits, on the kernel's
event loop, for Voilà to send the visitor's request through its request-info socket, puts it in the environment as
Voilà does for a kernel started with its page (``QUERY_STRING`` …), then switches the kernel to the language and the
view it asks for (:data:`dragonkit.i18n.settings`, :data:`dragonkit.view.settings`): the app observes both and
redraws itself.

This speaks the socket's protocol (one JSON message of environment variables) with tornado, which the kernel has
loaded already; Voilà's own helper (``voila.utils.wait_for_request``) would import the whole Jupyter server into every
kernel: 1.8 CPU-seconds a visitor.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping

from .. import i18n, view

__all__ = ["follow_the_visitor"]


def _visitor_query_url(environ: Mapping[str, str]) -> str | None:
    """The address of Voilà's request-info socket for this preheated kernel (``/voila/query/<kernel
    id>``, built from the variables Voilà gives its kernels), or None outside a preheated kernel."""
    if environ.get("VOILA_PREHEAT") != "True" or not environ.get("VOILA_KERNEL_ID"):
        return None
    protocol = environ.get("VOILA_WS_PROTOCOL", "ws")
    host = environ.get("VOILA_APP_IP", "127.0.0.1")
    port = environ.get("VOILA_APP_PORT", "8866")
    base = environ.get("VOILA_WS_BASE_URL", environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{host}:{port}{base}voila/query/{environ['VOILA_KERNEL_ID']}"


async def _await_visitor(url: str, then: Callable[[], None] | None = None) -> None:
    """Read the visitor's request from Voilà's socket, put it in the environment as Voilà does
    (``QUERY_STRING`` …), and switch to the language its ``?lang=`` asks for, if it asks for one, and to the view
    its ``?view=`` asks for; then call ``then`` (if the request came)."""
    from tornado.httpclient import HTTPClientError
    from tornado.websocket import WebSocketError, websocket_connect

    try:
        connection = await websocket_connect(url)
    except (OSError, HTTPClientError, WebSocketError):  # no socket to wait on: the page keeps its language and view
        return
    try:
        message = await connection.read_message()
    finally:
        connection.close()
    if isinstance(message, str):
        os.environ.update({str(k): str(v) for k, v in json.loads(message).items()})
        asked = i18n.requested_language()
        if asked is not None:  # without ?lang=, the page keeps the language it was run in
            i18n.set_language(asked)
        view.settings.projector = view.requested_projector()
        if then is not None:
            then()


def follow_the_visitor(then: Callable[[], None] | None = None) -> None:
    """In a preheated Voilà kernel, switch to the language and the view of the page's visitor once their request
    arrives (on the kernel's event loop; this returns at once); elsewhere, nothing: a kernel started with its page
    knew them from the start.

    Parameters
    ----------
    then : callable, optional
        What to do once the visitor's address is known (their nickname, a room's code): at once in a kernel started
        with its page (or a script), when their request arrives in a preheated kernel.
    """
    url = _visitor_query_url(os.environ)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no event loop (a script): nothing to wait on
        loop = None
    if url is None or loop is None:
        if then is not None and url is None:
            then()
        return
    task = loop.create_task(_await_visitor(url, then))
    _VISITOR_WAITS.add(task)  # keep a reference until it is done
    task.add_done_callback(_VISITOR_WAITS.discard)


_VISITOR_WAITS: set[asyncio.Task[None]] = set()
