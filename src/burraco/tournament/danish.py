"""Danish and modified Danish pairing (RULES.md §11.4).

After each round the pairs are ranked; Danish seats 1st against 2nd, 3rd
against 4th and so on, the better-ranked pair NS, table 1 the top match.
Modified Danish does the same but never lets two pairs that met in the previous
round meet again: each pair, from the top, takes the best-ranked pair still free
that it did not just play, backtracking when the bottom of the list gets stuck.
With an odd field the lowest-ranked pair that has not had a bye sits out.

>>> danish_round([4, 1, 3, 2]).tables[0].pairs()
(4, 1)
>>> [t.pairs() for t in danish_round([4, 1, 3, 2], previous={4: 1, 1: 4}).tables]
[(4, 3), (1, 2)]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from burraco.tournament.seating import Seating


def bye_for(ranking: Sequence[int], had_bye: Collection[int]) -> int:
    """The pair sitting out: the lowest-ranked without a bye yet (else the lowest-ranked)."""
    for pair in reversed(ranking):
        if pair not in had_bye:
            return pair
    return ranking[-1]


def danish_round(ranking: Sequence[int], *, previous: Mapping[int, int] | None = None,
                 had_bye: Collection[int] = ()) -> Seating:
    """The seating of a Danish round; ``previous`` (pair → last opponent) makes it modified."""
    order = list(ranking)
    byes: list[int] = []
    if len(order) % 2:
        bye = bye_for(order, had_bye)
        order.remove(bye)
        byes.append(bye)
    if previous is None:
        matches = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    else:
        found = _avoiding(order, previous)
        # two pairs alone (or a field where every choice repeats) cannot avoid the rematch
        matches = found if found is not None else [
            (order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return Seating.of(matches, byes)


def _avoiding(order: list[int], previous: Mapping[int, int]) -> list[tuple[int, int]] | None:
    if not order:
        return []
    top, rest = order[0], order[1:]
    for j, other in enumerate(rest):
        if previous.get(top) == other:
            continue
        tail = _avoiding(rest[:j] + rest[j + 1:], previous)
        if tail is not None:
            return [(top, other), *tail]
    return None
