"""A fixed movement's round around the withdrawals (Mitchell, round robin).

The movement is planned with the whole field, so every pair still playing keeps its
table, its line and its path: nobody slips into a place that brings back an opponent.
Then the withdrawals are taken out:

* whoever would have met a pair withdrawn with ``byes`` has a bye;
* the pairs left without an opponent otherwise — facing a pair withdrawn with
  ``reseat``, or the empty place of an odd field, or facing again a pair they met in a
  re-seated match — play each other, when they have never met (preferring pairs of
  opposite lines, and pairs the movement does not bring together later); whoever is
  left has a bye.

A re-seated match is played at the table of its NS pair (the pair that would have sat
there), so the table cards stay where they are.

>>> from burraco.tournament.seating import Seating, Table
>>> planned = Seating((Table(1, 1, 8), Table(2, 2, 5), Table(3, 3, 6), Table(4, 4, 7)))
>>> seating = reseat(planned, {6: "reseat", 7: "reseat"}, met={3: {7}, 4: {8}})
>>> [t.pairs() for t in seating.tables], seating.byes
([(1, 8), (2, 5), (3, 4)], ())
>>> seating = reseat(planned, {6: "byes", 7: "byes"}, met={})
>>> [t.pairs() for t in seating.tables], seating.byes
([(1, 8), (2, 5)], (3, 4))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from burraco.tournament.evening import WithdrawalMode
from burraco.tournament.seating import Seating, Table

EXACT = 10
"""Up to this many pairs without an opponent the best matching is searched exhaustively
(a few thousand cases); beyond it (a club evening hardly gets there) it is built greedily."""


@dataclass(frozen=True, slots=True)
class _Idle:
    pair: int
    table: int | None
    """The table the movement gave it (``None``: a round robin's bye)."""
    side: int
    """0 NS, 1 EW: its seat in the movement's plan."""


def reseat(planned: Seating, withdrawn: Mapping[int, WithdrawalMode], *,
           met: Mapping[int, Collection[int]], again: Collection[frozenset[int]] = (),
           later: Collection[frozenset[int]] = (), home: Mapping[int, int] | None = None
           ) -> Seating:
    """``planned`` (the whole field's round) without the ``withdrawn`` pairs.

    ``met``: each pair's opponents so far; ``again``: meetings of earlier rounds of this
    movement that it would repeat (only re-seated matches make such a repeat); ``later``:
    meetings the movement plans for its next rounds; ``home``: the table of a pair with
    the movement's bye (a Mitchell's NS pair facing the empty place).
    """
    tables: list[Table] = []
    byes: list[int] = []
    idle: list[_Idle] = []
    for table in planned.tables:
        ns, ew = table.ns, table.ew
        gone_ns, gone_ew = ns in withdrawn, ew in withdrawn
        if not gone_ns and not gone_ew:
            if frozenset((ns, ew)) in again:
                idle += [_Idle(ns, table.number, 0), _Idle(ew, table.number, 1)]
            else:
                tables.append(table)
        elif gone_ns != gone_ew:
            left, side, gone = (ew, 1, ns) if gone_ns else (ns, 0, ew)
            if withdrawn[gone] == "byes":
                byes.append(left)
            else:
                idle.append(_Idle(left, table.number, side))
    idle += [_Idle(p, (home or {}).get(p), 0) for p in planned.byes if p not in withdrawn]
    matches = _matching(idle, met, later)
    paired = {p for a, b in matches for p in (a.pair, b.pair)}
    used = {t.number for t in tables}
    for a, b in matches:
        tables.append(_seat(a, b, used))
    byes += [i.pair for i in idle if i.pair not in paired]
    return Seating(tuple(sorted(tables)), tuple(byes))


def _cost(a: _Idle, b: _Idle, later: Collection[frozenset[int]]) -> int:
    """Lower is better: a meeting the movement plans later costs a bye then; two pairs of
    one line mean one of them plays in the other line for a round."""
    return 2 * (frozenset((a.pair, b.pair)) in later) + (a.side == b.side)


def _matching(idle: list[_Idle], met: Mapping[int, Collection[int]],
              later: Collection[frozenset[int]]) -> list[tuple[_Idle, _Idle]]:
    """As many matches as possible among pairs that have never met, at the least cost."""
    def allowed(a: _Idle, b: _Idle) -> bool:
        return b.pair not in met.get(a.pair, ())

    if len(idle) > EXACT:
        edges = sorted(((_cost(a, b, later), i, j) for i, a in enumerate(idle)
                        for j, b in enumerate(idle) if i < j and allowed(a, b)))
        taken: set[int] = set()
        chosen: list[tuple[_Idle, _Idle]] = []
        for _, i, j in edges:
            if i not in taken and j not in taken:
                taken |= {i, j}
                chosen.append((idle[i], idle[j]))
        return chosen

    def best(rest: list[_Idle]) -> tuple[tuple[int, int], list[tuple[_Idle, _Idle]]]:
        if len(rest) < 2:
            return (0, 0), []
        first, others = rest[0], rest[1:]
        score, chosen = best(others)  # the first pair sits out
        for k, other in enumerate(others):
            if not allowed(first, other):
                continue
            (count, cost), more = best(others[:k] + others[k + 1:])
            candidate = (count - 1, cost + _cost(first, other, later))
            if candidate < score:
                score, chosen = candidate, [(first, other), *more]
        return score, chosen

    return best(idle)[1]


def _seat(a: _Idle, b: _Idle, used: set[int]) -> Table:
    """The table of a re-seated match: the NS pair's own, else the first free one."""
    if a.side != b.side:
        ns, ew = (a, b) if a.side == 0 else (b, a)
    else:
        ns, ew = (a, b) if _rank(a) <= _rank(b) else (b, a)
    number = next((n for n in (ns.table, ew.table) if n is not None and n not in used), None)
    if number is None:
        number = next(n for n in range(1, len(used) + 2) if n not in used)
    used.add(number)
    return Table(number, ns.pair, ew.pair)


def _rank(idle: _Idle) -> tuple[bool, int, int]:
    """Of two pairs of one line, the first stays at its table (a table known first)."""
    return (idle.table is None, idle.table or 0, idle.pair)
