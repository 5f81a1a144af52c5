"""Trust and safety: recovery codes, roles, reports, sanctions, held usernames.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "recovery_codes",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("code_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True))
    op.create_table(
        "roles",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted_by", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("at", sa.Float(), nullable=False))
    op.create_table(
        "reports",
        sa.Column("report_id", sa.String(32), primary_key=True),
        sa.Column("reporter", sa.String(32), nullable=False),
        sa.Column("target", sa.String(32), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("context", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("message", sa.String(40), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("handled_by", sa.String(32), nullable=True),
        sa.Column("handled_at", sa.Float(), nullable=True),
        sa.Column("outcome", sa.String(500), nullable=True))
    op.create_index("ix_reports_reporter", "reports", ["reporter"])
    op.create_index("ix_reports_target", "reports", ["target"])
    op.create_index("ix_reports_queue", "reports", ["status", "created"])
    op.create_table(
        "sanctions",
        sa.Column("sanction_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=True),
        sa.Column("lifted_at", sa.Float(), nullable=True),
        sa.Column("report_id", sa.String(32), nullable=True),
        sa.Column("detail", sa.String(200), nullable=True))
    op.create_index("ix_sanctions_player_id", "sanctions", ["player_id"])
    op.create_table(
        "name_holds",
        sa.Column("username_key", sa.String(20), primary_key=True),
        sa.Column("until", sa.Float(), nullable=False))


def downgrade() -> None:
    op.drop_table("name_holds")
    op.drop_index("ix_sanctions_player_id", "sanctions")
    op.drop_table("sanctions")
    op.drop_index("ix_reports_queue", "reports")
    op.drop_index("ix_reports_target", "reports")
    op.drop_index("ix_reports_reporter", "reports")
    op.drop_table("reports")
    op.drop_table("roles")
    op.drop_table("recovery_codes")
