"""Password hashing: Argon2id through argon2-cffi, with its recommended parameters.

Hashing costs tens of milliseconds and 64 MiB on purpose; callers run it in a
worker thread.  :func:`verify` also runs for unknown usernames (against a fixed
dummy hash), so a wrong name and a wrong password take the same time.
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@cache
def _dummy() -> str:
    return _hasher.hash("not a password of anybody")


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (``None``: no such account, still costs a hash)."""
    try:
        return _hasher.verify(stored if stored is not None else _dummy(), password) and (
            stored is not None)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
