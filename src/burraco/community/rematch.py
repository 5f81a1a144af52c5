"""Asking for the rematch of a finished table (:mod:`burraco.server.rematch` has the offer)."""

from __future__ import annotations

from typing import Any

from burraco.accounts.identity import Guest
from burraco.server.hub import Hub
from burraco.server.rematch import Rematch, RematchRefused, request_like
from burraco.server.tables import TableConfigError


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
