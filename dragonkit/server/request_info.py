"""Voilà's request-info socket with one waiter per kernel: a preheated kernel learns its visitor's request there.

A kernel of the play app's pool ran its page before its visitor came; Voilà sends it the visitor's request (the
query: ``?lang=``, the nickname, a room's code) through a websocket the kernel opened at ``/voila/query/<kernel id>``
(:mod:`dragonkit.ui.visitor`). Voilà 0.5's handler asks for no token, and when a socket it does not know closes it
deletes the *last* socket it keeps, another kernel's: a script that opened two sockets for a made-up id and closed
them made the next visitor's preheated kernel deaf (no nickname, no room), and kept that visitor's request, token and
nickname, for anyone who asked with its kernel id. :class:`RequestInfoSocket` keeps one socket per kernel id (a second
is closed at once), forgets only its own when it closes, and gives a request kept for a kernel once, to that kernel.
"""

from __future__ import annotations

from voila.request_info_handler import RequestInfoSocketHandler

__all__ = ["RequestInfoSocket"]

#: The websocket close code of a socket refused (RFC 6455: a policy violation).
REFUSED = 1008


class RequestInfoSocket(RequestInfoSocketHandler):
    """Voilà's :class:`~voila.request_info_handler.RequestInfoSocketHandler`, its tables shared (Voilà's page handler
    sends the requests through them), with one socket per kernel id."""

    kernel_id: str | None = None

    def open(self, kernel_id: str) -> None:
        """Keep this socket as ``kernel_id``'s, unless that kernel has one already (then close this one), and send
        it the request kept for it, if any (then forgotten)."""
        waiters, kept = RequestInfoSocketHandler._waiters, RequestInfoSocketHandler._cache
        if kernel_id in waiters:
            self.close(REFUSED, "this kernel's socket is open already")
            return
        self.kernel_id = kernel_id
        waiters[kernel_id] = self
        request = kept.pop(kernel_id, None)
        if request is not None:
            self.write_message(request)

    def on_close(self) -> None:
        """Forget this socket, and no other."""
        waiters = RequestInfoSocketHandler._waiters
        if self.kernel_id is not None and waiters.get(self.kernel_id) is self:
            del waiters[self.kernel_id]
