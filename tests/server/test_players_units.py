"""The players' pure parts: usernames, abandonment verdicts, waits, throttling, rating maths."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
import redis
from openskill.models import PlackettLuce
from sqlalchemy import Engine

from burraco.accounts import fairplay, ratings
from burraco.accounts.names import FieldError, check_username, username_key
from burraco.community.results import periods_of
from burraco.infra.rates import Throttle, storage_for


def command(seat: int, source: str, action: str = "draw") -> dict[str, object]:
    return {"seat": seat, "source": source, "body": {"action": action}, "kind": "act"}


def test_a_stand_in_or_three_clock_timeouts_make_an_abandonment() -> None:
    log = [command(0, "client"), command(1, "clock", "draw"), command(1, "clock", "discard 5H"),
           command(1, "clock", "discard 7C"), command(2, "standin"), command(3, "clock",
                                                                          "discard 9D"),
           command(1, "clock", "discard KS"), command(4, "bot")]
    assert fairplay.abandonments(log, [0, 1, 2, 3]) == {1: "clock", 2: "left"}
    assert fairplay.abandonments(log[:4], [0, 1]) == {}


def test_waits_grow_from_minutes_to_a_day() -> None:
    waits = [fairplay.wait_after(n) for n in range(8)]
    assert waits[0] == 5 * 60 and waits[-1] == 24 * 3600
    assert waits == sorted(waits)


@pytest.mark.parametrize("name", ["ab", "a" * 21, "a b", "<i>x</i>", "é_and", "x\u200by"])
def test_bad_usernames(name: str) -> None:
    with pytest.raises(FieldError) as err:
        check_username(name)
    assert err.value.field == "username"


def test_usernames_compare_without_case() -> None:
    assert check_username("Ada-_9") == "Ada-_9" and username_key("AdA") == username_key("aDa")


def test_throttle_opens_once_the_oldest_failure_leaves_the_window() -> None:
    async def main() -> None:
        throttle = Throttle(3, 2)
        for _ in range(3):
            assert await throttle.retry_after("k") == 0
            await throttle.failed("k")
        assert 1 <= await throttle.retry_after("k") <= 2
        assert await throttle.failures("k") == 3 and await throttle.failures("other") == 0
        await asyncio.sleep(2.1)
        assert await throttle.retry_after("k") == 0

    asyncio.run(main())


def test_throttles_of_two_processes_on_one_redis_count_together() -> None:
    """The audit's finding 7: in a cluster the counts live in Redis, so five guesses per
    name stay five whichever process answers them."""
    url = os.environ.get("BURRACO_TEST_REDIS_URL")
    if not url:
        pytest.skip("BURRACO_TEST_REDIS_URL is not set (.ci/run sets it)")
    prefix = f"burraco-test-{uuid.uuid4().hex[:10]}"

    async def main() -> None:
        one = Throttle(5, 60, storage_for(url, prefix), name="login-name")
        two = Throttle(5, 60, storage_for(url, prefix), name="login-name")
        for k in range(5):
            await (one if k % 2 else two).failed("name:ada")
        assert await one.retry_after("name:ada") > 0 and await two.retry_after("name:ada") > 0
        assert await one.failures("name:ada") == 5

    try:
        asyncio.run(main())
    finally:
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()


def test_a_protected_partner_never_loses_rating_and_bots_never_move() -> None:
    a = ratings.Seat("a", 1500, 500)
    partner = ratings.Seat("p", 1600, 300, protected=True)
    bot1 = ratings.Seat("b1", 1700, 30, fixed=True)
    bot2 = ratings.Seat("b2", 1700, 30, fixed=True)
    new = ratings.rate([[a, partner], [bot1, bot2]], [1, 0])
    assert set(new) == {"a", "p"} and new["p"] == (1600, 300) and new["a"][0] < 1500
    model = PlackettLuce(mu=ratings.MU, sigma=ratings.SIGMA, beta=ratings.BETA, tau=ratings.TAU)
    expected = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                          ranks=[0, 1])
    plain = ratings.rate([[ratings.Seat("x", 1500, 500), ratings.Seat("y", 1500, 500)],
                          [ratings.Seat("z", 1500, 500), ratings.Seat("w", 1500, 500)]], [0, 1])
    assert plain["x"] == pytest.approx((expected[0][0].mu, expected[0][0].sigma))


def test_board_periods_are_iso_weeks_and_months_in_utc() -> None:
    # 2026-01-01 00:30 UTC is a Thursday of ISO week 1 of 2026
    assert periods_of(1767227400.0) == ("week:2026-W01", "month:2026-01")
    # 2027-01-01 is a Friday: still in ISO week 53 of 2026
    assert periods_of(1798761600.0) == ("week:2026-W53", "month:2027-01")


def test_the_migrations_create_exactly_the_models(engine: Engine) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    import burraco.accounts.models  # noqa: F401  (the players' tables on the metadata)
    from burraco.infra.schema import Base

    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
