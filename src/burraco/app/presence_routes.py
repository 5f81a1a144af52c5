"""Friends' presence over HTTP (docs/protocol.md, "Friends and blocks").

``GET /api/me/friends/presence`` answers, for each friend of the caller (follows both
ways): ``online``, the ``table`` they sit at (a match not over) with a ``watch`` link when the
table is public, and the ``pool`` they wait in.  An account only (401).  The caller is
marked as seen (:mod:`burraco.community.presence`), as the notifications' poll marks it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from burraco.accounts import social
from burraco.accounts.service import request_token
from burraco.community.matchmaking import Matchmaking
from burraco.community.presence import Presence, live_tables
from burraco.server.hub import Hub


def router(hub: Hub, pool: Matchmaking, presence: Presence) -> APIRouter:
    api = APIRouter()

    @api.get("/api/me/friends/presence")
    async def friends_presence(request: Request) -> JSONResponse:
        session = hub.players.session_of(request_token(request.headers, request.cookies))
        if session is None:
            return JSONResponse({"code": "login_required", "detail": "log in first (POST "
                                 "/api/sessions): friends belong to an account"},
                                status_code=401)
        await presence.seen(session.player_id)
        friends = await hub.read(lambda conn: social.circle(conn, session.player_id)[
            "friends"])
        ids = [f.player_id for f in friends]
        online = await presence.online(ids)
        tables = await hub.read(lambda conn: live_tables(conn, ids))
        out: list[dict[str, Any]] = []
        for friend in friends:
            where = await pool.store.where(friend.player_id)
            table = tables.get(friend.player_id)
            out.append({
                "username": friend.username, "avatar": friend.avatar,
                "online": friend.player_id in online or table is not None or where is not None,
                "table": table[0] if table else None,
                "watch": f"{hub.settings.base_url}/play/{table[0]}" if table and table[1]
                else None,
                "pool": where.pool.name if where is not None else None})
        return JSONResponse({"friends": out})

    return api


def install(app: FastAPI, hub: Hub, pool: Matchmaking) -> Presence:
    """The presence marks (in the cluster's Redis with ``--redis``) and the route."""
    settings = hub.settings
    presence = Presence(pool.redis, settings.redis_prefix)
    app.include_router(router(hub, pool, presence))
    return presence
