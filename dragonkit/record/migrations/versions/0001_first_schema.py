"""The first schema: visits, decisions, attempts, games

Revision ID: 0001
Revises:
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempts",
        sa.Column("lesson", sa.String(length=40), nullable=False),
        sa.Column("exercise", sa.String(length=40), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("hints", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("visit_id", sa.String(length=32), nullable=False),
        sa.Column("class_name", sa.String(length=40), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id"),
    )
    with op.batch_alter_table("attempts", schema=None) as batch_op:
        batch_op.create_index("ix_attempts_class_at", ["class_name", "at"], unique=False)

    op.create_table(
        "decisions",
        sa.Column("app", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("edition", sa.String(length=40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("pot", sa.Integer(), nullable=False),
        sa.Column("cards_left", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("situation", sa.JSON(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("card", sa.String(length=16), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("gems", sa.JSON(), nullable=False),
        sa.Column("win", sa.JSON(), nullable=True),
        sa.Column("win_source", sa.String(length=16), nullable=True),
        sa.Column("best_gems", sa.JSON(), nullable=False),
        sa.Column("best_win", sa.JSON(), nullable=False),
        sa.Column("verdict", sa.String(length=16), nullable=False),
        sa.Column("gems_given_up", sa.Float(), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("visit_id", sa.String(length=32), nullable=False),
        sa.Column("class_name", sa.String(length=40), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id"),
    )
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.create_index("ix_decisions_class_at", ["class_name", "at"], unique=False)

    op.create_table(
        "games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("edition", sa.String(length=40), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("gems", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("ending", sa.String(length=16), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("visit_id", sa.String(length=32), nullable=False),
        sa.Column("class_name", sa.String(length=40), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_class_at", ["class_name", "at"], unique=False)

    op.create_table(
        "visits",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("class_name", sa.String(length=40), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("page", sa.String(length=40), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("visits", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_visits_class_name"), ["class_name"], unique=False)
        batch_op.create_index(batch_op.f("ix_visits_last_seen"), ["last_seen"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("visits", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_visits_last_seen"))
        batch_op.drop_index(batch_op.f("ix_visits_class_name"))

    op.drop_table("visits")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_class_at")

    op.drop_table("games")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index("ix_decisions_class_at")

    op.drop_table("decisions")
    with op.batch_alter_table("attempts", schema=None) as batch_op:
        batch_op.drop_index("ix_attempts_class_at")

    op.drop_table("attempts")
