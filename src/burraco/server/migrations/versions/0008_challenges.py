"""Challenges: one player's invitation to another to play a table of chosen rules.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("challenge_id", sa.String(32), primary_key=True),
        sa.Column("challenger", sa.String(32), nullable=False),
        sa.Column("challenged", sa.String(32), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True))
    op.create_index("ix_challenges_challenger", "challenges", ["challenger"])
    op.create_index("ix_challenges_challenged", "challenges", ["challenged"])


def downgrade() -> None:
    op.drop_index("ix_challenges_challenged", "challenges")
    op.drop_index("ix_challenges_challenger", "challenges")
    op.drop_table("challenges")
