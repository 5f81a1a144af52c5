"""A burst of connections through doors that own none of their tables stays within bounds.

Every connection asks its door who owns its table.  Asked one Redis round trip at a
time on an unbounded pool, a burst opened a Redis connection per client until Redis
refused clients; the doors now share their questions (one MGET) on a bounded pool.
Real ``burraco serve --redis`` processes, the real PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from cluster_harness import cluster, postgres_database
from harness import Client

from burraco.server.cluster.node import REDIS_CONNECTIONS

TABLES = 24
WATCHERS = 8


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def redis_clients(redis_url: str, name: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return sum(1 for c in client.client_list() if c.get("name") == name)
    finally:
        client.close()


def test_many_connections_at_once_through_non_owner_doors(tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        ada = a.guest("Ada")
        tables = [a.create_table(ada, players=2, seats=[
            {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            bot_delay=2.0) for _ in range(TABLES)]
        doors = [b if group.owner(t["table_id"]) == a.name else a for t in tables]

        async def main() -> None:
            clients = [Client(door, table, None, watch_token=table["watch_token"])
                       for table, door in zip(tables, doors, strict=True)
                       for _ in range(WATCHERS)]
            hellos = await asyncio.gather(*(c.connect() for c in clients))
            assert all(h["t"] == "hello_ok" for h in hellos), [
                h for h in hellos if h["t"] != "hello_ok"][:3]
            for node in (a, b):  # each process stayed within its pool
                used = redis_clients(group.redis_url, f"{group.prefix}:{node.name}")
                assert 0 < used <= REDIS_CONNECTIONS + 1, (node.name, used)  # + renewals
                assert node.health()["cluster"]["lease"] == "ok"
            await asyncio.gather(*(c.close() for c in clients))

        asyncio.run(main())
