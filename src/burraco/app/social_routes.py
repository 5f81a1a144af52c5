"""Friends and blocks over HTTP for a logged-in account (docs/protocol.md, "Friends and blocks").

* ``GET /api/me/friends``                  friends (follows both ways), the others followed,
                                           the other followers, the players blocked
* ``PUT /api/me/following/{username}``     follow; ``DELETE`` to stop
* ``PUT /api/me/blocked/{username}``       block (ends any follow between the two, both
                                           ways); ``DELETE`` to unblock

The session token says whose; a guest gets 401.  A bad username is 422 with ``field``; a
follow where a block stands is 403; follows and blocks are limited per account (429 with
``Retry-After``).  Nothing changes on a refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Connection

from burraco.accounts import social
from burraco.accounts.names import FieldError
from burraco.accounts.service import Players, request_token
from burraco.accounts.sessions import Session
from burraco.infra.rates import RateLimits, storage_for

SOCIAL_RATE = "60/hour"
"""Follows, unfollows, blocks and unblocks one account may make."""
LOGIN = "log in first (POST /api/sessions): friends and blocks belong to an account"


def _error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail, **extra}, status_code=status)


def router(players: Players) -> APIRouter:
    api = APIRouter()
    settings = players.host.settings
    limits = RateLimits({"social": SOCIAL_RATE},
                        storage_for(settings.redis_url, settings.redis_prefix))

    def session_of(request: Request) -> Session | None:
        return players.session_of(request_token(request.headers, request.cookies))

    async def change(request: Request, username: str,
                     fn: Callable[[Connection, str, object], social.Someone],
                     done: str) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", LOGIN)
        refusal = await limits.hit("social", session.player_id)
        if refusal is not None:
            response = _error(429, "rate_limited", refusal.replace("this address",
                                                                    "this account"))
            response.headers["Retry-After"] = str(
                await limits.retry_after("social", session.player_id))
            return response
        try:
            other = await players.host.writer.run(
                lambda conn: fn(conn, session.player_id, username))
        except FieldError as exc:
            return _error(422, "bad_request", str(exc), field=exc.field)
        except social.Blocked:
            return _error(403, "blocked", "a block stands between you and this player")
        return JSONResponse({"username": other.username, "avatar": other.avatar,
                             "done": done})

    @api.get("/api/me/friends")
    async def friends(request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", LOGIN)
        found = await players.host.read(lambda conn: social.circle(conn, session.player_id))
        return JSONResponse({key: [s.to_dict() for s in people]
                             for key, people in found.items()})

    @api.put("/api/me/following/{username}")
    async def follow(username: str, request: Request) -> JSONResponse:
        return await change(request, username, social.follow, "following")

    @api.delete("/api/me/following/{username}")
    async def unfollow(username: str, request: Request) -> JSONResponse:
        return await change(request, username, social.unfollow, "unfollowed")

    @api.put("/api/me/blocked/{username}")
    async def block(username: str, request: Request) -> JSONResponse:
        return await change(request, username, social.block, "blocked")

    @api.delete("/api/me/blocked/{username}")
    async def unblock(username: str, request: Request) -> JSONResponse:
        return await change(request, username, social.unblock, "unblocked")

    return api
