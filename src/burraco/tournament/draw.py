"""Random draw, "sorteggio" (RULES.md §11.4): seats drawn by lot, reproducible from a seed.

Among a few hundred shuffles the first with no rematch at all is taken, else
the one with the fewest; the bye goes by lot among the pairs with fewest byes.

>>> import random
>>> len(draw_round([1, 2, 3, 4, 5], random.Random(7)).byes)
1
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from burraco.tournament.seating import Seating

TRIES = 300


def draw_round(pairs: Sequence[int], rng: random.Random, *,
               met: Mapping[int, Collection[int]] | None = None,
               byes: Mapping[int, int] | None = None) -> Seating:
    """A random seating; ``met`` (pair → opponents so far) steers it away from rematches."""
    order = list(pairs)
    out: list[int] = []
    if len(order) % 2:
        fewest = min((byes or {}).get(p, 0) for p in order)
        bye = rng.choice([p for p in order if (byes or {}).get(p, 0) == fewest])
        order.remove(bye)
        out.append(bye)
    best: list[tuple[int, int]] = []
    best_repeats = len(order) + 1
    for _ in range(TRIES):
        rng.shuffle(order)
        matches = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        repeats = sum(1 for a, b in matches if met and b in met.get(a, ()))
        if repeats < best_repeats:
            best, best_repeats = matches, repeats
        if repeats == 0:
            break
    return Seating.of(best, out)


def seeded_rng(*parts: int) -> random.Random:
    """A generator seeded from integers only (``hash`` of a str changes between runs)."""
    value = 0x9E3779B9
    for p in parts:
        value = (value * 1_000_003 + p + 0x7F4A7C15) % (2**61 - 1)
    return random.Random(value)
