"""The class's record: every decision, exercise attempt and game of a class, in a real database.

A page's kernel writes through :func:`~dragonkit.record.session.visit` (a queue and a thread: a click never waits for
the database, :mod:`~dragonkit.record.writer`); the tables are :mod:`~dragonkit.record.schema`'s, versioned with
Alembic (:func:`~dragonkit.record.store.upgrade`); the teacher's dashboard, the lessons' "our class" and
``dragonkit class export`` read them (:mod:`~dragonkit.record.reading`); ``dragonkit class erase`` erases a class, a
day or everything (:mod:`~dragonkit.record.erase`). SQLite by default, PostgreSQL where a school runs one.
"""

from __future__ import annotations

from .rows import AttemptRow, DecisionRow, GameRow
from .session import Visit, visit
from .store import check_integrity, connect, default_url, record_url, upgrade

__all__ = [
    "AttemptRow",
    "DecisionRow",
    "GameRow",
    "Visit",
    "check_integrity",
    "connect",
    "default_url",
    "record_url",
    "upgrade",
    "visit",
]
