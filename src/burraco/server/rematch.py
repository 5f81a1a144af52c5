""""Play again": the next match with the same settings and the same people and bots.

Once a match is over, any holder of one of its seats may ask for the rematch
(``POST /api/tables/{id}/rematch``).  The server creates one new table with the
finished table's settings, seats the asker at the seat they held, and sends every
connection of the old table a ``rematch`` frame (docs/protocol.md): each seat's
own connections get that seat's new token, nobody else's, so each player takes
their own seat and no one can take another's.  Asking twice gives the same table,
so two players pressing "Play again" at once meet at one table.

Here: the offer a finished table holds, and the request for the next table;
:func:`burraco.community.rematch.rematch` asks the hub for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from burraco.server.tables import SeatRequest, TableConfig, TableRequest


@dataclass(slots=True)
class Rematch:
    """The next table of a finished match and each human seat's token there."""

    table_id: str
    by: str
    tokens: dict[int, str] = field(default_factory=dict)

    def frame_for(self, seat: int | None) -> dict[str, Any]:
        """The frame a connection of ``seat`` (``None``: a spectator) is sent."""
        out: dict[str, Any] = {"t": "rematch", "table": self.table_id, "by": self.by}
        if seat is not None and seat in self.tokens:
            out["seat"] = seat
            out["token"] = self.tokens[seat]
        return out


def request_like(config: TableConfig, seat: int) -> TableRequest:
    """A creation request with ``config``'s settings, its creator seated at ``seat``."""
    return TableRequest(
        players=config.players, rules=config.rules, options=dict(config.options),
        mode=config.mode, target=config.target if config.mode == "free" else None,
        smazzate=config.smazzate, public=config.public, casual=config.casual,
        seats=[SeatRequest(kind=s.kind, level=s.level) for s in config.seats],
        turn_seconds=config.turn_seconds, grace_seconds=float(config.grace_seconds),
        standin=config.standin, bot_delay=float(config.bot_delay), creator_seat=seat,
        rated=config.rated)


class RematchRefused(Exception):
    """Why this guest may not ask for a rematch here; ``code`` is a protocol error code."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason = status, code, reason
