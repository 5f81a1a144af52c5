"""The tables of trust and safety (migration ``0011_trust``).

* ``recovery_codes`` an account's one-time recovery codes, each stored as an Argon2 hash
                     (like a password); a spent code keeps its row with ``used_at``
* ``roles``          who is an admin or a moderator, given on the server's machine
                     (``burraco admin grant``), with who gave it and why
* ``reports``        one player's report of another: the reason, the words, where it came
                     from (a table, a profile, a message) and what the moderators did
* ``sanctions``      every moderator's action (warn, mute, suspend from rated play, ban,
                     rename, lift): who, why, until when; the log of moderation
* ``name_holds``     usernames of deleted accounts, held until ``until`` so nobody else
                     takes a name straight away (the quarantine)
"""

from __future__ import annotations

from sqlalchemy import Float, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from burraco.infra.schema import Base


class RecoveryCodeRow(Base):
    __tablename__ = "recovery_codes"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float)


class RoleRow(Base):
    __tablename__ = "roles"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    """``admin`` or ``moderator``."""
    granted_by: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(500))
    at: Mapped[float] = mapped_column(Float)


class ReportRow(Base):
    __tablename__ = "reports"

    report_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    reporter: Mapped[str] = mapped_column(String(32), index=True)
    target: Mapped[str] = mapped_column(String(32), index=True)
    reason: Mapped[str] = mapped_column(String(16))
    """``cheating``, ``abuse``, ``name``, ``abandon`` or ``other``."""
    text: Mapped[str] = mapped_column(String(1000))
    context: Mapped[str] = mapped_column(String(16))
    """Where it was made: ``table``, ``profile`` or ``message``."""
    table_id: Mapped[str | None] = mapped_column(String(32))
    message: Mapped[str | None] = mapped_column(String(40))
    """The quick message reported (its id), for a report made from a message."""
    created: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(10))
    """``open`` or ``closed``."""
    handled_by: Mapped[str | None] = mapped_column(String(32))
    handled_at: Mapped[float | None] = mapped_column(Float)
    outcome: Mapped[str | None] = mapped_column(String(500))

    __table_args__ = (Index("ix_reports_queue", "status", "created"),)


class SanctionRow(Base):
    __tablename__ = "sanctions"

    sanction_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``warn``, ``mute``, ``suspend``, ``ban``, ``rename`` or ``lift``."""
    reason: Mapped[str] = mapped_column(String(500))
    moderator: Mapped[str] = mapped_column(String(64))
    """The moderator's player id, or ``admin:<who>`` for the server's command line."""
    at: Mapped[float] = mapped_column(Float)
    until: Mapped[float | None] = mapped_column(Float)
    """When a mute, suspension or ban ends (``None``: never; a warning has none)."""
    lifted_at: Mapped[float | None] = mapped_column(Float)
    report_id: Mapped[str | None] = mapped_column(String(32))
    detail: Mapped[str | None] = mapped_column(String(200))
    """A rename's old and new names; a lift's sanction id."""


class NameHoldRow(Base):
    __tablename__ = "name_holds"

    username_key: Mapped[str] = mapped_column(String(20), primary_key=True)
    until: Mapped[float] = mapped_column(Float)
