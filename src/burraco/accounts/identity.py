"""Guest identities and seat tokens, signed with the server's secret (HMAC-SHA256).

Three kinds of token, all ``<kind>.<fields>.<signature>`` in URL-safe text:

* a **guest** token ``g.<guest id>.<nickname, base64url>`` identifies a person
  (kept by the browser in the ``burraco_guest`` cookie, or sent in ``hello``);
* a **seat** token ``s.<table id>.<seat>`` is the capability to claim one seat
  (invite links carry it); the first guest to present it becomes the seat's
  holder, and from then on the seat needs both that token and that guest;
* a **watch** token ``w.<table id>`` lets a spectator into a private table.

Tokens cannot be forged without the secret, and a token names its table and
seat, so it can never be used for another.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
import unicodedata
from dataclasses import dataclass

GUEST_COOKIE = "burraco_guest"
NICKNAME_MAX = 24


class TokenError(ValueError):
    """A token is malformed, forged or of the wrong kind; the message says which."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_id(nbytes: int = 9) -> str:
    """A random URL-safe id without dots (12 characters for 9 bytes)."""
    return secrets.token_urlsafe(nbytes)


def check_nickname(raw: object) -> str:
    """A cleaned nickname, or :class:`ValueError` saying what is wrong with it."""
    if not isinstance(raw, str):
        raise ValueError("nickname: expected a string")
    name = " ".join(raw.split())
    if not name:
        raise ValueError("nickname: must not be empty")
    if len(name) > NICKNAME_MAX:
        raise ValueError(f"nickname: at most {NICKNAME_MAX} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("nickname: control characters are not allowed")
    return name


@dataclass(frozen=True, slots=True)
class Guest:
    id: str
    nickname: str
    account: bool = False
    """Named by an account's session (``players.sessions``), not by a guest token."""
    muted_until: float = 0.0
    """An account muted by a moderator: no quick messages, no challenges until then."""

    @property
    def muted(self) -> bool:
        return self.muted_until > time.time()


class Signer:
    """Signs and checks tokens with one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the signing secret must have at least 16 bytes")
        self._secret = secret

    def digest(self, text: str) -> str:
        """A keyed hash of ``text`` (HMAC-SHA-256 with the secret, hex): equal texts give
        equal digests at one server, and the digest says nothing of the text."""
        return hmac.new(self._secret, text.encode("utf-8", "surrogatepass"),
                        hashlib.sha256).hexdigest()

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._secret, payload.encode("utf-8", "surrogatepass"),
                             hashlib.sha256).digest())

    def _sign(self, *fields: str) -> str:
        payload = ".".join(fields)
        return f"{payload}.{self._mac(payload)}"

    def _open(self, token: object, kind: str, count: int) -> list[str]:
        what = {"g": "guest", "s": "seat", "w": "watch"}[kind]
        if not isinstance(token, str) or len(token) > 512:
            raise TokenError(f"{what} token: expected a token string")
        parts = token.split(".")
        if len(parts) != count + 2 or parts[0] != kind:
            raise TokenError(f"{what} token: not a {what} token")
        payload, mac = ".".join(parts[:-1]), parts[-1]
        # bytes: compare_digest raises TypeError for non-ASCII text, and a token is any text
        if not hmac.compare_digest(mac.encode("utf-8", "surrogatepass"),
                                   self._mac(payload).encode()):
            raise TokenError(f"{what} token: bad signature (not issued by this server)")
        return parts[1:-1]

    # --- guests ---------------------------------------------------------------------------

    def guest_token(self, guest: Guest) -> str:
        return self._sign("g", guest.id, _b64(guest.nickname.encode()))

    def guest(self, token: object) -> Guest:
        guest_id, nick = self._open(token, "g", 2)
        try:
            return Guest(guest_id, _unb64(nick).decode())
        except (ValueError, UnicodeDecodeError):
            raise TokenError("guest token: unreadable nickname") from None

    # --- seats and spectators -------------------------------------------------------------

    def seat_token(self, table_id: str, seat: int) -> str:
        return self._sign("s", table_id, str(seat))

    def seat_of(self, token: object, table_id: str) -> int:
        """The seat a seat token opens at ``table_id``; :class:`TokenError` otherwise."""
        table, seat = self._open(token, "s", 2)
        if table != table_id:
            raise TokenError("seat token: issued for another table")
        return int(seat)

    def watch_token(self, table_id: str) -> str:
        return self._sign("w", table_id)

    def check_watch(self, token: object, table_id: str) -> None:
        (table,) = self._open(token, "w", 1)
        if table != table_id:
            raise TokenError("watch token: issued for another table")

    def opens(self, token: str | None, table_id: str) -> bool:
        """Whether ``token`` (a watch or seat token) opens ``table_id``'s private pages."""
        if not token:
            return False
        for check in (self.check_watch, self.seat_of):
            try:
                check(token, table_id)
                return True
            except TokenError:
                pass
        return False
