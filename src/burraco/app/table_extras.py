"""The HTTP calls around a table that are not play: the tutorial, the rematch, cancelling,
the invitation.

* ``POST /api/tutorial``: a new tutorial table (:mod:`burraco.server.tutorial`),
  its creator seated at the tutorial seat.
* ``POST /api/tables/{id}/rematch``: "Play again" (:mod:`burraco.community.rematch`).
* ``DELETE /api/tables/{id}``: its creator cancels a waiting table nobody else joined.
* ``GET /api/tables/{id}/invite?token=SEAT_TOKEN``: what an invite link offers,
  so the invited player reads who invites them to which table, seat and partner.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import Connection, select

from burraco.accounts.identity import Guest, TokenError
from burraco.community.rematch import rematch
from burraco.server.hub import Hub
from burraco.server.rematch import RematchRefused
from burraco.server.storage.models import GuestRow, TableRow
from burraco.server.tables import TableConfig
from burraco.server.tutorial import STEPS, tutorial_request
from burraco.server.waiting import CancelRefused, cancel_table


class Cancelled(BaseModel):
    """The answer of a cancelled table."""

    table_id: str
    cancelled: bool = True


def _error(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail}, status_code=status)


def _creator(conn: Connection, table_id: str) -> tuple[str | None, str | None]:
    """(creator's guest id, nickname) of a table; the nickname when it is a guest's."""
    creator = conn.execute(select(TableRow.creator).where(TableRow.id == table_id)).scalar()
    if creator is None:
        return None, None
    nickname = conn.execute(select(GuestRow.nickname).where(GuestRow.id == creator)).scalar()
    return creator, nickname


def seat_label(config: TableConfig, names: list[str | None], seat: int) -> dict[str, Any]:
    """A seat as the invitation shows it: a person's nickname, or a bot and its level."""
    spec = config.seats[seat]
    return {"seat": seat, "kind": spec.kind, "level": spec.level, "nickname": names[seat]}


def install_table_extras(app: FastAPI, hub: Hub, guest_of: Callable[[Request], Guest],
                         rate_limited: Callable[[str, Request], Awaitable[None]]) -> None:
    """Add the three calls (before the web client's catch-all).  ``rate_limited`` counts a
    table's creation against the address's limit, as ``POST /api/tables`` does."""

    @app.post("/api/tutorial", status_code=201)
    async def new_tutorial(request: Request) -> Any:
        creator = guest_of(request)
        body = (await request.body()).strip()
        if body:
            try:
                options = json.loads(body)
            except ValueError:
                return _error(400, "bad_json", "the body is not valid JSON")
            if options != {}:
                return _error(422, "bad_request", "the guided hand takes no options: send no "
                              "body, or {}")
        await rate_limited("tables", request)
        created = await hub.create_table(creator, tutorial_request(), tutorial=True)
        return JSONResponse({**created, "steps": list(STEPS)}, status_code=201)

    @app.post("/api/tables/{table_id}/rematch")
    async def table_rematch(table_id: str, request: Request) -> Any:
        guest = guest_of(request)
        await rate_limited("tables", request)
        try:
            return await rematch(hub, table_id, guest)
        except RematchRefused as exc:
            return _error(exc.status, exc.code, exc.reason)

    @app.delete("/api/tables/{table_id}", response_model=Cancelled)
    async def cancel(table_id: str, request: Request) -> Any:
        """Cancel a waiting table its creator made, while nobody else has taken a seat."""
        guest = guest_of(request)
        try:
            await cancel_table(hub, table_id, guest)
        except CancelRefused as exc:
            return _error(exc.status, exc.code, exc.detail)
        return Cancelled(table_id=table_id)

    @app.get("/api/tables/{table_id}/invite")
    async def invite(table_id: str, token: str = "") -> Any:
        try:
            seat = hub.tokens.seat_of(token, table_id)
        except TokenError as exc:
            return _error(403, "bad_token", f"not an invite of this table: {exc}")
        actor = await hub.actor_for(table_id)
        if actor is None:
            return _error(404, "table_not_found", f"no table {table_id!r}")
        config = actor.config
        creator, nickname = await hub.read(lambda conn: _creator(conn, table_id))
        holders = actor.game.holders
        names = [h.nickname if h else None for h in holders]
        by = next((h.nickname for h in holders if h and h.guest_id == creator), nickname)
        hand = actor.game.hand
        n = config.players
        side_of = list(hand.side_of) if hand is not None else [  # as the engine pairs (§2.3)
            s % (n // 2) if n in (4, 6) else s for s in range(n)]
        partners = [seat_label(config, names, s) for s in range(config.players)
                    if s != seat and side_of[s] == side_of[seat]]
        opponents = [seat_label(config, names, s) for s in range(config.players)
                     if side_of[s] != side_of[seat]]
        return {"table_id": table_id, "seat": seat, "by": by, "status": actor.game.status,
                "players": config.players, "rules": config.rules, "mode": config.mode,
                "target": config.target, "smazzate": config.smazzate,
                "holder": names[seat], "partners": partners, "opponents": opponents}
