"""Counting per key in moving windows: creations per address, wrong passwords per name.

Both sit on the ``limits`` library's moving window (its asyncio API).  On one process the
counts live in memory (a restart forgetting them is harmless); with ``--redis`` they live in
Redis, under the cluster's prefix, so that every process of a cluster (and every worker of
``--workers N``) counts together: five guesses per name stay five however many processes
answer, and a restart forgets nothing.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, RateLimitItemPerSecond, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter


def storage_for(redis_url: str | None, prefix: str) -> Storage:
    """Where the counts live: this process's memory, or the cluster's Redis."""
    if not redis_url:
        return MemoryStorage()
    return RedisStorage("async+" + redis_url, implementation="redispy",
                        key_prefix=f"{prefix}:limits")


LABELS = {"bot_tables": "tables of bots only"}
"""How a refusal names a kind of creation, where its key does not read well."""


class RateLimits:
    """Moving-window limits per client address, one per kind of creation."""

    def __init__(self, rates: dict[str, str], storage: Storage | None = None) -> None:
        self._limiter = MovingWindowRateLimiter(storage or MemoryStorage())
        self._items: dict[str, RateLimitItem | None] = {
            kind: None if rate == "none" else parse(rate) for kind, rate in rates.items()}
        self._rates = rates

    async def hit(self, kind: str, address: str) -> str | None:
        """Count one creation; ``None`` if allowed, else the message of the refusal."""
        item = self._items[kind]
        if item is None or await self._limiter.hit(item, kind, address):
            return None
        what = LABELS.get(kind, kind)
        return f"too many {what} from this address (at most {self._rates[kind]}): try again later"

    async def retry_after(self, kind: str, address: str) -> int:
        """Seconds until one more creation of ``kind`` is allowed for ``address``."""
        item = self._items[kind]
        if item is None:
            return 0
        reset = (await self._limiter.get_window_stats(item, kind, address)).reset_time
        return max(1, int(reset - time.time()) + 1)


class Throttle:
    """Failures per key: past ``limit`` of them inside ``window`` seconds the key is refused
    until the oldest leaves the window."""

    def __init__(self, limit: int, window: float, storage: Storage | None = None,
                 *, name: str = "throttle") -> None:
        self.limit = limit
        self.window = window
        self.name = name
        self._item = RateLimitItemPerSecond(limit, max(1, math.ceil(window)))
        self._limiter = MovingWindowRateLimiter(storage or MemoryStorage())

    async def retry_after(self, key: str) -> int:
        """Seconds until ``key`` may try again (0: now)."""
        if await self._limiter.test(self._item, self.name, key):
            return 0
        stats = await self._limiter.get_window_stats(self._item, self.name, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def failures(self, key: str) -> int:
        """Failures of ``key`` inside the window."""
        stats = await self._limiter.get_window_stats(self._item, self.name, key)
        return self.limit - stats.remaining

    async def failed(self, key: str) -> None:
        await self._limiter.hit(self._item, self.name, key)


def check_rate(rate: str) -> str:
    """``rate`` if the ``limits`` library reads it (``30/minute``) or it is ``none``."""
    if rate != "none":
        try:
            parse(rate)
        except ValueError:
            raise ValueError(f"{rate!r} is not a rate: give N/second, N/minute, N/hour, "
                             "N/day or none") from None
    return rate
