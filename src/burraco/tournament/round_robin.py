"""Round robin, "all'italiana" (RULES.md §11.4): every pair meets every other exactly once.

The circle method: the first pair stays, the others turn one place each round.
N pairs (N even) play N−1 rounds of N/2 matches; an odd field adds an empty
place, so N rounds with one bye each.  Either way N(N−1)/2 matches in all.
The fixed pair changes line every round so that it is not always NS.

>>> [t.pairs() for t in round_robin_round([1, 2, 3, 4], 0).tables]
[(1, 4), (2, 3)]
>>> sum(len(round_robin_round(list(range(1, 8)), r).tables) for r in range(7))
21
"""

from __future__ import annotations

from collections.abc import Sequence

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text
from burraco.tournament.seating import Seating


def cycle_length(pairs: int) -> int:
    """Rounds of a complete round robin."""
    return pairs - 1 if pairs % 2 == 0 else pairs


def round_robin_round(order: Sequence[int], index: int) -> Seating:
    """Round ``index`` (0-based) of the cycle over ``order``."""
    places: list[int | None] = list(order)
    if len(places) < 2:
        raise TournamentError(Text("error.robin_two", n=len(places)))
    if len(places) % 2:
        places.append(None)
    n = len(places)
    if not 0 <= index < n - 1:
        raise TournamentError(Text("error.robin_over", n=len(order), rounds=n - 1,
                                   round=index + 1))
    turning = places[1:]
    shift = index % (n - 1)
    turning = turning[-shift:] + turning[:-shift] if shift else turning
    circle = [places[0], *turning]
    matches: list[tuple[int, int]] = []
    byes: list[int] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            idle = b if a is None else a
            if idle is not None:
                byes.append(idle)
            continue
        if i == 0 and index % 2:
            a, b = b, a
        matches.append((a, b))
    return Seating.of(matches, byes)
