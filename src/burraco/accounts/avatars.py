"""Avatars: the drawn pictures that stand for a player (no uploads).

An account picks one of :data:`PEOPLE`; until it does, it shows one chosen from its public
``player_id`` (:func:`default_for`), so a leaderboard is not a row of blanks and the choice
never changes by itself.  A guest (no account) shows :data:`GUEST`, the same neutral picture
for everyone.  Bots have their own pictures, one per level (:func:`of_bot`), which no person
may pick.  The pictures themselves are the web client's (``web/scripts/avatars.mjs``, built to
``/avatars/<id>.svg``); the server knows only their ids.
"""

from __future__ import annotations

import hashlib

from burraco.accounts.names import FieldError

PEOPLE = ("fox", "owl", "cat", "bear", "rabbit", "frog", "panda", "lion", "penguin",
          "hedgehog", "koala", "tiger", "mouse", "deer", "turtle", "dog")
"""What a person may pick, in the picker's order (new ones go at the end)."""

_DEFAULTS = PEOPLE[:16]
"""The pictures a default is drawn from: the first sixteen, so adding more never changes the
picture of an account that has not picked one."""

BOTS = {"random": "bot-random", "basic": "bot-basic", "advanced": "bot-advanced",
        "expert": "bot-expert"}
"""Each bot level's picture."""

ENGINE = "bot-engine"
"""An outside engine's seat (``engine:NAME``), or any level without a picture of its own."""

GUEST = "guest"
"""A guest's picture (no account): one neutral drawing, derived from nothing."""

FIELD = "avatar"


def default_for(player_id: str) -> str:
    """An account's picture until it picks one: a fixed function of its public id."""
    digest = hashlib.sha256(player_id.encode("utf-8", "surrogatepass")).digest()
    return _DEFAULTS[digest[0] % len(_DEFAULTS)]


def shown(player_id: str, stored: str | None) -> str:
    """The picture an account shows: the one it picked, else its default (also for a stored id
    that is no longer offered)."""
    return stored if stored in PEOPLE else default_for(player_id)


def of_bot(level: str | None) -> str:
    return BOTS.get(level or "", ENGINE)


def check_avatar(raw: object) -> str:
    """The id a person may pick, or :class:`FieldError` saying what is wrong with ``raw``."""
    if not isinstance(raw, str):
        raise FieldError(FIELD, "expected a string, the id of an avatar")
    if raw in PEOPLE:
        return raw
    choices = ", ".join(PEOPLE)
    shown_raw = raw if len(raw) <= 40 else raw[:40] + "…"
    if raw in BOTS.values() or raw == ENGINE:
        raise FieldError(FIELD, f"{shown_raw!r} is a bot's avatar; pick one of: {choices}")
    if raw == GUEST:
        raise FieldError(FIELD, f"{raw!r} is the guests' avatar; pick one of: {choices}")
    raise FieldError(FIELD, f"no avatar {shown_raw!r}; pick one of: {choices}")
