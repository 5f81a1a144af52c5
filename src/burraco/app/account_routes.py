"""The players' HTTP API (docs/protocol.md, "Accounts, ratings and leaderboards").

* ``POST /api/accounts`` register; ``POST /api/sessions`` log in; ``DELETE /api/sessions``
  log out; ``POST /api/me/password`` change the password (other sessions end);
  ``PUT /api/me/avatar`` pick an avatar (``accounts.avatars``)
* ``GET /api/players/{username}`` a profile; ``GET /api/leaderboard`` a board
* ``GET /api/ratings/bots`` the bot levels' fixed ratings (the lobby shows them)

``GET /api/me`` stays the app's own; it answers for accounts through
:meth:`Players.me`.  Errors are ``{"code", "detail"}`` (and ``"field"`` for bad input);
nothing here says whether a username exists, except the profile (404) and the
register conflict (409).
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, StrictStr

from burraco.accounts.identity import Guest, TokenError
from burraco.accounts.names import FieldError, check_password, check_username
from burraco.accounts.ratings import FORMS
from burraco.accounts.service import (
    BadLogin,
    Banned,
    Players,
    Throttled,
    UsernameTaken,
    request_token,
)
from burraco.accounts.sessions import SESSION_COOKIE, Session
from burraco.app import club_routes, me_routes, pad_routes, social_routes, trust_routes
from burraco.app.account_http import address as _address
from burraco.app.account_http import bad as _bad
from burraco.app.account_http import banned, throttled, with_cookie
from burraco.app.account_http import error as _error
from burraco.app.client_files import static_dir
from burraco.app.web import NOT_BUILT
from burraco.community.service import Daily, DailyError

DAY = r"^\d{4}-\d{2}-\d{2}$"
MONTH = r"^\d{4}-\d{2}$"


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: StrictStr
    password: StrictStr


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current_password: StrictStr
    new_password: StrictStr


class AvatarChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    avatar: StrictStr


class AvatarSet(BaseModel):
    """What ``PUT /api/me/avatar`` answers: the avatar the account shows now."""

    avatar: str


def _bad_day(day: str | None) -> JSONResponse | None:
    """A ``day`` the pattern lets through but no calendar has (``2026-13-45``, year 0)."""
    if day is None:
        return None
    try:
        year = date.fromisoformat(day).year
    except ValueError:
        return _error(422, "bad_request", f"day {day!r} is not a date (YYYY-MM-DD)", field="day")
    if not 2000 <= year <= 9998:
        return _error(422, "bad_request", f"day {day!r}: the daily duplicate has no such year",
                      field="day")
    return None


def router(players: Players, daily: Daily) -> APIRouter:
    api = APIRouter()

    def session_of(request: Request) -> Session | None:
        return players.session_of(request_token(request.headers, request.cookies))

    @api.post("/api/accounts", status_code=201)
    async def register(body: Credentials, request: Request) -> JSONResponse:
        try:
            username = check_username(body.username)
            password = check_password(body.password)
        except FieldError as exc:
            return _bad(exc)
        refusal = await players.registrations.hit("accounts", _address(request))
        if refusal is not None:
            wait = await players.registrations.retry_after("accounts", _address(request))
            response = _error(429, "rate_limited", refusal)
            response.headers["Retry-After"] = str(wait)
            return response
        guest_token = request_token(request.headers, request.cookies)
        try:
            player_id, token, codes = await players.register(username, password, guest_token)
        except UsernameTaken:
            return _error(409, "username_taken", f"the username {username!r} is taken "
                          "(usernames are unique regardless of case)")
        return with_cookie({"player_id": player_id, "username": username, "token": token,
                             "recovery_codes": codes}, token, 201)

    @api.post("/api/sessions")
    async def login(body: Credentials, request: Request) -> JSONResponse:
        try:
            token, username = await players.login(body.username, body.password,
                                                   _address(request))
        except Throttled as exc:
            return throttled(exc)
        except BadLogin:
            return _error(401, "bad_credentials", "wrong username or password")
        except Banned as exc:
            return banned(exc)
        return with_cookie({"token": token, "username": username}, token, 200)

    @api.delete("/api/sessions")
    async def logout(request: Request) -> JSONResponse:
        session = session_of(request)
        if session is not None:
            await players.logout(session)
        response = JSONResponse({"ok": True})
        response.delete_cookie(SESSION_COOKIE)
        return response

    @api.post("/api/me/password")
    async def change_password(body: PasswordChange, request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", "log in first (POST /api/sessions)")
        try:
            new = check_password(body.new_password, "new_password")
        except FieldError as exc:
            return _bad(exc)
        try:
            await players.change_password(session, body.current_password, new,
                                          _address(request))
        except Throttled as exc:
            return throttled(exc)
        except BadLogin:
            return _error(401, "bad_credentials", "the current password is wrong")
        return JSONResponse({"ok": True, "other_sessions": "ended"})

    @api.put("/api/me/avatar", response_model=AvatarSet)
    async def set_avatar(body: AvatarChoice, request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", "log in first (POST /api/sessions): guests "
                          "show the guests' avatar")
        try:
            avatar = await players.set_avatar(session, body.avatar)
        except FieldError as exc:
            return _bad(exc)
        return JSONResponse({"avatar": avatar})

    @api.get("/api/players/{username}")
    async def profile(username: str) -> JSONResponse:
        try:
            check_username(username)
        except FieldError:
            return _error(404, "player_not_found", "no player of that name")
        found = await players.profile(username)
        if found is None:
            return _error(404, "player_not_found", "no player of that name")
        return JSONResponse(found)

    @api.get("/api/leaderboard")
    async def leaderboard(request: Request, players_: Literal["2", "4"] = Query(
            "2", alias="players"), period: Literal["week", "month", "all"] = "all",
            page: int = Query(1, ge=1, le=100_000)) -> JSONResponse:
        session = session_of(request)
        assert players_ in FORMS
        board = await players.leaderboard(players_, period, page,
                                          session.player_id if session else None)
        return JSONResponse(board)

    def who(request: Request) -> Guest | None:
        token = request_token(request.headers, request.cookies)
        if not token:
            return None
        try:
            return players.identify(token)
        except TokenError:
            return None

    def daily_error(exc: DailyError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.detail, **exc.extra)

    @api.get("/api/daily")
    async def daily_overview(request: Request, day: str | None = Query(
            None, pattern=DAY)) -> JSONResponse:
        if (bad := _bad_day(day)) is not None:
            return bad
        return JSONResponse(await daily.overview(who(request), day))

    @api.post("/api/daily/{players_}", status_code=201)
    async def daily_enter(request: Request, players_: Literal["2", "4"]) -> JSONResponse:
        guest = who(request)
        if guest is None:
            return _error(401, "login_required", "log in first (POST /api/sessions)")
        try:
            return JSONResponse(await daily.enter(guest, players_), status_code=201)
        except DailyError as exc:
            return daily_error(exc)

    @api.get("/api/daily/{players_}/board")
    async def daily_board(request: Request, players_: Literal["2", "4"],
                          day: str | None = Query(None, pattern=DAY)) -> JSONResponse:
        if (bad := _bad_day(day)) is not None:
            return bad
        try:
            return JSONResponse(await daily.board(who(request), players_, day))
        except DailyError as exc:
            return daily_error(exc)

    @api.get("/api/daily/{players_}/month")
    async def daily_month(players_: Literal["2", "4"],
                          month: str = Query(..., pattern=MONTH)) -> JSONResponse:
        return JSONResponse(await daily.month(players_, month))

    @api.get("/api/ratings/bots")
    async def bot_ratings() -> dict[str, Any]:
        return {"ratings": players.bot_ratings()}

    return api


PAGES = ("/players/{rest:path}", "/leaderboard", "/friends", "/clubs", "/clubs/{rest:path}",
         "/events", "/events/{rest:path}", "/recover", "/privacy", "/account", "/mod")
"""The browser client's own pages for players (profiles, the leaderboard, friends, clubs,
online tournaments)."""


async def _page() -> Any:
    index = static_dir() / "index.html"
    if index.is_file():
        return FileResponse(index, headers={"cache-control": "no-cache"})
    return HTMLResponse(NOT_BUILT, status_code=503)


def install(app: FastAPI, players: Players, daily: Daily) -> None:
    """Add the players' routes and pages (before the web client's catch-all)."""
    app.include_router(router(players, daily))
    app.include_router(pad_routes.router(players))  # the score pad saved to the account
    app.include_router(social_routes.router(players))  # friends and blocks
    app.include_router(club_routes.router(players))  # online clubs
    app.include_router(me_routes.router(players))  # deleting the account, its data
    app.include_router(trust_routes.router(players))  # recovery codes, reports, moderators
    for path in PAGES:
        app.add_api_route(path, _page, methods=["GET"], include_in_schema=False)
