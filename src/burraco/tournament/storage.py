"""The tournament tables and their migrations.

The tables live in the game server's database (``burraco serve`` and the
director's command line share one file by default) but have their own Alembic
history, folder :mod:`burraco.tournament.migrations` and version table
``alembic_version_tournament``, so they never interfere with the server's.

* ``tournaments``          settings (JSON), a version bumped by every change
* ``tournament_pairs``     the registered entrants (pairs, players or teams), numbered in
                           registration order
* ``tournament_rounds``    each round's movement, tables (NS, EW, and the partners in an
                           individual event) and byes
* ``tournament_results``   each table's MP, VP, optional smazzate (or, for a team match,
                           its two tables' scores), who entered it, how many times it was
                           corrected
* ``tournament_web_tables`` the game-server table(s) playing a tournament table online
                           (two for a team match, one per room)
* ``tournament_table_keys``, ``tournament_table_entries``, ``tournament_clocks``,
  ``tournament_log``         the results the pairs enter on their phones, the round clock
                           and the log of every change (:mod:`.table_desk`)
* ``tournaments.evening``  withdrawals, penalties, NS/EW rankings, prizes, categories (JSON)
* ``tournament_members``   the club's members: number, name, category, account
* ``tournament_pair_accounts`` the player accounts a pair names (for the profiles)
* ``tournament_member_cards``, ``tournament_register``, ``tournament_register_settings``
                           members' federation cards; the evening's register (each player's
                           card, member link, fee paid, dinner); its fee, dinner price,
                           club, date and level (:mod:`.register`, :mod:`.federation`)
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any, ClassVar

from alembic.config import Config
from sqlalchemy import JSON, Boolean, Date, DateTime, Engine, ForeignKey, Integer, String, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from burraco.infra import db

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version_tournament"


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    evening: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class PairRow(Base):
    __tablename__ = "tournament_pairs"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    players: Mapped[list[Any]] = mapped_column(JSON)


class RoundRow(Base):
    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    movement: Mapped[str] = mapped_column(String(20))
    tables: Mapped[list[Any]] = mapped_column(JSON)
    """[[table, ns, ew], ...]; individual events: [[table, ns, ew, ns_partner, ew_partner], ...]"""
    byes: Mapped[list[Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class ResultRow(Base):
    __tablename__ = "tournament_results"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    ns: Mapped[int] = mapped_column(Integer)
    ew: Mapped[int] = mapped_column(Integer)
    mp_ns: Mapped[int] = mapped_column(Integer)
    mp_ew: Mapped[int] = mapped_column(Integer)
    vp_ns: Mapped[int] = mapped_column(Integer)
    vp_ew: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[Any]] = mapped_column(JSON)
    rooms: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """Team matches: [[home, away] at table 1, [home, away] at table 2]."""
    source: Mapped[str] = mapped_column(String(16))
    corrections: Mapped[int] = mapped_column(Integer, default=0)
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class OnlineRow(Base):
    __tablename__ = "tournament_web_tables"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0: the only web table of a tournament table; 1 and 2: a team match's two tables."""
    server_table: Mapped[str] = mapped_column(String(32), index=True)
    """The game server's table id."""
    seats: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Seat tokens and invite links by seat number, as the server returned them."""


class TableKeyRow(Base):
    __tablename__ = "tournament_table_keys"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    secret: Mapped[str] = mapped_column(String(64))


class TableEntryRow(Base):
    __tablename__ = "tournament_table_entries"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    side: Mapped[str] = mapped_column(String(2), primary_key=True)
    """``ns`` or ``ew``: which pair entered it."""
    ns_mp: Mapped[int] = mapped_column(Integer)
    ew_mp: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[Any]] = mapped_column(JSON)
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class ClockRow(Base):
    __tablename__ = "tournament_clocks"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    minutes: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LogRow(Base):
    __tablename__ = "tournament_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    who: Mapped[str] = mapped_column(String(40))
    what: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MemberRow(Base):
    __tablename__ = "tournament_members"

    number: Mapped[str] = mapped_column(String(20), primary_key=True)
    """The club's membership number (as printed on the card)."""
    name: Mapped[str] = mapped_column(String(80))
    category: Mapped[str] = mapped_column(String(40))
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)


class OnlineClubRow(Base):
    """The online club the members belong to (one row, ``id`` 1; :mod:`.online_club`)."""

    __tablename__ = "tournament_online_club"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[str] = mapped_column(String(40))


class PairAccountRow(Base):
    __tablename__ = "tournament_pair_accounts"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    pair: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(20))


def alembic_config() -> Config:
    return db.alembic_config(MIGRATIONS)


def migrate(engine: Engine) -> None:
    """Create or upgrade the tournament tables (idempotent)."""
    db.migrate(engine, MIGRATIONS)


class MemberCardRow(Base):
    __tablename__ = "tournament_member_cards"

    number: Mapped[str] = mapped_column(String(20), primary_key=True)
    """The club member's number (``tournament_members.number``; no foreign key: a member is
    saved by deleting and inserting his row)."""
    card_number: Mapped[str] = mapped_column(String(20))
    """The federation card's number (letters and digits)."""
    card_type: Mapped[str] = mapped_column(String(20), default="")
    """``agonista``, ``ordinario``, ``promozionale``, … as the director wrote it ("": none)."""


class RegisterRow(Base):
    __tablename__ = "tournament_register"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    pair: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1, 2, …: the player's place in ``tournament_pairs.players`` (1 for an individual)."""
    member: Mapped[str | None] = mapped_column(String(20), nullable=True)
    """The club member this player is (his card is the member's), or None."""
    card_number: Mapped[str | None] = mapped_column(String(20), nullable=True)
    card_type: Mapped[str | None] = mapped_column(String(20), nullable=True)
    paid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """What the player paid, in cents; None: not paid."""
    dinner: Mapped[bool] = mapped_column(Boolean, default=False)


class RegisterSettingsRow(Base):
    __tablename__ = "tournament_register_settings"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    fee: Mapped[int] = mapped_column(Integer, default=0)
    """The entry fee per person, in cents."""
    dinner_price: Mapped[int] = mapped_column(Integer, default=0)
    """The dinner's price per person, in cents (0: included in the fee)."""
    club: Mapped[str] = mapped_column(String(120), default="")
    event_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    """The event's date as the federation gets it (None: the day round 1 started)."""
    level: Mapped[str] = mapped_column(String(20), default="club")
    """``club``, ``federal``, ``regional`` or ``national`` (:data:`.federation.LEVELS`)."""
