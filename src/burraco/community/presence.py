"""Where friends are: online, at a table (watchable if it is public), or waiting in a pool.

*Online* means seen in the last :data:`ONLINE_SECONDS`: a page of the app polls the
notifications (``GET /api/me/notifications``) and the pool while it is open, and each poll
marks its player as seen.  The marks live in this process's memory, or, with ``--redis``,
in one sorted set of the cluster's Redis (score: the time seen), so every process of a
cluster sees every player.  *At a table*: a seat held at a table whose match is not over
(from the tables' own records); its watching link is given only for a public table (anyone
may watch one; a private table's link would let in whoever holds it).  *In a pool*: the
pool's name.  Only friends (follows both ways) are shown, and a block ends a friendship.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection

from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy import Connection, select

from burraco.server.storage.models import CommandRow, TableRow

log = logging.getLogger("burraco.community.presence")

ONLINE_SECONDS = 90.0
KEEP_SECONDS = 3600.0
"""Marks older than this are dropped from the Redis set when a mark is written."""


class Presence:
    def __init__(self, redis: Redis | None = None, prefix: str = "burraco",
                 name: str = "presence") -> None:
        self.redis = redis
        self.key = f"{prefix}:{name}"
        self._seen: dict[str, float] = {}

    async def seen(self, player_id: str, now: float | None = None) -> None:
        at = time.time() if now is None else now
        if self.redis is None:
            self._seen[player_id] = at
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(self.key, {player_id: at})
                pipe.zremrangebyscore(self.key, "-inf", at - KEEP_SECONDS)
                await pipe.execute()
        except (RedisError, OSError) as exc:  # Redis away: a mark missed, nothing else
            log.warning("presence: a mark was not kept: %s", exc)

    async def online(self, ids: Collection[str], now: float | None = None,
                     within: float = ONLINE_SECONDS) -> set[str]:
        """Which of ``ids`` were seen in the last ``within`` seconds."""
        at = time.time() if now is None else now
        if not ids:
            return set()
        ordered = list(ids)
        if self.redis is None:
            scores: list[float | None] = [self._seen.get(i) for i in ordered]
        else:
            try:
                scores = await self.redis.zmscore(self.key, ordered)
            except (RedisError, OSError) as exc:  # Redis away: nobody shown online
                log.warning("presence: the marks could not be read: %s", exc)
                return set()
        return {i for i, s in zip(ordered, scores, strict=True)
                if s is not None and at - float(s) <= within}


def live_tables(conn: Connection, ids: Collection[str]) -> dict[str, tuple[str, bool]]:
    """Player → (table, public) of a table not finished where the player holds a seat."""
    if not ids:
        return {}
    live = dict(conn.execute(select(TableRow.id, TableRow.public).where(
        TableRow.status != "finished")).all())
    if not live:
        return {}
    wanted = set(ids)
    out: dict[str, tuple[str, bool]] = {}
    for table_id, body in conn.execute(select(CommandRow.table_id, CommandRow.body).where(
            CommandRow.table_id.in_(list(live)), CommandRow.kind == "claim")):
        player = body.get("guest_id") if isinstance(body, dict) else None
        if player in wanted:
            out[player] = (str(table_id), bool(live[table_id]))
    return out
