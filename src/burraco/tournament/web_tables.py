"""Which game-server tables play a tournament table, and who sits where at each.

A pairs table is one web table: the NS pair at seats 0 and 2, EW at 1 and 3.  An
individual table is one web table too, its four players each in their own seat
(the NS line at 0 and 2).  A team match is two web tables (§11.4): at the first
the home team's line sits NS, at the second the away team's; the match score is
the sum of the two, home first.

>>> from burraco.tournament.seating import Table
>>> [w.seats for w in web_tables("teams", Table(1, 3, 8))]
[(3, 8, 3, 8), (8, 3, 8, 3)]
>>> match_score([(web_tables("teams", Table(1, 3, 8))[0], [(500, 200)]),
...              (web_tables("teams", Table(1, 3, 8))[1], [(300, 400)])])
(900, 500, [], [(500, 200), (400, 300)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from burraco.tournament.seating import Table


@dataclass(frozen=True, slots=True)
class WebTable:
    room: int
    """0 for the only web table of a pairs or individual table; 1 or 2 in a team match."""
    seats: tuple[int, int, int, int]
    """The entrant (pair, player or team) at seats 0–3."""

    @property
    def home_ns(self) -> bool:
        """True when this web table's NS line is the tournament table's NS (home) line."""
        return self.room != 2


def web_tables(kind: str, table: Table) -> list[WebTable]:
    if kind == "teams":
        home, away = table.ns, table.ew
        return [WebTable(1, (home, away, home, away)), WebTable(2, (away, home, away, home))]
    ns, ew = table.line(0), table.line(1)
    return [WebTable(0, (ns[0], ew[0], ns[-1], ew[-1]))]


def match_score(played: Sequence[tuple[WebTable, Sequence[tuple[int, int]]]]) -> tuple[
        int, int, list[tuple[int, int]], list[tuple[int, int]]]:
    """(NS MP, EW MP, smazzate, rooms) from each web table's (NS, EW) hand totals.

    A single web table gives its smazzate; a team match gives the two tables' (home,
    away) totals as rooms instead.
    """
    if len(played) == 1:
        hands = [(int(a), int(b)) for a, b in played[0][1]]
        return sum(h[0] for h in hands), sum(h[1] for h in hands), hands, []
    rooms = []
    for web, totals in sorted(played, key=lambda p: p[0].room):
        ns, ew = sum(h[0] for h in totals), sum(h[1] for h in totals)
        rooms.append((ns, ew) if web.home_ns else (ew, ns))
    return sum(r[0] for r in rooms), sum(r[1] for r in rooms), [], rooms
