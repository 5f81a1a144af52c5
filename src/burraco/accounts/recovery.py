"""Recovery codes: back into an account without e-mail.

At registration, and whenever the person asks again (with the password), an account gets
``COUNT`` one-time codes such as ``7KQ4-M2XD-9TRA``: twelve letters of Crockford's base-32
(60 random bits), shown once.  The database keeps each one as an Argon2 hash, like a
password, so a copy of it opens nothing; 60 random bits need no more than a light Argon2
(``_hasher``) to stay out of reach of a search, which keeps registering cheap.

A code, with the username, sets a new password and ends every session of the account (the
person who forgot it may be locked out by somebody who did not); it is spent by its use.
Wrong codes count against the log-in throttle of the username and the address.
"""

from __future__ import annotations

import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Connection, delete, func, insert, select, update

from burraco.accounts.trust_models import RecoveryCodeRow

COUNT = 10
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U, so nothing reads as another letter."""
GROUPS = 3
GROUP = 4
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})

_hasher = PasswordHasher(time_cost=1, memory_cost=4 * 1024, parallelism=1)


def new_codes() -> list[str]:
    """``COUNT`` fresh codes, as the person sees them."""
    return ["-".join("".join(secrets.choice(ALPHABET) for _ in range(GROUP))
                     for _ in range(GROUPS)) for _ in range(COUNT)]


def normal(code: str) -> str | None:
    """A code as typed, made canonical (case, spaces and dashes do not matter; O reads as 0,
    I and L as 1); ``None`` when it cannot be a code."""
    letters = "".join(code.split()).replace("-", "").upper().translate(_READ_AS)
    if len(letters) != GROUP * GROUPS or any(c not in ALPHABET for c in letters):
        return None
    return letters


def hash_codes(codes: list[str]) -> list[str]:
    """Their hashes (slow on purpose: run it in a worker thread)."""
    out = []
    for code in codes:
        canonical = normal(code)
        assert canonical is not None, code
        out.append(_hasher.hash(canonical))
    return out


def store_codes(conn: Connection, player_id: str, hashes: list[str]) -> None:
    """Replace the account's codes (the old ones, spent or not, stop working)."""
    now = time.time()
    conn.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.player_id == player_id))
    if hashes:
        conn.execute(insert(RecoveryCodeRow), [
            {"player_id": player_id, "number": n, "code_hash": h, "created_at": now,
             "used_at": None} for n, h in enumerate(hashes)])


def unused(conn: Connection, player_id: str) -> list[tuple[int, str]]:
    """``(number, hash)`` of the account's codes not yet spent."""
    rows = conn.execute(select(RecoveryCodeRow.number, RecoveryCodeRow.code_hash).where(
        RecoveryCodeRow.player_id == player_id, RecoveryCodeRow.used_at.is_(None))
        .order_by(RecoveryCodeRow.number))
    return [(row.number, row.code_hash) for row in rows]


def left(conn: Connection, player_id: str) -> int:
    return int(conn.scalar(select(func.count()).select_from(RecoveryCodeRow).where(
        RecoveryCodeRow.player_id == player_id, RecoveryCodeRow.used_at.is_(None))) or 0)


def matching(candidates: list[tuple[int, str]], code: str) -> int | None:
    """The number of the code among ``candidates`` that ``code`` is (``None``: none).  Checks
    every candidate, found or not, so the time says nothing of which one matched."""
    canonical = normal(code)
    found = None
    for number, hashed in candidates or [(-1, _dummy())]:
        ok: bool
        try:
            ok = _hasher.verify(hashed, canonical or "not a code")
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if ok and number >= 0 and canonical is not None and found is None:
            found = number
    return found


def spend(conn: Connection, player_id: str, number: int) -> bool:
    """Mark a code used; False if it was spent meanwhile (two recoveries at once)."""
    done = conn.execute(update(RecoveryCodeRow).where(
        RecoveryCodeRow.player_id == player_id, RecoveryCodeRow.number == number,
        RecoveryCodeRow.used_at.is_(None)).values(used_at=time.time()))
    return bool(done.rowcount)


_DUMMY: list[str] = []


def _dummy() -> str:
    if not _DUMMY:
        _DUMMY.append(_hasher.hash("not a code of anybody"))
    return _DUMMY[0]
