"""Nicknames held by the browser that took them (a second laptop typing a classmate's nickname took their seat)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: The index, unique over the holds not released only (a partial index, in SQLite and PostgreSQL alike), by look-alike
#: (a nickname's NFKC form with its case folded: "ada", "ADA" and a fullwidth "Ａda" are one nickname).
NAME = "ix_nickname_holds_held"
HELD = sa.text("released IS NULL")


def upgrade() -> None:
    op.create_table(
        "nickname_holds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("class_name", sa.String(length=40), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("look_alike", sa.Text(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("taken", sa.DateTime(), nullable=False),
        sa.Column("released", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )
    op.create_index(
        NAME, "nickname_holds", ["class_name", "look_alike"], unique=True, sqlite_where=HELD, postgresql_where=HELD
    )


def downgrade() -> None:
    op.drop_index(NAME, table_name="nickname_holds")
    op.drop_table("nickname_holds")
