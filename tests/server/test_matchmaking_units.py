"""The pool service (``community/matchmaking.py``) in one process, on a real hub and SQLite,
with a simulated clock: windows widening with each player's own wait, blocked players kept
apart, a match delivered again
seated at the table its first delivery made (never a second), a refused ack keeping a table
the match lives on with and dropping one it does not, a rated match whose player took a wait
since joining, the bot levels a table seats, and parties: an invitation's minute, both
partners' rated checks, an invitation ended with the friendship.

The same over real server processes: ``test_matchmaking.py`` and
``test_matchmaking_cluster.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from sqlalchemy import insert

from burraco.accounts import social
from burraco.accounts.identity import Guest
from burraco.accounts.models import PenaltyRow, RatingRow
from burraco.community.matchmaking import Matchmaking
from burraco.community.pool_reads import PoolRefused, creator_of, table_level, table_status
from burraco.infra.config import ServerConfig
from burraco.meet.entries import PoolKey
from burraco.meet.store import MemoryPool
from burraco.server.hub import Hub

RATED = PoolKey("505", "2", True)
CASUAL = PoolKey("hand", "2", False)


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def with_hub(tmp_path: Path, body: Callable[[Hub], Awaitable[None]]) -> None:
    async def main() -> None:
        hub = Hub(ServerConfig(db_url=f"sqlite:///{tmp_path / 'burraco.db'}"))
        await hub.start()
        try:
            await body(hub)
        finally:
            await hub.stop()

    asyncio.run(main())


async def account(hub: Hub, name: str, rating: float | None = None) -> Guest:
    player_id, _, _ = await hub.players.register(name, "correct horse", None)
    if rating is not None:
        await hub.writer.run(lambda conn: conn.execute(insert(RatingRow).values(
            player_id=player_id, form="2", mu=rating, sigma=200.0, matches=5)))
    return Guest(player_id, name, account=True)


def test_windows_widen_with_each_players_own_wait(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        start = clock.now
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        people = []
        for i, rating in enumerate((1300, 1500, 1750, 2100)):  # 200, 250, 350 apart
            clock.now = start + i * 0.5
            person = await account(hub, f"Wide{i}", rating)
            entry = await pool.join(person, RATED)
            assert entry.rating == rating
            people.append(person)
        first, second, third, fourth = people
        assert await pool.pair_once() == []
        clock.now = start + 20.4  # the first has waited 20.4 s (±300), the second 19.9 (±100)
        assert await pool.pair_once() == []
        clock.now = start + 20.5  # both past 20 s now: 200 apart meet
        made = await pool.pair_once()
        assert len(made) == 1
        mine = await pool.status(first)
        assert mine["state"] == "matched" and mine["match"]["table"] == made[0]
        assert mine["match"]["players"] == ["Wide0", "Wide1"]
        assert (await pool.status(second))["match"]["seat"] == 1
        waiting = await pool.status(third)
        assert waiting["state"] == "waiting" and waiting["window"] == [1650.0, 1850.0]
        assert waiting["waiting"] == 2
        clock.now = start + 61.0  # the fourth has waited 59.5 s: 350 is still too far
        assert await pool.pair_once() == []
        clock.now = start + 61.5  # anyone, after a minute each
        made = await pool.pair_once()
        assert len(made) == 1
        assert (await pool.status(fourth))["match"]["players"] == ["Wide2", "Wide3"]
        assert (await pool.status(third))["match"]["rated"] is True
        assert pool.tables_made == 2

    with_hub(tmp_path, body)


def test_a_match_delivered_again_is_seated_at_its_first_table(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        store = MemoryPool(lease=5.0)
        # one process takes the match, then stalls; another process of the cluster
        stalled = Matchmaking(hub, store=store, clock=clock, abandoned_after=None)
        other = Matchmaking(hub, store=store, clock=clock, abandoned_after=None)
        ada, bob = await account(hub, "Again0"), await account(hub, "Again1")
        for person in (ada, bob):
            await stalled.join(person, CASUAL, None)
        (delivery,) = await store.pair(clock())
        table = await stalled.table_for(delivery)  # made, but its ack never comes in time
        assert (await stalled.status(ada))["match"]["pending"] is True
        clock.now += 6.0  # the lease ran out: another process delivers the match again
        assert await other.pair_once() == [table]
        assert other.tables_made == 0 and stalled.tables_made == 1
        assert not await store.ack(delivery, table, clock())  # the stale ack is refused...
        await stalled.drop(table, delivery.match)  # ...and the table the match lives at stays
        assert await hub.read(lambda conn: table_status(conn, table)) == "waiting"
        for person in (ada, bob):
            found = (await other.status(person))["match"]
            assert found["table"] == table and found["url"].endswith(found["token"])
        assert creator_of(delivery.match.id).id == f"meet:{delivery.match.id}"

    with_hub(tmp_path, body)


def test_a_table_whose_match_was_dissolved_is_dropped(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ada, bob = await account(hub, "Gone0"), await account(hub, "Gone1")
        for person in (ada, bob):
            await pool.join(person, CASUAL, None)
        (delivery,) = await pool.store.pair(clock())
        table = await pool.table_for(delivery)
        assert await pool.leave(ada)  # while being seated: the match is dissolved
        assert (await pool.status(bob))["state"] == "waiting"
        assert not await pool.store.ack(delivery, table, clock())
        await pool.drop(table, delivery.match)
        assert await hub.read(lambda conn: table_status(conn, table)) is None
        assert await pool.status(ada) == {"state": "none"}

    with_hub(tmp_path, body)


def test_a_rated_player_who_took_a_wait_since_joining_is_left_out(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock(time.time())
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ada, bob = await account(hub, "Fair0"), await account(hub, "Fair1")
        for person in (ada, bob):
            await pool.join(person, RATED)
        now = time.time()
        await hub.writer.run(lambda conn: conn.execute(insert(PenaltyRow).values(
            player_id=bob.id, table_id="elsewhere", reason="left", at=now, until=now + 300)))
        assert await pool.pair_once() == []
        assert pool.tables_made == 0
        assert (await pool.status(ada))["state"] == "waiting"  # back, with her entry time
        assert await pool.status(bob) == {"state": "none"}  # out of the pool
        with pytest.raises(PoolRefused) as refused:
            await pool.join(bob, RATED)
        assert refused.value.status == 403 and refused.value.code == "rated_wait"
        await pool.join(bob, CASUAL)  # casual pools stay open to him

    with_hub(tmp_path, body)


def test_blocked_players_are_never_paired(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ada, bob = await account(hub, "Block0", 1500), await account(hub, "Block1", 1510)
        await hub.writer.run(lambda conn: social.block(conn, ada.id, "Block1"))
        for person in (ada, bob):
            await pool.join(person, RATED)
        clock.now += 120  # anyone, by the windows: but not each other
        assert await pool.pair_once() == []
        carol = await account(hub, "Block2", 2400)
        await pool.join(carol, RATED)
        clock.now += 120
        assert len(await pool.pair_once()) == 1
        met = (await pool.status(carol))["match"]["players"]
        assert "Block2" in met and len(met) == 2, met
        assert (await pool.status(ada if "Block1" in met else bob))["state"] == "waiting"

    with_hub(tmp_path, body)


def test_a_table_seats_only_the_levels_it_offers() -> None:
    assert table_level("2", "basic") == "basic"  # (a match never names a retired level:
    # burraco.meet offers only the levels a table seats)
    assert table_level("2", "nobody-knows") == "basic"  # unrated: the scale's 1500


def test_a_player_who_stops_asking_leaves_the_pool(tmp_path: Path) -> None:
    """A tab that died without leaving holds nobody up: after ``abandoned_after`` seconds
    without a ``GET /api/pool`` (``status``), its entry goes; one that keeps asking stays."""
    async def body(hub: Hub) -> None:
        clock = Clock()
        pool = Matchmaking(hub, clock=clock, abandoned_after=45.0)
        gone, kept = await account(hub, "Gone", 1500), await account(hub, "Kept", 2500)
        for person in (gone, kept):
            await pool.join(person, RATED)
        for _ in range(10):  # 50 s: the kept player's page asks every 5 s, the other's not
            clock.now += 5
            await pool.status(kept)
            await pool.pair_once()
        assert (await pool.status(gone))["state"] == "none"
        assert (await pool.status(kept))["state"] == "waiting"

    with_hub(tmp_path, body)


# --- parties -------------------------------------------------------------------------------

FOUR_RATED = PoolKey("vp3", "4", True)
FOUR_CASUAL = PoolKey("2005", "4", False)


async def friends(hub: Hub, one: Guest, other: Guest) -> None:
    await hub.writer.run(lambda conn: social.follow(conn, one.id, other.nickname))
    await hub.writer.run(lambda conn: social.follow(conn, other.id, one.nickname))


def test_an_invitation_lasts_a_minute_and_its_party_waits_as_one(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ann, bob = await account(hub, "Inv0"), await account(hub, "Inv1")
        await friends(hub, ann, bob)
        asked = await pool.invite(ann, FOUR_CASUAL, "Inv1", None)
        assert asked.accounts == (ann.id, bob.id) and asked.bots_after is None
        told = await pool.status(bob)
        assert told["state"] == "invited" and told["by"] == "Inv0"
        assert told["expires_in"] == 60
        clock.now += 60  # a minute later: gone for both, and nothing to accept
        assert await pool.status(ann) == {"state": "none"}
        assert await pool.status(bob) == {"state": "none"}
        with pytest.raises(PoolRefused) as refused:
            await pool.accept(bob)
        assert refused.value.code == "no_invitation"
        await pool.join(bob, FOUR_CASUAL, None)  # free again, alone
        assert await pool.leave(bob)
        await pool.invite(ann, FOUR_CASUAL, "Inv1", 30)
        clock.now += 59
        entry = await pool.accept(bob, "inv0")  # the inviter named in any case
        assert entry.accounts == (ann.id, bob.id) and entry.since == clock.now
        assert entry.bots_after == 30  # as the inviter chose
        waiting = await pool.status(ann)
        assert waiting["state"] == "waiting" and waiting["partner"] == "Inv1"
        clock.now += 30  # the party's bots: the other side
        await pool.pair_once()
        match = (await pool.status(bob))["match"]
        assert [s["name"] for s in match["seats"]] == ["Inv0", None, "Inv1", None]
        assert match["seat"] == 2 and (await pool.status(ann))["match"]["seat"] == 0

    with_hub(tmp_path, body)


def test_a_rated_party_checks_both_partners(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock(time.time())
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ann, bob = await account(hub, "Fair4a"), await account(hub, "Fair4b")
        await friends(hub, ann, bob)
        now = time.time()

        async def penalise(player: Guest) -> None:
            await hub.writer.run(lambda conn: conn.execute(insert(PenaltyRow).values(
                player_id=player.id, table_id="elsewhere", reason="left", at=now,
                until=now + 300)))

        await penalise(bob)
        with pytest.raises(PoolRefused) as refused:  # the partner may not sit rated now
            await pool.invite(ann, FOUR_RATED, "Fair4b")
        assert (refused.value.code, refused.value.field) == ("partner_unavailable", "partner")
        assert "left" not in refused.value.detail  # the partner's reasons stay theirs
        assert await pool.status(bob) == {"state": "none"}
        with pytest.raises(PoolRefused) as refused:  # nor invite in a rated pool
            await pool.invite(bob, FOUR_RATED, "Fair4a")
        assert refused.value.code == "rated_wait"
        await pool.invite(bob, FOUR_CASUAL, "Fair4a")  # a casual party is fine
        assert await pool.leave(ann)  # declined
        carol = await account(hub, "Fair4c")
        await friends(hub, ann, carol)
        await pool.invite(ann, FOUR_RATED, "Fair4c")
        await penalise(ann)  # the inviter took a wait since: the acceptance fails
        with pytest.raises(PoolRefused) as refused:
            await pool.accept(carol)
        assert refused.value.code == "partner_unavailable"
        assert await pool.status(carol) == {"state": "none"}  # and the invitation is gone

    with_hub(tmp_path, body)


def test_an_invitation_ends_with_the_friendship(tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ann, bob = await account(hub, "Ends0"), await account(hub, "Ends1")
        await friends(hub, ann, bob)
        await pool.invite(ann, FOUR_CASUAL, "Ends1")
        await hub.writer.run(lambda conn: social.block(conn, bob.id, "Ends0"))
        with pytest.raises(PoolRefused) as refused:
            await pool.accept(bob)
        assert refused.value.code == "no_invitation"
        assert await pool.status(ann) == {"state": "none"}
        with pytest.raises(PoolRefused) as refused:
            await pool.invite(ann, FOUR_CASUAL, "Ends1")
        assert (refused.value.status, refused.value.field) == (422, "partner")
        guest = Guest("g-party", "Guesty")
        with pytest.raises(PoolRefused) as refused:
            await pool.invite(guest, FOUR_CASUAL, "Ends1")
        assert (refused.value.code, refused.value.field) == ("account_required", "partner")

    with_hub(tmp_path, body)


def test_a_refused_invitation_declines_nothing_and_crossing_ones_make_one(
        tmp_path: Path) -> None:
    async def body(hub: Hub) -> None:
        clock = Clock()
        pool = Matchmaking(hub, clock=clock, abandoned_after=None)
        ann, bob, cy = [await account(hub, f"Cross{i}") for i in range(3)]
        await friends(hub, ann, bob)
        await friends(hub, bob, cy)
        await pool.invite(ann, FOUR_CASUAL, "Cross1")
        await pool.join(cy, CASUAL)
        with pytest.raises(PoolRefused) as refused:  # Cy waits: Bob cannot invite her...
            await pool.invite(bob, FOUR_CASUAL, "Cross2")
        assert refused.value.code == "partner_busy"
        assert (await pool.status(bob))["by"] == "Cross0"  # ...and Ann's still stands
        crossed = await pool.invite(bob, FOUR_CASUAL, "Cross0")  # Ann's declined, his made
        assert crossed.accounts == (bob.id, ann.id)
        assert (await pool.status(ann))["by"] == "Cross1"
        entry = await pool.accept(ann)
        assert entry.accounts == (bob.id, ann.id)

    with_hub(tmp_path, body)
