"""Team matches: the (home, away) MP of each of a match's two tables.

Revision ID: t0002
Revises: t0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0002"
down_revision = "t0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_results") as batch:
        batch.add_column(sa.Column("rooms", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_results") as batch:
        batch.drop_column("rooms")
