"""Writing the record without ever slowing a click: a queue, a thread, and what failed written again later.

A kernel's :class:`Writer` takes rows with :meth:`Writer.put`, which only appends to a queue and returns; a thread of
its own writes them in batches, one transaction a batch. When the database is slow or gone (a PostgreSQL server
restarted, a locked SQLite file, a network down) the batch stays at the head of the queue and is tried again after a
pause that doubles up to :data:`MOST_PAUSE` seconds: the page loses nothing but a line in the server's log (one when
the writes fail, one when they succeed again). Each row carries its ``event_id``, and the insert skips a row already
there, so a batch whose commit was cut after the database kept it is not written twice.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert

from .schema import TABLES
from .store import connect, upgrade

__all__ = ["MOST_PAUSE", "MOST_ROWS", "Writer"]

log = logging.getLogger("dragonkit.record")

#: The longest pause between two tries of a failing write (seconds); the first is :data:`FIRST_PAUSE`.
FIRST_PAUSE = 0.5
MOST_PAUSE = 15.0
#: The most rows one transaction writes.
BATCH = 200
#: The most rows kept waiting (the oldest are dropped beyond: about a day of one student's clicks).
MOST_ROWS = 100_000


def _insert(engine: Engine, table: Table) -> Callable[[list[dict[str, Any]]], Insert]:
    """The dialect's insert that skips rows already written (by their ``event_id``, or a visit's ``id``, whose
    ``last_seen`` it moves on)."""
    if engine.dialect.name not in ("postgresql", "sqlite"):
        raise ValueError(f"the record supports SQLite and PostgreSQL, not {engine.dialect.name}")
    postgres = engine.dialect.name == "postgresql"

    def statement(rows: list[dict[str, Any]]) -> Insert:
        insert = (postgresql.insert(table) if postgres else sqlite.insert(table)).values(rows)
        if table.name == "visits":
            return insert.on_conflict_do_update(
                index_elements=["id"],
                set_={"last_seen": insert.excluded.last_seen, "nickname": insert.excluded.nickname},
            )
        return insert.on_conflict_do_nothing(index_elements=["event_id"])

    return statement


class Writer:
    """Rows for the record, written by a thread of their own.

    Parameters
    ----------
    url : str
        The record's SQLAlchemy URL (:func:`dragonkit.record.store.connect`).

    Attributes
    ----------
    written : int
        Rows written so far.
    failures : int
        Batches that failed (and were tried again).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._queue: deque[tuple[str, dict[str, Any]]] = deque(maxlen=MOST_ROWS)
        self._wake = threading.Condition()
        self._engine: Engine | None = None
        self._closing = False
        self._busy = False
        self.written = 0
        self.failures = 0
        self._thread = threading.Thread(target=self._run, name="dragonkit-record", daemon=True)
        self._thread.start()

    @property
    def pending(self) -> int:
        """Rows not written yet (those of a batch being written included)."""
        return len(self._queue)

    def put(self, table: str, row: dict[str, Any]) -> None:
        """Queue ``row`` for ``table`` (``"visits"``, ``"decisions"``, ``"attempts"``, ``"games"``); returns at once.

        Raises
        ------
        ValueError
            If ``table`` is not one of the record's.
        """
        if table not in TABLES:
            raise ValueError(f"the record has no table {table!r}; it has {', '.join(TABLES)}")
        with self._wake:
            self._queue.append((table, row))
            self._wake.notify()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every row queued so far is written, or ``timeout`` seconds; whether they all were."""
        end = time.monotonic() + timeout
        while self._queue or self._busy:
            if time.monotonic() >= end:
                return False
            time.sleep(0.01)
        return True

    def close(self, timeout: float = 3.0) -> bool:
        """Write what is queued (for at most ``timeout`` seconds), then stop the thread; whether all was written."""
        done = self.flush(timeout)
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(1.0)
        if self._engine is not None:
            self._engine.dispose()
        return done

    def _run(self) -> None:
        with contextlib.suppress(Exception):  # connect now, not at the first click (a failure is retried with a row)
            self._connected()
        pause = FIRST_PAUSE
        failing = False
        while True:
            with self._wake:
                while not self._queue and not self._closing:
                    self._wake.wait()
                if self._closing and not self._queue:
                    return
                batch = [self._queue[i] for i in range(min(BATCH, len(self._queue)))]
                self._busy = True
            try:
                self._write(batch)
            except Exception as error:  # any failure of the database: keep the rows, try again later
                self.failures += 1
                with self._wake:
                    self._busy = False
                if not failing:
                    log.warning("dragonkit: the class's record cannot be written now (%s); trying again", error)
                    failing = True
                if self._closing:
                    return
                time.sleep(pause)
                pause = min(pause * 2, MOST_PAUSE)
                continue
            with self._wake:
                for item in batch:  # the queue's head, unless rows beyond MOST_ROWS pushed some out meanwhile
                    if self._queue and self._queue[0] is item:
                        self._queue.popleft()
                self._busy = False
            self.written += len(batch)
            if failing:
                log.warning("dragonkit: the class's record is written again (%d rows waiting)", len(self._queue))
                failing = False
            pause = FIRST_PAUSE

    def _connected(self) -> Engine:
        """The engine, made (and the schema brought up to date) the first time."""
        if self._engine is None:
            engine = connect(self.url)
            upgrade(engine)
            self._engine = engine
        return self._engine

    def _write(self, batch: list[tuple[str, dict[str, Any]]]) -> None:
        engine = self._connected()
        with engine.begin() as connection:
            for name in dict.fromkeys(table for table, _ in batch):
                rows = [row for table, row in batch if table == name]
                if name == "visits":  # a visit's rows of one batch are one row: its latest
                    rows = list({row["id"]: row for row in rows}.values())
                table = TABLES[name].__table__
                assert isinstance(table, Table)
                connection.execute(_insert(engine, table)(rows))
