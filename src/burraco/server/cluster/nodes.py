"""The registry of live processes and their load, heartbeated with expiry.

Each process keeps ``PREFIX:node:ID`` (its load: tables owned) alive with a
``PX`` expiry renewed at every heartbeat; a process that dies drops out when
its key expires.  ``PREFIX:nodes`` is the set of ids ever seen (pruned of the
expired).  New tables, and tables without an owner, go to the least loaded.
"""

from __future__ import annotations

from redis.asyncio import Redis


class Nodes:
    def __init__(self, redis: Redis, prefix: str, node_id: str, expiry_ms: int, *,
                 beater: Redis | None = None) -> None:
        self.redis = redis
        self.beater = beater or redis
        """The client of the heartbeat (the lease renewals' own connection)."""
        self.prefix = prefix
        self.node_id = node_id
        self.expiry_ms = expiry_ms

    def _key(self, node_id: str) -> str:
        return f"{self.prefix}:node:{node_id}"

    async def beat(self, load: int) -> None:
        async with self.beater.pipeline(transaction=False) as pipe:
            pipe.set(self._key(self.node_id), load, px=self.expiry_ms)
            pipe.sadd(f"{self.prefix}:nodes", self.node_id)
            await pipe.execute()

    async def leave(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._key(self.node_id))
            pipe.srem(f"{self.prefix}:nodes", self.node_id)
            await pipe.execute()

    async def live(self) -> dict[str, int]:
        """Every live process and its load."""
        raw = await self.redis.smembers(f"{self.prefix}:nodes")
        ids = sorted(i.decode() if isinstance(i, bytes) else str(i) for i in raw)
        if not ids:
            return {}
        loads = await self.redis.mget([self._key(i) for i in ids])
        gone = [i for i, load in zip(ids, loads, strict=True) if load is None]
        if gone:
            await self.redis.srem(f"{self.prefix}:nodes", *gone)
        return {i: int(load) for i, load in zip(ids, loads, strict=True) if load is not None}


def least_loaded(live: dict[str, int]) -> str | None:
    """The process with the fewest tables (ties: the smallest id, so all agree)."""
    if not live:
        return None
    return min(live, key=lambda node: (live[node], node))
