"""Throttling wrong passwords, per username and per address (in the server's memory).

Each key keeps the times of its recent failures.  Past ``limit`` failures inside
``window`` seconds the key is refused until the oldest of them leaves the window;
the refusal says how long (``Retry-After``).  A correct password does not get
through a throttled key either: otherwise guessing would simply go on.  Unknown
usernames are throttled exactly like known ones, so throttling tells nothing
about who has an account.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable


class Throttle:
    def __init__(self, limit: int, window: float, *,
                 clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float] | None:
        times = self._failures.get(key)
        if times is None:
            return None
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return None
        return times

    def retry_after(self, key: str) -> int:
        """Seconds until ``key`` may try again (0: now)."""
        now = self.clock()
        times = self._recent(key, now)
        if times is None or len(times) < self.limit:
            return 0
        return max(1, math.ceil(times[-self.limit] + self.window - now))

    def failed(self, key: str) -> None:
        now = self.clock()
        if len(self._failures) >= self.max_keys and key not in self._failures:
            for old in [k for k in self._failures if self._recent(k, now) is None][:1000]:
                self._failures.pop(old, None)
            if len(self._failures) >= self.max_keys:
                self._failures.pop(next(iter(self._failures)))
        self._failures.setdefault(key, deque(maxlen=self.limit * 4)).append(now)
