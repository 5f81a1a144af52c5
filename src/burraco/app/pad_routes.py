"""The score pad's HTTP API for a logged-in account (docs/protocol.md §14.2).

* ``GET /api/me/scorepad`` every sheet kept
* ``PUT /api/me/scorepad/{id}`` keep a sheet (``{"updated", "sheet"}``), the later wins
* ``DELETE /api/me/scorepad/{id}`` forget a sheet

The session token (``Authorization: Bearer`` or the session cookie) says whose; a
guest gets 401.  Errors are ``{"code", "detail", "field"}``; bad input stores nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, StrictInt

from burraco.accounts import pad
from burraco.accounts.service import Players, request_token
from burraco.accounts.sessions import Session


class PadPut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    updated: StrictInt
    sheet: dict[str, Any]


class SheetSaved(BaseModel):
    """What a kept sheet's ``PUT`` answers."""

    id: str
    updated: int
    created: bool


class StaleSheet(BaseModel):
    """409: the account keeps a later version of the sheet, in ``current``."""

    code: str
    detail: str
    current: dict[str, Any]


def _error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail, **extra}, status_code=status)


def _bad(exc: pad.PadError) -> JSONResponse:
    return _error(exc.status, exc.code, exc.detail, field=exc.field)


LOGIN = "log in first (POST /api/sessions): the score pad is kept in the browser for guests"


def router(players: Players) -> APIRouter:
    api = APIRouter()

    def session_of(request: Request) -> Session | None:
        return players.session_of(request_token(request.headers, request.cookies))

    @api.get("/api/me/scorepad")
    async def list_sheets(request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", LOGIN)
        found = await players.host.read(lambda conn: pad.sheets(conn, session.player_id))
        return JSONResponse({"sheets": found, "limits": {
            "sheets": pad.MAX_SHEETS, "sheet_bytes": pad.SHEET_BYTES}})

    @api.put("/api/me/scorepad/{sheet_id}", response_model=SheetSaved, responses={
        201: {"model": SheetSaved, "description": "a new sheet kept"},
        409: {"model": StaleSheet, "description": "stale: the account keeps a later version "
                                                  "(current)"}})
    async def put_sheet(sheet_id: str, body: PadPut, request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", LOGIN)
        try:
            text = pad.check_put(sheet_id, body.updated, body.sheet)
            created = await players.host.writer.run(lambda conn: pad.put(
                conn, session.player_id, sheet_id, body.updated, text))
        except pad.PadError as exc:
            return _bad(exc)
        except pad.Stale as exc:
            return _error(409, "stale", "the account keeps a later version of this sheet "
                          "(it is in current)", current=exc.current)
        return JSONResponse({"id": sheet_id, "updated": body.updated, "created": created},
                            status_code=201 if created else 200)

    @api.delete("/api/me/scorepad/{sheet_id}")
    async def delete_sheet(sheet_id: str, request: Request) -> JSONResponse:
        session = session_of(request)
        if session is None:
            return _error(401, "login_required", LOGIN)
        try:
            pad.check_id(sheet_id)
        except pad.PadError as exc:
            return _bad(exc)
        gone = await players.host.writer.run(lambda conn: pad.remove(
            conn, session.player_id, sheet_id))
        return JSONResponse({"id": sheet_id, "deleted": gone})

    return api
