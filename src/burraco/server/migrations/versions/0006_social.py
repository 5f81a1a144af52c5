"""Friends and blocks: who follows whom, who blocked whom.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(32), primary_key=True),
        sa.Column("followed", sa.String(32), primary_key=True),
        sa.Column("since", sa.Float(), nullable=False))
    op.create_index("ix_follows_followed", "follows", ["followed"])
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(32), primary_key=True),
        sa.Column("blocked", sa.String(32), primary_key=True),
        sa.Column("since", sa.Float(), nullable=False))
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])


def downgrade() -> None:
    op.drop_index("ix_blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followed", "follows")
    op.drop_table("follows")
