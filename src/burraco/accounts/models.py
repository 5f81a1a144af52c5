"""The players' tables (created by migration ``0003_accounts``).

* ``accounts``      username (as typed) and its lower-case key (unique), the Argon2 hash,
                    the avatar picked (migration ``0005_avatars``; ``None``: not picked yet)
* ``sessions``      one row per login: the SHA-256 of the token's secret, never the token
* ``matches``       one row per finished match: form, rated, result, who sat where
* ``match_players`` one row per held seat of a finished match: the player's view of it
                    (side, result, score, rating before and after, abandoned)
* ``ratings``       the current rating of a player in a form of play (``"2"`` or ``"4"``)
* ``rating_history`` every rated result, for the plot
* ``player_stats``  running totals per player and form (matches, hands, MP, burraco...)
* ``penalties``     abandonments and the wait each one brought
* ``board_periods`` each player's standing in a calendar week or month of rated play
* ``daily_entries`` who played which day's duplicate set, at which table
* ``scorepad_sheets`` the score-pad sheets an account keeps (migration ``0004_scorepad``)
* ``follows``, ``blocks`` who follows whom (friends: both ways) and who blocked whom
                    (migration ``0006_social``)
* ``clubs``, ``club_members`` online clubs, their members and roles, invitations and
                    requests (migration ``0007_clubs``)
* ``challenges``    one player's challenge to another: its rules, its state, its table
                    (migration ``0008_challenges``)
* ``addresses_seen``, ``match_addresses`` keyed hashes of the addresses players asked to
                    play from, and of each player of a table the server paired (migration
                    ``0009_addresses``): screening for two accounts of one person
* ``online_events``, ``online_event_results`` open online tournaments: each one's
                    definition and state, who runs it now, its games' tables; and each
                    entrant's final place, for the profile's history and badges
                    (migration ``0010_online_events``; ``community.online_events``)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Float, Index, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column

from burraco.infra.schema import Base


class AccountRow(Base):
    __tablename__ = "accounts"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(20))
    username_key: Mapped[str] = mapped_column(String(20), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    avatar: Mapped[str | None] = mapped_column(String(24))
    """The avatar picked (``accounts.avatars.PEOPLE``); ``None`` shows the account's default."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class MatchRow(Base):
    __tablename__ = "matches"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    form: Mapped[str] = mapped_column(String(8))
    rated: Mapped[bool]
    finished_at: Mapped[float] = mapped_column(Float, index=True)
    """Seconds since the epoch (UTC): cheap to compare and to page by."""
    hands: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer)
    """The winning side as scored (``None``: a tie), before any abandonment."""
    scores: Mapped[list[Any]]
    seats: Mapped[list[Any]]
    """``[{"seat", "side", "player_id", "name", "bot"}]``."""


class MatchPlayerRow(Base):
    __tablename__ = "match_players"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    form: Mapped[str] = mapped_column(String(8))
    rated: Mapped[bool]
    finished_at: Mapped[float] = mapped_column(Float)
    side: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(String(8))
    """won | lost | tie (an abandonment is lost for the leaver's side)."""
    score: Mapped[int] = mapped_column(Integer)
    abandoned: Mapped[bool]
    rating_before: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        Index("ix_match_players_player", "player_id", "finished_at"),
        Index("ix_match_players_period", "rated", "form", "finished_at", "player_id"),
    )


class RatingRow(Base):
    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    form: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_ratings_board", "form", "mu", "player_id"),)


class RatingHistoryRow(Base):
    __tablename__ = "rating_history"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    form: Mapped[str] = mapped_column(String(8), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_rating_history_at", "player_id", "form", "at"),)


class PlayerStatRow(Base):
    __tablename__ = "player_stats"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    form: Mapped[str] = mapped_column(String(8), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    hands_won: Mapped[int] = mapped_column(Integer, default=0)
    mp: Mapped[int] = mapped_column(Integer, default=0)
    closings: Mapped[int] = mapped_column(Integer, default=0)
    pozzetti: Mapped[int] = mapped_column(Integer, default=0)
    abandoned: Mapped[int] = mapped_column(Integer, default=0)
    burraco: Mapped[dict[str, Any]]
    """Burraco made by the player's side, by type (``{"clean": 3, ...}``)."""


class PenaltyRow(Base):
    __tablename__ = "penalties"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    reason: Mapped[str] = mapped_column(String(32))
    """left (gone past the grace time) | clock (the turn clock ran out three times)"""
    at: Mapped[float] = mapped_column(Float)
    until: Mapped[float] = mapped_column(Float)


class BoardPeriodRow(Base):
    __tablename__ = "board_periods"

    period: Mapped[str] = mapped_column(String(16), primary_key=True)
    """``week:2026-W49`` (ISO week, UTC) or ``month:2026-12``."""
    form: Mapped[str] = mapped_column(String(8), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    """The rating after the player's last rated match of the period."""
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_board_periods_board", "period", "form", "mu", "player_id"),)


class DailyEntryRow(Base):
    __tablename__ = "daily_entries"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    form: Mapped[str] = mapped_column(String(8), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)


class PadSheetRow(Base):
    """One score-pad sheet of an account (migration ``0004_scorepad``; ``players.pad``)."""

    __tablename__ = "scorepad_sheets"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    sheet_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    updated: Mapped[int] = mapped_column(BigInteger)
    """When the sheet was last changed, in milliseconds since the epoch (the client's clock):
    the later one wins (docs/decisions.md)."""
    size: Mapped[int] = mapped_column(Integer)
    """Bytes of the sheet as stored (compact JSON)."""
    sheet: Mapped[dict[str, Any]]


class FollowRow(Base):
    """``follower`` follows ``followed``; two follows both ways make friends (migration
    ``0006_social``; ``accounts.social``)."""

    __tablename__ = "follows"

    follower: Mapped[str] = mapped_column(String(32), primary_key=True)
    followed: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    since: Mapped[float] = mapped_column(Float)


class BlockRow(Base):
    """``blocker`` blocked ``blocked``: no challenge, message or pairing between them, and no
    follow either way (migration ``0006_social``; ``accounts.social``)."""

    __tablename__ = "blocks"

    blocker: Mapped[str] = mapped_column(String(32), primary_key=True)
    blocked: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    since: Mapped[float] = mapped_column(Float)


class ClubRow(Base):
    """An online club (migration ``0007_clubs``; ``accounts.clubs``)."""

    __tablename__ = "clubs"

    club_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    """The club's address: its name in lower case, letters and digits joined by ``-``."""
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    description: Mapped[str] = mapped_column(String(500))
    public: Mapped[bool]
    """Anyone may join a public club; a club by invitation takes whom its admins accept."""
    founder: Mapped[str] = mapped_column(String(32))
    created: Mapped[float] = mapped_column(Float)


class ClubMemberRow(Base):
    """A member of a club and its role: ``founder``, ``admin`` or ``member``; or someone
    ``invited`` by an admin, or who ``asked`` to join a club by invitation."""

    __tablename__ = "club_members"

    club_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(8))
    since: Mapped[float] = mapped_column(Float)


class ChallengeRow(Base):
    """One player's challenge to another (migration ``0008_challenges``;
    ``community.challenges``)."""

    __tablename__ = "challenges"

    challenge_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenger: Mapped[str] = mapped_column(String(32), index=True)
    challenged: Mapped[str] = mapped_column(String(32), index=True)
    format: Mapped[str] = mapped_column(String(8))
    rated: Mapped[bool]
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)
    state: Mapped[str] = mapped_column(String(10))
    """``open``, ``accepted``, ``declined`` or ``withdrawn`` (an open one past ``expires``
    has expired)."""
    table_id: Mapped[str | None] = mapped_column(String(32))


class AddressSeenRow(Base):
    """The keyed hash of the address a player last joined the pool (``context`` ``pool``)
    or sent a challenge (``challenge``) from: for fair play's screening of two accounts of
    one person playing each other (migration ``0009_addresses``; ``accounts.screening``)."""

    __tablename__ = "addresses_seen"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    context: Mapped[str] = mapped_column(String(16), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class MatchAddressRow(Base):
    """The address hash of each player of a table the server paired (the pool, a challenge),
    as it was when they asked to play (migration ``0009_addresses``)."""

    __tablename__ = "match_addresses"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64), index=True)


class OnlineEventRow(Base):
    """An open online tournament (migration ``0010_online_events``;
    ``community.online_events``): its definition and state as JSON
    (``meet.events_json``), versioned; ``holder`` is the process driving it until
    ``lease_until``."""

    __tablename__ = "online_events"

    event_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    starts: Mapped[float] = mapped_column(Float, index=True)
    phase: Mapped[str] = mapped_column(String(10), index=True)
    """``open``, ``running``, ``finished`` or ``cancelled`` (too few entrants at the start)."""
    club: Mapped[str | None] = mapped_column(String(40), index=True)
    created_by: Mapped[str | None] = mapped_column(String(32))
    """The account that scheduled it; ``None``: the server's own recurring event."""
    series: Mapped[str | None] = mapped_column(String(64), unique=True)
    """A recurring event's name and start (``hourly-arena@1796601600``): one per slot."""
    state: Mapped[dict[str, Any]]
    tables: Mapped[dict[str, Any]]
    """Each game's table id: ``{game id: table id}``."""
    version: Mapped[int] = mapped_column(Integer)
    holder: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


class OnlineEventResultRow(Base):
    """One entrant account's final place in a finished online event: the profile's history
    and its podium badges."""

    __tablename__ = "online_event_results"

    event_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(8))
    rank: Mapped[int] = mapped_column(Integer)
    entrants: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    finished: Mapped[float] = mapped_column(Float)
