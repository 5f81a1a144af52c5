"""Online clubs: the clubs, their members and roles, invitations and requests.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("club_id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("description", sa.String(500), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("founder", sa.String(32), nullable=False),
        sa.Column("created", sa.Float(), nullable=False))
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("since", sa.Float(), nullable=False))
    op.create_index("ix_club_members_player_id", "club_members", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_club_members_player_id", "club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
