"""A club's room over HTTP (docs/protocol.md §14.4): who of its members is here now, at
which table or in which pool, and the club's tournaments.

``GET /api/clubs/{id}/room`` answers ``{"members": [{"username", "avatar", "role",
"online", "table", "watch", "pool"}], "events": [summary]}``: the members online first (seen
in the last minute and a half, at a table, or waiting in a pool), a table's ``watch`` link
only when the table is public; ``events`` are the club's online tournaments (live, and those
over in the last day; docs/tournaments-online.md).  A public club's room is anyone's; a club
by invitation's is its members' only (404, as for an unknown club, to anyone else).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from burraco.accounts import clubs
from burraco.accounts.service import request_token
from burraco.community.event_entries import Events
from burraco.community.matchmaking import Matchmaking
from burraco.community.presence import Presence, live_tables
from burraco.server.hub import Hub


def router(hub: Hub, pool: Matchmaking, presence: Presence, events: Events) -> APIRouter:
    api = APIRouter()

    @api.get("/api/clubs/{club_id}/room")
    async def room(club_id: str, request: Request) -> JSONResponse:
        token = request_token(request.headers, request.cookies)
        session = hub.players.session_of(token)
        me = session.player_id if session is not None else None
        try:
            shown = await hub.read(lambda conn: clubs.view(conn, me, club_id))
            members = await hub.read(lambda conn: clubs.member_ids(conn, club_id))
        except clubs.ClubError as exc:
            return JSONResponse({"code": exc.code, "detail": exc.detail, "field": exc.field},
                                status_code=exc.status)
        if "members_list" not in shown:  # a club by invitation, to someone not in it
            return JSONResponse({"code": "club_not_found", "detail": "no club "
                                 f"{club_id!r:.40} you may see"}, status_code=404)
        if me is not None:
            await presence.seen(me)
        ids = list(members.values())
        online = await presence.online(ids)
        tables = await hub.read(lambda conn: live_tables(conn, ids))
        out: list[dict[str, Any]] = []
        for member in shown["members_list"]:
            pid = members[member["username"]]
            where = await pool.store.where(pid)
            table = tables.get(pid)
            out.append({
                **member, "online": pid in online or table is not None or where is not None,
                "table": table[0] if table else None,
                "watch": f"{hub.settings.base_url}/play/{table[0]}" if table and table[1]
                else None,
                "pool": where.pool.name if where is not None else None})
        out.sort(key=lambda m: not m["online"])  # stable: the club's own order within each
        guest = hub.identify(token) if token and session is not None else None
        listed = await events.listing(guest, club=shown["id"])
        return JSONResponse({"members": out, "events": listed["events"]})

    return api


def install(app: FastAPI, hub: Hub, pool: Matchmaking, presence: Presence,
            events: Events) -> None:
    app.include_router(router(hub, pool, presence, events))
