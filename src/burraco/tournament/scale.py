"""The MP → VP scale of a tournament (RULES.md §11.2–11.3).

The FIBur tables for matches of 3 and 4 smazzate come from the engine
(``Rules.vp_tables``) and are named as such.  Any other table (2 smazzate, team
matches, a club's own) must be given by the director with a name of his choice:
it is shown with that name and never presented as official.

>>> scale = VpScale.builtin(3)
>>> scale.vp(1200, 900)
(13, 7)
>>> VpScale.parse("club-2:30,90,150,210,300,400,500,650,800,1000", hands=2).name
'club-2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from burraco.engine.rules import FIBUR
from burraco.engine.vp import check_table, vp_from_bounds
from burraco.tournament.errors import TournamentError


@dataclass(frozen=True, slots=True)
class VpScale:
    """Ten MP-difference upper bounds for VP 10…19 (above the last: 20–0)."""

    name: str
    hands: int
    """Smazzate per match the scale is meant for."""
    bounds: tuple[int, ...]
    official: bool = False
    """True only for the tables printed in RULES.md §11.2."""

    def __post_init__(self) -> None:
        try:
            check_table(self.bounds)
        except ValueError as exc:
            raise TournamentError(f"VP table {self.name!r}: {exc}") from None
        if self.hands < 1:
            raise TournamentError(f"a match has at least one smazzata, not {self.hands}")

    @classmethod
    def builtin(cls, hands: int) -> VpScale:
        """The FIBur table for ``hands`` smazzate (3 or 4), else an error saying what to do."""
        for count, bounds in FIBUR.vp_tables:
            if count == hands:
                letter = {3: "A", 4: "B"}.get(hands, "?")
                return cls(f"FIBur {hands} smazzate (RULES.md §11.2 table {letter})", hands,
                           tuple(bounds), official=True)
        raise TournamentError(
            f"no official VP table is known for matches of {hands} smazzate (only 3 and 4; "
            "RULES.md §11.3): give the club's table with --vp-table NAME:B1,...,B10")

    @classmethod
    def parse(cls, text: str, *, hands: int) -> VpScale:
        """``NAME:B1,B2,...,B10``: a director's table, named so it is never taken as official."""
        name, sep, rest = text.partition(":")
        name = name.strip()
        if not sep or not name:
            raise TournamentError(
                f"VP table {text!r}: expected NAME:B1,...,B10 (a name, then the ten upper "
                "bounds of the MP difference for VP 10 to 19)")
        try:
            bounds = tuple(int(part) for part in rest.split(","))
        except ValueError:
            raise TournamentError(
                f"VP table {text!r}: the bounds must be whole numbers separated by commas"
            ) from None
        return cls(name, hands, bounds)

    def vp(self, ns_mp: int, ew_mp: int) -> tuple[int, int]:
        """(NS, EW) victory points for the two lines' match points of a whole match."""
        winner, loser = vp_from_bounds(abs(ns_mp - ew_mp), self.bounds)
        return (winner, loser) if ns_mp >= ew_mp else (loser, winner)

    def band(self, diff: int) -> str:
        """The printed band of a difference, e.g. ``'255–350'`` or ``'≥ 1505'``."""
        low = 0
        for bound in self.bounds:
            if diff <= bound:
                return f"{low}–{bound}"
            low = bound + 5
        return f"≥ {low}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "hands": self.hands, "bounds": list(self.bounds),
                "official": self.official}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VpScale:
        return cls(data["name"], data["hands"], tuple(data["bounds"]), bool(data["official"]))


def scale_for(hands: int, table: str | None = None) -> VpScale:
    """The scale of a tournament: the director's ``table`` if given, else the official one."""
    return VpScale.parse(table, hands=hands) if table else VpScale.builtin(hands)
