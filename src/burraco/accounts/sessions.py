"""Session tokens: ``a.<session id>.<secret>``, opaque and revocable.

The database keeps only the SHA-256 of the secret, so a copy of the database
opens no session.  Checked sessions are cached in memory, so a WebSocket hello
or an HTTP call costs a dictionary look-up.  When a session ends (logout,
password change) every process must forget it at once and close the WebSockets
opened with it: :class:`OpenSockets` knows them, and in a cluster the end is
announced to every process (``burraco.server.cluster``); a process that may
have missed an announcement (its link to Redis came back) empties its cache
and checks its open sockets' sessions again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Protocol

from burraco.accounts.identity import new_id

SESSION_COOKIE = "burraco_session"
SESSION_DAYS = 30
PREFIX = "a."


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    player_id: str
    username: str
    secret_hash: str
    expires: float = 0.0
    """Seconds since the epoch: ``SESSION_DAYS`` after the login (0: computed on creation)."""
    muted_until: float = 0.0
    """While a moderator's mute is in force (seconds since the epoch; ``inf``: for ever):
    read with the session, so a mute reaches a process when the session is read again."""

    def __post_init__(self) -> None:
        if not self.expires:
            object.__setattr__(self, "expires", time.time() + SESSION_DAYS * 24 * 3600)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_token() -> tuple[str, str, str]:
    """(token, session id, secret hash) of a new session."""
    session_id, secret = new_id(), secrets.token_urlsafe(32)
    return f"{PREFIX}{session_id}.{secret}", session_id, digest(secret)


def split(token: str) -> tuple[str, str] | None:
    """(session id, secret) of a well-formed session token, else ``None``."""
    if not token.startswith(PREFIX) or len(token) > 200:
        return None
    parts = token.split(".")
    if len(parts) != 3 or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def matches(session: Session, secret: str) -> bool:
    """The secret is the session's, and the session has not expired."""
    return hmac.compare_digest(session.secret_hash, digest(secret)) and (
        time.time() < session.expires)


class SessionCache:
    """Sessions known to be live, by id, each for at most ``ttl`` seconds.

    An ended session is dropped at once by every process (:meth:`drop`, and the cluster's
    announcement); the time limit only bounds how long a process that missed an
    announcement could go on trusting one.
    """

    def __init__(self, limit: int = 100_000, ttl: float = 60.0) -> None:
        self.limit = limit
        self.ttl = ttl
        self._by_id: dict[str, tuple[Session, float]] = {}

    def get(self, session_id: str) -> Session | None:
        found = self._by_id.get(session_id)
        if found is None:
            return None
        if time.monotonic() - found[1] > self.ttl:
            del self._by_id[session_id]
            return None
        return found[0]

    def put(self, session: Session) -> None:
        if len(self._by_id) >= self.limit:
            self._by_id.pop(next(iter(self._by_id)))
        self._by_id[session.id] = (session, time.monotonic())

    def drop(self, session_id: str) -> None:
        self._by_id.pop(session_id, None)

    def clear(self) -> None:
        self._by_id.clear()


ENDED_CLOSE = (4401, "session_ended: your session ended (logout or a new password): log in "
               "again")
"""How a WebSocket opened with a session that ends is closed."""


class Closable(Protocol):
    def close(self, code: int, reason: str) -> None: ...


class OpenSockets:
    """The WebSockets this process holds, by the session token they were opened with."""

    def __init__(self) -> None:
        self._by_session: dict[str, set[Closable]] = {}

    def add(self, session_id: str, conn: Closable) -> None:
        self._by_session.setdefault(session_id, set()).add(conn)

    def remove(self, session_id: str, conn: Closable) -> None:
        conns = self._by_session.get(session_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._by_session[session_id]

    def close(self, session_ids: list[str]) -> int:
        """Close every socket of these sessions; how many."""
        closed = 0
        for session_id in session_ids:
            for conn in self._by_session.pop(session_id, set()):
                conn.close(*ENDED_CLOSE)
                closed += 1
        return closed

    def session_ids(self) -> list[str]:
        return list(self._by_session)


def session_id_of(token: object) -> str | None:
    """The session id a session token names (``None``: not a session token)."""
    parts = split(token) if isinstance(token, str) else None
    return parts[0] if parts is not None else None
