"""Turn deadlines kept in Redis for the next owner, written in batches.

Every new turn of every owned table has a deadline the next owner must find
(clocks resume with the time they had).  One ``SET`` per turn, each its own
task, is a Redis round trip and a pool connection per command at scale; here
the latest deadline of each table waits a moment and all are written in one
pipeline.  A deadline written a few milliseconds late only matters if the
owner dies in those milliseconds: the next owner then starts that turn's clock
afresh, as a restart without Redis would.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from redis.asyncio import Redis

log = logging.getLogger("burraco.server.cluster.clocks")
FLUSH_SECONDS = 0.05


class ClockWriter:
    def __init__(self, redis: Redis, prefix: str, lease_ms: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.lease_ms = lease_ms
        self._due: dict[str, tuple[object, float | None]] = {}
        self._task: asyncio.Task[None] | None = None

    def key(self, table_id: str) -> str:
        return f"{self.prefix}:clock:{table_id}"

    def remember(self, table_id: str, key: object, deadline: float | None) -> None:
        self._due[table_id] = (key, deadline)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._write())

    async def flush(self) -> None:
        if self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _write(self) -> None:
        await asyncio.sleep(FLUSH_SECONDS)
        while self._due:
            due, self._due = self._due, {}
            now = time.time()
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for table_id, (key, deadline) in due.items():
                        if deadline is None:
                            pipe.delete(self.key(table_id))
                        else:
                            ttl = max(1000, int((deadline - now) * 1000) + 2 * self.lease_ms)
                            pipe.set(self.key(table_id), json.dumps([key, deadline]), px=ttl)
                    await pipe.execute()
            except Exception as exc:  # Redis away: the next owner restarts those clocks
                log.warning("cluster clocks: %d deadlines not kept: %s", len(due), exc)
