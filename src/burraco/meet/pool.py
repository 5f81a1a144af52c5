"""Pairing the entries of the pools: pure, and deterministic given the entries and ``now``.

Each pool is paired on its own.  Its entries are taken oldest first (by entry time, then
id), each in turn the *anchor* of a match:

* form ``"2"``: the anchor meets the compatible entry nearest its rating;
* form ``"4"``: the anchor needs one or two more parties that fill the four seats: two
  parties of two, a party of two and two single players (who become partners), or four
  single players (paired into the two sides whose mean ratings lie closest).  Among the
  compatible entries nearest the anchor's rating (the first ``NEAREST``, then, if none of
  their groups fills a table, the first ``FARTHEST``), the group chosen is the one nearest
  the anchor in sum, then the best balanced, then the one of the nearest entries.

Compatible (:func:`burraco.meet.entries.compatible`) means: each of the match's entries
lies within every other's window, each window by its own wait, and none blocks another.
Ties in rating go to the older entry, then the smaller id, so the same entries at the same
``now`` always give the same matches (a pairing can be tested and replayed).

An anchor left without a match that is casual and has waited its ``bots_after`` gets a
table of its own: its party, and bots of the level nearest its rating in the other seats.
A rated entry never gets bots; it waits until its window reaches someone.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from burraco.meet.entries import Entry, PoolError, PoolKey, compatible
from burraco.meet.matches import Match, build

NEAREST = 8
"""Compatible entries first searched for a form-4 group."""
FARTHEST = 32
"""Compatible entries searched when the nearest ones fill no table."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """The matches made (in the order made) and the entries left waiting (oldest first)."""

    matches: tuple[Match, ...]
    left: tuple[Entry, ...]
    taken: dict[str, tuple[Entry, ...]] = field(default_factory=dict)
    """The entries each match took, by match id (what a store removes from the pool)."""


def by_age(entry: Entry) -> tuple[float, str]:
    return entry.since, entry.id


def pair(entries: Iterable[Entry], now: float) -> Pairing:
    """Pair every pool's entries at ``now``.  An account in two entries is refused
    (:class:`PoolError`): a store holds one entry per person."""
    now = float(now)
    pools: dict[PoolKey, list[Entry]] = defaultdict(list)
    seen: set[str] = set()
    for entry in entries:
        for account in entry.accounts:
            if account in seen:
                raise PoolError("account", f"{account!r} is in two entries")
            seen.add(account)
        pools[entry.pool].append(entry)
    matches: list[Match] = []
    left: list[Entry] = []
    taken: dict[str, tuple[Entry, ...]] = {}
    for pool in sorted(pools, key=lambda p: p.name):
        made, waiting = _PoolPairing(pools[pool], now).run()
        for match, group in made:
            matches.append(match)
            taken[match.id] = group
        left.extend(waiting)
    return Pairing(tuple(matches), tuple(sorted(left, key=by_age)), taken)


def imbalance(teams: Sequence[Sequence[Entry]]) -> float:
    """How far apart the two sides' mean ratings lie (by member)."""
    means = []
    for team in teams:
        ratings = [m.rating for e in team for m in e.party]
        means.append(sum(ratings) / len(ratings))
    return abs(means[0] - means[1])


def teams_of(anchor: Entry, others: Sequence[Entry]) -> tuple[list[Entry], list[Entry]]:
    """The two sides of a form-4 table: the anchor's first.  Parties stay together; single
    players become partners, four of them split into the best balanced sides (on a tie,
    the anchor's partner is the nearest in ``others``' order)."""
    pairs = [e for e in others if len(e.party) == 2]
    singles = [e for e in others if len(e.party) == 1]
    if len(anchor.party) == 2:
        return [anchor], (pairs[:1] if pairs else singles)
    if pairs:
        return [anchor, singles[0]], [pairs[0]]
    options: list[tuple[list[Entry], list[Entry]]] = [
        ([anchor, singles[i]], [s for j, s in enumerate(singles) if j != i])
        for i in range(len(singles))]
    return min(options, key=imbalance)


class _PoolPairing:
    """One pool's pairing at one moment: entries sorted by rating, those already taken."""

    def __init__(self, entries: list[Entry], now: float) -> None:
        self.now = now
        self.by_age = sorted(entries, key=by_age)
        self.by_rating = sorted(entries, key=lambda e: (e.rating, e.since, e.id))
        self.position = {e.id: i for i, e in enumerate(self.by_rating)}
        self.taken: set[str] = set()
        self.seats = entries[0].pool.seats if entries else 2
        widest = sorted(((e.window(now), e.id) for e in entries), reverse=True)
        self.widest = widest[:2]

    def run(self) -> tuple[list[tuple[Match, tuple[Entry, ...]]], list[Entry]]:
        made: list[tuple[Match, tuple[Entry, ...]]] = []
        for anchor in self.by_age:
            if anchor.id in self.taken:
                continue
            teams = self._humans(anchor)
            if teams is None and anchor.wants_bots(self.now):
                teams = ([anchor], [])
            if teams is None:
                continue
            group = tuple(sorted((e for team in teams for e in team), key=by_age))
            self.taken.update(e.id for e in group)
            made.append((build(anchor.pool, teams, self.now), group))
        return made, [e for e in self.by_age if e.id not in self.taken]

    def _reach(self, anchor: Entry) -> float:
        """How far from the anchor's rating a partner may lie: its window, and no farther
        than the widest window of the others (nobody beyond could have it in theirs)."""
        others = [w for w, entry_id in self.widest if entry_id != anchor.id]
        return min(anchor.window(self.now), others[0] if others else -math.inf)

    def _nearest(self, anchor: Entry) -> Iterator[Entry]:
        """The entries not taken, nearest the anchor's rating first (ties: oldest), up to
        its reach."""
        rating, reach = anchor.rating, self._reach(anchor)
        rows, taken = self.by_rating, self.taken
        at = self.position[anchor.id]
        low, high = at - 1, at + 1
        while True:
            while low >= 0 and rows[low].id in taken:
                low -= 1
            while high < len(rows) and rows[high].id in taken:
                high += 1
            down = rating - rows[low].rating if low >= 0 else math.inf
            up = rows[high].rating - rating if high < len(rows) else math.inf
            gap = min(down, up)
            if gap > reach or gap == math.inf:
                return
            tied = []
            while low >= 0 and rating - rows[low].rating == gap:
                if rows[low].id not in taken:
                    tied.append(rows[low])
                low -= 1
            while high < len(rows) and rows[high].rating - rating == gap:
                if rows[high].id not in taken:
                    tied.append(rows[high])
                high += 1
            yield from sorted(tied, key=by_age)

    def _compatible(self, anchor: Entry) -> Iterator[Entry]:
        return (e for e in self._nearest(anchor) if compatible(anchor, e, self.now))

    def _humans(self, anchor: Entry) -> tuple[list[Entry], list[Entry]] | None:
        """The sides of the anchor's match with other entries, or ``None``."""
        if self.seats == 2:
            other = next(self._compatible(anchor), None)
            return None if other is None else ([anchor], [other])
        need = self.seats - len(anchor.party)
        stream = self._compatible(anchor)
        candidates = [e for _, e in zip(range(NEAREST), stream, strict=False)]
        group = _best_group(anchor, candidates, need, self.now)
        if group is None and len(candidates) == NEAREST:
            candidates += [e for _, e in zip(range(FARTHEST - NEAREST), stream, strict=False)]
            group = _best_group(anchor, candidates, need, self.now)
        return None if group is None else teams_of(anchor, group)


def _best_group(anchor: Entry, candidates: list[Entry], need: int,
                now: float) -> list[Entry] | None:
    """The candidates (all compatible with the anchor) that fill ``need`` seats, are
    compatible with each other, and lie nearest the anchor (then best balanced, then
    earliest in ``candidates``' order)."""
    count = len(candidates)
    fits = [[i != j and compatible(candidates[i], candidates[j], now) for j in range(count)]
            for i in range(count)]
    sizes = [len(e.party) for e in candidates]
    best: tuple[tuple[float, float, tuple[int, ...]], list[Entry]] | None = None

    def extend(chosen: list[int], seats: int, start: int) -> None:
        nonlocal best
        if seats == need:
            group = [candidates[i] for i in chosen]
            distance = sum(abs(e.rating - anchor.rating) for e in group)
            if best is not None and distance > best[0][0]:
                return
            cost = (distance, imbalance(teams_of(anchor, group)), tuple(chosen))
            if best is None or cost < best[0]:
                best = (cost, group)
            return
        for i in range(start, count):
            if seats + sizes[i] <= need and all(fits[i][j] for j in chosen):
                extend([*chosen, i], seats + sizes[i], i + 1)

    extend([], 0, 0)
    return None if best is None else best[1]
