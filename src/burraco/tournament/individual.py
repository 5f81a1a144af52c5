"""Seating an individual event: partners change every round (RULES.md §11.4).

Each table seats four players as two partnerships for this round only.  Two
movements make sense without fixed pairs:

* **random draw** (sorteggio): among a few hundred shuffles the seating with
  the fewest repeats is kept, a repeated partner weighing more than a repeated
  opponent;
* **Danish**: players ranked by the standings sit in groups of four (1st–4th at
  table 1, …); inside a group the top player partners the 4th against the 2nd
  and 3rd (the balanced split), or the next split when that partnership was
  already played.  **Modified Danish** also keeps apart, where the ranking
  allows, players who shared a table in the previous round.

With a field that is not a multiple of four, one to three players sit out: in
a draw by lot among those with fewest byes, in a Danish round the lowest-ranked
with fewest byes.

>>> import random
>>> seating = individual_round([1, 2, 3, 4, 5, 6, 7, 8], ranked=True, rng=random.Random(1))
>>> [(t.line(0), t.line(1)) for t in seating.tables]
[((1, 4), (2, 3)), ((5, 8), (6, 7))]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from burraco.tournament.seating import Seating, Table

TRIES = 300
PARTNER_WEIGHT = 10
"""A repeated partnership costs as much as ten repeated opponents."""
SPLITS = ((0, 3, 1, 2), (0, 2, 1, 3), (0, 1, 2, 3))
"""Ways to split a ranked group of four into two lines, preferred first: 1+4 v 2+3, …"""


def individual_round(order: Sequence[int], *, ranked: bool, rng: random.Random,
                     partnered: Mapping[int, Collection[int]] | None = None,
                     met: Mapping[int, Collection[int]] | None = None,
                     byes: Mapping[int, int] | None = None,
                     previous: Mapping[int, Collection[int]] | None = None) -> Seating:
    """The seating of one round.

    ``order`` is the ranking (Danish) or any order (draw); ``partnered`` and
    ``met`` map a player to past partners and opponents; ``byes`` counts past
    byes; ``previous`` (modified Danish) maps a player to last round's table-mates.
    """
    players = list(order)
    sitting_out = _byes(players, len(players) % 4, ranked=ranked, rng=rng, byes=byes or {})
    playing = [p for p in players if p not in sitting_out]
    partnered = partnered or {}
    met = met or {}
    if ranked:
        groups = _ranked_groups(playing, previous or {})
        tables = [_best_split(group, partnered, met) for group in groups]
    else:
        tables = _drawn(playing, rng, partnered, met)
    return Seating(tuple(Table(i, a, b, c, d) for i, (a, c, b, d) in enumerate(tables, start=1)),
                   tuple(sitting_out))


def _byes(players: list[int], count: int, *, ranked: bool, rng: random.Random,
          byes: Mapping[int, int]) -> list[int]:
    out: list[int] = []
    for _ in range(count):
        left = [p for p in players if p not in out]
        fewest = min(byes.get(p, 0) for p in left)
        candidates = [p for p in left if byes.get(p, 0) == fewest]
        out.append(candidates[-1] if ranked else rng.choice(candidates))
    return out


def _ranked_groups(playing: list[int],
                   previous: Mapping[int, Collection[int]]) -> list[list[int]]:
    """Groups of four in ranking order, skipping last round's table-mates where possible."""
    left = list(playing)
    groups = []
    while left:
        group = [left.pop(0)]
        while len(group) < 4:
            fresh = next((p for p in left
                          if not any(p in previous.get(g, ()) for g in group)), left[0])
            left.remove(fresh)
            group.append(fresh)
        groups.append(group)
    return groups


def _cost(a: int, c: int, b: int, d: int, partnered: Mapping[int, Collection[int]],
          met: Mapping[int, Collection[int]]) -> int:
    partners = (c in partnered.get(a, ())) + (d in partnered.get(b, ()))
    opponents = sum(y in met.get(x, ()) for x in (a, c) for y in (b, d))
    return PARTNER_WEIGHT * partners + opponents


def _best_split(group: list[int], partnered: Mapping[int, Collection[int]],
                met: Mapping[int, Collection[int]]) -> tuple[int, int, int, int]:
    """(NS, NS partner, EW, EW partner) of a ranked group: fewest repeated partners first."""
    best: tuple[int, int, int, int] | None = None
    best_key = (0, 0)
    for rank, (i, j, k, m) in enumerate(SPLITS):
        a, c, b, d = group[i], group[j], group[k], group[m]
        repeats = (c in partnered.get(a, ())) + (d in partnered.get(b, ()))
        key = (repeats, rank)
        if best is None or key < best_key:
            best, best_key = (a, c, b, d), key
    assert best is not None
    return best


def _drawn(playing: list[int], rng: random.Random, partnered: Mapping[int, Collection[int]],
           met: Mapping[int, Collection[int]]) -> list[tuple[int, int, int, int]]:
    order = list(playing)
    best: list[tuple[int, int, int, int]] = []
    best_cost = -1
    for _ in range(TRIES):
        rng.shuffle(order)
        tables = [(order[i], order[i + 2], order[i + 1], order[i + 3])
                  for i in range(0, len(order), 4)]
        cost = sum(_cost(*t, partnered, met) for t in tables)
        if best_cost < 0 or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    return best
