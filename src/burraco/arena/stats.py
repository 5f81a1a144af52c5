"""Statistics for bot matches: intervals for rates and means, and Elo ratings.

Standard library only.  ``wilson`` is the score interval for a proportion
(good near 0 and 1, unlike the normal approximation); ``mean_interval`` the
normal interval for a mean (matches are independent and many); ``fit_elo``
the Bradley–Terry maximum-likelihood fit on the Elo scale, with bootstrap
intervals over matches.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (ties counted as half a success)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the normal 95 % interval of the mean."""
    if not values:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0–1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


Result = tuple[int, int, float]
"""(player i, player j, score of i: 1 win, 0.5 tie, 0 loss) for one match."""


def fit_elo(players: int, results: Sequence[Result], *, anchor: int = 0,
            iterations: int = 500) -> list[float]:
    """Elo ratings (player ``anchor`` at 0) maximising the Bradley–Terry likelihood.

    Minorisation–maximisation (Hunter 2004) on strengths; a tiny prior of one
    drawn match against the anchor keeps a perfect record finite.
    """
    wins = [0.5] * players
    games: dict[tuple[int, int], float] = {}
    for i, j, score in results:
        wins[i] += score
        wins[j] += 1.0 - score
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + 1.0
    for p in range(players):
        if p != anchor:
            key = (min(p, anchor), max(p, anchor))
            games[key] = games.get(key, 0.0) + 1.0
    wins[anchor] += 0.5 * (players - 1) - 0.5
    strength = [1.0] * players
    for _ in range(iterations):
        new = []
        for p in range(players):
            denom = 0.0
            for (i, j), n in games.items():
                if p in (i, j):
                    q = j if p == i else i
                    denom += n / (strength[p] + strength[q])
            new.append(wins[p] / denom if denom > 0 else strength[p])
        norm = new[anchor]
        strength = [s / norm for s in new]
    return [ELO_SCALE * math.log(s) for s in strength]


def elo_intervals(players: int, results: Sequence[Result], *, anchor: int = 0,
                  resamples: int = 200, seed: int = 0) -> list[tuple[float, float]]:
    """95 % bootstrap intervals of each rating (matches resampled with replacement)."""
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(players)]
    n = len(results)
    for _ in range(resamples):
        draw = [results[rng.randrange(n)] for _ in range(n)]
        for p, rating in enumerate(fit_elo(players, draw, anchor=anchor, iterations=200)):
            samples[p].append(rating)
    return [(percentile(s, 0.025), percentile(s, 0.975)) for s in samples]
