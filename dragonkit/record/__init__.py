"""The class's record: every decision, exercise attempt and game of a class, in a real database.

A page's kernel writes through :func:`~dragonkit.record.session.visit` (a queue and a thread: a click never waits for
the database, :mod:`~dragonkit.record.writer`); the tables are :mod:`~dragonkit.record.schema`'s, versioned with
Alembic (:func:`~dragonkit.record.store.upgrade`); the teacher's dashboard, the lessons' "our class" and
``dragonkit class export`` read them (:mod:`~dragonkit.record.reading`); ``dragonkit class erase`` erases a class, a
day or everything (:mod:`~dragonkit.record.erase`). SQLite by default, PostgreSQL where a school runs one.

Importing this package costs a kernel nothing of SQLAlchemy: :mod:`~dragonkit.record.store`,
:mod:`~dragonkit.record.reading` and :mod:`~dragonkit.record.erase` load it, and a kernel's writer loads it in its
own thread.
"""

from __future__ import annotations

from .rows import AttemptRow, DecisionRow, GameRow
from .session import Visit, visit
from .where import class_name, record_url

__all__ = ["AttemptRow", "DecisionRow", "GameRow", "Visit", "class_name", "record_url", "visit"]
