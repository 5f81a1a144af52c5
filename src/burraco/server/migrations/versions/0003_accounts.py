"""Players: accounts, sessions, finished matches, ratings, statistics and penalties.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(20), nullable=False),
        sa.Column("username_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "matches",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("form", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
    )
    op.create_index("ix_matches_finished_at", "matches", ["finished_at"])
    op.create_table(
        "match_players",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("form", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
    )
    op.create_index("ix_match_players_player", "match_players", ["player_id", "finished_at"])
    op.create_index("ix_match_players_period", "match_players",
                    ["rated", "form", "finished_at", "player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("form", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["form", "mu", "player_id"])
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("form", sa.String(8), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_history_at", "rating_history", ["player_id", "form", "at"])
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("form", sa.String(8), primary_key=True),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in (
            "matches", "won", "hands", "hands_won", "mp", "closings", "pozzetti",
            "abandoned")),
        sa.Column("burraco", sa.JSON(), nullable=False),
    )
    op.create_table(
        "penalties",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
    )
    op.create_table(
        "board_periods",
        sa.Column("period", sa.String(16), primary_key=True),
        sa.Column("form", sa.String(8), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
    )
    op.create_index("ix_board_periods_board", "board_periods",
                    ["period", "form", "mu", "player_id"])
    op.create_table(
        "daily_entries",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("form", sa.String(8), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
    )


def downgrade() -> None:
    for table in ("daily_entries", "board_periods", "penalties", "player_stats",
                  "rating_history", "ratings", "match_players", "matches", "sessions",
                  "accounts"):
        op.drop_table(table)
