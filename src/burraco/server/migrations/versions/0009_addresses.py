"""Address hashes of paired players, for fair play's screening.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "addresses_seen",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("context", sa.String(16), primary_key=True),
        sa.Column("address_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False))
    op.create_table(
        "match_addresses",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("address_hash", sa.String(64), nullable=False))
    op.create_index("ix_match_addresses_address_hash", "match_addresses", ["address_hash"])


def downgrade() -> None:
    op.drop_index("ix_match_addresses_address_hash", "match_addresses")
    op.drop_table("match_addresses")
    op.drop_table("addresses_seen")
