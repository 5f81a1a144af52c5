"""In-app notifications: what waits for the player now (docs/protocol.md, "Notifications").

``GET /api/me/notifications`` gathers, for the caller, the things a page shows as a badge or
a toast: challenges received and still open (§14.5), a table found by the pool (§19), a
friend's invitation to queue in the pool as partners (§19.1), invitations to clubs and, for a
club's admins, requests to join (§14.4), players who started following in the last days and
are not followed back (§14.3), a tournament of yours starting within ten minutes and your
tournament game's table, ready (§20).  The client polls it (every 20 s or so, and when the
page comes back into view); each item has a stable ``key`` so a client shows each once.  A
guest gets the pool's only; no token is 401.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Connection, select

from burraco.accounts.identity import TokenError
from burraco.accounts.models import AccountRow, ClubMemberRow, ClubRow, FollowRow
from burraco.accounts.service import request_token
from burraco.community.challenges import Challenges
from burraco.community.event_entries import Events
from burraco.community.matchmaking import Matchmaking
from burraco.community.presence import Presence
from burraco.server.hub import Hub

FOLLOWER_DAYS = 7


def social_items(conn: Connection, me: str, now: float) -> list[dict[str, Any]]:
    """Club invitations and requests, and recent followers not followed back."""
    out: list[dict[str, Any]] = []
    for club_id, name in conn.execute(
            select(ClubRow.club_id, ClubRow.name).join(
                ClubMemberRow, ClubMemberRow.club_id == ClubRow.club_id)
            .where(ClubMemberRow.player_id == me, ClubMemberRow.role == "invited")):
        out.append({"kind": "club_invite", "key": f"club_invite:{club_id}", "club": club_id,
                    "name": name})
    admin_of = list(conn.scalars(select(ClubMemberRow.club_id).where(
        ClubMemberRow.player_id == me, ClubMemberRow.role.in_(("founder", "admin")))))
    if admin_of:
        for club_id, username in conn.execute(
                select(ClubMemberRow.club_id, AccountRow.username)
                .join(AccountRow, AccountRow.player_id == ClubMemberRow.player_id)
                .where(ClubMemberRow.club_id.in_(admin_of), ClubMemberRow.role == "asked")):
            out.append({"kind": "club_request", "key": f"club_request:{club_id}:{username}",
                        "club": club_id, "username": username})
    following = set(conn.scalars(select(FollowRow.followed).where(FollowRow.follower == me)))
    for player_id, username, since in conn.execute(
            select(FollowRow.follower, AccountRow.username, FollowRow.since)
            .join(AccountRow, AccountRow.player_id == FollowRow.follower)
            .where(FollowRow.followed == me, FollowRow.since > now - FOLLOWER_DAYS * 86400)):
        if player_id not in following:
            out.append({"kind": "follower", "key": f"follower:{username}",
                        "username": username, "since": since})
    return out


def router(hub: Hub, pool: Matchmaking, challenges: Challenges,
           presence: Presence, events: Events) -> APIRouter:
    api = APIRouter()

    @api.get("/api/me/notifications")
    async def notifications(request: Request) -> JSONResponse:
        token = request_token(request.headers, request.cookies)
        if not token:
            return JSONResponse({"code": "login_required", "detail": "send a session or "
                                 "guest token"}, status_code=401)
        try:
            guest = hub.identify(token)
        except TokenError as exc:
            return JSONResponse({"code": "bad_token", "detail": str(exc)}, status_code=401)
        await presence.seen(guest.id)  # the page is open: its player is online
        items: list[dict[str, Any]] = []
        status = await pool.status(guest)
        if status["state"] == "matched" and not status["match"]["pending"]:
            match = status["match"]
            items.append({"kind": "pool_match", "key": f"pool_match:{match['id']}",
                          "table": match["table"], "url": match["url"]})
        elif status["state"] == "invited":
            items.append({"kind": "party_invite",
                          "key": f"party_invite:{status['by']}:{status['since']}",
                          "by": status["by"], "pool": status["pool"],
                          "expires": status["expires"]})
        if guest.account:
            listing = await challenges.listing(guest)
            items += [{"kind": "challenge", "key": f"challenge:{c['id']}", "id": c["id"],
                       "from": c["from"], "format": c["format"], "rated": c["rated"],
                       "expires": c["expires"]}
                      for c in listing["incoming"] if c["state"] == "open"]
            items += [{"kind": "challenge_accepted", "key": f"challenge_accepted:{c['id']}",
                       "id": c["id"], "to": c["to"], "table": c["table"], "url": c["url"]}
                      for c in listing["outgoing"] if c["state"] == "accepted"]
            now = time.time()
            items += await hub.read(lambda conn: social_items(conn, guest.id, now))
            items += await events.notifications(guest)
        return JSONResponse({"notifications": items})

    return api


def install(app: FastAPI, hub: Hub, pool: Matchmaking, challenges: Challenges,
            presence: Presence, events: Events) -> None:
    app.include_router(router(hub, pool, challenges, presence, events))
