"""Challenges over HTTP (docs/protocol.md, "Challenges"; :mod:`burraco.community.challenges`).

* ``POST /api/challenges`` ``{"to", "format", "rated"}``  challenge a player (201)
* ``GET /api/challenges``                               the player's, sent and received
* ``POST /api/challenges/{id}/accept``                  the table is made: my seat link
* ``POST /api/challenges/{id}/decline``                 the challenged player says no
* ``DELETE /api/challenges/{id}``                       the challenger withdraws it

Challenges are between accounts (a guest: 403 ``account_required``; no token: 401).  Each
account may send :data:`CHALLENGE_RATE` challenges (429).  A refusal is ``{"code",
"detail", "field"}`` and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from burraco.accounts.identity import Guest, TokenError
from burraco.accounts.service import request_token
from burraco.community.challenges import ChallengeRefused, Challenges
from burraco.community.matchmaking import Matchmaking
from burraco.infra.http_limits import client_address
from burraco.infra.rates import RateLimits, storage_for
from burraco.server.hub import Hub

CHALLENGE_RATE = "30/hour"


class ChallengeForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: Any = None
    format: Any = None
    rated: Any = False


def _error(status: int, code: str, detail: str, field: str | None = None) -> JSONResponse:
    extra = {"field": field} if field is not None else {}
    return JSONResponse({"code": code, "detail": detail, **extra}, status_code=status)


def router(hub: Hub, challenges: Challenges) -> APIRouter:
    api = APIRouter()
    settings = hub.settings
    limits = RateLimits({"challenges": CHALLENGE_RATE},
                        storage_for(settings.redis_url, settings.redis_prefix))

    def who(request: Request) -> Guest:
        token = request_token(request.headers, request.cookies)
        if not token:
            raise ChallengeRefused(401, "login_required", "log in first (POST /api/sessions)")
        try:
            return hub.identify(token)
        except TokenError as exc:
            raise ChallengeRefused(401, "bad_token", str(exc)) from None

    @api.post("/api/challenges", status_code=201)
    async def challenge(body: ChallengeForm, request: Request) -> JSONResponse:
        try:
            guest = who(request)
            if guest.muted:
                raise ChallengeRefused(403, "muted", "a moderator muted this account: no "
                                       "challenges until the mute ends (see your account page)")
            if guest.account:
                refusal = await limits.hit("challenges", guest.id)
                if refusal is not None:
                    response = _error(429, "rate_limited",
                                      refusal.replace("this address", "this account"))
                    response.headers["Retry-After"] = str(
                        await limits.retry_after("challenges", guest.id))
                    return response
            made = await challenges.create(guest, body.to, body.format, body.rated,
                                           address=client_address(request.scope))
        except ChallengeRefused as exc:
            return _error(exc.status, exc.code, exc.detail, exc.field)
        return JSONResponse(made, status_code=201)

    @api.get("/api/challenges")
    async def listing(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await challenges.listing(who(request)))
        except ChallengeRefused as exc:
            return _error(exc.status, exc.code, exc.detail, exc.field)

    @api.post("/api/challenges/{challenge_id}/accept")
    async def accept(challenge_id: str, request: Request) -> JSONResponse:
        try:
            return JSONResponse(await challenges.accept(
                who(request), challenge_id, address=client_address(request.scope)))
        except ChallengeRefused as exc:
            return _error(exc.status, exc.code, exc.detail, exc.field)

    @api.post("/api/challenges/{challenge_id}/decline")
    async def decline(challenge_id: str, request: Request) -> JSONResponse:
        try:
            return JSONResponse(await challenges.close(who(request), challenge_id, "declined"))
        except ChallengeRefused as exc:
            return _error(exc.status, exc.code, exc.detail, exc.field)

    @api.delete("/api/challenges/{challenge_id}")
    async def withdraw(challenge_id: str, request: Request) -> JSONResponse:
        try:
            return JSONResponse(await challenges.close(who(request), challenge_id,
                                                       "withdrawn"))
        except ChallengeRefused as exc:
            return _error(exc.status, exc.code, exc.detail, exc.field)

    return api


def install(app: FastAPI, hub: Hub, pool: Matchmaking) -> Challenges:
    """Add the challenges' routes (before the client's catch-all)."""
    challenges = Challenges(pool)
    app.include_router(router(hub, challenges))
    return challenges
