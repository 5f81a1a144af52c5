"""The online club of the club evenings' members.

* ``tournament_online_club``  one row: the online club (``accounts.clubs``) the director
                              names for the members list

Revision ID: t0007
Revises: t0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0007"
down_revision = "t0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_online_club",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("club_id", sa.String(40), nullable=False))


def downgrade() -> None:
    op.drop_table("tournament_online_club")
