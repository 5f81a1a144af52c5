"""The stores: joins, leaves, deliveries, acks and leases, and a party's invitation (held,
accepted once, withdrawn, declined, expired), the same in memory and in Redis; in Redis, two
pools pairing one shared pool at once, and a pairing process killed mid-way.

The Redis tests skip, saying why, when ``BURRACO_TEST_REDIS_URL`` is unset (.ci/run sets it);
each uses a key prefix of its own and deletes its keys afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from redis import Redis as SyncRedis
from redis.asyncio import Redis

from burraco.meet.entries import Entry, Invitation, PoolError, new_entry, new_invitation
from burraco.meet.store import DELIVERIES, Delivery, MemoryPool, PoolStore, RedisPool

REDIS_ENV = "BURRACO_TEST_REDIS_URL"
CHILD = Path(__file__).with_name("meet_child.py")
LEASE = 5.0
RATED = ("505", "2", True)
FOUR = ("hand", "4", False)

Make = Callable[[], PoolStore]


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"{REDIS_ENV} is not set (.ci/run sets it)")
    return url


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    name = f"burraco-test-meet-{uuid.uuid4().hex[:10]}"
    try:
        yield name
    finally:
        with contextlib.suppress(Exception):
            client = SyncRedis.from_url(redis_url)
            keys = list(client.scan_iter(f"{name}:*"))
            if keys:
                client.delete(*keys)
            client.close()


@pytest.fixture(params=["memory", "redis"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def run_with(kind: str, request: pytest.FixtureRequest,
             body: Callable[[Make], Awaitable[None]]) -> None:
    """Run ``body`` with a maker of pools that share one store: the same memory pool each
    time, or a new RedisPool (a new process, as it were) on the test's Redis prefix."""
    if kind == "memory":
        shared = MemoryPool(lease=LEASE)
        asyncio.run(body(lambda: shared))
        return
    url = request.getfixturevalue("redis_url")
    name = request.getfixturevalue("prefix")

    async def main() -> None:
        clients: list[Redis] = []

        def make() -> PoolStore:
            clients.append(Redis.from_url(url))
            return RedisPool(clients[-1], name, lease=LEASE)

        try:
            await body(make)
        finally:
            for client in clients:
                await client.aclose()

    asyncio.run(main())


def single(account: str, rating: float, since: float = 100.0,
           pool: tuple[str, str, bool] = RATED) -> Entry:
    return new_entry(pool, [(account, rating)], since=since)


def test_join_pair_ack_and_where_to_go(kind: str, request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool = make()
        await pool.join(single("ann", 1500))
        await pool.join(single("bob", 1550))
        where = await pool.where("ann", now=130)
        assert where is not None and where.window == 300 and where.pool.name == "505/2/rated"
        [delivery] = await pool.pair(130)
        assert set(delivery.match.accounts) == {"ann", "bob"} and delivery.attempt == 1
        assert await pool.waiting() == [] and await pool.where("ann") is None
        pending = await pool.matches_for("bob")
        assert pending is not None and pending.table is None
        with pytest.raises(PoolError, match="being seated"):
            await pool.join(single("ann", 1500))
        assert await pool.ack(delivery, "t1", 131)
        assert not await pool.ack(delivery, "t2", 131)
        seated = await pool.matches_for("ann")
        assert seated is not None and seated.table == "t1" and seated.match == delivery.match
        assert await pool.matches_for("cy") is None
        await pool.join(single("ann", 1500, since=200))  # seated: free to queue again
        assert await pool.matches_for("ann") is None
        assert await pool.leave("ann") == single("ann", 1500, since=200)
        assert await pool.leave("ann") is None

    run_with(kind, request, body)


def test_a_party_leaves_together(kind: str, request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool = make()
        party = new_entry(FOUR, [("ann", 1500), ("bob", 1500)], since=0)
        await pool.join(party)
        assert await pool.leave("bob") == party
        assert await pool.where("ann") is None
        await pool.join(single("ann", 1500))

    run_with(kind, request, body)


def test_an_unacked_match_is_delivered_again_once(kind: str,
                                                  request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        first, second = make(), make()
        await first.join(single("ann", 1500))
        await first.join(single("bob", 1520))
        [taken] = await first.pair(100)  # ... and the first process dies here
        assert await second.pair(100 + LEASE - 0.1) == []
        assert await second.waiting() == []
        [again] = await second.pair(100 + LEASE + 0.1)
        assert again.match == taken.match and again.attempt == 2
        assert again.token != taken.token
        assert await first.pair(100 + LEASE + 0.2) == []  # delivered to one process only
        assert not await first.ack(taken, "stale")
        assert await second.ack(again, "fresh")
        placement = await first.matches_for("ann")
        assert placement is not None and placement.table == "fresh"
        assert await second.pair(1000) == []

    run_with(kind, request, body)


def test_delivered_too_often_the_players_go_back(kind: str,
                                                 request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool = make()
        await pool.join(single("ann", 1500))
        await pool.join(single("bob", 1520))
        deliveries: list[Delivery] = await pool.pair(100)
        now = 100.0
        for _ in range(DELIVERIES - 1):
            now += LEASE + 0.1
            deliveries += await pool.pair(now)
        assert [d.attempt for d in deliveries] == list(range(1, DELIVERIES + 1))
        now += LEASE + 0.1
        [fresh] = await pool.pair(now)  # dissolved, back in the pool, paired anew
        assert fresh.attempt == 1 and fresh.match.id != deliveries[0].match.id
        assert sorted(fresh.match.waits) == [("ann", now - 100), ("bob", now - 100)]
        for old in deliveries:
            assert not await pool.ack(old, "old")
        assert await pool.give_back(fresh)
        assert not await pool.ack(fresh, "late")
        assert [(e.id, e.since) for e in await pool.waiting()] == [("ann", 100), ("bob", 100)]

    run_with(kind, request, body)


def test_leaving_while_being_seated(kind: str, request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool = make()
        await pool.join(single("ann", 1500))
        await pool.join(single("bob", 1520))
        [delivery] = await pool.pair(100)
        assert await pool.leave("ann") == single("ann", 1500)
        assert not await pool.ack(delivery, "t")
        assert [e.id for e in await pool.waiting()] == ["bob"]
        assert await pool.matches_for("bob") is None
        assert await pool.pair(1000) == []

    run_with(kind, request, body)


# --- Redis only: two processes' pools on one shared pool ---------------------------------

def players(count: int, pool: tuple[str, str, bool], tag: str) -> list[Entry]:
    return [new_entry(pool, [(f"{tag}{i:03}", 1000 + (i * 37) % 1500)], since=1000.0,
                      bots_after=None) for i in range(count)]


def test_two_pools_pair_one_pool_concurrently(redis_url: str, prefix: str) -> None:
    """Two threads, each with its own client and RedisPool (as two processes have), join
    their halves and pair the same pool at the same simulated moments."""
    everyone = players(120, RATED, "r") + players(80, FOUR, "f")
    halves = [everyone[0::2], everyone[1::2]]
    rounds = 16
    barrier = threading.Barrier(2)
    acked: list[list[Delivery]] = [[], []]
    delivered = [0, 0]
    errors: list[BaseException] = []

    async def work(side: int) -> None:
        client = Redis.from_url(redis_url)
        pool = RedisPool(client, prefix, lease=LEASE)
        mine = halves[side]
        try:
            for tick in range(rounds):
                for entry in mine[tick::rounds]:
                    await pool.join(entry)
                barrier.wait(10)
                for delivery in await pool.pair(1000.0 + 5 * tick):
                    delivered[side] += 1
                    if await pool.ack(delivery, f"table-{side}", 1000.0 + 5 * tick):
                        acked[side].append(delivery)
        finally:
            await client.aclose()

    def thread(side: int) -> None:
        try:
            asyncio.run(work(side))
        except BaseException as exc:
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=thread, args=(side,)) for side in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    seats = Counter(a for side in acked for d in side for a in d.match.accounts)
    assert seats and max(seats.values()) == 1, "somebody was seated twice"
    assert set(seats) == {a for e in everyone for a in e.accounts}, "somebody was lost"
    assert delivered == [len(acked[0]), len(acked[1])]  # each match delivered once
    assert acked[0] and acked[1], "both pools took part"

    async def leftovers() -> tuple[list[Entry], list[str]]:
        client = Redis.from_url(redis_url)
        pool = RedisPool(client, prefix)
        try:
            return await pool.waiting(), await pool.pending()
        finally:
            await client.aclose()

    assert asyncio.run(leftovers()) == ([], [])


@pytest.mark.parametrize("stop_at", ["paired", "taken"])
def test_a_pairing_process_killed_midway(redis_url: str, prefix: str, stop_at: str,
                                         tmp_path: Path) -> None:
    """A real process pairs and is SIGKILLed at a step; the survivor seats everyone once."""
    everyone = players(40, RATED, "k") + players(24, FOUR, "q")
    marker = tmp_path / "step"

    async def join_all() -> None:
        client = Redis.from_url(redis_url)
        pool = RedisPool(client, prefix, lease=LEASE)
        for entry in everyone:
            await pool.join(entry)
        await client.aclose()

    asyncio.run(join_all())
    child = subprocess.Popen([sys.executable, str(CHILD), redis_url, prefix, "1100", stop_at,
                              str(marker)])
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.02)
        assert marker.read_text() == stop_at
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)

    async def survive() -> list[Delivery]:
        client = Redis.from_url(redis_url)
        pool = RedisPool(client, prefix, lease=LEASE)
        try:
            if stop_at == "taken":  # everyone went into the dead process's matches
                assert await pool.waiting() == []
                assert len(await pool.pending()) == 40 // 2 + 24 // 4
                assert await pool.pair(1100 + LEASE - 1) == []
            seated = []
            for delivery in await pool.pair(1100 + LEASE + 1):
                assert delivery.attempt == (2 if stop_at == "taken" else 1)
                assert await pool.ack(delivery, "survivor", 1100 + LEASE + 1)
                seated.append(delivery)
            assert await pool.waiting() == [] and await pool.pending() == []
            for entry in everyone:
                placement = await pool.matches_for(entry.id)
                assert placement is not None and placement.table == "survivor"
            return seated
        finally:
            await client.aclose()

    seats = Counter(a for d in asyncio.run(survive()) for a in d.match.accounts)
    assert sorted(seats) == sorted(a for e in everyone for a in e.accounts)
    assert set(seats.values()) == {1}


# --- parties: an invitation, then the party's entry -----------------------------------------

def invitation(inviter: str = "ann", partner: str = "bob", since: float = 100.0,
               pool: tuple[str, str, bool] = FOUR) -> Invitation:
    return new_invitation(pool, inviter, partner, since=since)


def party_of(invited: Invitation, since: float, blocked: frozenset[str] = frozenset()
             ) -> Entry:
    return invited.entry({invited.inviter: 1500.0, invited.partner: 1600.0}, since,
                         blocked)


def test_an_invitation_holds_both_and_accepting_queues_the_party(
        kind: str, request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool, other = make(), make()  # two processes of one store
        asked = invitation()
        await pool.invite(asked)
        for account in ("ann", "bob"):
            assert await other.invitation_of(account, now=110) == asked
            assert await other.where(account) is None  # not waiting yet
        assert await other.invitation_of("ann", now=160) is None  # expired by then
        for refused in (single("ann", 1500, 110, FOUR), single("bob", 1500, 110),
                        new_entry(FOUR, [("cy", 1500), ("bob", 1500)], since=110)):
            with pytest.raises(PoolError, match="open invitation") as caught:
                await other.join(refused)
            assert caught.value.field == "account"
        for again in (invitation("cy", "bob", 110), invitation("bob", "cy", 110),
                      invitation("ann", "cy", 110)):
            with pytest.raises(PoolError, match="open invitation"):
                await other.invite(again)
        assert await other.invitation_of("cy", now=110) is None
        assert await other.leave("ann") is None  # leaving is for entries: it stays
        party = party_of(asked, 120.0)
        await other.accept(asked, party)
        assert await pool.invitation_of("bob", now=120) is None
        where = await pool.where("bob", now=130)
        assert where is not None and where.party == ("ann", "bob") and where.since == 120
        assert await pool.waiting() == [party]
        with pytest.raises(PoolError) as caught:  # accepted once only
            await pool.accept(asked, party_of(asked, 121.0))
        assert caught.value.field == "invitation"
        await pool.join(single("cy", 1550, 120, FOUR))
        await pool.join(single("dee", 1520, 121, FOUR))
        [delivery] = await pool.pair(125)
        seats = {s.account: s.seat for s in delivery.match.seats}
        assert seats["ann"] % 2 == seats["bob"] % 2  # partners sit across
        assert seats["cy"] % 2 == seats["dee"] % 2 != seats["ann"] % 2
        assert await pool.ack(delivery, "t", 126)
        for account in ("ann", "bob"):
            placement = await other.matches_for(account)
            assert placement is not None and placement.table == "t"

    run_with(kind, request, body)


def test_an_invitation_withdrawn_declined_or_expired_frees_both(
        kind: str, request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool = make()
        asked = invitation()
        await pool.invite(asked)
        assert await pool.withdraw("bob") == asked  # the partner declines
        assert await pool.withdraw("bob") is None
        assert await pool.invitation_of("ann", now=101) is None
        with pytest.raises(PoolError, match="no longer open"):
            await pool.accept(asked, party_of(asked, 101))
        assert await pool.waiting() == []
        await pool.invite(invitation(since=102))
        assert await pool.withdraw("ann") is not None  # the inviter cancels
        await pool.join(single("bob", 1600, 103, FOUR))  # both free again
        assert await pool.leave("bob") is not None
        late = invitation(since=200)
        await pool.invite(late)
        with pytest.raises(PoolError, match="no longer open"):
            await pool.accept(late, party_of(late, 260))  # a minute later: expired
        assert await pool.invitation_of("ann", now=201) is None  # ... and dropped
        await pool.invite(invitation(since=300))
        await pool.join(single("ann", 1500, 360))  # expired: holds nobody
        await pool.invite(invitation("bob", "cy", since=360))
        assert await pool.pair(420) == []  # a pairing's prune drops the expired
        assert await pool.invitation_of("bob", now=420) is None
        await pool.join(single("cy", 1500, 420, FOUR))
        assert [e.id for e in await pool.waiting()] == ["ann", "cy"]

    run_with(kind, request, body)


def test_an_invitation_to_someone_waiting_or_being_seated_is_refused(
        kind: str, request: pytest.FixtureRequest) -> None:
    async def body(make: Make) -> None:
        pool = make()
        await pool.join(single("bob", 1500, 100, FOUR))
        with pytest.raises(PoolError, match="already waiting") as caught:
            await pool.invite(invitation(since=100))
        assert "'bob'" in str(caught.value)
        assert await pool.invitation_of("ann", now=100) is None
        await pool.join(single("ann", 1500, 100, ("505", "2", False)))
        await pool.join(single("cy", 1500, 100, ("505", "2", False)))
        [delivery] = await pool.pair(101)
        with pytest.raises(PoolError, match="being seated"):
            await pool.invite(invitation("dee", "ann", since=101))
        assert await pool.invitation_of("dee", now=101) is None
        asked = invitation("dee", "eve", since=101)
        await pool.invite(asked)
        with pytest.raises(PoolError, match="not the one invited"):
            await pool.accept(asked, new_entry(FOUR, [("eve", 1500), ("dee", 1500)],
                                               since=102))
        assert await pool.invitation_of("eve", now=102) == asked
        assert await pool.ack(delivery, "t", 102)

    run_with(kind, request, body)
