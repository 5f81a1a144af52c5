"""A round's seating: which pair sits North–South and which East–West at each table.

Movements (:mod:`.mitchell`, :mod:`.danish`, :mod:`.round_robin`, :mod:`.draw`)
return a :class:`Seating`; the model turns it into a round.  Pairs are numbered
from 1, tables from 1; a pair without an opponent this round has a bye.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Table:
    number: int
    ns: int
    ew: int

    def pairs(self) -> tuple[int, int]:
        return (self.ns, self.ew)

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
        return [p for t in self.tables for p in t.pairs()] + list(self.byes)

    def opponents(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for t in self.tables:
            out[t.ns] = t.ew
            out[t.ew] = t.ns
        return out
