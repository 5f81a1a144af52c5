"""The FastAPI application: a small HTTP API beside the WebSocket gateway.

HTTP (JSON; errors are ``{"code": ..., "detail": ...}``):

* ``POST /api/guests`` ``{"nickname": "Ada"}``: a guest identity; the token is
  returned and also set as the ``burraco_guest`` cookie.
* ``GET /api/me``: the guest of the cookie or of ``Authorization: Bearer``.
* ``POST /api/tables``: create a table (body: :class:`~burraco.server.tables.TableRequest`);
  returns the seat tokens and invite links.
* ``GET /api/tables``: public tables.  ``GET /api/tables/{id}``: one table, with
  who sits where.  ``GET /api/tables/{id}/hands``: its hands, with the deck, salt
  and record of every hand that is over (a deal group's hand only once every
  table of the group has played it).  Private tables need ``?token=`` (the
  watch token or a seat token).

No request can put a table in a deal group: ``TableRequest`` has no such field
and refuses unknown ones, and only server-side code passes ``deal_group``.
* ``GET /healthz``.
* Accounts, sessions, profiles, leaderboards and the daily duplicate:
  ``app/account_routes.py`` (docs/protocol.md §13).

WebSocket: ``/ws/tables/{id}`` (docs/protocol.md).

Every request is bounded before a route sees it (body size and time:
:mod:`~burraco.infra.http_limits`); creating guests and tables is rate-limited
per client address, a guest may have only so many tables waiting, and waiting
tables left alone expire (:mod:`~burraco.server.waiting`).  Errors keep one
shape (:mod:`~burraco.app.http_errors`); every answer carries the security
headers of :mod:`~burraco.infra.http_headers`.  docs/protocol.md "Limits" lists
every limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from redis.exceptions import RedisError

from burraco.accounts.identity import GUEST_COOKIE, Guest, TokenError, check_nickname
from burraco.accounts.service import request_token
from burraco.analysis.review import Settings
from burraco.app.account_routes import install as install_players
from burraco.app.analysis_jobs import AnalysisJobs, install_analysis
from burraco.app.challenge_routes import install as install_challenges
from burraco.app.club_room_routes import install as install_club_room
from burraco.app.event_routes import install as install_events
from burraco.app.http_errors import install_error_shapes, quiet_client_faults
from burraco.app.metrics_route import install_metrics
from burraco.app.notify_routes import install as install_notifications
from burraco.app.pool_routes import install as install_pool
from burraco.app.presence_routes import install as install_presence
from burraco.app.table_extras import install_table_extras
from burraco.app.web import install_web
from burraco.community.service import attach as attach_community
from burraco.infra.config import ServerConfig
from burraco.infra.http_headers import SecurityHeaders
from burraco.infra.http_limits import BodyLimit, client_address
from burraco.infra.rates import RateLimits, storage_for
from burraco.server.assembly import new_hub
from burraco.server.gateway import serve_connection
from burraco.server.rated import RATED_LIVE, live_rated
from burraco.server.storage import repository as repo
from burraco.server.tables import TableConfigError, TableRequest, build_config
from burraco.server.waiting import expire_forever, live_bot_tables, waiting_count
from burraco.tournament.profiles import profile_tournaments
from burraco.tournament.web import install as install_tournaments


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers


class ErrorBody(BaseModel):
    """Every error answer of the API (docs/protocol.md §3)."""

    code: str
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": what} for status, what in (
        (400, "unreadable request"), (401, "no or a bad guest token"),
        (403, "not allowed"), (404, "no such thing"), (405, "method not allowed"),
        (408, "request too slow"), (409, "conflict"), (413, "request body too large"),
        (422, "invalid request (the field is named)"), (429, "rate limited"),
        (500, "server failure"), (503, "not available"))}
"""Declared for every operation, so the OpenAPI schema lists each error answer's shape."""


class GuestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    nickname: str = Field(max_length=256)


def create_app(settings: ServerConfig) -> FastAPI:
    hub = new_hub(settings)
    _, daily = attach_community(hub)  # finished matches recorded, the daily duplicate
    hub.players.profile_parts.append(  # a profile shows the club tournaments played
        lambda conn, pid: {"tournaments": profile_tournaments(conn, pid)})
    rates = RateLimits({"tables": settings.table_rate, "guests": settings.guest_rate,
                        "bot_tables": settings.bot_table_rate},
                       storage_for(settings.redis_url, settings.redis_prefix))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        expiry = (asyncio.create_task(expire_forever(hub, settings.waiting_expiry))
                  if settings.waiting_expiry > 0 else None)
        try:
            yield
        finally:
            if expiry is not None:
                expiry.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await expiry
            await hub.stop()
            analysis.stop()

    app = FastAPI(title="burraco", lifespan=lifespan, docs_url=None, redoc_url=None,
                  responses=ERRORS)
    app.state.hub = hub
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       timeout=settings.body_timeout)
    app.add_middleware(SecurityHeaders)
    install_error_shapes(app)
    quiet_client_faults()

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "detail": exc.detail}, status_code=exc.status,
                            headers=exc.headers)

    async def rate_limited(kind: str, request: Request) -> None:
        address = client_address(request.scope)
        refusal = await rates.hit(kind, address)
        if refusal is not None:
            raise ApiError(429, "rate_limited", refusal,
                           {"retry-after": str(await rates.retry_after(kind, address))})

    creating = asyncio.Lock()

    def guest_of(request: Request) -> Guest:
        token = request_token(request.headers, request.cookies)  # a session or a guest token
        if not token:
            raise ApiError(401, "guest_required", "send a guest token (POST /api/guests) as "
                           "'Authorization: Bearer TOKEN' or the burraco_guest cookie")
        try:
            return hub.identify(token)
        except TokenError as exc:
            raise ApiError(401, "bad_token", str(exc)) from None

    async def visible_table(table_id: str, token: str | None) -> dict[str, Any]:
        info = await hub.read(lambda conn: repo.table_info(conn, table_id))
        if info is None:
            raise ApiError(404, "table_not_found", f"no table {table_id!r}")
        if not info["public"]:
            allowed = False
            if token:
                try:
                    hub.tokens.check_watch(token, table_id)
                    allowed = True
                except TokenError:
                    try:
                        hub.tokens.seat_of(token, table_id)
                        allowed = True
                    except TokenError:
                        pass
            if not allowed:
                raise ApiError(403, "watch_token_required",
                               "this table is private: add ?token= (its watch or a seat token)")
        return info

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        health: dict[str, Any] = {"ok": True, "tables": len(hub.actors),
                                  "broken": len(hub.broken), "pid": os.getpid()}
        if hub.cluster is not None:
            health["cluster"] = hub.cluster.health()
            if hub.cluster.cut_off:  # a load balancer sends nobody here until Redis is back
                health["ok"] = False
                return JSONResponse(health, status_code=503, headers={
                    "retry-after": str(hub.cluster.retry_after)})
        return JSONResponse(health)

    @app.exception_handler(RedisError)
    async def _redis_away(_request: Request, exc: RedisError) -> JSONResponse:
        after = hub.cluster.retry_after if hub.cluster is not None else 1
        return JSONResponse({"code": "cluster_unavailable", "detail": "this server cannot "
                             f"reach the cluster's Redis ({type(exc).__name__}): retry"},
                            status_code=503, headers={"retry-after": str(after)})

    @app.post("/api/guests", status_code=201)
    async def new_guest(body: GuestRequest, request: Request) -> JSONResponse:
        try:
            nickname = check_nickname(body.nickname)
        except ValueError as exc:
            raise ApiError(422, "bad_request", str(exc)) from None
        await rate_limited("guests", request)
        guest, token = await hub.new_guest(nickname)
        response = JSONResponse({"guest_id": guest.id, "nickname": guest.nickname,
                                 "token": token}, status_code=201)
        response.set_cookie(GUEST_COOKIE, token, httponly=True, samesite="lax",
                            max_age=365 * 24 * 3600)
        return response

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        guest = guest_of(request)
        if guest.account:
            return await hub.players.me(guest)
        return {"guest_id": guest.id, "nickname": guest.nickname}

    @app.post("/api/tables", status_code=201)
    async def new_table(body: TableRequest, request: Request) -> dict[str, Any]:
        creator = guest_of(request)
        try:
            # refused settings cost neither a rate slot nor a lock
            config = build_config(body, engines=tuple(settings.engine_commands),
                                  rated_minimum=(settings.rated_min_target,
                                                 settings.rated_min_hands))
        except TableConfigError as exc:
            raise ApiError(422, "bad_request", str(exc)) from None
        bots_only = not config.human_seats
        if bots_only and config.bot_delay < settings.bot_table_delay:
            raise ApiError(422, "bad_request", f"bot_delay: a table of bots only moves at most "
                           f"every {settings.bot_table_delay:g} s (burraco arena plays bots at "
                           "full speed)")
        await rate_limited("tables", request)
        if bots_only:
            await rate_limited("bot_tables", request)
        cap = settings.waiting_tables_per_guest
        waits = len(config.human_seats) > (body.creator_seat is not None)
        async with creating:  # count and create as one step, so the caps hold
            if cap and waits and await hub.read(
                    lambda conn: waiting_count(conn, creator.id)) >= cap:
                raise ApiError(429, "too_many_waiting",
                               f"you have {cap} tables waiting for players already: start or "
                               f"leave one first (they expire after "
                               f"{settings.waiting_expiry / 3600:g} h unchanged)")
            bot_cap = settings.bot_tables_per_guest
            if bots_only and bot_cap and await hub.read(
                    lambda conn: live_bot_tables(conn, creator.id)) >= bot_cap:
                raise ApiError(429, "too_many_bot_tables",
                               f"you have {bot_cap} tables of bots only still playing: watch "
                               "one to its end first")
            try:
                return await hub.create_table(creator, body)
            except TableConfigError as exc:
                raise ApiError(422, "bad_request", str(exc)) from None

    @app.get("/api/tables")
    async def tables() -> dict[str, Any]:
        rows = await hub.read(repo.table_summaries)
        for row in rows:
            actor = hub.actors.get(row["id"])
            row["seats"] = actor.presence() if actor is not None else None
        return {"tables": rows}

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, token: str | None = None) -> dict[str, Any]:
        info = await visible_table(table_id, token)
        actor = await hub.readable(table_id)
        if actor is not None:
            info["status"] = actor.game.status
            info["version"] = actor.game.version
            info["seats"] = actor.presence()
            if not live_rated(info):  # a rated match's course is shown once it is over
                info["match"] = actor.game.match.to_dict()
        return info

    @app.get("/api/tables/{table_id}/hands")
    async def hands(table_id: str, token: str | None = None) -> dict[str, Any]:
        if live_rated(await visible_table(table_id, token)):
            raise ApiError(403, "rated_live", RATED_LIVE)
        return {"hands": await hub.read(lambda conn: repo.hand_rows(conn, table_id))}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await serve_connection(websocket, table_id, hub)

    analysis = install_analysis(app, AnalysisJobs(Settings(
        level=settings.analysis_level, samples=settings.analysis_samples)))  # replay marks
    install_metrics(app)  # GET /metrics, Prometheus text
    install_players(app, hub.players, daily)  # accounts, profiles, leaderboards
    # director and player pages under /tournaments/ (before the catch-all); wrong keys counted
    # with the other limits (across the cluster with --redis)
    install_tournaments(app, storage_for(settings.redis_url, settings.redis_prefix))
    # tutorial, rematch, invitation (before the web)
    install_table_extras(app, hub, guest_of, rate_limited)
    pool = install_pool(app, hub)  # "Play now, with people": the matchmaking pool
    challenges = install_challenges(app, hub, pool)  # a player challenges another
    presence = install_presence(app, hub, pool)  # friends online, at a table, in a pool
    events = install_events(app, hub)  # open online tournaments, run by the server
    install_club_room(app, hub, pool, presence, events)  # a club's members here, its events
    install_notifications(app, hub, pool, challenges, presence, events)  # what waits for you
    install_web(app)  # the browser client and its read-only calls (last: it has a catch-all)
    return app
