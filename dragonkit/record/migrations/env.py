"""Alembic's environment for the record: migrations run on the connection :func:`dragonkit.record.store.upgrade`
gives (``config.attributes["connection"]``), never from an ``alembic.ini``."""

from __future__ import annotations

from alembic import context

from dragonkit.record.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
