"""A pairing process for tests/meet/test_meet_redis.py: it pairs a Redis pool once at a
given ``now`` and stops for ever at one step of the pairing (``paired`` or ``taken``),
after writing the step's name to a file, so the test can SIGKILL it there.

    python meet_child.py REDIS_URL PREFIX NOW STEP MARKER_FILE
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from redis.asyncio import Redis

from burraco.meet.store import RedisPool


async def main(url: str, prefix: str, now: float, stop_at: str, marker: Path) -> None:
    async def step(name: str) -> None:
        if name == stop_at:
            marker.write_text(name)
            await asyncio.Event().wait()  # until the test kills this process

    redis = Redis.from_url(url)
    pool = RedisPool(redis, prefix, lease=5.0, step=step)
    await pool.pair(now)
    marker.write_text("returned")


if __name__ == "__main__":
    url, prefix, now, stop_at, marker = sys.argv[1:6]
    asyncio.run(main(url, prefix, float(now), stop_at, Path(marker)))
