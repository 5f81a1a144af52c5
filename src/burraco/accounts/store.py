"""Account and session rows: the SQL behind registering, logging in and out."""

from __future__ import annotations

import time
from datetime import UTC
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from burraco.accounts import avatars
from burraco.accounts.models import AccountRow, SessionRow
from burraco.accounts.names import username_key
from burraco.accounts.sessions import SESSION_DAYS, Session
from burraco.accounts.trust_models import NameHoldRow
from burraco.infra.schema import Base

_ACCOUNTS = Base.metadata.tables["accounts"]
_SESSIONS = Base.metadata.tables["sessions"]


class UsernameTaken(Exception):
    """Another account has this username (in any case)."""


def is_account(conn: Connection, player_id: str) -> bool:
    return conn.scalar(select(AccountRow.player_id).where(
        AccountRow.player_id == player_id)) is not None


def create_account(conn: Connection, player_id: str, username: str, password_hash: str,
                   session_id: str, secret_hash: str) -> None:
    """Insert the account and its first session; :class:`UsernameTaken` (another account
    has the name, or a deleted account's name is still held) changes nothing."""
    key = username_key(username)
    if conn.scalar(select(AccountRow.player_id).where(AccountRow.username_key == key)):
        raise UsernameTaken(username)
    held = conn.scalar(select(NameHoldRow.until).where(NameHoldRow.username_key == key))
    if held is not None:
        if held > time.time():
            raise UsernameTaken(username)
        conn.execute(delete(NameHoldRow).where(NameHoldRow.username_key == key))  # over
    # a concurrent twin passes the check above; the unique key then refuses it
    # (IntegrityError: the writer retries the job alone, the caller maps it to a conflict)
    conn.execute(insert(_ACCOUNTS).values(
        player_id=player_id, username=username, username_key=key,
        password_hash=password_hash))
    add_session(conn, session_id, player_id, secret_hash)


def add_session(conn: Connection, session_id: str, player_id: str, secret_hash: str) -> None:
    conn.execute(insert(_SESSIONS).values(id=session_id, player_id=player_id,
                                          secret_hash=secret_hash))


def account_by_name(conn: Connection, username: str) -> dict[str, Any] | None:
    row = conn.execute(select(AccountRow.player_id, AccountRow.username,
                              AccountRow.password_hash).where(
        AccountRow.username_key == username_key(username))).first()
    return dict(row._mapping) if row is not None else None


def account_by_id(conn: Connection, player_id: str) -> dict[str, Any] | None:
    row = conn.execute(select(AccountRow.player_id, AccountRow.username,
                              AccountRow.password_hash, AccountRow.created_at).where(
        AccountRow.player_id == player_id)).first()
    return dict(row._mapping) if row is not None else None


def session(conn: Connection, session_id: str) -> Session | None:
    row = conn.execute(
        select(SessionRow.id, SessionRow.player_id, SessionRow.secret_hash,
               SessionRow.created_at, AccountRow.username)
        .join(AccountRow, AccountRow.player_id == SessionRow.player_id)
        .where(SessionRow.id == session_id)).first()
    if row is None:
        return None
    created = row.created_at
    if created.tzinfo is None:  # SQLite keeps the database's UTC time without its zone
        created = created.replace(tzinfo=UTC)
    expires = created.timestamp() + SESSION_DAYS * 24 * 3600
    return Session(row.id, row.player_id, row.username, row.secret_hash, expires)


def end_session(conn: Connection, session_id: str) -> None:
    conn.execute(delete(_SESSIONS).where(_SESSIONS.c.id == session_id))


def live_sessions(conn: Connection, session_ids: list[str]) -> set[str]:
    """Which of ``session_ids`` still exist."""
    if not session_ids:
        return set()
    return set(conn.scalars(select(_SESSIONS.c.id).where(_SESSIONS.c.id.in_(session_ids))))


def set_password(conn: Connection, player_id: str, password_hash: str,
                 keep_session: str) -> list[str]:
    """New hash; every session of the player but ``keep_session`` ends (their ids)."""
    conn.execute(update(_ACCOUNTS).where(_ACCOUNTS.c.player_id == player_id)
                 .values(password_hash=password_hash))
    ended = list(conn.scalars(select(_SESSIONS.c.id).where(
        _SESSIONS.c.player_id == player_id, _SESSIONS.c.id != keep_session)))
    conn.execute(delete(_SESSIONS).where(_SESSIONS.c.player_id == player_id,
                                         _SESSIONS.c.id != keep_session))
    return ended


def avatars_of(conn: Connection, player_ids: list[str]) -> dict[str, str]:
    """The avatar each account among ``player_ids`` shows (guests are not in the answer)."""
    if not player_ids:
        return {}
    rows = conn.execute(select(AccountRow.player_id, AccountRow.avatar).where(
        AccountRow.player_id.in_(set(player_ids))))
    return {pid: avatars.shown(pid, avatar) for pid, avatar in rows}


def set_avatar(conn: Connection, player_id: str, avatar: str) -> bool:
    """Keep the account's avatar (checked by the caller); False when there is no such account."""
    done = conn.execute(update(_ACCOUNTS).where(_ACCOUNTS.c.player_id == player_id)
                        .values(avatar=avatar))
    return bool(done.rowcount)
