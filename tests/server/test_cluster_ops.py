"""The cluster under operations: SIGTERM drain, Redis lost and back, a race for a lease."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cluster_harness import (
    cluster,
    kill_redis_on,
    own_redis,
    postgres_database,
    start_redis,
    stop_redis,
    urls,
)
from harness import Client, scripted_choice, stored
from test_cluster_core import check_acks, finished_version, one_hand
from websockets.exceptions import ConnectionClosed

from burraco.engine.legal import legal_actions
from burraco.infra.db import make_engine
from burraco.server.assembly import new_hub
from burraco.server.commit_path import build_unit
from burraco.server.hub import Hub, rebuild
from burraco.server.storage import repository as repo


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


async def play(client: Client, acks: dict[str, tuple[int, int]]) -> int | None:
    """Play (or watch) until the match is over (None) or the connection closes (its code)."""
    try:
        while True:
            frame = await client.recv(60)
            kind = frame.get("t")
            if kind is None and (frame.get("e") or {}).get("type") == "MatchOver":
                return None
            if kind == "ack":
                acks[frame["id"]] = (frame["from"], frame["to"])
            elif kind == "reject":
                assert frame["code"] in ("stale_version", "not_your_turn",
                                         "duplicate_message", "storage_error"), frame
            elif (kind == "legal" and frame["version"] == client.version
                    and client.seat == 0):
                await client.send_raw(json.dumps({
                    "t": "act", "id": f"v{client.version}", "v": client.version,
                    "action": scripted_choice(frame["actions"])}))
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else 1006


def human_and_bots(**extra: Any) -> dict[str, Any]:
    return one_hand(creator_seat=0, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"},
        {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "basic"}], **extra)


def test_sigterm_drains_a_process_and_its_clients_move(tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 3) as group:
        first = group.nodes[0]
        ada = first.guest("Ada")
        table = first.create_table(ada, **human_and_bots(bot_delay=0.05))
        table_id = table["table_id"]
        owner = group.node(group.owner(table_id))
        other = next(n for n in group.nodes if n is not owner)
        player = Client(owner, table, 0, guest=ada)  # on the process that will drain
        watcher = Client(other, table, None)
        acks: dict[str, tuple[int, int]] = {}

        async def main() -> None:
            for client in (player, watcher):
                assert (await client.connect())["t"] == "hello_ok"
            watching = asyncio.create_task(play(watcher, {}))
            playing = asyncio.create_task(play(player, acks))
            await asyncio.sleep(1.0)
            await asyncio.to_thread(owner.stop)  # SIGTERM
            code = await asyncio.wait_for(playing, 60)
            assert code == 1012, code  # "reconnect elsewhere"
            player.url = other.ws_url(table_id)
            hello = await player.connect(player.version)  # resumes by version
            assert hello["t"] == "hello_ok" and hello["catch_up"] in ("none", "replay")
            assert await asyncio.wait_for(play(player, acks), 120) is None
            assert await asyncio.wait_for(watching, 120) is None  # stayed up throughout
            for client in (player, watcher):
                await client.close()

        asyncio.run(main())
        final = finished_version(db_url, table_id)
        assert player.version == final and watcher.version == final
        check_acks(db_url, table_id, acks, 0)
        assert acks


def test_two_processes_race_for_a_lease_and_the_database_refuses_a_stale_owner(
        tmp_path: Path, db_url: str) -> None:
    import redis.asyncio as aioredis

    from burraco.server.cluster.lease import Leases

    _, redis_url = urls()

    async def race() -> list[str | None]:
        client = aioredis.Redis.from_url(redis_url)
        try:
            prefix = f"burraco-test-race-{time.monotonic_ns()}"
            rivals = [Leases(client, prefix, f"p{i}", 5000) for i in range(8)]
            tokens = await asyncio.gather(*(r.acquire("t1") for r in rivals))
            winner = next(r for r, t in zip(rivals, tokens, strict=True) if t is not None)
            loser = next(r for r, t in zip(rivals, tokens, strict=True) if t is None)
            token = next(t for t in tokens if t is not None)
            assert await loser.renew({"t1": f"{loser.node_id}.x"}) == set()
            assert await loser.release("t1", f"{loser.node_id}.x") is False
            assert await winner.renew({"t1": token}) == {"t1"}
            assert await winner.release("t1", token) is True
            return tokens
        finally:
            await client.aclose()

    tokens = asyncio.run(race())
    assert sum(t is not None for t in tokens) == 1  # only one wins

    with cluster(tmp_path, db_url, 2) as group:
        first = group.nodes[0]
        ada = first.guest("Ada")
        table = first.create_table(ada, players=4, bot_delay=0.2, seats=[
            {"kind": "bot", "level": "random"}] * 4)
        table_id = table["table_id"]
        # a second owner by mistake: what it would commit from the state it saw
        engine = make_engine(db_url)
        try:
            with engine.connect() as conn:
                load = repo.load_table(conn, table_id)
            assert load is not None
            game = rebuild(load)
            assert game.hand is not None and game.turn is not None
            step = game.act(game.turn, legal_actions(game.hand)[0], no_deal)
            unit = build_unit(table_id, game.version, step, command={
                "seat": game.turn, "cmid": "stale-owner", "kind": "act",
                "body": {"action": "x"}, "source": "bot"})
            deadline = time.monotonic() + 30
            while stored(db_url, table_id)["info"]["version"] <= game.version:
                assert time.monotonic() < deadline, "the real owner does not play"
                time.sleep(0.1)
            with pytest.raises(repo.ConflictError), engine.begin() as conn:
                repo.apply_units(conn, [unit])
        finally:
            engine.dispose()
        commands = stored(db_url, table_id)["commands"]
        assert all(c["cmid"] != "stale-owner" for c in commands)
        versions = [(c["first"], c["last"]) for c in commands]
        assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(versions))


async def play_through(client: Client, acks: dict[str, tuple[int, int]]) -> list[int]:
    """:func:`play` to the match's end, reconnecting with the last version seen each time the
    server closes the connection (as the clients do); the close codes met on the way."""
    codes: list[int] = []
    while True:
        code = await play(client, acks)
        if code is None:
            return codes
        codes.append(code)
        assert len(codes) < 50, codes
        while True:
            await asyncio.sleep(0.5)
            try:
                first = await client.connect(v=client.version)
            except (OSError, ConnectionClosed):
                continue
            if first.get("t") == "hello_ok":
                break
            await client.close()


def test_redis_lost_and_back_the_cluster_recovers(tmp_path: Path, db_url: str) -> None:
    with own_redis(tmp_path) as (redis_url, port), \
            cluster(tmp_path, db_url, 2, redis_url=redis_url) as group:
        first, second = group.nodes
        ada = first.guest("Ada")
        table = first.create_table(ada, **human_and_bots(bot_delay=0.1))
        table_id = table["table_id"]
        player = Client(second, table, 0, guest=ada)
        watcher = Client(first, table, None)
        acks: dict[str, tuple[int, int]] = {}
        import shutil

        binary = shutil.which("redis-server")
        assert binary is not None

        async def main() -> None:
            for client in (player, watcher):
                assert (await client.connect())["t"] == "hello_ok"
            games = [asyncio.create_task(play_through(player, acks)),
                     asyncio.create_task(play_through(watcher, {}))]
            await asyncio.sleep(1.0)
            # find our redis-server by its port and stop it: every key is lost with it
            await asyncio.to_thread(kill_redis_on, port)
            await asyncio.sleep(4.0)  # longer than a lease
            proc = await asyncio.to_thread(start_redis, binary, port, tmp_path)
            try:
                results = await asyncio.wait_for(asyncio.gather(*games), 180)
                # a process cut off from Redis for a lease time sends its clients away (1012,
                # docs/architecture.md): they came back with their versions and lost nothing
                assert all(set(codes) <= {1012} for codes in results), results
            finally:
                for client in (player, watcher):
                    await client.close()
                restarted.append(proc)

        restarted: list[Any] = []
        asyncio.run(main())
        for proc in restarted:
            stop_redis(proc)
        final = finished_version(db_url, table_id)
        assert player.version == final and watcher.version == final
        check_acks(db_url, table_id, acks, 0)


def no_deal(*_: Any) -> Any:
    raise AssertionError("a move of the stale owner would not deal")


def test_a_door_that_loses_the_takeover_race_joins_the_winner(db_url: str) -> None:
    """Two doors take over a dead owner's table at once: the loser routes to the winner.

    The loser read the lease free, then the other process took it before the loser's
    own take: the table exists and is owned, so the loser's clients join the winner
    instead of being told "no table" (once in about 160 failover trials, in CI).
    """
    import redis.asyncio as aioredis

    from burraco.infra.config import ServerConfig
    from burraco.server.tables import TableRequest

    _, redis_url = urls()
    prefix = f"burraco-test-route-{time.monotonic_ns()}"

    async def main() -> tuple[str | None, str]:
        alone = Hub(ServerConfig(db_url=db_url))  # writes the table, then goes
        await alone.start()
        guest, _ = await alone.new_guest("Ada")
        table = await alone.create_table(guest, TableRequest(players=2))
        await alone.stop()
        table_id = table["table_id"]
        client = aioredis.Redis.from_url(redis_url)
        door = new_hub(ServerConfig(db_url=db_url, redis_url=redis_url, redis_prefix=prefix,
                                node_id="door", lease_seconds=30))
        cluster = door.cluster
        assert cluster is not None
        try:
            winner = f"other.{time.monotonic_ns()}"  # the process that took it first
            await client.set(cluster.leases.key(table_id), winner, px=30_000)
            await door.start()
            stale = cluster.owners.owner

            async def read_free(asked: str) -> str | None:  # the read before the other's take
                cluster.owners.owner = stale  # type: ignore[method-assign]
                return None

            cluster.owners.owner = read_free  # type: ignore[method-assign,assignment]
            routed = await cluster.route(table_id)
            assert table_id not in cluster.owned and table_id not in door.actors
            return routed, winner
        finally:
            await door.stop()
            keys = [key async for key in client.scan_iter(f"{prefix}:*")]
            if keys:
                await client.delete(*keys)
            await client.aclose()

    routed, winner = asyncio.run(main())
    assert routed == winner
