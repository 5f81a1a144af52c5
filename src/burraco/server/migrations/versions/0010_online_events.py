"""Open online tournaments: each event's definition and state, and each entrant's place.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "online_events",
        sa.Column("event_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("starts", sa.Float(), nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("club", sa.String(40), nullable=True),
        sa.Column("created_by", sa.String(32), nullable=True),
        sa.Column("series", sa.String(64), nullable=True, unique=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("tables", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False))
    op.create_index("ix_online_events_starts", "online_events", ["starts"])
    op.create_index("ix_online_events_phase", "online_events", ["phase"])
    op.create_index("ix_online_events_club", "online_events", ["club"])
    op.create_table(
        "online_event_results",
        sa.Column("event_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=False))
    op.create_index("ix_online_event_results_player_id", "online_event_results", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_online_event_results_player_id", "online_event_results")
    op.drop_table("online_event_results")
    op.drop_index("ix_online_events_club", "online_events")
    op.drop_index("ix_online_events_phase", "online_events")
    op.drop_index("ix_online_events_starts", "online_events")
    op.drop_table("online_events")
