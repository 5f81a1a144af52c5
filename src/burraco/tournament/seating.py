"""A round's seating: which pair sits North–South and which East–West at each table.

Movements (:mod:`.mitchell`, :mod:`.danish`, :mod:`.round_robin`, :mod:`.draw`,
:mod:`.individual`) return a :class:`Seating`; the model turns it into a round.
Entrants are numbered from 1, tables from 1; an entrant without a table this
round has a bye.  In a pairs or team event each line is one entrant (a team's
match is played at two tables, see the model); in an individual event each line
is two players who partner for this round only, ``ns``/``ns_partner`` and
``ew``/``ew_partner``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Table:
    number: int
    ns: int
    ew: int
    ns_partner: int | None = None
    ew_partner: int | None = None

    def pairs(self) -> tuple[int, int]:
        """The first entrant of each line (the only one, except in individual events)."""
        return (self.ns, self.ew)

    def line(self, side: int) -> tuple[int, ...]:
        """The entrants of the NS (0) or EW (1) line."""
        first, partner = (self.ns, self.ns_partner) if side == 0 else (self.ew, self.ew_partner)
        return (first,) if partner is None else (first, partner)

    def entrants(self) -> tuple[int, ...]:
        """Everyone seated at this table."""
        return self.line(0) + self.line(1)

    def side_of(self, entrant: int) -> int:
        return 0 if entrant in self.line(0) else 1

    def to_list(self) -> list[int]:
        """``[table, ns, ew]``, plus the partners in an individual event (as stored)."""
        row = [self.number, self.ns, self.ew]
        if self.ns_partner is not None and self.ew_partner is not None:
            row += [self.ns_partner, self.ew_partner]
        return row

    def opponent(self, pair: int) -> int:
        return self.ew if pair == self.ns else self.ns


@dataclass(frozen=True, slots=True)
class Seating:
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    @classmethod
    def of(cls, matches: Iterable[tuple[int, int]], byes: Iterable[int] = ()) -> Seating:
        """Number the matches as tables 1, 2, … in the order given."""
        tables = tuple(Table(i, ns, ew) for i, (ns, ew) in enumerate(matches, start=1))
        return cls(tables, tuple(byes))

    def seated(self) -> list[int]:
        """Every pair of the round, each exactly once (tables first, then byes)."""
        return [p for t in self.tables for p in t.entrants()] + list(self.byes)

    def opponents(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for t in self.tables:
            out[t.ns] = t.ew
            out[t.ew] = t.ns
        return out
