"""Web tables by room: a team match is played on two game-server tables.

``tournament_online`` (one web table per tournament table) becomes
``tournament_web_tables`` keyed by (tournament, round, table, room); rows move
over with room 0.

Revision ID: t0003
Revises: t0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0003"
down_revision = "t0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_web_tables",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("room", sa.Integer(), primary_key=True),
        sa.Column("server_table", sa.String(32), nullable=False, index=True),
        sa.Column("seats", sa.JSON(), nullable=False),
    )
    op.execute(
        'INSERT INTO tournament_web_tables (tournament_id, round, "table", room, server_table, '
        'seats) SELECT tournament_id, round, "table", 0, server_table, seats '
        "FROM tournament_online")
    op.drop_table("tournament_online")


def downgrade() -> None:
    op.create_table(
        "tournament_online",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("server_table", sa.String(32), nullable=False, index=True),
        sa.Column("seats", sa.JSON(), nullable=False),
    )
    op.execute(
        'INSERT INTO tournament_online (tournament_id, round, "table", server_table, seats) '
        'SELECT tournament_id, round, "table", server_table, seats FROM tournament_web_tables '
        "WHERE room IN (0, 1)")
    op.drop_table("tournament_web_tables")
