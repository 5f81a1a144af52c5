"""Leaving: ``DELETE /api/me`` deletes the account, ``GET /api/me/export`` gives its data.

* ``DELETE /api/me`` ``{"password"}``: the account is deleted (``accounts.erasure``); every
  session of it ends on every process at once and the cookies are cleared.  409 ``at_table``
  while the account holds a seat at a table whose match is not over (the table would write
  the seat's results after the deletion): finish it, or cancel a waiting one, first.  401
  ``login_required`` without a session, 401 ``bad_credentials`` for a wrong password (the
  log-in's throttle: 429 ``throttled``), 422 naming the field for a malformed body, 400
  ``bad_json`` for a body that is not JSON; a refusal changes nothing.
* ``GET /api/me/export``: every row about the account, as a JSON file.  The server's game
  tables are given only as far as they are public: the tables sat at (their settings and
  state) and, of matches that are over, each hand's record; never their raw event logs,
  commands or snapshots, which hold every hand's cards.  :data:`EXPORT_RATE` per account
  (429 ``rate_limited``: each export reads every table).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError
from sqlalchemy import Connection, select

from burraco.accounts import erasure
from burraco.accounts.identity import GUEST_COOKIE
from burraco.accounts.service import BadLogin, Players, Throttled, request_token
from burraco.accounts.sessions import SESSION_COOKIE
from burraco.app.account_http import error as _error
from burraco.app.account_http import throttled
from burraco.infra import scrub
from burraco.infra.http_limits import client_address
from burraco.infra.rates import RateLimits, storage_for
from burraco.server.storage import repository as repo
from burraco.server.storage.models import CommandRow, TableRow

LOGIN = "log in first (POST /api/sessions)"
EXPORT_RATE = "10/hour"
FILENAME = "burraco-export.json"

GAME_TABLES = ("tables", "commands", "events", "games", "snapshots", "deal_groups",
               "deal_group_tables", "server_secrets")
"""The game server's own tables: withheld from the export's search, given as public."""
PLAYED = ("tables", "commands", "snapshots")
"""Where a table names who created it or sat at it."""
GAMES_NOTE = ("The tables you created or sat at are under 'tables' (their settings and "
              "state) and, for matches that are over, each hand's record under 'games'. "
              "The tables' raw event logs, commands and snapshots are not included: they "
              "hold every player's hidden cards.")


class Leaving(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: StrictStr


def _leaving(raw: bytes) -> Leaving | JSONResponse:
    """The body, or the answer refusing it (400 not JSON, 422 naming the field)."""
    try:
        data = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        return _error(400, "bad_json", "the body is not valid JSON")
    try:
        return Leaving.model_validate(data)
    except ValidationError as exc:
        problems = [(".".join(str(p) for p in e["loc"]) or "body", e["msg"])
                    for e in exc.errors()]
        return _error(422, "bad_request", "; ".join(f"{f}: {m}" for f, m in problems),
                      field=problems[0][0])


def _played(conn: Connection, metadata: Any, player_id: str) -> dict[str, list[Any]]:
    """The public part of the game tables about the player: ``tables`` and ``games``."""
    found = scrub.rows_naming(conn, metadata, [player_id], only=PLAYED)
    ids = sorted({str(row.get("table_id") or row.get("id")) for rows in found.values()
                  for row in rows})
    tables = [info for info in (repo.table_info(conn, tid) for tid in ids) if info]
    games = [{"table_id": info["id"], **hand} for info in tables
             if info["status"] == "finished" for hand in repo.hand_rows(conn, info["id"])]
    return {"tables": tables, "games": games}


def _export(conn: Connection, player_id: str) -> dict[str, Any] | None:
    if conn.dialect.name == "postgresql":  # one snapshot for every table's read
        conn.execution_options(isolation_level="REPEATABLE READ")
    metadata = scrub.reflected(conn)
    out = erasure.export(conn, player_id, metadata=metadata, withheld=GAME_TABLES)
    if out is None:
        return None
    played = {k: [erasure.shown(r) for r in v]
              for k, v in _played(conn, metadata, player_id).items() if v}
    out["tables"] = dict(sorted({**out["tables"], **played}.items()))
    out["notes"].append(GAMES_NOTE)
    return out


def live_seats(conn: Connection, player_id: str) -> list[str]:
    """The tables whose match is not over where ``player_id`` holds a seat."""
    live = list(conn.scalars(select(TableRow.id).where(TableRow.status != "finished")))
    if not live:
        return []
    seated = {str(row.table_id) for row in conn.execute(
        select(CommandRow.table_id, CommandRow.body).where(
            CommandRow.table_id.in_(live), CommandRow.kind == "claim"))
        if row.body.get("guest_id") == player_id}
    return sorted(seated)


def router(players: Players) -> APIRouter:
    api = APIRouter()
    settings = players.host.settings
    limits = RateLimits({"exports": EXPORT_RATE},
                        storage_for(settings.redis_url, settings.redis_prefix))

    @api.delete("/api/me", openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": Leaving.model_json_schema()}}}})
    async def delete_me(request: Request) -> JSONResponse:
        session = players.session_of(request_token(request.headers, request.cookies))
        if session is None:
            return _error(401, "login_required", LOGIN)
        body = _leaving(await request.body())
        if isinstance(body, JSONResponse):
            return body
        seats = await players.host.read(lambda conn: live_seats(conn, session.player_id))
        if seats:
            return _error(409, "at_table", "you hold a seat at a table still being played: "
                          "finish the match (or cancel a table nobody joined) first",
                          tables=seats)
        try:
            await erasure.leave(players, session, body.password, client_address(request.scope))
        except Throttled as exc:
            return throttled(exc)
        except BadLogin:
            return _error(401, "bad_credentials", "the password is wrong")
        response = JSONResponse({"deleted": True})
        response.delete_cookie(SESSION_COOKIE)
        response.delete_cookie(GUEST_COOKIE)
        return response

    @api.get("/api/me/export")
    async def export(request: Request) -> JSONResponse:
        session = players.session_of(request_token(request.headers, request.cookies))
        if session is None:
            return _error(401, "login_required", LOGIN)
        if await limits.hit("exports", session.player_id) is not None:
            response = _error(429, "rate_limited", f"at most {EXPORT_RATE} exports of an "
                              "account: try again later")
            response.headers["Retry-After"] = str(
                await limits.retry_after("exports", session.player_id))
            return response
        body = await players.host.read(lambda conn: _export(conn, session.player_id))
        if body is None:
            return _error(401, "login_required", LOGIN)
        return JSONResponse(body, headers={
            "content-disposition": f'attachment; filename="{FILENAME}"',
            "cache-control": "no-store"})

    return api
