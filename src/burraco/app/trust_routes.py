"""Recovery codes, reports and the moderators' routes (docs/protocol.md, "Trust and safety").

* ``POST /api/recover`` a recovery code sets a new password (every session ends; logged in);
  ``POST /api/me/recovery-codes`` new codes for the password
* ``POST /api/reports`` an account reports another
* ``GET /api/mod/reports``, ``POST /api/mod/actions``, ``POST /api/mod/reports/{id}/close``,
  ``GET /api/mod/log``, ``GET /api/mod/screening`` (the fair-play screening,
  docs/fair-play.md): moderators and admins only (403 ``forbidden``)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr

from burraco.accounts.moderation import ModerationError
from burraco.accounts.moderators import Moderators
from burraco.accounts.names import FieldError, check_password, check_username
from burraco.accounts.service import (
    BadLogin,
    BadRecovery,
    Banned,
    Players,
    Throttled,
    request_token,
)
from burraco.accounts.sessions import Session
from burraco.app.account_http import address, bad, banned, error, throttled, with_cookie
from burraco.community.collusion import screening_report

ID = r"^[A-Za-z0-9_-]{1,32}$"


class Recovery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: StrictStr
    code: StrictStr = Field(max_length=40)
    new_password: StrictStr


class Password(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: StrictStr


class ReportForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: StrictStr
    reason: Literal["cheating", "abuse", "name", "abandon", "other"]
    text: StrictStr = Field("", max_length=1000)
    context: Literal["table", "profile", "message"]
    table_id: StrictStr | None = Field(None, pattern=ID)
    message: StrictStr | None = Field(None, pattern=ID)


class ActionForm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: StrictStr
    action: Literal["warn", "mute", "suspend", "ban", "rename", "lift"]
    reason: StrictStr = Field(max_length=2000)
    days: StrictInt | StrictFloat | None = None
    new_username: StrictStr | None = None
    report_id: StrictStr | None = Field(None, pattern=ID)


class Closing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    outcome: StrictStr = Field(max_length=2000)


def refused(exc: ModerationError) -> JSONResponse:
    extra = {"field": exc.field} if exc.field else {}
    return error(exc.status, exc.code, exc.detail, **extra)


def router(players: Players) -> APIRouter:
    api = APIRouter()
    moderators = Moderators(players)

    def session_of(request: Request) -> Session | None:
        return players.session_of(request_token(request.headers, request.cookies))

    def login_required() -> JSONResponse:
        return error(401, "login_required", "log in first (POST /api/sessions)")

    @api.post("/api/recover")
    async def recover(body: Recovery, request: Request) -> JSONResponse:
        try:
            check_username(body.username)
            new = check_password(body.new_password, "new_password")
        except FieldError as exc:
            return bad(exc)
        try:
            token, username, left = await players.recover(body.username, body.code, new,
                                                          address(request))
        except Throttled as exc:
            return throttled(exc)
        except BadRecovery:
            return error(401, "bad_recovery", "wrong username or recovery code")
        except Banned as exc:
            return banned(exc)
        return with_cookie({"token": token, "username": username, "codes_left": left},
                           token, 200)

    @api.post("/api/me/recovery-codes")
    async def new_codes(body: Password, request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return login_required()
        try:
            codes = await players.new_recovery_codes(session, body.password, address(request))
        except Throttled as exc:
            return throttled(exc)
        except BadLogin:
            return error(401, "bad_credentials", "the password is wrong")
        return JSONResponse({"recovery_codes": codes})

    @api.post("/api/reports", status_code=201)
    async def report(body: ReportForm, request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return error(401, "login_required", "only accounts report players: log in first")
        try:
            report_id = await moderators.report(session.player_id, body.model_dump())
        except FieldError as exc:
            return bad(exc)
        except ModerationError as exc:
            return refused(exc)
        return JSONResponse({"report_id": report_id}, status_code=201)

    async def as_moderator(request: Request,
                           work: Callable[[str], Awaitable[dict[str, Any]]]) -> JSONResponse:
        """``work(player id)`` for the session's account, its refusals as answers: 401 for
        nobody, 403 for a non-moderator, 422 naming a field, the moderation's own codes."""
        session = session_of(request)
        if session is None:
            return login_required()
        try:
            return JSONResponse(await work(session.player_id))
        except FieldError as exc:
            return bad(exc)
        except ModerationError as exc:
            return refused(exc)

    @api.get("/api/mod/reports")
    async def reports(request: Request, status: Literal["open", "closed"] = Query("open")
                      ) -> JSONResponse:
        async def work(pid: str) -> dict[str, Any]:
            return {"reports": await moderators.queue(pid, status)}
        return await as_moderator(request, work)

    @api.post("/api/mod/actions")
    async def act(body: ActionForm, request: Request) -> JSONResponse:
        async def work(pid: str) -> dict[str, Any]:
            row = await moderators.act(pid, body.model_dump())
            return {"sanction": {**row, "username": body.username}}
        return await as_moderator(request, work)

    @api.post("/api/mod/reports/{report_id}/close")
    async def close(body: Closing, request: Request,
                    report_id: str = Path(..., pattern=ID)) -> JSONResponse:
        async def work(pid: str) -> dict[str, Any]:
            await moderators.close(pid, report_id, body.outcome)
            return {"closed": True}
        return await as_moderator(request, work)

    @api.get("/api/mod/log")
    async def log(request: Request) -> JSONResponse:
        async def work(pid: str) -> dict[str, Any]:
            return {"actions": await moderators.log(pid)}
        return await as_moderator(request, work)

    @api.get("/api/mod/screening")
    async def screening(request: Request, days: float = Query(90.0, gt=0, le=3650)
                        ) -> JSONResponse:
        async def work(pid: str) -> dict[str, Any]:
            await moderators.check_staff(pid)
            return await players.host.read(
                lambda conn: screening_report(conn, since_days=days))
        return await as_moderator(request, work)

    return api
