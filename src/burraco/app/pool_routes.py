"""The matchmaking pool's HTTP API (docs/protocol.md, "Matchmaking"): "Play now, with people".

* ``POST /api/pool`` ``{"format", "form", "rated", "bots_after"}``: join a pool; with
  ``"partner": USERNAME`` (form ``"4"``), invite a friend to queue with one as partners
* ``POST /api/pool/accept`` ``{"by": USERNAME}`` (``by`` optional): accept the invitation
  to a party; both partners wait, as one entry
* ``GET /api/pool``: where the caller is: in no pool, inviting, invited, waiting, or matched
  (their own seat link)
* ``DELETE /api/pool``: leave at once, or withdraw or decline an invitation (204; also when
  in no pool)

The caller is whoever the session or guest token names (``Authorization: Bearer`` or the
cookie), as for every other call; a guest may join casual pools only.  The body is read here,
field by field, so that a bad one is answered 422 ``bad_field`` naming it (the schema's
``requestBody`` is declared for the fuzzing and for clients); nothing is stored then, and it
counts against no limit (a partner who is not a friend, or nobody, is such a field).
Joins, invitations and acceptances are counted per person in a moving window (``JOIN_RATE``, the
project's rate windows: with ``--redis`` the cluster's counts), 429 past it.  The pools and
their pairing are :mod:`burraco.community.matchmaking`'s.
"""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from burraco.accounts.identity import Guest, TokenError
from burraco.accounts.ratings import FORMS
from burraco.accounts.service import request_token
from burraco.community.matchmaking import Matchmaking, attach
from burraco.community.pool_reads import PoolRefused, pool_body, window_body
from burraco.infra.http_limits import client_address
from burraco.infra.rates import RateLimits, storage_for
from burraco.meet.entries import (
    BOTS_AFTER_MAX,
    BOTS_AFTER_MIN,
    DEFAULT,
    FORMATS,
    Entry,
    PoolKey,
)
from burraco.server.hub import Hub

JOIN_RATE = "20/minute"
"""Joins one person may make in a moving window (each join with a body that reads)."""
FIELDS = ("format", "form", "rated", "bots_after", "partner")
NO_PARTNER = object()
"""A join's ``partner`` when the body names none."""

JOIN_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["format", "form"],
    "properties": {
        "format": {"type": "string", "enum": list(FORMATS)},
        "form": {"type": "string", "enum": list(FORMS)},
        "rated": {"type": "boolean", "default": False},
        "bots_after": {"anyOf": [{"type": "number", "minimum": BOTS_AFTER_MIN,
                                  "maximum": BOTS_AFTER_MAX}, {"type": "null"}]},
        "partner": {"type": "string", "minLength": 1, "maxLength": 20,
                    "description": "a friend's username: queue as partners (form \"4\")"}},
}
"""The body of ``POST /api/pool``, as the OpenAPI schema declares it."""
ACCEPT_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {"by": {"type": "string", "minLength": 1, "maxLength": 20,
                          "description": "the inviter's username: accept only theirs"}},
}
"""The body of ``POST /api/pool/accept`` (optional), as the OpenAPI schema declares it."""


class PoolName(BaseModel):
    name: str
    format: str
    form: str
    rated: bool


class Joined(BaseModel):
    """What ``POST /api/pool`` (alone) and ``POST /api/pool/accept`` answer: the pool
    joined, since when, the rating (a party's: its mean), the window now, and the partner
    (``None``: alone)."""

    state: str
    pool: PoolName
    since: float
    rating: float
    window: list[float] | None
    bots_after: float | None
    partner: str | None


class Inviting(BaseModel):
    """What ``POST /api/pool`` with a ``partner`` answers: the invitation, open until
    ``expires`` (``expires_in`` seconds from now)."""

    state: str
    pool: PoolName
    partner: str | None
    since: float
    expires: float
    expires_in: float
    bots_after: float | None


class SeatOf(BaseModel):
    seat: int
    team: int
    name: str | None
    bot: str | None


class MatchOf(BaseModel):
    """A match as its player is told it (``url`` and ``token``: their own seat, once made)."""

    id: str
    pool: PoolName
    table: str | None
    pending: bool
    seat: int
    team: int
    url: str | None
    token: str | None
    rated: bool
    players: list[str | None]
    bots: list[str]
    seats: list[SeatOf]


class PoolState(BaseModel):
    """What ``GET /api/pool`` answers; ``state`` says which fields there are."""

    state: str
    pool: PoolName | None = None
    since: float | None = None
    waited: float | None = None
    rating: float | None = None
    window: list[float] | None = None
    bots_after: float | None = None
    waiting: int | None = None
    partner: str | None = None
    by: str | None = None
    expires: float | None = None
    expires_in: float | None = None
    match: MatchOf | None = None


class FieldError(BaseModel):
    """422: the body's field that is wrong, and why; nothing was stored."""

    code: str
    detail: str
    field: str


def _error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail, **extra}, status_code=status)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bad(field: str, detail: str) -> PoolRefused:
    """422 naming ``field`` (an unknown one cut to 40 characters)."""
    return PoolRefused(422, "bad_field", detail,
                       field=field if len(field) <= 40 else field[:37] + "...")


def _object(raw: bytes, shape: str) -> dict[Any, Any]:
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise PoolRefused(400, "bad_json", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise _bad("body", f"the body is a JSON object: {shape}")
    return body


def read_join(raw: bytes) -> tuple[PoolKey, Any, Any]:
    """The pool, ``bots_after`` and ``partner`` (:data:`NO_PARTNER`: none) of a join's body;
    :class:`PoolRefused` (400 ``bad_json`` or 422 ``bad_field`` naming the field)
    otherwise.  The partner is only read here (a string, in form ``"4"``): who it is, the
    service says."""
    body = _object(raw, "{\"format\", \"form\", \"rated\", \"bots_after\", \"partner\"}")
    unknown = sorted(str(k) for k in body if k not in FIELDS)
    if unknown:
        raise _bad(unknown[0], f"no such field {_short(unknown[0])}: the fields are "
                   f"{', '.join(FIELDS)}")
    fmt = body.get("format")
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise _bad("format", f"one of {', '.join(FORMATS)}, not {_short(fmt)}")
    form = body.get("form")
    if not isinstance(form, str) or form not in FORMS:
        raise _bad("form", f"\"2\" (two players) or \"4\" (four, in pairs), not {_short(form)}")
    is_rated = body.get("rated", False)
    if not isinstance(is_rated, bool):
        raise _bad("rated", f"true or false, not {_short(is_rated)}")
    bots_after: Any = DEFAULT
    if "bots_after" in body:
        bots_after = body["bots_after"]
        if bots_after is not None:
            if isinstance(bots_after, bool) or not isinstance(bots_after, int | float) or (
                    isinstance(bots_after, float) and not math.isfinite(bots_after)):
                raise _bad("bots_after", f"seconds, or null, not {_short(bots_after)}")
            if is_rated:
                raise _bad("bots_after", "a rated pool never seats bots: leave bots_after "
                           "out, or null")
            if not BOTS_AFTER_MIN <= bots_after <= BOTS_AFTER_MAX:
                raise _bad("bots_after", f"bots come after {BOTS_AFTER_MIN:g} to "
                           f"{BOTS_AFTER_MAX:g} seconds of waiting, not {_short(bots_after)}")
    partner = body.get("partner", NO_PARTNER)
    if partner is not NO_PARTNER:
        if not isinstance(partner, str):
            raise _bad("partner", f"a friend's username, not {_short(partner)}")
        if form != "4":
            raise _bad("partner", "partners queue together in form \"4\" only: leave partner "
                       "out to play in form \"2\"")
    return PoolKey(fmt, form, is_rated), bots_after, partner


def read_accept(raw: bytes) -> str | None:
    """The ``by`` of an acceptance's body (``None``: empty, or none named)."""
    if not raw.strip():
        return None
    body = _object(raw, "{\"by\"}, or nothing")
    unknown = sorted(str(k) for k in body if k != "by")
    if unknown:
        raise _bad(unknown[0], f"no such field {_short(unknown[0])}: the field is by")
    by = body.get("by")
    if by is not None and not isinstance(by, str):
        raise _bad("by", f"the inviter's username, not {_short(by)}")
    return by


def joined_body(entry: Entry, partner: str | None) -> dict[str, Any]:
    return {"state": "waiting", "pool": pool_body(entry.pool), "since": entry.since,
            "rating": round(entry.rating, 1),
            "window": window_body(entry.rating, entry.window(entry.since)),
            "bots_after": entry.bots_after, "partner": partner}


def router(hub: Hub, pool: Matchmaking) -> APIRouter:
    api = APIRouter()
    settings = hub.settings
    joins = RateLimits({"pool": JOIN_RATE}, storage_for(settings.redis_url,
                                                        settings.redis_prefix))

    def who(request: Request) -> Guest:
        token = request_token(request.headers, request.cookies)
        if not token:
            raise PoolRefused(401, "guest_required", "send a guest token (POST /api/guests) "
                              "or a session token as 'Authorization: Bearer TOKEN' or the "
                              "cookie")
        try:
            return hub.identify(token)
        except TokenError as exc:
            raise PoolRefused(401, "bad_token", str(exc)) from None

    def refused(exc: PoolRefused) -> JSONResponse:
        extra = {"field": exc.field} if exc.field is not None else {}
        return _error(exc.status, exc.code, exc.detail, **extra)

    async def limited(guest: Guest) -> JSONResponse | None:
        """429 when ``guest`` joined too often (each join, invitation or acceptance with a
        body that reads counts)."""
        if await joins.hit("pool", guest.id) is None:
            return None
        wait = await joins.retry_after("pool", guest.id)
        response = _error(429, "rate_limited", f"too many joins (at most {JOIN_RATE} per "
                          f"person): try again in {wait} s")
        response.headers["Retry-After"] = str(wait)
        return response

    @api.post("/api/pool", response_model=Joined | Inviting, responses={
        422: {"model": FieldError, "description": "a bad field (named); nothing stored"}},
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": JOIN_SCHEMA}}}})
    async def join(request: Request) -> JSONResponse:
        """Join a pool: alone (a guest in a casual pool only), or, with a ``partner``,
        invite a friend to queue together in form ``"4"``."""
        try:
            guest = who(request)
            key, bots_after, partner = read_join(await request.body())
            pool.config_for(key)  # a pool this server has: else 422, counted against nothing
            mate = None if partner is NO_PARTNER else await pool.partner(guest, key, partner)
        except PoolRefused as exc:
            return refused(exc)
        too_many = await limited(guest)
        if too_many is not None:
            return too_many
        address = client_address(request.scope)
        try:
            if mate is None:
                entry = await pool.join(guest, key, bots_after, address=address)
                return JSONResponse(joined_body(entry, None))
            invitation = await pool.invite(guest, key, mate, bots_after, address=address)
        except PoolRefused as exc:
            return refused(exc)
        return JSONResponse(await pool.invitation_body(invitation, guest.id,
                                                       invitation.since))

    @api.post("/api/pool/accept", response_model=Joined, responses={
        422: {"model": FieldError, "description": "a bad field (named); nothing stored"}},
        openapi_extra={"requestBody": {"required": False, "content": {
            "application/json": {"schema": ACCEPT_SCHEMA}}}})
    async def accept(request: Request) -> JSONResponse:
        """Accept the invitation to a party (from ``by``, when named): both partners wait
        in its pool as one entry; 409 ``no_invitation`` when none is open."""
        try:
            guest = who(request)
            by = read_accept(await request.body())
        except PoolRefused as exc:
            return refused(exc)
        too_many = await limited(guest)
        if too_many is not None:
            return too_many
        try:
            entry = await pool.accept(guest, by, address=client_address(request.scope))
        except PoolRefused as exc:
            return refused(exc)
        return JSONResponse(joined_body(entry, await pool.partner_name(entry.accounts,
                                                                       guest.id)))

    @api.get("/api/pool", response_model=PoolState)
    async def where(request: Request) -> JSONResponse:
        """Where the caller is: ``none``, ``inviting`` (a partner, until ``expires``),
        ``invited`` (``by`` whom), ``waiting`` (pool, wait, window, how many wait there, the
        partner) or ``matched`` (the table, their seat and seat link once it is made)."""
        try:
            guest = who(request)
        except PoolRefused as exc:
            return refused(exc)
        return JSONResponse(await pool.status(guest))

    @api.delete("/api/pool", status_code=204, response_class=Response)
    async def leave(request: Request) -> Response:
        """Leave the pool at once, with one's partner; withdraw one's invitation to a party,
        or decline one's invitation (nothing to do when in none)."""
        try:
            guest = who(request)
        except PoolRefused as exc:
            return refused(exc)
        await pool.leave(guest)
        return Response(status_code=204)

    return api


def install(app: FastAPI, hub: Hub) -> Matchmaking:
    """Attach the pool service to ``hub`` and add its routes (before the client's
    catch-all)."""
    pool = attach(hub)
    app.include_router(router(hub, pool))
    return pool
