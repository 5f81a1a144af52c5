"""More of the club evening's routes: the evening's table links, the wall, the clock's warning.

Added to the tournament router by :func:`.club_web.add_routes`:

* ``GET /tournaments/{id}/evening/{token}``   an evening link (:meth:`.table_desk.Desk.
                                              open_evening`): the table's round in play
                                              (a redirect to that round's link); before
                                              round 1 and between rounds a page saying
                                              the next round has not started, which
                                              reloads itself when it does
* ``GET /tournaments/{id}/wall``              director: the movement card (:mod:`.wall`)
* ``GET /api/tournaments/{id}/evening-links`` director: every table's two evening links
* ``GET /tournaments/clock-warning.js``       the clock's 5-minute warning (:mod:`.clock_view`)

An evening link that does not open (forged, another table's or another tournament's)
answers 403 and says why, as a round's link does.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from html import escape
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from burraco.tournament.address import link_base
from burraco.tournament.clock_view import WARNING_SCRIPT, WARNING_SCRIPT_PATH
from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import LANGUAGES, Lang, say, tr
from burraco.tournament.model import Tournament
from burraco.tournament.pages import lang_of, layout
from burraco.tournament.service import Director
from burraco.tournament.table_desk import Desk, LinkError, TableSide
from burraco.tournament.table_entry import SCRIPT_TAG
from burraco.tournament.wall import wall
from burraco.tournament.wall_page import wall_page

Loader = Callable[[Request, str], Coroutine[Any, Any, Tournament]]
Shown = Callable[[Request, str, Tournament], Coroutine[Any, Any, Tournament]]
FALLBACK_REFRESH = 30
"""Without the script, a waiting phone reloads every this many seconds."""


def waiting_page(tid: str, token: str, t: Tournament, seat: TableSide, lang: Lang, *,
                 stamp: str) -> str:
    """An evening link while its table plays no round: before round 1, between rounds, a
    round without a match at this table, or the tournament over."""
    base = f"/tournaments/{quote(tid)}"
    current = t.current
    poll = (f" data-stamp='{escape(stamp)}' data-poll='{base}/screen.json'")
    if t.finished:
        message = (f"{tr(lang, 'over')} <a href='{base}/standings?lang={lang}'>"
                   f"{tr(lang, 'locked_link')}</a>")
        poll = ""
    elif current is not None and not t.round_complete(current.number):
        message = tr(lang, "evening.no_match", table=seat.table, round=current.number)
    else:
        message = tr(lang, "evening.waiting", n=1 if current is None else current.number + 1)
    body = (f"<h1>{tr(lang, 'table', n=seat.table)}</h1>"
            f"<p class='meta'>{escape(t.settings.name)}</p>"
            f"<p class='seat' id='seat'>{tr(lang, 'your_side', side=tr(lang, seat.side))}</p>"
            f"<p class='ok' role='status' id='waiting'{poll}>{message}</p>")
    head = (f"{SCRIPT_TAG}<noscript><meta http-equiv='refresh' content='{FALLBACK_REFRESH}'>"
            "</noscript>") if poll else ""
    return layout(t.settings.name, body, lang=lang, path=f"{base}/evening/{quote(token)}",
                  body_class="phone", head=head)


def add_desk_routes(router: APIRouter, director_of: Callable[[Request], Director],
                    load: Loader, public: Shown, is_director: Callable[[Request], bool]) -> None:
    """Add this module's routes (see its doc); ``public``: ``t`` as the players see it."""

    def desk_of(request: Request) -> Desk:
        return Desk(director_of(request))

    def said(lang: Lang, title: str, message: str, status: int) -> HTMLResponse:
        return HTMLResponse(layout(tr(lang, title), f"<p class='error' role='alert' "
                                   f"id='error'>{escape(message)}</p>", lang=lang), status)

    @router.get(WARNING_SCRIPT_PATH, include_in_schema=False)
    async def warning_script() -> Response:
        return Response(WARNING_SCRIPT, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=300"})

    @router.get("/tournaments/{tid}/evening/{token}", response_class=HTMLResponse,
                include_in_schema=False)
    async def evening_link(request: Request, tid: str, token: str) -> Response:
        lang = lang_of(request)
        desk = desk_of(request)
        try:
            await load(request, tid)  # results of web tables first, a missing tournament
            t, seat = await run_in_threadpool(desk.open_evening, tid, token)
        except LinkError as exc:
            return said(lang, "refused", exc.sentence(lang), 403)
        except TournamentError as exc:
            return said(lang, "not_found", say(lang, exc), 404)
        current = t.current
        if (current is not None and not t.round_complete(current.number)
                and any(tb.number == seat.table for tb in current.tables)):
            signed = await run_in_threadpool(desk.token, tid, current.number, seat.table,
                                             seat.side)
            asked = request.query_params.get("lang", "")
            target = (f"/tournaments/{quote(tid)}/table/{quote(signed)}"
                      + (f"?lang={asked}" if asked in LANGUAGES else ""))
            return RedirectResponse(target, status_code=303)
        stamp = await run_in_threadpool(desk.stamp, tid)
        if await public(request, tid, t) is not t:  # as screen.json says it: no reload loop
            stamp += ".held"
        response = HTMLResponse(waiting_page(tid, token, t, seat, lang, stamp=stamp))
        response.headers["Cache-Control"] = "no-store"
        return response

    @router.get("/tournaments/{tid}/wall", response_class=HTMLResponse, include_in_schema=False)
    async def wall_view(request: Request, tid: str) -> Response:
        lang = lang_of(request)
        if not is_director(request):
            return said(lang, "locked", tr(lang, "error.pages_locked"), 403)
        try:
            t = await load(request, tid)
            card = await run_in_threadpool(wall, t)
        except TournamentError as exc:
            return said(lang, "not_found", say(lang, exc), 404)
        return HTMLResponse(wall_page(tid, t, card, lang))

    @router.get("/api/tournaments/{tid}/evening-links")
    async def evening_links(request: Request, tid: str, base_url: str = "") -> JSONResponse:
        """Every table's two evening links (the director's only): the table cards' codes."""
        if not is_director(request):
            return JSONResponse({"code": "locked", "detail": "the director's key is needed"},
                                status_code=403)
        desk = desk_of(request)

        def read() -> list[dict[str, object]]:
            numbers = wall(desk.director.load(tid)).table_numbers()
            return desk.evening_links(tid, numbers, base_url or link_base(request))
        try:
            return JSONResponse({"tables": await run_in_threadpool(read)})
        except TournamentError as exc:
            return JSONResponse({"code": "not_found", "detail": str(exc)}, status_code=404)
