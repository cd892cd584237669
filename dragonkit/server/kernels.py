"""The kernel manager of `dragonkit serve`: jupyter_server's, with a culler that leaves alone the kernels already shut
down or being shut down.

jupyter_server's culler (``MappingKernelManager.cull_kernels``) takes a list of the kernels, then looks at each in
turn, awaiting the shutdown of each idle one. In a class, pages close all the time, and each closed page shuts its
kernel down (:mod:`dragonkit.server`): a kernel of the list may be gone by the time the culler reaches it, and
``cull_kernel_if_idle`` then reads ``self._kernels[kernel_id]`` and raises ``KeyError``, which the culler logs with its
traceback (six of them in one class benchmark). A kernel still shutting down (its page closed a moment ago) would be
shut down a second time. A kernel still starting (a page just opened, or the pool refilling) has no
``last_activity`` yet: reading it raised ``TraitError``, another traceback (seen on a loaded machine).
:class:`ClassroomKernelManager` skips all three; Voilà's pool (``preheat_kernel``) wraps it as it wraps
jupyter_server's own.
"""

from __future__ import annotations

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

__all__ = ["ClassroomKernelManager"]


class ClassroomKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager whose culler never reaches for a kernel that is gone or going."""

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull ``kernel_id`` if it is idle (jupyter_server's rule), unless it was shut down since the culler listed
        the kernels, or is being shut down (or started) now, or has not yet been watched for activity."""
        if kernel_id not in self._kernels or kernel_id in self._pending_kernels:
            self.log.debug("dragonkit: not culling kernel %s, shut down or shutting down meanwhile", kernel_id)
            return
        if not self._kernels[kernel_id].trait_has_value("last_activity"):
            self.log.debug("dragonkit: not culling kernel %s, still starting", kernel_id)
            return
        await super().cull_kernel_if_idle(kernel_id)
