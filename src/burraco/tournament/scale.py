"""The MP → VP scale of a tournament (RULES.md §11.2–11.3).

The FIBur tables for matches of 2, 3 and 4 smazzate come from the engine
(``Rules.vp_tables``) and are named as such.  Any other table (team matches, 5
smazzate or more, a club's own) must be given by the director with a name of his
choice: it is shown with that name and never presented as official.

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
from burraco.tournament.i18n import Text

VP_BOUNDS = 10
"""A VP table's bounds: one for each of VP 10 to 19 (:func:`check_table`)."""


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
        except ValueError:
            raise TournamentError(_table_error(self.name, self.bounds)) from None
        if self.hands < 1:
            raise TournamentError(Text("error.scale_one_hand", n=self.hands))

    @classmethod
    def builtin(cls, hands: int) -> VpScale:
        """The FIBur table for ``hands`` smazzate (3 or 4), else an error saying what to do."""
        for count, bounds in FIBUR.vp_tables:
            if count == hands:
                letter = {2: "C", 3: "A", 4: "B"}.get(hands, "?")
                return cls(f"FIBur {hands} smazzate (RULES.md §11.2 table {letter})", hands,
                           tuple(bounds), official=True)
        raise TournamentError(Text("error.scale_official", n=hands))

    @classmethod
    def parse(cls, text: str, *, hands: int) -> VpScale:
        """``NAME:B1,B2,...,B10``: a director's table, named so it is never taken as official."""
        name, sep, rest = text.partition(":")
        name = name.strip()
        if not sep or not name:
            raise TournamentError(Text("error.scale_format", text=repr(text)))
        try:
            bounds = tuple(int(part) for part in rest.split(","))
        except ValueError:
            raise TournamentError(Text("error.scale_numbers", text=repr(text))) from None
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


def _table_error(name: str, bounds: tuple[int, ...]) -> Text:
    """What is wrong with a VP table's bounds (the engine's checks, :func:`check_table`)."""
    if len(bounds) != VP_BOUNDS:
        return Text("error.scale_count", name=repr(name), n=len(bounds))
    if any(b < 0 or b % 5 for b in bounds):
        return Text("error.scale_fives", name=repr(name), bounds=tuple(bounds))
    return Text("error.scale_increase", name=repr(name), bounds=tuple(bounds))


def scale_for(hands: int, table: str | None = None) -> VpScale:
    """The scale of a tournament: the director's ``table`` if given, else the official one."""
    return VpScale.parse(table, hands=hands) if table else VpScale.builtin(hands)
