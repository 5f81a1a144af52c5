"""Usernames and passwords as the contract accepts them, with errors that name the field.

A username is 3–20 ASCII letters, digits, ``_`` or ``-``; it is unique regardless
of case (``Ada`` and ``ada`` are one name), so every lookup goes through
:func:`username_key`.  ASCII only: look-alike letters of other scripts would let
one player pass for another on a leaderboard.
"""

from __future__ import annotations

import re

USERNAME_RE = re.compile(r"[A-Za-z0-9_-]{3,20}")
PASSWORD_MIN = 8
PASSWORD_MAX = 1024
"""Longer passwords are refused rather than hashed: Argon2 would take them, but a
megabyte password is a way to make the server work, not a password."""


class FieldError(ValueError):
    """Bad input: ``field`` names it, the message says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def check_username(raw: object, field: str = "username") -> str:
    if not isinstance(raw, str):
        raise FieldError(field, "expected a string")
    if not USERNAME_RE.fullmatch(raw):
        raise FieldError(field, "3 to 20 characters: letters, digits, '_' or '-'")
    return raw


def username_key(name: str) -> str:
    return name.lower()


def check_password(raw: object, field: str = "password") -> str:
    if not isinstance(raw, str):
        raise FieldError(field, "expected a string")
    if len(raw) < PASSWORD_MIN:
        raise FieldError(field, f"at least {PASSWORD_MIN} characters")
    if len(raw) > PASSWORD_MAX:
        raise FieldError(field, f"at most {PASSWORD_MAX} characters")
    return raw
