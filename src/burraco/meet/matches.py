"""What a pairing makes: a match of the seats of one table, and the bots that fill seats.

A match names its pool, who sits where and in which team (sides are numbered as the
engine numbers them: seat mod 2, so partners sit across, seats 0 and 2 against 1 and 3),
the bots that take the other seats and their level, the narrowest rating window of its
entries, and how long each account waited.  Its id is a digest of what it is made of, so
the same entries paired at the same moment give the same match wherever they are paired.

A bot seat's level is the one whose fitted rating (``accounts/bot_ratings.json``, on the
ratings' scale) lies nearest the party's rating.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from burraco.accounts.ratings import MU, bot_ratings
from burraco.bots.base import LEVEL_NAMES
from burraco.meet.entries import Entry, PoolKey

FALLBACK_LEVEL = "basic"
"""The bots' level when their ratings were never fitted (``basic`` is the scale's 1500)."""


def bot_levels(form: str) -> list[tuple[str, float]]:
    """The bot levels a table offers in ``form`` and their fitted ratings, weakest first (a
    retired level, kept in the fit as a step between two measured ones, is not offered)."""
    fitted = bot_ratings().get(form, {})
    levels = [(name, float(values["mu"])) for name, values in fitted.items()
              if name in LEVEL_NAMES]
    return sorted(levels, key=lambda level: (level[1], level[0])) or [(FALLBACK_LEVEL, MU)]


def bot_level(form: str, rating: float) -> tuple[str, float]:
    """The level (and its rating) nearest ``rating``; on a tie, the weaker."""
    return min(bot_levels(form), key=lambda level: (abs(level[1] - rating), level[1]))


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a match: an account, or a bot of ``bot`` level."""

    seat: int
    team: int
    rating: float
    account: str | None = None
    bot: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "team": self.team, "rating": self.rating,
                "account": self.account, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Match:
    """A table's worth of players taken from one pool."""

    id: str
    pool: PoolKey
    seats: tuple[Seat, ...]
    """In seat order; a seat's team is its seat mod 2."""
    parties: tuple[tuple[str, ...], ...]
    """The parties as they queued, oldest first."""
    window: float | None
    """The narrowest rating window (half-width) of its entries; ``None``: anyone."""
    waits: tuple[tuple[str, float], ...]
    """(account, seconds waited) of every account, in seat order."""
    made: float
    """The ``now`` of the pairing."""

    @property
    def format(self) -> str:
        return self.pool.format

    @property
    def form(self) -> str:
        return self.pool.form

    @property
    def rated(self) -> bool:
        return self.pool.rated

    @property
    def accounts(self) -> tuple[str, ...]:
        """The accounts, in seat order."""
        return tuple(s.account for s in self.seats if s.account is not None)

    @property
    def bots(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if s.bot is not None)

    def wait_of(self, account: str) -> float:
        return dict(self.waits)[account]

    def team_of(self, account: str) -> int:
        return next(s.team for s in self.seats if s.account == account)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "pool": self.pool.name,
                "seats": [s.to_dict() for s in self.seats],
                "parties": [list(p) for p in self.parties], "window": self.window,
                "waits": [[a, w] for a, w in self.waits], "made": self.made}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        return cls(data["id"], PoolKey.parse(data["pool"]),
                   tuple(Seat(**s) for s in data["seats"]),
                   tuple(tuple(p) for p in data["parties"]), data["window"],
                   tuple((a, float(w)) for a, w in data["waits"]), data["made"])

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)


def match_id(pool: PoolKey, entries: Sequence[Entry], now: float) -> str:
    """A digest of the pool, the entries (by id and entry time) and the moment."""
    text = "|".join([pool.name, repr(now), *(f"{e.id}@{e.since!r}" for e in entries)])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def build(pool: PoolKey, teams: Sequence[Sequence[Entry]], now: float) -> Match:
    """The match of ``teams`` (team 0 first), each a list of entries whose members sit
    together; a team with fewer members than seats gets bots near its first entry's
    rating, and a missing team is all bots of that level."""
    per_team = pool.seats // 2
    entries = sorted((e for team in teams for e in team), key=lambda e: (e.since, e.id))
    anchor = entries[0]
    level, level_rating = bot_level(pool.form, anchor.rating)
    seats: list[Seat] = []
    for team in range(2):
        members = [m for e in (teams[team] if team < len(teams) else ()) for m in e.party]
        for place in range(per_team):
            number = team + 2 * place
            if place < len(members):
                member = members[place]
                seats.append(Seat(number, team, member.rating, account=member.account))
            else:
                seats.append(Seat(number, team, level_rating, bot=level))
    seats.sort(key=lambda s: s.seat)
    windows = [e.window(now) for e in entries]
    narrowest = min(windows)
    waits = {m.account: e.waited(now) for e in entries for m in e.party}
    return Match(
        id=match_id(pool, entries, now), pool=pool, seats=tuple(seats),
        parties=tuple(e.accounts for e in entries),
        window=None if narrowest == float("inf") else narrowest,
        waits=tuple((s.account, waits[s.account]) for s in seats if s.account is not None),
        made=now)
