"""The prize list: places per category, from the final standings.

The categories are taken in the order the director listed them (``overall:3,NS:1,
Senior:1``): each gives its places to the best pairs of that category that have no
prize yet, so a pair wins one prize at most (the club's usual rule; the first listed
category is the most valuable).  ``overall`` is every pair, ``NS`` and ``EW`` a
Mitchell's lines (:func:`~burraco.tournament.standings.line_of`), any other name the
members' category of a pair (both its players members of that category).  A withdrawn
pair wins no prize.  A place no pair can take (too few pairs in the category, or they all
won an earlier prize) stays in the list, not awarded.
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
    standing: Standing | None
    """The winner, or None: the prize is not awarded."""

    def to_dict(self) -> dict[str, Any]:
        s = self.standing
        if s is None:
            return {"category": self.category, "place": self.place, "pair": None,
                    "name": None, "awarded": False}
        return {"category": self.category, "place": self.place, "pair": s.pair,
                "name": s.name, "rank": s.rank, "vp": s.vp, "awarded": True}


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
        out += [Award(prize.category, k, None) for k in range(place + 1, prize.places + 1)]
    return out
