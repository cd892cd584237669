"""The classroom server's parts that need no server: the kernel budget, the page of a refused visitor, the culling."""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from jupyter_server._tz import utcnow
from traitlets import Unicode
from traitlets.config import LoggingConfigurable
from voila.configuration import VoilaConfiguration
from voila.voila_kernel_manager import voila_kernel_manager_factory

from dragonkit.server.app import ClassroomVoila, in_language, notebook_language, page_head
from dragonkit.server.budget import KERNEL_MIB, RESERVE_MIB, KernelBudget, default_max_kernels
from dragonkit.server.kernels import ClassroomKernelManager
from dragonkit.server.pages import STATUS, refusal_page


def test_the_budget_refuses_past_the_machines_limit_then_past_a_visitors():
    budget = KernelBudget(max_kernels=5, per_client=2)
    assert budget.refusal(kernels=4, of_client=1) is None
    assert budget.refusal(kernels=4, of_client=2) == "client"
    assert budget.refusal(kernels=5, of_client=0) == "full"
    assert KernelBudget(max_kernels=4).refusal(kernels=3, of_client=3) is None  # the visitor's limit, 10, is above
    assert KernelBudget(0, 0).refusal(kernels=500, of_client=500) is None  # 0: no limit


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"max_kernels": -1}, "max_kernels must be a whole number"),
        ({"max_kernels": 4, "per_client": True}, "per_client must be a whole number"),
        ({"max_kernels": 2.5}, "max_kernels must be a whole number"),
    ],
)
def test_an_impossible_budget_is_refused(fields, error):
    with pytest.raises(ValueError, match=error):
        KernelBudget(**fields)


def test_the_default_budget_is_what_the_memory_holds(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:   16777216 kB\n")  # 16 GiB available
    assert default_max_kernels(meminfo) == (16 * 1024 - RESERVE_MIB) // KERNEL_MIB == 96
    meminfo.write_text("MemAvailable:   1048576 kB\n")  # 1 GiB: the reserve alone
    assert default_max_kernels(meminfo) == 2
    assert default_max_kernels(tmp_path / "missing") == 64


@pytest.mark.parametrize(
    "reason, query, lang, title",
    [
        ("full", "", "en", "The class is full"),
        ("full", "lang=it", "it", "La classe è al completo"),
        ("client", "", "en", "Too many pages at once"),
        ("client", "x=1&lang=it", "it", "Troppe pagine aperte insieme"),
    ],
)
def test_a_refused_visitor_gets_a_short_page_in_their_language(reason, query, lang, title):
    page = refusal_page(reason, {"QUERY_STRING": query}, retry=60)
    assert f'<html lang="{lang}">' in page and f"<h1>{title}</h1>" in page
    assert '<meta http-equiv="refresh" content="60">' in page and re.search(r'<a href="">\w+( \w+)?</a>', page)
    assert "<main>" in page and "http" not in page.replace('http-equiv="refresh"', "")  # nothing from outside
    assert STATUS[reason] in (429, 503)


def test_the_servers_language_is_the_default_of_the_page():
    page = refusal_page("full", {"QUERY_STRING": "", "DRAGONKIT_LANG": "it"})
    assert '<html lang="it">' in page and "Riprova" in page
    with pytest.raises(KeyError):
        refusal_page("busy", {})


# -- the culling -----------------------------------------------------------------------------------------------------


class _Server(LoggingConfigurable):
    """What Voilà's pooled kernel manager reads of its server: a folder with no notebook to preheat."""

    root_dir = Unicode()
    notebook_path = Unicode(None, allow_none=True)


def _idle() -> SimpleNamespace:
    """A kernel as the culler sees it, idle for an hour."""
    return SimpleNamespace(
        execution_state="idle",
        kernel_name="python3",
        kernel_spec=SimpleNamespace(metadata={}),
        last_activity=utcnow() - timedelta(hours=1),
    )


@pytest.mark.parametrize("pooled", [False, True], ids=["plain", "with Voilà's pool"])
def test_the_culler_passes_over_kernels_their_pages_shut_down_meanwhile(pooled, tmp_path, caplog):
    """The culler lists the kernels, then culls them one at a time, awaiting each shutdown. Meanwhile a page closes
    and shuts its kernel (b) down, and another page's kernel (c) is being shut down: the culler passes over both,
    where jupyter_server's culler logged a KeyError traceback for b (and would shut c down a second time)."""
    manager_class = voila_kernel_manager_factory(ClassroomKernelManager, True, 0) if pooled else ClassroomKernelManager
    manager = manager_class(
        parent=_Server(root_dir=str(tmp_path)), cull_idle_timeout=10, log=logging.getLogger("dragonkit.test")
    )
    manager._kernels.update(a=_idle(), b=_idle(), c=_idle())
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


# -- a page's title and language ---------------------------------------------------------------------------------------

#: The head of a page as Voilà's template renders it, in the pieces it comes in (a page of the play app).
HEAD = ['<!DOCTYPE html>\n<html lang="', "en", '">\n<head>\n<meta charset="utf-8" />\n<title>', "Dragon Stripes — play"]
BODY = ["</title>\n</head>\n<body>", '<script>{"kernelId": "x"}</script>', "</body></html>"]


async def _gathered(chunks, lang, translate):
    async def source():
        for chunk in chunks:
            yield chunk

    return [chunk async for chunk in in_language(source(), lang, translate)]


def test_a_pages_head_is_written_in_its_language_whatever_pieces_it_comes_in():
    """The template gives ``<title>``, the title and ``</title>`` as separate pieces: the head is held back until its
    title is whole, then written with the app's title translated and the page's language; the rest passes as it
    comes."""
    chunks = asyncio.run(_gathered(HEAD + BODY, "it", True))
    assert chunks[1:] == BODY[1:]
    assert '<html lang="it">' in chunks[0] and "<title>Dragon Stripes — gioca</title>" in chunks[0]
    english = "".join(asyncio.run(_gathered(HEAD + BODY, "en", True)))
    assert english == "".join(HEAD + BODY)
    lesson = page_head('<html lang="en"><title>Lezione 2 — La prossima carta</title>', "it", False)  # its own title
    assert lesson == '<html lang="it"><title>Lezione 2 — La prossima carta</title>'
    assert page_head("<title>A &amp; B</title>", "it", True) == "<title>A &amp; B</title>"  # no msgid: as it is
    assert "".join(asyncio.run(_gathered(["<p>no title</p>", "<p>at all</p>"], "it", True))) == (
        "<p>no title</p><p>at all</p>"
    )


def test_a_notebook_says_its_language_or_none(tmp_path):
    lesson, app, broken = tmp_path / "lesson.ipynb", tmp_path / "app.ipynb", tmp_path / "broken.ipynb"
    lesson.write_text('{"metadata": {"language": "it", "title": "Lezione"}, "cells": []}')
    app.write_text('{"metadata": {"title": "Dragon Stripes — play"}, "cells": []}')
    broken.write_text("{")
    assert notebook_language(lesson) == "it"
    assert notebook_language(app) is None and notebook_language(broken) is None
    assert notebook_language(tmp_path / "missing.ipynb") is None
