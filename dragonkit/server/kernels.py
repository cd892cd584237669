"""The kernel manager of `dragonkit serve`: jupyter_server's, with a culler that leaves alone the kernels already shut
down or being shut down, and waits longer for a page's browser to connect the first time.

jupyter_server's culler (``MappingKernelManager.cull_kernels``) takes a list of the kernels, then looks at each in
turn, awaiting the shutdown of each idle one. In a class, pages close all the time, and each closed page shuts its
kernel down (:mod:`dragonkit.server`): a kernel of the list may be gone by the time the culler reaches it, and
``cull_kernel_if_idle`` then reads ``self._kernels[kernel_id]`` and raises ``KeyError``, which the culler logs with its
traceback (six of them in one class benchmark). A kernel still shutting down (its page closed a moment ago) would be
shut down a second time. A kernel still starting (a page just opened, or the pool refilling) has no
``last_activity`` yet: reading it raised ``TraitError``, another traceback (seen on a loaded machine).
:class:`ClassroomKernelManager` skips all three; Voilà's pool (``preheat_kernel``) wraps it as it wraps
jupyter_server's own.

A page's kernel has run its notebook before the page's scripts (about 5 MB on a first visit) reach the browser, which
then connects to it. jupyter_server culls a kernel with no connection once it has been idle ``cull_idle_timeout``
seconds (45 by default): a browser slower than that (a class of 40 loading at once over a school's Wi-Fi, an old
laptop, a loaded machine) found its kernel gone, and the page stayed a line of text, with no widget and no word of
why. A kernel that no browser has connected to yet is spared for :attr:`ClassroomKernelManager.connect_wait` seconds
instead; once connected, the usual rule applies, its idle time counted from the moment its last page went away (a
page whose connection drops a moment reconnects to its kernel, however long its student had been thinking).
"""

from __future__ import annotations

from datetime import timedelta

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

__all__ = ["ClassroomKernelManager"]


class ClassroomKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager whose culler never reaches for a kernel that is gone or going, gives a page's
    browser :attr:`connect_wait` seconds to connect to its kernel, and counts a kernel idle from its last page's
    going.

    Attributes
    ----------
    connect_wait : int
        Seconds of inactivity after which a kernel that no browser has connected to yet may be culled (config);
        at least ``cull_idle_timeout`` in effect.
    """

    connect_wait = Integer(
        180,
        config=True,
        help="seconds of inactivity after which a kernel no browser has connected to yet may be culled",
    )

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]  # unannotated in jupyter_server
        self._connected_once: set[str] = set()

    def notify_connect(self, kernel_id: str) -> None:
        """Count a new connection to ``kernel_id`` (jupyter_server's), and remember that a browser reached it."""
        self._connected_once.add(kernel_id)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]  # unannotated in jupyter_server

    def notify_disconnect(self, kernel_id: str) -> None:
        """Count a connection to ``kernel_id`` gone (jupyter_server's), and start its idle time again: the culling
        takes a kernel idle ``cull_idle_timeout`` seconds since its last page went away, not since its last message.
        A page that dropped its connection a moment (a school's Wi-Fi, a laptop's lid) after its student had thought
        longer than that found its kernel culled by the first culling round, the game lost."""
        super().notify_disconnect(kernel_id)  # type: ignore[no-untyped-call]  # unannotated in jupyter_server
        if kernel_id in self._kernels:
            self._kernels[kernel_id].last_activity = utcnow()

    async def cull_kernels(self) -> None:
        """jupyter_server's culling round, after forgetting the kernels that are gone."""
        self._connected_once.intersection_update(self._kernels)
        await super().cull_kernels()  # type: ignore[no-untyped-call]  # unannotated in jupyter_server

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull ``kernel_id`` if it is idle (jupyter_server's rule), unless it was shut down since the culler listed
        the kernels, or is being shut down (or started) now, or has not yet been watched for activity, or no browser
        has connected to it yet and it has been idle less than :attr:`connect_wait` seconds."""
        if kernel_id not in self._kernels or kernel_id in self._pending_kernels:
            self.log.debug("dragonkit: not culling kernel %s, shut down or shutting down meanwhile", kernel_id)
            return
        kernel = self._kernels[kernel_id]
        if not kernel.trait_has_value("last_activity"):
            self.log.debug("dragonkit: not culling kernel %s, still starting", kernel_id)
            return
        waiting = utcnow() - kernel.last_activity <= timedelta(seconds=self.connect_wait)
        if kernel_id not in self._connected_once and waiting:
            self.log.debug("dragonkit: not culling kernel %s, its page's browser has not connected yet", kernel_id)
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]  # unannotated in jupyter_server
