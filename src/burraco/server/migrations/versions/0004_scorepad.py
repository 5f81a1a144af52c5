"""The score pad saved to the account: one row per sheet of a logged-in player.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scorepad_sheets",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("sheet_id", sa.String(32), primary_key=True),
        sa.Column("updated", sa.BigInteger(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("scorepad_sheets")
