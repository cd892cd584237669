"""A page's visit to the class's record: what one student's page writes, from their kernel.

``dragonkit serve`` gives every kernel the record's URL and the class's name (:mod:`dragonkit.record.where`); the
student's nickname comes with the page's address (``?nickname=``: the server adds the one its join page
remembers), or from ``$DRAGONKIT_NICKNAME`` (a notebook in JupyterLab). :func:`visit` gives a page its
:class:`Visit`, whose methods queue rows on the kernel's one :class:`~dragonkit.record.writer.Writer` and return at
once; in a kernel without a record, :func:`visit` gives a visit that writes nothing, so the apps and the lessons
call it alike everywhere.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import threading
import uuid
from collections.abc import Mapping
from dataclasses import asdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..address import query_values
from . import nicknames
from .rows import AttemptRow, DecisionRow, GameRow
from .where import class_name, record_url

if TYPE_CHECKING:
    from .writer import Writer

__all__ = ["HEARTBEAT", "NICKNAME_VARIABLE", "Visit", "flush", "visit"]

#: Seconds between two signs of life of an open page (its visit's ``last_seen``): the dashboard counts a student as
#: playing now when their page was seen within three of them.
HEARTBEAT = 20.0
NICKNAME_VARIABLE = "DRAGONKIT_NICKNAME"

_writer: Writer | None = None
_writer_lock = threading.Lock()


def nickname() -> str:
    """The nickname of this page's student: the address's ``?nickname=``, else ``$DRAGONKIT_NICKNAME``, else ``""``
    (read at each row: a preheated kernel learns its visitor's address late, :mod:`dragonkit.ui.visitor`). An
    address whose nickname is refused (:mod:`.nicknames`: two of them, or a character not allowed; the server
    answers it with its join page) gives none: ``""``, never another student's."""
    try:
        given = nicknames.query_nickname(query_values("nickname"))
        return given if given is not None else nicknames.nickname(os.environ.get(NICKNAME_VARIABLE, ""))
    except nicknames.NicknameError:
        return ""


def _visitor_to_come(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this is a preheated Voilà kernel whose visitor has not come yet (their request, which brings the
    address's query, is still to arrive: :mod:`dragonkit.ui.visitor`)."""
    return environ.get("VOILA_PREHEAT") == "True" and "QUERY_STRING" not in environ


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _kernel_writer(url: str) -> Writer:
    """The kernel's one writer (made with the first page's visit: its thread loads SQLAlchemy and connects at once,
    before the page's first click — in a preheated kernel, before its visitor comes; written out, for a few seconds,
    when the kernel ends)."""
    global _writer
    from .writer import Writer  # SQLAlchemy: only in a kernel that records

    with _writer_lock:
        if _writer is None or _writer.url != url:
            _writer = Writer(url)
            atexit.register(_writer.close)
        return _writer


def flush(timeout: float = 10.0) -> bool:
    """Wait until the rows this kernel queued are written (at most ``timeout`` seconds); whether they all were
    (True without a record). A test, or a lesson that reads the record back at once, calls it."""
    with _writer_lock:
        writer = _writer
    return True if writer is None else writer.flush(timeout)


class Visit:
    """A page's visit: the rows its student writes, queued at once (:class:`~dragonkit.record.writer.Writer`).

    Parameters
    ----------
    page : str
        What the page is: ``"play"``, ``"trainer"``, a lesson's name (``"01-play-and-observe"``).
    language : str
        The page's language.
    writer : Writer or None
        Where its rows go; None: a visit that writes nothing (no record).

    Attributes
    ----------
    id : str
        The visit's id (32 hex digits).
    class_name : str
    recording : bool
        Whether the visit writes anything.
    """

    def __init__(self, page: str, language: str = "en", writer: Writer | None = None, klass: str = "class") -> None:
        self.id = uuid.uuid4().hex
        self.page = page[:40]
        self.language = language
        self.class_name = klass
        self._writer = writer
        self._started = _now()
        self._heartbeat: asyncio.TimerHandle | None = None

    @property
    def recording(self) -> bool:
        return self._writer is not None

    def _put(self, table: str, fields: dict[str, Any]) -> None:
        if self._writer is None or (table == "visits" and _visitor_to_come()):
            return  # no record; or a preheated page whose student has not come yet: nobody to show as playing
        now = _now()
        who = nickname()
        self._writer.put(
            "visits",
            {
                "id": self.id,
                "class_name": self.class_name,
                "nickname": who,
                "page": self.page,
                "language": self.language,
                "started": self._started,
                "last_seen": now,
            },
        )
        if table != "visits":
            row = {"event_id": uuid.uuid4().hex, "visit_id": self.id, "class_name": self.class_name, "nickname": who}
            self._writer.put(table, {**row, "at": now, **fields})

    def seen(self) -> None:
        """The page is open: its ``last_seen`` is now."""
        self._put("visits", {})

    def decision(self, row: DecisionRow) -> None:
        """Queue a decision (:class:`~dragonkit.record.rows.DecisionRow`)."""
        self._put("decisions", asdict(row))

    def attempt(self, row: AttemptRow) -> None:
        """Queue an exercise attempt (:class:`~dragonkit.record.rows.AttemptRow`)."""
        self._put("attempts", {**asdict(row), "language": row.language or self.language})

    def game(self, row: GameRow, event_id: str | None = None) -> None:
        """Queue a game that ended (:class:`~dragonkit.record.rows.GameRow`); with ``event_id`` (32 hex digits), the
        row is stored once however many pages send it (a room's game)."""
        self._put("games", asdict(row) | ({"event_id": event_id} if event_id else {}))

    def keep_alive(self) -> None:
        """Mark the page seen now and every :data:`HEARTBEAT` seconds while the kernel's event loop runs (nothing
        without a record or outside an event loop)."""
        if self._writer is None:
            return
        self.seen()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._heartbeat = loop.call_later(HEARTBEAT, self.keep_alive)

    def end(self) -> None:
        """Stop the heartbeat (the page is closed)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None


def visit(page: str, language: str = "en") -> Visit:
    """The visit of a page opening now: writing to the record of ``$DRAGONKIT_RECORD`` for the class of
    ``$DRAGONKIT_CLASS``, or writing nothing where there is no record.

    Parameters
    ----------
    page : str
        ``"play"``, ``"trainer"``, ``"dashboard"`` or a lesson's name.
    language : str

    Returns
    -------
    Visit

    Raises
    ------
    ValueError
        If ``$DRAGONKIT_RECORD`` is not a database URL.
    """
    url = record_url()
    writer = _kernel_writer(url) if url is not None else None
    return Visit(page, language, writer, class_name())
