"""How fast one WebSocket connection may send: a token bucket per connection.

A person plays a few commands a minute and a bot client at full speed a few
per turn; a connection sending far more floods its table's queue and the
server.  Past its allowance a message is not handled: it is answered
``rate_limited`` (with its id) and dropped, so a client that slows down loses
nothing but the commands it is told were dropped.  The figures are in
docs/protocol.md ("Limits").
"""

from __future__ import annotations

import time

MESSAGES_PER_SECOND = 200.0
"""Messages a connection may send per second, sustained (every kind counts).

A bot client playing one table at full speed sends about 50 a second on a small
machine (``burraco bench server --tables 1``): four times that is allowed."""
BURST = 400
"""Messages a connection may send at once after a quiet moment."""
IN_FLIGHT = 32
"""Commands (act, undo, sync) of one connection waiting at its table: one connection
cannot fill the table's queue (``queue_limit``) and crowd out the other seats."""


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` a second; a message spends one."""

    __slots__ = ("_at", "_tokens", "burst", "rate")

    def __init__(self, rate: float = MESSAGES_PER_SECOND, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._tokens = float(burst)
        self._at = time.monotonic()

    def take(self) -> bool:
        """Spend a token: ``False`` (nothing spent) when the connection is over its rate."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def retry_after(self) -> float:
        """Seconds until the next message would be taken."""
        return max(0.0, (1 - self._tokens) / self.rate)
