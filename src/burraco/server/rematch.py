""""Play again": the next match with the same settings and the same people and bots.

Once a match is over, any holder of one of its seats may ask for the rematch
(``POST /api/tables/{id}/rematch``).  The server creates one new table with the
finished table's settings, seats the asker at the seat they held, and sends every
connection of the old table a ``rematch`` frame (docs/protocol.md): each seat's
own connections get that seat's new token, nobody else's, so each player takes
their own seat and no one can take another's.  Asking twice gives the same table,
so two players pressing "Play again" at once meet at one table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from burraco.server.tables import SeatRequest, TableConfig, TableConfigError, TableRequest

if TYPE_CHECKING:
    from burraco.server.hub import Hub
    from burraco.server.identity import Guest


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


async def rematch(hub: Hub, table_id: str, guest: Guest) -> dict[str, Any]:
    """The rematch of a finished table for ``guest``: their new seat, token and invite."""
    actor = await hub.actor_for(table_id)
    if actor is None:
        raise RematchRefused(404, "table_not_found", f"no table {table_id!r}")
    seats = [s for s, h in enumerate(actor.game.holders)
             if h is not None and h.guest_id == guest.id]
    if not seats:
        raise RematchRefused(403, "no_rematch", "only a player of this table may ask for a "
                             "rematch")
    if actor.game.status != "finished":
        raise RematchRefused(409, "no_rematch", f"the match is {actor.game.status}: a rematch "
                             "is offered once it is over")
    seat = seats[0]
    async with actor.rematch_lock:  # two players asking at once get one table
        if actor.rematch is None:
            config = actor.config
            try:
                created = await hub.create_table(guest, request_like(config, seat),
                                                 tutorial=config.tutorial)
            except TableConfigError as exc:  # e.g. a rated table's wait after an abandonment
                raise RematchRefused(409, "no_rematch", str(exc)) from None
            tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
            actor.offer_rematch(Rematch(created["table_id"], guest.nickname, tokens))
    assert actor.rematch is not None
    offer = actor.rematch
    mine = [s for s in seats if s in offer.tokens]
    new_seat = mine[0] if mine else seat
    token = offer.tokens[new_seat]
    base = hub.settings.base_url
    return {"table_id": offer.table_id, "seat": new_seat, "token": token, "by": offer.by,
            "invite": f"{base}/play/{offer.table_id}?seat={new_seat}&token={token}"}
