"""Session tokens: ``a.<session id>.<secret>``, opaque and revocable.

The database keeps only the SHA-256 of the secret, so a copy of the database
opens no session.  Checked sessions are cached in memory (one server process
owns the database), so a WebSocket hello or an HTTP call costs a dictionary
look-up; the cache is emptied of a session when it ends (logout, password
change), so an ended session is refused at once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from burraco.server.identity import new_id

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
    """Sessions known to be live, by id."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._by_id: dict[str, Session] = {}

    def get(self, session_id: str) -> Session | None:
        return self._by_id.get(session_id)

    def put(self, session: Session) -> None:
        if len(self._by_id) >= self.limit:
            self._by_id.pop(next(iter(self._by_id)))
        self._by_id[session.id] = session

    def drop(self, session_id: str) -> None:
        self._by_id.pop(session_id, None)

    def drop_player(self, player_id: str, keep: str | None = None) -> None:
        for sid in [s.id for s in self._by_id.values()
                    if s.player_id == player_id and s.id != keep]:
            del self._by_id[sid]
