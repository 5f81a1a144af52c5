"""Duplicate scoring, "burraco a carte uguali" (RULES.md §11.4).

Every table of a round plays the same deals, so a line's result can be
compared with the other tables' results on the very same cards.  At each table
the NS line's MP difference *d* (NS minus EW) is compared with the average
difference of the **other** tables of the round: the NS pair scores
``d − mean(others)`` and the EW pair the opposite.  The scores of a round add
up to zero; a round with a single table reported (or a bye) scores 0.

Fractions keep the ranking exact; :func:`as_points` rounds for display.

>>> from burraco.tournament.model import Result
>>> rows = [Result(1, 1, 1, 4, (900, 300), (15, 5)), Result(1, 2, 2, 5, (400, 400), (10, 10)),
...         Result(1, 3, 3, 6, (200, 500), (7, 13))]
>>> {pair: str(score) for pair, score in round_scores(rows).items()}
{1: '750', 4: '-750', 2: '-150', 5: '150', 3: '-600', 6: '600'}
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from burraco.tournament.parts import Result, TournamentData


def round_scores(results: Sequence[Result]) -> dict[int, Fraction]:
    """Each pair's score in one round from the results of that round's tables."""
    scores: dict[int, Fraction] = {}
    count = len(results)
    total = sum(r.diff for r in results)
    for r in results:
        score = Fraction(0) if count < 2 else r.diff - Fraction(total - r.diff, count - 1)
        for entrant in r.line(0):
            scores[entrant] = score
        for entrant in r.line(1):
            scores[entrant] = -score
    return scores


def duplicate_scores(t: TournamentData) -> dict[int, Fraction]:
    """Every pair's duplicate score over the rounds played so far (live)."""
    totals = {p.number: Fraction(0) for p in t.pairs}
    for played in t.rounds:
        for pair, score in round_scores(t.round_results(played.number)).items():
            totals[pair] += score
    return totals


def as_points(score: Fraction) -> float:
    """A score for display: MP to one decimal."""
    return round(float(score), 1)
