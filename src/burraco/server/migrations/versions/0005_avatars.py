"""Avatars: the picture an account picked (``None``: not picked, the account's default shows).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable: an existing account keeps showing the default drawn from its id
    # (accounts.avatars.default_for) until its player picks one; nothing to fill in
    op.add_column("accounts", sa.Column("avatar", sa.String(24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("avatar")
