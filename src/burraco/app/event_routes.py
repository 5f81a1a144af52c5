"""Online tournaments over HTTP (docs/protocol.md, "Online tournaments";
:mod:`burraco.community.event_entries`).

* ``POST /api/events`` ``{"name", "starts", "kind", "form", ...}``  schedule one (201)
* ``GET /api/events``                      the live ones and those over in the last day
* ``GET /api/events/{id}``                 one: entrants, standings, games, my seat link
* ``POST /api/events/{id}/join`` ``{"partner"}``  register (a pair: with a friend)
* ``DELETE /api/events/{id}/join``         leave before the start, withdraw after

Scheduling and registering take an account (a guest: 403 ``account_required``; no token:
401); reading does not.  Each account may schedule :data:`EVENT_RATE` events (429).  A
refusal is ``{"code", "detail", "field"}`` and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from burraco.accounts.identity import Guest, TokenError
from burraco.accounts.service import request_token
from burraco.community.event_entries import FIELDS, EventRefused, Events
from burraco.community.online_events import OnlineEvents, attach
from burraco.community.recurring import parse
from burraco.infra.rates import RateLimits, storage_for
from burraco.server.hub import Hub

EVENT_RATE = "10/day"


class EventForm(BaseModel):
    """The body of ``POST /api/events``: each field is checked by the event itself, so
    that a refusal names it (here: any JSON value, and no other field)."""

    model_config = ConfigDict(extra="forbid")
    name: Any = None
    starts: Any = None
    kind: Any = None
    form: Any = None
    rules: Any = "fibur"
    format: Any = "505"
    rounds: Any = None
    minutes: Any = None
    turn_seconds: Any = 60.0
    rated: Any = False
    min_rating: Any = None
    club: Any = None
    max_entrants: Any = 256
    show_seconds: Any = 120.0


class JoinForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    partner: Any = None


def _error(exc: EventRefused) -> JSONResponse:
    extra = {"field": exc.field} if exc.field is not None else {}
    response = JSONResponse({"code": exc.code, "detail": exc.detail, **extra},
                            status_code=exc.status)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def router(hub: Hub, events: Events) -> APIRouter:
    api = APIRouter()
    settings = hub.settings
    limits = RateLimits({"events": EVENT_RATE},
                        storage_for(settings.redis_url, settings.redis_prefix))

    def who(request: Request, *, required: bool = True) -> Guest | None:
        token = request_token(request.headers, request.cookies)
        if not token:
            if not required:
                return None
            raise EventRefused(401, "login_required", "log in first (POST /api/sessions)")
        try:
            return hub.identify(token)
        except TokenError as exc:
            if not required:
                return None
            raise EventRefused(401, "bad_token", str(exc)) from None

    def someone(request: Request) -> Guest:
        guest = who(request)
        assert guest is not None
        return guest

    @api.post("/api/events", status_code=201)
    async def schedule(body: EventForm, request: Request) -> JSONResponse:
        try:
            guest = someone(request)
            fields = {k: v for k, v in body.model_dump().items() if k in FIELDS}

            async def gate() -> None:
                refusal = await limits.hit("events", guest.id)
                if refusal is not None:
                    wait = await limits.retry_after("events", guest.id)
                    raise EventRefused(429, "rate_limited", refusal.replace(
                        "this address", "this account"), retry_after=wait)
            made = await events.create(guest, fields, gate)
        except EventRefused as exc:
            return _error(exc)
        return JSONResponse(made, status_code=201)

    @api.get("/api/events")
    async def listing(request: Request) -> JSONResponse:
        return JSONResponse(await events.listing(who(request, required=False)))

    @api.get("/api/events/{event_id}")
    async def detail(event_id: str, request: Request) -> JSONResponse:
        try:
            return JSONResponse(await events.detail(who(request, required=False), event_id))
        except EventRefused as exc:
            return _error(exc)

    @api.post("/api/events/{event_id}/join")
    async def join(event_id: str, body: JoinForm, request: Request) -> JSONResponse:
        try:
            return JSONResponse(await events.join(someone(request), event_id, body.partner))
        except EventRefused as exc:
            return _error(exc)

    @api.delete("/api/events/{event_id}/join")
    async def leave(event_id: str, request: Request) -> JSONResponse:
        try:
            return JSONResponse(await events.leave(someone(request), event_id))
        except EventRefused as exc:
            return _error(exc)

    return api


def install(app: FastAPI, hub: Hub) -> Events:
    """Attach the events' driver to ``hub`` (with the server's recurring series) and add
    the routes (before the client's catch-all)."""
    service: OnlineEvents = attach(hub, recurring=parse(hub.settings.recurring_events))
    events = Events(service)
    app.include_router(router(hub, events))
    return events
