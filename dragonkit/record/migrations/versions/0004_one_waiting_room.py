"""Rooms: one waiting room per host and class at most (a page clicked "Open a room" 55 times and got 55)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

#: The index, unique over the rooms still waiting only (a partial index, in SQLite and PostgreSQL alike).
NAME = "ix_rooms_one_waiting_per_host"
WAITING = sa.text("status = 'waiting'")


def upgrade() -> None:
    # a host's older waiting rooms are closed first: the newest one stays, for its players to start it
    op.execute(
        "UPDATE rooms SET status = 'closed', version = version + 1 WHERE status = 'waiting' AND id NOT IN "
        "(SELECT max(id) FROM rooms WHERE status = 'waiting' GROUP BY class_name, host)"
    )
    op.create_index(NAME, "rooms", ["class_name", "host"], unique=True, sqlite_where=WAITING, postgresql_where=WAITING)


def downgrade() -> None:
    op.drop_index(NAME, table_name="rooms")
