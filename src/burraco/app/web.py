"""The browser client: serves the built ``web/`` app and the few read-only calls it needs.

:func:`install_web` is called once by the app factory, after every other route,
so the client's catch-all pages never shadow the API.  It adds:

* ``GET /api/web/options``: what the create-table form offers: the rules
  presets with every option's value, each option's kind and choices, the bot
  levels and the table settings (``TableRequest``) with their defaults.
* ``POST /api/web/tables/{id}/seats/{seat}``: the seat token of an open human
  seat of a *public* table, so a guest in the lobby can sit down (private
  tables are joined only through the invite links their creator shares).
* ``GET /api/web/tables/{id}/hands/{number}/replay``: a finished hand replayed
  by the engine, every card shown, one frame per move (the hand is over, so
  nothing is secret any more), except a deal group's hand that other tables of
  the group are still to play (409 ``deal_held``).
* the client itself: ``/`` (the lobby), ``/play/{id}`` (a table; invite links
  point here), ``/replay/{id}``, and the static files built by ``web/``
  (``npm run build`` writes them to ``static/`` beside this module).

Nothing here changes a table: seat tokens are signed capabilities the table
checks when they are used, and replays read finished hands only.
"""

from __future__ import annotations

import typing
from typing import Any, get_args, get_origin, get_type_hints

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from burraco.accounts.identity import Guest, TokenError
from burraco.accounts.service import request_token
from burraco.app.client_files import static_dir
from burraco.bots.base import LEVEL_NAMES
from burraco.engine.actions import parse_action
from burraco.engine.cards import card_str
from burraco.engine.melds import burraco_type
from burraco.engine.records import RecordError, start_state
from burraco.engine.rules import PRESET_NOTES, PRESETS, Rules
from burraco.engine.state import HandState, IllegalActionError
from burraco.server.game import ONE_SEAT, holds_another_seat
from burraco.server.rated import ACCOUNT_REQUIRED, RATED_LIVE, live_rated
from burraco.server.rules_bounds import INT_BOUNDS
from burraco.server.storage import repository as repo
from burraco.server.tables import TableRequest

PAGES = ("play", "replay", "pad", "help", "rules")
"""First path segments of the client's own pages (everything else is the API or a file)."""


def _error(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail}, status_code=status)


# --- what the create-table form offers ------------------------------------------------------

def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def option_kinds() -> list[dict[str, Any]]:
    """Every rules option with its section, description, kind and (for enums) choices.

    ``kind`` is ``bool``, ``int`` (with ``min`` and ``max``, the engine's bounds),
    ``choice`` (with ``choices``), ``text`` or ``json`` (lists such as the bonuses,
    edited as JSON text).
    """
    hints = get_type_hints(Rules)
    out = []
    for name, section, doc in Rules.options():
        if name == "name":
            continue
        hint = hints[name]
        entry: dict[str, Any] = {"name": name, "section": section, "doc": doc}
        if hint is bool:
            entry["kind"] = "bool"
        elif hint is int:
            entry["kind"] = "int"
            if name in INT_BOUNDS:
                entry["min"], entry["max"] = INT_BOUNDS[name]
        elif hint is str:
            entry["kind"] = "text"
        elif get_origin(hint) is typing.Literal:
            entry["kind"] = "choice"
            entry["choices"] = list(get_args(hint))
        else:
            entry["kind"] = "json"
        out.append(entry)
    return out


def form_options() -> dict[str, Any]:
    presets = []
    for name in sorted(PRESETS, key=lambda n: (n != "fibur", n)):
        values = PRESETS[name].to_dict()
        presets.append({"name": name, "note": PRESET_NOTES.get(name, ""),
                        "values": {k: _jsonable(v) for k, v in values.items() if k != "name"}})
    table = []
    for name, info in TableRequest.model_fields.items():
        default = info.get_default(call_default_factory=True)
        table.append({"name": name, "default": _jsonable(default)})
    return {"presets": presets, "options": option_kinds(), "levels": list(LEVEL_NAMES),
            "table": table}


# --- replays ----------------------------------------------------------------------------------

def _cards(ids: list[int] | tuple[int, ...]) -> list[list[Any]]:
    """Cards as ``[text, id]`` pairs (the id tells the pack, hence the back)."""
    return [[card_str(c), c] for c in ids]


def replay_frame(state: HandState, index: int, seat: int | None,
                 move: str | None) -> dict[str, Any]:
    """Everything on the table after ``index`` moves (the hand is over: nothing is hidden)."""
    rules = state.rules
    return {
        "index": index, "seat": seat, "move": move, "turn": state.turn, "phase": state.phase,
        "hands": [_cards(h) for h in state.hands],
        "pending": [_cards(p) for p in state.pending],
        "melds": [[{"text": str(m), "type": burraco_type(m, rules)} for m in side]
                  for side in state.melds],
        "pile": _cards(state.pile),
        "stock": _cards(list(reversed(state.stock))),
        "pozzetti": [_cards(p) for p in state.pozzetti],
        "pozzetto_taker": list(state.pozzetto_taker),
        "side_of": list(state.side_of),
    }


def replay_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One frame for the deal and one after each move of a finished hand's record."""
    state = start_state(record)
    frames = [replay_frame(state, 0, None, None)]
    for index, text in enumerate(record.get("moves", []), start=1):
        seat = state.turn
        state.apply_in_place(parse_action(text))
        frames.append(replay_frame(state, index, seat, text))
    return frames


# --- installing -------------------------------------------------------------------------------

def install_web(app: FastAPI) -> None:
    """Add the client's calls and pages to ``app`` (call it after the app's own routes)."""
    hub = app.state.hub

    def guest_of(request: Request) -> Guest | None:
        token = request_token(request.headers, request.cookies)
        if not token:
            return None
        try:
            return typing.cast(Guest, hub.identify(token))
        except TokenError:
            return None

    def may_see(info: dict[str, Any], table_id: str, token: str | None) -> bool:
        return bool(info["public"]) or bool(hub.tokens.opens(token, table_id))

    @app.get("/api/web/options")
    async def options() -> dict[str, Any]:
        return form_options()

    @app.post("/api/web/tables/{table_id}/seats/{seat}")
    async def seat_token(table_id: str, seat: int, request: Request) -> JSONResponse:
        guest = guest_of(request)
        if guest is None:
            return _error(401, "guest_required", "pick a nickname first (POST /api/guests)")
        actor = await hub.readable(table_id)
        if actor is None:
            return _error(404, "table_not_found", f"no table {table_id!r}")
        config = actor.config
        if not config.public:
            return _error(403, "private_table", "a private table is joined by its invite link")
        if not 0 <= seat < config.players:
            return _error(404, "no_such_seat", f"no seat {seat} at a table of {config.players}")
        if config.is_bot(seat):
            return _error(409, "bot_seat", f"seat {seat} is played by a bot")
        holder = actor.game.holders[seat]
        if holder is not None and holder.guest_id != guest.id:
            return _error(409, "seat_taken", f"seat {seat} is held by {holder.nickname}")
        if config.rated:  # the hello's own rules, said before a token is handed out
            if not guest.account:
                return _error(403, "account_required", ACCOUNT_REQUIRED)
            if holds_another_seat(actor.game.holders, seat, guest.id):
                return _error(403, "one_seat", ONE_SEAT)
        return JSONResponse({"table_id": table_id, "seat": seat,
                             "token": hub.tokens.seat_token(table_id, seat)})

    @app.get("/api/web/tables/{table_id}/hands/{number}/replay")
    async def hand_replay(table_id: str, number: int, token: str | None = None) -> JSONResponse:
        info = await hub.read(lambda conn: repo.table_info(conn, table_id))
        if info is None:
            return _error(404, "table_not_found", f"no table {table_id!r}")
        if not may_see(info, table_id, token):
            return _error(403, "watch_token_required",
                          "this table is private: add ?token= (its watch or a seat token)")
        if live_rated(info):
            return _error(403, "rated_live", RATED_LIVE)
        hands = await hub.read(lambda conn: repo.hand_rows(conn, table_id))
        row = next((h for h in hands if h["number"] == number), None)
        if row is not None and row.get("held"):
            return _error(409, "deal_held", f"hand {number} is dealt at other tables of this "
                          "table's group too: its replay is shown once they have all played it")
        if row is None or row["record"] is None:
            return _error(404, "hand_not_over", f"hand {number} of this table is not over")
        try:
            frames = replay_frames(row["record"])
        except (RecordError, IllegalActionError, ValueError) as exc:
            return _error(500, "replay_failed", f"the stored record does not replay: {exc}")
        return JSONResponse({"table_id": table_id, "number": number, "config": info["config"],
                             "commitment": row["commitment"], "dealer": row["dealer"],
                             "reveal": row["reveal"], "result": row["result"],
                             "record": row["record"], "frames": frames})

    folder = static_dir()
    index = folder / "index.html"

    async def page(request: Request) -> Any:
        del request
        if index.is_file():
            return FileResponse(index, headers={"cache-control": "no-cache"})
        return HTMLResponse(NOT_BUILT, status_code=503)

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    for name in ("help", "rules"):  # the help page is also reached without a trailing slash
        app.add_api_route(f"/{name}", page, methods=["GET"], include_in_schema=False)
    for name in PAGES:
        app.add_api_route(f"/{name}/{{rest:path}}", page, methods=["GET"],
                          include_in_schema=False)
    if folder.is_dir():
        app.mount("/", StaticFiles(directory=folder), name="web")


NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>burraco</title>
<h1>The web client is not built</h1>
<p>Run <code>./scripts/run</code> (it builds <code>web/</code> first), or
<code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>, then reload this page.</p>
<p>Il client web non è stato compilato: esegui <code>./scripts/run</code> e ricarica.</p>
"""
