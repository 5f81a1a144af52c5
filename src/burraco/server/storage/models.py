"""The tables of the database (the Alembic migrations create exactly these).

* ``guests``    people playing without an account: an id and a nickname
* ``tables``    a table's settings, status and current version
* ``commands``  every command that changed a table, in order: the replay log
                 and the idempotency record of client message ids
* ``events``    every event of a table, one row per version, complete
                 (secrets included: projection happens when sending)
* ``games``     one row per hand: the commitment, the secret deck and salt,
                 and once over the result and the hand's record
* ``snapshots`` the match at each hand end, so recovery replays one hand only
* ``server_secrets`` the key that signs tokens, so tokens survive restarts
* ``deal_groups`` duplicate play: the secret every table of a group deals from
                 (never sent anywhere), the settings its tables share, and whether
                 a deal of it has been revealed (then no table may join)
* ``deal_group_tables`` which tables belong to which group (set only by
                 server-side code, never by a client)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from burraco.infra.schema import Base


class GuestRow(Base):
    __tablename__ = "guests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    nickname: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    creator: Mapped[str | None] = mapped_column(String(32))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    public: Mapped[bool]
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class CommandRow(Base):
    __tablename__ = "commands"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    first_version: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    """-1 for commands of the table itself (opening it)."""
    cmid: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(16))
    """open | claim | arrive | act | undo | reveal"""
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(16))
    """client | bot | standin | clock | server"""

    __table_args__ = (Index("ix_commands_cmid", "table_id", "seat", "cmid", unique=True),)


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)


class GameRow(Base):
    __tablename__ = "games"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealer: Mapped[int] = mapped_column(Integer)
    started_version: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str] = mapped_column(String(64))
    deck: Mapped[list[Any]] = mapped_column(JSON)
    salt: Mapped[str] = mapped_column(String(64))
    cut: Mapped[int] = mapped_column(Integer)
    individual: Mapped[bool] = mapped_column(default=False)
    """3 and 5 players: dealt with everyone alone (one pozzetto each)."""
    ended_version: Mapped[int | None] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    reveal_held: Mapped[bool] = mapped_column(default=False)
    """A deal group's hand that is over here but whose reveal (and record) is still held."""


class SnapshotRow(Base):
    __tablename__ = "snapshots"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_no: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class SecretRow(Base):
    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class DealGroupRow(Base):
    __tablename__ = "deal_groups"

    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    secret: Mapped[str] = mapped_column(String(64))
    """32 bytes as hex: every hand's order derives from it.  Never leaves the server."""
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What every table of the group must share to be dealt alike (players, rules, options)."""
    closed: Mapped[bool] = mapped_column(default=False)
    """A deal has been revealed: a new table would play cards already shown."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class DealGroupTableRow(Base):
    __tablename__ = "deal_group_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("deal_groups.id"), index=True)
