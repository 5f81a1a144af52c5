"""The evening's register and the federation's cards.

* ``tournament_member_cards``       a club member's federation card: number and type
* ``tournament_register``           per player of each pair: the member he is, his own card,
                                    what he paid (cents) and whether he stays for dinner
* ``tournament_register_settings``  per tournament: the entry fee and the dinner's price per
                                    person (cents), the club, the date and the event's level
                                    as the federation's export gives them

Revision ID: t0006
Revises: t0005
Create Date: 2027-01-15
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0006"
down_revision = "t0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_member_cards",
        sa.Column("number", sa.String(20), primary_key=True),
        sa.Column("card_number", sa.String(20), nullable=False),
        sa.Column("card_type", sa.String(20), nullable=False),
    )
    op.create_table(
        "tournament_register",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("pair", sa.Integer(), primary_key=True),
        sa.Column("player", sa.Integer(), primary_key=True),
        sa.Column("member", sa.String(20), nullable=True),
        sa.Column("card_number", sa.String(20), nullable=True),
        sa.Column("card_type", sa.String(20), nullable=True),
        sa.Column("paid", sa.Integer(), nullable=True),
        sa.Column("dinner", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "tournament_register_settings",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("fee", sa.Integer(), nullable=False),
        sa.Column("dinner_price", sa.Integer(), nullable=False),
        sa.Column("club", sa.String(120), nullable=False),
        sa.Column("event_date", sa.Date(), nullable=True),
        sa.Column("level", sa.String(20), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_register_settings")
    op.drop_table("tournament_register")
    op.drop_table("tournament_member_cards")
