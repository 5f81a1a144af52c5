"""The first schema: guests, tables, commands, events, games, snapshots, server secrets.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _created() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                     nullable=False)


def upgrade() -> None:
    op.create_table(
        "guests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("nickname", sa.String(64), nullable=False),
        _created(),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("creator", sa.String(32), nullable=True),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _created(),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "commands",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("first_version", sa.Integer(), primary_key=True),
        sa.Column("last_version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("cmid", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
    )
    op.create_index("ix_commands_cmid", "commands", ["table_id", "seat", "cmid"], unique=True)
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("started_version", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("deck", sa.JSON(), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("cut", sa.Integer(), nullable=False),
        sa.Column("individual", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("ended_version", sa.Integer(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
    )
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    for table in ("server_secrets", "snapshots", "games", "events", "commands", "tables",
                  "guests"):
        op.drop_table(table)
