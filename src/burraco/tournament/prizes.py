"""The prize list: places per category, from the final standings.

The categories are taken in the order the director listed them (``overall:3,NS:1,
Senior:1``): each gives its places to the best pairs of that category that have no
prize yet, so a pair wins one prize at most (the club's usual rule; the first listed
category is the most valuable).  ``overall`` is every pair, ``NS`` and ``EW`` a
Mitchell's lines (:func:`~burraco.tournament.standings.line_of`), any other name the
members' category of a pair (both its players members of that category).  A withdrawn
pair wins no prize.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from burraco.tournament.standings import Standing, line_of, standings

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament


@dataclass(frozen=True, slots=True)
class Award:
    category: str
    place: int
    standing: Standing

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "place": self.place, "pair": self.standing.pair,
                "name": self.standing.name, "rank": self.standing.rank,
                "vp": self.standing.vp}


def in_category(t: Tournament, pair: int, category: str) -> bool:
    key = category.casefold()
    if key == "overall":
        return True
    if key in ("ns", "ew"):
        return (line_of(t, pair) or "").casefold() == key
    own = t.evening.category_of(pair)
    return own is not None and own.casefold() == key


def prize_list(t: Tournament) -> list[Award]:
    ranking = [s for s in standings(t) if not s.withdrawn]
    awarded: set[int] = set()
    out: list[Award] = []
    for prize in t.evening.prizes:
        place = 0
        for s in ranking:
            if place == prize.places:
                break
            if s.pair in awarded or not in_category(t, s.pair, prize.category):
                continue
            place += 1
            awarded.add(s.pair)
            out.append(Award(prize.category, place, s))
    return out
