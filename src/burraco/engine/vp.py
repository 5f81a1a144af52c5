"""Match points → victory points on the 20-point scale (RULES.md §11.2–11.3).

A table is the tuple of MP-difference upper bounds for VP 10, 11 … 19; a
difference above the last bound is 20–0.  The tables live in
``Rules.vp_tables`` (keyed by smazzate per match) because a referee may
replace them.  Tables the sources do not give (team matches, 5 or more smazzate) are
never guessed: asking for one is an error until someone configures it.

>>> victory_points(55, 3)
(11, 9)
>>> vp_for_scores(300, 1900, 4)
(2, 18)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from burraco.engine.rules import FIBUR, Rules

VP_TOTAL = 20
VP_DRAW = 10
_BOUNDS = VP_TOTAL - VP_DRAW  # bounds in a table: one per VP 10…19


def vp_table(hands: int, rules: Rules = FIBUR) -> tuple[int, ...]:
    """The configured table for matches of ``hands`` smazzate, or a ``ValueError``."""
    for count, bounds in rules.vp_tables:
        if count == hands:
            check_table(bounds)
            return bounds
    known = ", ".join(str(count) for count, _ in rules.vp_tables) or "none"
    raise ValueError(
        f"no VP table is known for matches of {hands} smazzate (configured: {known}); "
        "the official table was not found (RULES.md §11.3), so configure it in "
        "Rules.vp_tables instead of relying on a default"
    )


def check_table(bounds: Sequence[int]) -> None:
    """A table needs ten strictly increasing, non-negative bounds that are multiples of 5."""
    if len(bounds) != _BOUNDS:
        raise ValueError(f"a VP table needs {_BOUNDS} bounds (VP 10…19), got {len(bounds)}")
    if any(b < 0 or b % 5 for b in bounds):
        raise ValueError(f"VP table bounds must be non-negative multiples of 5: {tuple(bounds)}")
    if any(a >= b for a, b in pairwise(bounds)):
        raise ValueError(f"VP table bounds must increase: {tuple(bounds)}")


def vp_from_bounds(diff: int, bounds: Sequence[int]) -> tuple[int, int]:
    """(winner, loser) VP for an MP difference under any table, e.g. a team table."""
    check_table(bounds)
    return _lookup(diff, bounds)


def _lookup(diff: int, bounds: Sequence[int]) -> tuple[int, int]:
    if diff < 0:
        raise ValueError(f"an MP difference cannot be negative, got {diff}")
    if diff % 5:
        raise ValueError(f"an MP difference must be a multiple of 5, got {diff}")
    winner = next((VP_DRAW + i for i, bound in enumerate(bounds) if diff <= bound), VP_TOTAL)
    return winner, VP_TOTAL - winner


def victory_points(diff: int, hands: int, rules: Rules = FIBUR) -> tuple[int, int]:
    """(winner, loser) VP for the MP difference of a match of ``hands`` smazzate (§11.2)."""
    return _lookup(diff, vp_table(hands, rules))


def vp_for_scores(ns: int, ew: int, hands: int, rules: Rules = FIBUR) -> tuple[int, int]:
    """(NS, EW) VP from the two lines' MP totals of a whole match (one conversion per match)."""
    winner, loser = victory_points(abs(ns - ew), hands, rules)
    return (winner, loser) if ns >= ew else (loser, winner)
