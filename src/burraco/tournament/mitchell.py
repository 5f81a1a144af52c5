"""Mitchell movement (RULES.md §11.4): NS pairs stay at their table, EW pairs move.

The pairs are split into two lines once: the first half (in registration or
drawn order) sits NS at tables 1…T, the rest EW, EW pair *i* starting at table
*i*.  After each Mitchell round every EW pair moves ``step`` tables up (from the
last table back to the first).  With an odd number of pairs the EW line has an
empty place, which moves like a pair: the NS pair it faces has the bye.

Two pairs of the same line never meet, and an EW pair meets the same NS pair
again only when its total move is a multiple of T, so the rounds are free of
repeats exactly when the offsets (sum of steps so far) are distinct modulo T:
with step 1, at most T rounds.  :func:`check_offsets` says so before play.

>>> from burraco.tournament.mitchell import lines, mitchell_round
>>> ns, ew = lines([1, 2, 3, 4, 5, 6])
>>> [t.pairs() for t in mitchell_round(ns, ew, offset=1).tables]
[(1, 6), (2, 4), (3, 5)]
"""

from __future__ import annotations

from collections.abc import Sequence

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text
from burraco.tournament.seating import Seating, Table

Line = tuple[int | None, ...]


def lines(order: Sequence[int]) -> tuple[tuple[int, ...], Line]:
    """(NS, EW): the first ⌈n/2⌉ pairs NS, the others EW (an odd field leaves EW one short)."""
    if len(order) < 2:
        raise TournamentError(Text("error.mitchell_two", n=len(order)))
    tables = (len(order) + 1) // 2
    ns = tuple(order[:tables])
    ew: Line = tuple(order[tables:])
    if len(ew) < tables:
        ew = (*ew, None)
    return ns, ew


def mitchell_round(ns: Sequence[int], ew: Line, *, offset: int) -> Seating:
    """The seating after the EW line has moved ``offset`` tables in all."""
    count = len(ns)
    if len(ew) != count:
        raise TournamentError(Text("error.mitchell_lines", a=count, b=len(ew)))
    tables: list[Table] = []
    byes: list[int] = []
    for t in range(count):
        visitor = ew[(t - offset) % count]
        if visitor is None:
            byes.append(ns[t])
        else:
            tables.append(Table(t + 1, ns[t], visitor))
    return Seating(tuple(tables), tuple(byes))


def offsets(steps: Sequence[int]) -> list[int]:
    """The EW line's offset in each Mitchell round, given each round's step (the first's unused)."""
    out = [0]
    for step in steps[1:]:
        out.append(out[-1] + step)
    return out


def check_offsets(steps: Sequence[int], tables: int) -> None:
    """Raise unless the Mitchell rounds with these steps meet no pair twice on ``tables`` tables."""
    seen: dict[int, int] = {}
    for number, offset in enumerate(offsets(steps), start=1):
        place = offset % tables
        if place in seen:
            most = len(seen)
            raise TournamentError(Text("error.mitchell_repeat", number=number,
                                       met=seen[place], tables=tables, most=most))
        seen[place] = number
