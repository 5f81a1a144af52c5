"""Results from the tables, the round clock and the log of changes.

* ``tournament_table_keys``     each tournament's secret, which signs its table links
* ``tournament_table_entries``  what each pair entered on its phone (NS or EW side of a table)
* ``tournament_clocks``         each round's clock: its length and when it ends
* ``tournament_log``            every entry, agreement, disagreement and correction: who, when

Revision ID: t0004
Revises: t0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0004"
down_revision = "t0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_table_keys",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
    )
    op.create_table(
        "tournament_table_entries",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("side", sa.String(2), primary_key=True),
        sa.Column("ns_mp", sa.Integer(), nullable=False),
        sa.Column("ew_mp", sa.Integer(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )
    op.create_table(
        "tournament_clocks",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  nullable=False, index=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("who", sa.String(40), nullable=False),
        sa.Column("what", sa.String(400), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_log")
    op.drop_table("tournament_clocks")
    op.drop_table("tournament_table_entries")
    op.drop_table("tournament_table_keys")
