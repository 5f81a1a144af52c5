"""Quick messages at a table: a fixed list of courtesies, never free text.

Partners must not be able to signal (RULES.md §12: table talk is an
irregularity), so a player picks one message of a short fixed list by its id;
each client shows it in its own language.  The server checks the id, limits
how often a seat may speak, and sends the message to everyone at the table,
spectators included.  Nothing is stored and the table's version does not move:
a quick message is not part of the game.
"""

from __future__ import annotations

from typing import Any

from burraco.server.ratelimit import TokenBucket

QUICK_MESSAGES = ("hello", "good_luck", "well_played", "thanks", "one_moment", "sorry",
                  "good_game", "bye")
"""The ids a client may send (docs/protocol.md, "Quick messages")."""
QUICK_RATE = 0.5
"""Quick messages a seat may send per second, sustained (one every two seconds)."""
QUICK_BURST = 3
"""Quick messages a seat may send at once after a quiet moment."""


def quick_problem(message_id: str) -> str | None:
    """Why ``message_id`` is not a quick message (``None`` when it is one)."""
    if message_id in QUICK_MESSAGES:
        return None
    return f"no quick message {message_id!r:.40} (known: {', '.join(QUICK_MESSAGES)})"


def quick_frame(seat: int, message_id: str) -> dict[str, Any]:
    return {"t": "quick", "seat": seat, "msg": message_id}


class QuickLimits:
    """One token bucket per seat, so a player's second tab does not double the allowance."""

    def __init__(self) -> None:
        self._buckets: dict[int, TokenBucket] = {}

    def take(self, seat: int) -> TokenBucket | None:
        """``None`` when the seat may speak now, else its (empty) bucket, for the retry time."""
        bucket = self._buckets.setdefault(seat, TokenBucket(QUICK_RATE, QUICK_BURST))
        return None if bucket.take() else bucket
