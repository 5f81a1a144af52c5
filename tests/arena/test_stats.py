"""Intervals and Elo fits used by the arena."""

from __future__ import annotations

import random

import pytest

from burraco.arena.stats import elo_intervals, fit_elo, mean_interval, percentile, wilson


def test_wilson_matches_known_values_and_stays_inside_zero_one() -> None:
    lo, hi = wilson(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-3)
    assert hi == pytest.approx(0.6906, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_and_percentiles() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and lo < 2.5 < hi
    assert mean_interval([5.0]) == (5.0, 5.0, 5.0)
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([0.0, 10.0], 0.95) == pytest.approx(9.5)
    assert percentile([], 0.5) == 0.0


def test_elo_fit_recovers_the_order_and_the_gap_of_known_strengths() -> None:
    rng = random.Random(0)
    truth = [0.0, 200.0, 400.0]
    results = []
    for _ in range(600):
        i, j = rng.sample(range(3), 2)
        p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
        results.append((i, j, 1.0 if rng.random() < p else 0.0))
    ratings = fit_elo(3, results, anchor=0)
    assert ratings[0] == pytest.approx(0.0, abs=1e-6)
    assert ratings[0] < ratings[1] < ratings[2]
    assert ratings[2] == pytest.approx(400, abs=80)
    intervals = elo_intervals(3, results, anchor=0, resamples=40)
    for rating, (lo, hi) in zip(ratings[1:], intervals[1:], strict=True):
        assert lo <= rating <= hi


def test_a_perfect_record_gives_a_finite_rating() -> None:
    ratings = fit_elo(2, [(1, 0, 1.0)] * 50, anchor=0)
    assert 300 < ratings[1] < 3000
