"""The pools' benchmark runs small: everyone seated once or left waiting, figures given."""

from __future__ import annotations

import os

import pytest

from burraco.meet.bench import bench_pool, crowd, describe


def test_the_crowd_is_the_same_for_a_seed() -> None:
    assert crowd(50, seed=3) == crowd(50, seed=3)
    assert sum(len(e.party) for e in crowd(50)) == 50


def test_bench_in_memory() -> None:
    result = bench_pool(players=120, processes=1)
    assert result["store"] == "memory" and result["tables"] > 0
    assert result["left"] < 4  # at most a rated four short of players
    assert "tables per CPU second" in describe(result)


def test_bench_across_two_processes() -> None:
    url = os.environ.get("BURRACO_TEST_REDIS_URL")
    if not url:
        pytest.skip("BURRACO_TEST_REDIS_URL is not set (.ci/run sets it)")
    result = bench_pool(players=120, processes=2, redis_url=url)
    assert result["store"] == "redis" and result["tables"] > 0 and result["left"] < 4
    assert "Redis:" in describe(result)
