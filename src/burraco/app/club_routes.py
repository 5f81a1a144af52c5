"""Online clubs over HTTP (docs/protocol.md, "Online clubs"; :mod:`burraco.accounts.clubs`).

* ``GET /api/clubs``                                   the public clubs and the player's own
* ``POST /api/clubs`` ``{"name", "description", "public"}`` found a club (201)
* ``GET /api/clubs/{id}``                              a club as the player may see it
* ``POST /api/clubs/{id}/join``                        join, accept an invitation, or ask
* ``DELETE /api/clubs/{id}/membership``                leave
* ``PUT /api/clubs/{id}/members/{username}``           an admin invites
* ``POST /api/clubs/{id}/members/{username}/accept``   an admin accepts a request
* ``DELETE /api/clubs/{id}/members/{username}``        an admin removes
* ``PUT /api/clubs/{id}/admins/{username}`` ``{"admin"}`` the founder appoints or demotes
* ``GET /api/clubs/{id}/evening-members``             an admin: the club evenings' members
                                                       with an account, when the director
                                                       linked them to this club
* ``POST /api/clubs/{id}/evening-members/invite``     an admin invites those not in it

Reading needs no account (a guest sees the public clubs); every change needs one (401).
Foundings and invitations are limited per account (429).  A refusal is ``{"code",
"detail", "field"}`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection

from burraco.accounts import clubs
from burraco.accounts.service import Players, request_token
from burraco.accounts.sessions import Session
from burraco.infra.rates import RateLimits, storage_for
from burraco.tournament import online_club

RATES = {"clubs": "5/day", "club_invites": "60/hour"}
LOGIN = "log in first (POST /api/sessions): clubs are for accounts"


class ClubForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Any = None
    description: Any = ""
    public: Any = True


class AdminForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    admin: Any = None


def _error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail, **extra}, status_code=status)


def router(players: Players) -> APIRouter:
    api = APIRouter()
    settings = players.host.settings
    limits = RateLimits(RATES, storage_for(settings.redis_url, settings.redis_prefix))

    def session_of(request: Request) -> Session | None:
        return players.session_of(request_token(request.headers, request.cookies))

    async def act(request: Request, fn: Callable[[Connection, str], Any],
                  limit: str | None = None, status: int = 200) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", LOGIN)
        if limit is not None:
            refusal = await limits.hit(limit, session.player_id)
            if refusal is not None:
                response = _error(429, "rate_limited",
                                  refusal.replace("this address", "this account"))
                response.headers["Retry-After"] = str(
                    await limits.retry_after(limit, session.player_id))
                return response
        try:
            answer = await players.host.writer.run(lambda conn: fn(conn, session.player_id))
        except clubs.ClubError as exc:
            return _error(exc.status, exc.code, exc.detail, field=exc.field)
        return JSONResponse(answer, status_code=status)

    @api.get("/api/clubs")
    async def list_clubs(request: Request) -> JSONResponse:
        session = session_of(request)
        me = session.player_id if session else None
        found = await players.host.read(lambda conn: clubs.clubs_for(conn, me))
        return JSONResponse({"clubs": found})

    @api.post("/api/clubs", status_code=201)
    async def found(body: ClubForm, request: Request) -> JSONResponse:
        try:  # bad input is refused before it counts against the account's foundings
            clubs.check_club(body.name, body.description, body.public)
        except clubs.ClubError as exc:
            return _error(exc.status, exc.code, exc.detail, field=exc.field)
        return await act(request, lambda conn, me: clubs.found(
            conn, me, body.name, body.description, body.public).to_dict(), "clubs", 201)

    @api.get("/api/clubs/{club_id}")
    async def club(club_id: str, request: Request) -> JSONResponse:
        session = session_of(request)
        me = session.player_id if session else None
        try:
            shown = await players.host.read(lambda conn: clubs.view(conn, me, club_id))
        except clubs.ClubError as exc:
            return _error(exc.status, exc.code, exc.detail, field=exc.field)
        return JSONResponse(shown)

    @api.post("/api/clubs/{club_id}/join")
    async def join(club_id: str, request: Request) -> JSONResponse:
        return await act(request, lambda conn, me: {"role": clubs.join(conn, me, club_id)})

    @api.delete("/api/clubs/{club_id}/membership")
    async def leave(club_id: str, request: Request) -> JSONResponse:
        def gone(conn: Connection, me: str) -> dict[str, Any]:
            clubs.leave(conn, me, club_id)
            return {"role": None}
        return await act(request, gone)

    @api.put("/api/clubs/{club_id}/members/{username}")
    async def invite(club_id: str, username: str, request: Request) -> JSONResponse:
        return await act(request, lambda conn, me: {
            "role": clubs.invite(conn, me, club_id, username)}, "club_invites")

    @api.post("/api/clubs/{club_id}/members/{username}/accept")
    async def accept(club_id: str, username: str, request: Request) -> JSONResponse:
        return await act(request, lambda conn, me: {
            "role": clubs.accept(conn, me, club_id, username)})

    @api.delete("/api/clubs/{club_id}/members/{username}")
    async def remove(club_id: str, username: str, request: Request) -> JSONResponse:
        def gone(conn: Connection, me: str) -> dict[str, Any]:
            clubs.remove(conn, me, club_id, username)
            return {"role": None}
        return await act(request, gone)

    @api.get("/api/clubs/{club_id}/evening-members")
    async def evening_members(club_id: str, request: Request) -> JSONResponse:
        def read(conn: Connection, me: str) -> dict[str, Any]:
            club = clubs.require_admin(conn, me, club_id)
            found = online_club.evening_members(conn, club)
            return {"linked": found is not None, "members": [
                {k: m[k] for k in ("number", "name", "username", "role")}
                for m in found or []]}
        return await act(request, read)

    @api.post("/api/clubs/{club_id}/evening-members/invite")
    async def invite_evening_members(club_id: str, request: Request) -> JSONResponse:
        def invite_all(conn: Connection, me: str) -> dict[str, Any]:
            club = clubs.require_admin(conn, me, club_id)
            found = online_club.evening_members(conn, club)
            if found is None:
                raise clubs.ClubError(409, "not_linked", "the club evenings' members are not "
                                      "linked to this club: the director names it first",
                                      "club")
            invited, skipped = [], []
            for member in found:
                if member["role"] is not None or member["player_id"] == me:
                    continue
                try:
                    with conn.begin_nested():
                        clubs.invite(conn, me, club, member["username"])
                    invited.append(member["username"])
                except clubs.ClubError as exc:  # a block, or a player in too many clubs
                    skipped.append({"username": member["username"], "code": exc.code})
            return {"invited": invited, "skipped": skipped}
        return await act(request, invite_all, "club_invites")

    @api.put("/api/clubs/{club_id}/admins/{username}")
    async def appoint(club_id: str, username: str, body: AdminForm,
                      request: Request) -> JSONResponse:
        return await act(request, lambda conn, me: {
            "role": clubs.appoint(conn, me, club_id, username, body.admin)})

    return api
