"""Deal groups (duplicate play): groups, their tables, and hands whose reveal is held.

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_groups",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
    )
    op.create_table(
        "deal_group_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("group_id", sa.String(200), sa.ForeignKey("deal_groups.id"), nullable=False),
    )
    op.create_index("ix_deal_group_tables_group_id", "deal_group_tables", ["group_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("reveal_held", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("reveal_held")
    op.drop_index("ix_deal_group_tables_group_id", "deal_group_tables")
    op.drop_table("deal_group_tables")
    op.drop_table("deal_groups")
