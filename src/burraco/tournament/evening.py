"""What the evening's changes leave on a tournament: :class:`Evening` and its records.

A tournament carries one :class:`Evening` (stored as one JSON column); the operations
that change it, and what they mean, are in :mod:`burraco.tournament.changes`, from which
these names may be imported too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text

WithdrawalMode = Literal["byes", "reseat"]
MODES: tuple[WithdrawalMode, ...] = ("byes", "reseat")
LateMode = Literal["bye", "redraw"]
LATE_MODES: tuple[LateMode, ...] = ("bye", "redraw")


@dataclass(frozen=True, slots=True)
class Withdrawal:
    pair: int
    from_round: int
    """The first round the pair does not play."""
    mode: WithdrawalMode

    def to_dict(self) -> dict[str, Any]:
        return {"pair": self.pair, "from_round": self.from_round, "mode": self.mode}


@dataclass(frozen=True, slots=True)
class LateEntry:
    """A pair registered after round 1 was drawn: it plays from ``from_round`` on."""

    pair: int
    from_round: int
    mode: LateMode
    """``bye``: it takes the movement's empty place (the bye table); ``redraw``: the
    movement is drawn again for the rounds not yet started."""

    def to_dict(self) -> dict[str, Any]:
        return {"pair": self.pair, "from_round": self.from_round, "mode": self.mode}


@dataclass(frozen=True, slots=True)
class Rename:
    """A pair's (or its players') name changed: what it was and what it became."""

    pair: int
    before: str
    after: str
    players_before: tuple[str, ...]
    players_after: tuple[str, ...]
    rounds: int
    """Rounds started when the change was made."""

    @property
    def was(self) -> str:
        """The old name, with its players: ``Rossi / Bianchi (Anna, Luca)``."""
        return _named(self.before, self.players_before)

    @property
    def now(self) -> str:
        return _named(self.after, self.players_after)

    def to_dict(self) -> dict[str, Any]:
        return {"pair": self.pair, "before": self.before, "after": self.after,
                "players_before": list(self.players_before),
                "players_after": list(self.players_after), "rounds": self.rounds}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rename:
        return cls(int(d["pair"]), str(d["before"]), str(d["after"]),
                   tuple(d.get("players_before", ())), tuple(d.get("players_after", ())),
                   int(d.get("rounds", 0)))


@dataclass(frozen=True, slots=True)
class Penalty:
    pair: int
    vp: int
    mp: int
    reason: str
    round: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"pair": self.pair, "vp": self.vp, "mp": self.mp, "reason": self.reason,
                "round": self.round}


@dataclass(frozen=True, slots=True)
class Prize:
    """``places`` prizes for the best pairs of ``category`` (``overall``, ``NS``, ``EW``, or a
    members' category)."""

    category: str
    places: int

    def __str__(self) -> str:
        return f"{self.category}:{self.places}"


@dataclass(frozen=True, slots=True)
class Evening:
    withdrawals: tuple[Withdrawal, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    line_rankings: bool = False
    prizes: tuple[Prize, ...] = ()
    categories: tuple[tuple[int, str], ...] = field(default=())
    """(pair, category) of the pairs whose players are members of one category."""
    late: tuple[LateEntry, ...] = ()
    renames: tuple[Rename, ...] = ()
    absent: tuple[int, int] | None = None
    """(VP, MP difference) of a round a late pair missed; ``None``: the mirror of a bye
    (20 − bye VP, − bye MP: 6 VP and −355 with the default bye; RULES.md §12, late
    arrival: the absent pair's 6 VP)."""

    def late_entry(self, pair: int) -> LateEntry | None:
        return next((e for e in self.late if e.pair == pair), None)

    def absent_score(self, bye_vp: int, bye_mp: int) -> tuple[int, int]:
        return self.absent if self.absent is not None else (20 - bye_vp, -bye_mp)

    def withdrawn(self, round_number: int) -> dict[int, WithdrawalMode]:
        """Pairs not playing round ``round_number`` and how their place is handled."""
        return {w.pair: w.mode for w in self.withdrawals if w.from_round <= round_number}

    def category_of(self, pair: int) -> str | None:
        return dict(self.categories).get(pair)

    def to_dict(self) -> dict[str, Any]:
        return {"withdrawals": [w.to_dict() for w in self.withdrawals],
                "penalties": [p.to_dict() for p in self.penalties],
                "line_rankings": self.line_rankings,
                "prizes": [str(p) for p in self.prizes],
                "categories": [list(c) for c in self.categories],
                "late": [e.to_dict() for e in self.late],
                "renames": [r.to_dict() for r in self.renames],
                "absent": list(self.absent) if self.absent is not None else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Evening:
        if not data:
            return cls()
        return cls(
            tuple(Withdrawal(int(w["pair"]), int(w["from_round"]), w["mode"])
                  for w in data.get("withdrawals", ())),
            tuple(Penalty(int(p["pair"]), int(p["vp"]), int(p["mp"]), str(p["reason"]),
                          p.get("round")) for p in data.get("penalties", ())),
            bool(data.get("line_rankings", False)),
            parse_prizes(",".join(data.get("prizes", ()))),
            tuple((int(c[0]), str(c[1])) for c in data.get("categories", ())),
            tuple(LateEntry(int(e["pair"]), int(e["from_round"]), e["mode"])
                  for e in data.get("late", ())),
            tuple(Rename.from_dict(r) for r in data.get("renames", ())),
            _pair_of_ints(data.get("absent")))


def _named(name: str, players: tuple[str, ...]) -> str:
    return f"{name} ({', '.join(players)})" if players else name


def _pair_of_ints(value: Any) -> tuple[int, int] | None:
    return (int(value[0]), int(value[1])) if value else None


def parse_prizes(text: str) -> tuple[Prize, ...]:
    """``overall:3,NS:1,EW:1,Senior:1`` → the prize list (an empty text: no prizes)."""
    out: list[Prize] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        category, colon, places = part.rpartition(":")
        category = category.strip()
        if not colon or not category or not places.strip().isdigit():
            raise TournamentError(Text("error.prize_format", part=repr(part)))
        count = int(places)
        if not 1 <= count <= 50:
            raise TournamentError(Text("error.prize_places", part=repr(part), n=count))
        if any(p.category.casefold() == category.casefold() for p in out):
            raise TournamentError(Text("error.prize_twice", category=repr(category)))
        out.append(Prize(category, count))
    return tuple(out)
