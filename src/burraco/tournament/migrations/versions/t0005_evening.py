"""The evening's changes, the club's members and the players' accounts of a pair.

* ``tournaments.evening``      withdrawals, penalties, the NS/EW rankings option and the
                               prize list (JSON, written with the tournament's version)
* ``tournament_members``       the club's members: membership number, name, category and
                               (optionally) the player account
* ``tournament_pair_accounts`` the player accounts a registered pair names, so the
                               results show on the players' profiles

Revision ID: t0005
Revises: t0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0005"
down_revision = "t0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("evening", sa.JSON(), nullable=True))
    op.create_table(
        "tournament_members",
        sa.Column("number", sa.String(20), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("category", sa.String(40), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True, index=True),
    )
    op.create_table(
        "tournament_pair_accounts",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("pair", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(20), nullable=False),
    )
    op.create_index("ix_tournament_pair_accounts_player", "tournament_pair_accounts",
                    ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_pair_accounts_player", "tournament_pair_accounts")
    op.drop_table("tournament_pair_accounts")
    op.drop_table("tournament_members")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("evening")
