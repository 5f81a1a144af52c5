"""Tournaments: settings, pairs, rounds, results, online tables.

Revision ID: t0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0001"
down_revision = None
branch_labels = None
depends_on = None


def _now(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), server_default=sa.func.now(),
                     nullable=False)


def _owner() -> sa.Column[object]:
    return sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _now("created_at"),
        _now("updated_at"),
    )
    op.create_table(
        "tournament_pairs",
        _owner(),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        _owner(),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("movement", sa.String(20), nullable=False),
        sa.Column("tables", sa.JSON(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        _now("started_at"),
    )
    op.create_table(
        "tournament_results",
        _owner(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("ns", sa.Integer(), nullable=False),
        sa.Column("ew", sa.Integer(), nullable=False),
        sa.Column("mp_ns", sa.Integer(), nullable=False),
        sa.Column("mp_ew", sa.Integer(), nullable=False),
        sa.Column("vp_ns", sa.Integer(), nullable=False),
        sa.Column("vp_ew", sa.Integer(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("corrections", sa.Integer(), nullable=False),
        _now("entered_at"),
    )
    op.create_table(
        "tournament_online",
        _owner(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("server_table", sa.String(32), nullable=False, index=True),
        sa.Column("seats", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    for table in ("tournament_online", "tournament_results", "tournament_rounds",
                  "tournament_pairs", "tournaments"):
        op.drop_table(table)
