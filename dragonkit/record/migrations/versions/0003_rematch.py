"""Rooms: the code of the room where a room's table plays again

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("next_code", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("next_code")
