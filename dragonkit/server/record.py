"""The server's one connection to the class's record: the engine its handlers share, and their reads and writes run
in a thread (a database's answer never holds the event loop, which serves every other page meanwhile)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = ["RecordServer", "in_thread", "record_engine"]

T = TypeVar("T")


class RecordServer(Protocol):
    """What a handler reads of its server, :class:`.app.ClassroomVoila`, to reach the record (described here:
    :mod:`.app` imports the handlers' modules, which may not import it back)."""

    record: str | None
    record_engine: Engine | None


def record_engine(app: RecordServer) -> Engine:
    """The server's one engine for its record (made at the first need).

    Raises
    ------
    ValueError
        If the server keeps no record.
    """
    if app.record is None:
        raise ValueError("this server keeps no class record")
    if app.record_engine is None:
        from ..record.store import connect

        app.record_engine = connect(app.record)
    return app.record_engine


async def in_thread(function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` run in the event loop's default thread pool, awaited."""
    return await asyncio.get_running_loop().run_in_executor(None, function, *args)
