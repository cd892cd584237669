"""The culling of kernels (dragonkit.server.kernels): kernels whose pages shut them down meanwhile are
passed over, a kernel no browser has reached yet waits longer, and only living kernels are touched."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import ServerKernelManager
from traitlets import Unicode
from traitlets.config import LoggingConfigurable
from voila.configuration import VoilaConfiguration
from voila.voila_kernel_manager import voila_kernel_manager_factory

from dragonkit.server.app import ClassroomVoila
from dragonkit.server.kernels import ClassroomKernelManager


class _Server(LoggingConfigurable):
    """What Voilà's pooled kernel manager reads of its server: a folder with no notebook to preheat."""

    root_dir = Unicode()
    notebook_path = Unicode(None, allow_none=True)


def _idle(seconds: float = 3600) -> ServerKernelManager:
    """A kernel as the culler sees it, idle for ``seconds`` (its process never started)."""
    return ServerKernelManager(execution_state="idle", last_activity=utcnow() - timedelta(seconds=seconds))


def _starting() -> ServerKernelManager:
    """A kernel still starting: its activity is not watched yet (no ``last_activity``)."""
    return ServerKernelManager(execution_state="starting")


@pytest.mark.parametrize("pooled", [False, True], ids=["plain", "with Voilà's pool"])
def test_the_culler_passes_over_kernels_their_pages_shut_down_meanwhile(pooled, tmp_path, caplog):
    """The culler lists the kernels, then culls them one at a time, awaiting each shutdown. Meanwhile a page closes
    and shuts its kernel (b) down, and another page's kernel (c) is being shut down: the culler passes over both,
    where jupyter_server's culler logged a KeyError traceback for b (and would shut c down a second time); and over
    a kernel still starting (d), where it logged a TraitError traceback (its ``last_activity`` not set yet)."""
    manager_class = voila_kernel_manager_factory(ClassroomKernelManager, True, 0) if pooled else ClassroomKernelManager
    manager = manager_class(
        parent=_Server(root_dir=str(tmp_path)), cull_idle_timeout=10, log=logging.getLogger("dragonkit.test")
    )
    manager._kernels.update(a=_idle(), b=_idle(), c=_idle(), d=_starting())
    manager._pending_kernels["c"] = asyncio.Future  # c's shutdown is under way (any placeholder will do)
    shut_down = []

    async def shutdown_kernel(kernel_id, *args, **kwargs):
        shut_down.append(kernel_id)
        await asyncio.sleep(0.01)
        manager._kernels.pop(kernel_id)
        manager._kernels.pop("b", None)  # b's page closed meanwhile

    manager.shutdown_kernel = shutdown_kernel
    with caplog.at_level(logging.DEBUG, logger="dragonkit.test"):
        asyncio.run(manager.cull_kernels())
    assert shut_down == ["a"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert "KeyError" not in caplog.text and "Traceback" not in caplog.text


@pytest.mark.parametrize("pooled", [False, True], ids=["plain", "with Voilà's pool"])
def test_a_kernel_no_browser_has_reached_yet_waits_for_it_longer(pooled, tmp_path):
    """Idle for a minute, longer than the culling's 10 s: a kernel whose browser came and went a minute ago is culled,
    one whose browser went away just now is not (its page may be back in a moment: the idle time counts from then),
    nor one whose browser is still loading the page's scripts, nor one whose browser is connected. A kernel no browser
    reached in ``connect_wait`` (120 s here) is culled too."""
    manager_class = voila_kernel_manager_factory(ClassroomKernelManager, True, 0) if pooled else ClassroomKernelManager
    manager = manager_class(parent=_Server(root_dir=str(tmp_path)), cull_idle_timeout=10, connect_wait=120)
    kernels = {"came and went": _idle(60), "just went": _idle(60), "loading": _idle(60), "connected": _idle(60)}
    kernels["never came"] = _idle(121)
    manager._kernels.update(kernels)
    manager._kernel_connections.update(dict.fromkeys(kernels, 0))  # as jupyter_server starts them
    for kernel_id in ("came and went", "just went", "connected"):
        manager.notify_connect(kernel_id)
    for kernel_id in ("came and went", "just went"):
        manager.notify_disconnect(kernel_id)
    assert kernels["just went"].last_activity > utcnow() - timedelta(seconds=1)
    kernels["came and went"].last_activity = utcnow() - timedelta(seconds=60)  # its page went away a minute ago
    shut_down = []

    async def shutdown_kernel(kernel_id, *args, **kwargs):
        shut_down.append(kernel_id)
        manager._kernels.pop(kernel_id)

    manager.shutdown_kernel = shutdown_kernel
    asyncio.run(manager.cull_kernels())
    assert sorted(shut_down) == ["came and went", "never came"]
    asyncio.run(manager.cull_kernels())  # the next round forgets the kernel gone, and culls nothing more
    assert sorted(shut_down) == ["came and went", "never came"]
    assert manager._connected_once == {"connected", "just went"}


def test_the_server_culls_with_its_own_kernel_manager_and_touches_only_living_kernels(tmp_path):
    """The classroom's Voilà builds its kernels' manager from :class:`ClassroomKernelManager`; a page that ends after
    its kernel was shut down (a reload storm) counts nothing active, where ``get_kernel`` raised a 404 in the page's
    handler."""
    app = ClassroomVoila()
    app.voila_configuration = VoilaConfiguration()
    app.use_classroom_kernel_manager()
    assert app.voila_configuration.multi_kernel_manager_class is ClassroomKernelManager
    manager = ClassroomKernelManager(parent=_Server(root_dir=str(tmp_path)))
    manager._kernels["alive"] = _idle()
    server = SimpleNamespace(kernel_manager=manager)
    ClassroomVoila.touch(server, "gone")  # type: ignore[arg-type]
    ClassroomVoila.touch(server, "alive")  # type: ignore[arg-type]
    assert utcnow() - manager._kernels["alive"].last_activity < timedelta(minutes=1)
