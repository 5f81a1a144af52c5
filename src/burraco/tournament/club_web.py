"""The club evening's routes: the pairs' phone pages, the round clock, the big screen.

* ``GET  /tournaments/style.css``, ``/tournaments/clock.js``   the pages' look and clock
* ``GET  /tournaments/{id}/table/{token}``   a pair's phone page (its table of this round)
* ``POST /tournaments/{id}/table/{token}``   that pair's result (``ns_mp``, ``ew_mp``, and
                                             optionally ``hK_ns``/``hK_ew`` smazzata by
                                             smazzata)
* ``GET  /tournaments/{id}/screen``          the big screen (``?lang=`` any language)
* ``GET  /tournaments/{id}/screen.json``     what it shows, and the stamp it reloads on
* ``POST /tournaments/{id}/clock``           director: start the round's clock (``minutes``)
* ``POST /tournaments/{id}/clock/time``      director: call time now
* ``GET  /api/tournaments/{id}/table-links`` director: every table's two links (JSON)

A refused entry answers 422 with the page and the reason, and changes nothing; a link
that does not open (forged, another table's, a past round's) answers 403 and says why.
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
from burraco.tournament.bigscreen import screen_json, screen_page
from burraco.tournament.clock import MINUTES_PER_SMAZZATA, default_minutes
from burraco.tournament.desk_routes import add_desk_routes
from burraco.tournament.errors import Refused, TournamentError, excerpt
from burraco.tournament.i18n import LANGUAGES, Text, language, say, time_of_day
from burraco.tournament.model import Tournament
from burraco.tournament.pages import CSS, LANG_COOKIE, SCRIPT, Lang, lang_of, layout, log_text, tr
from burraco.tournament.service import Director
from burraco.tournament.table_desk import Desk, Entry, LinkError, now, parse_score
from burraco.tournament.table_entry import clock_html, phone_page

Loader = Callable[[Request, str], Coroutine[Any, Any, Tournament]]
Shown = Callable[[Request, str, Tournament], Coroutine[Any, Any, Tournament]]
"""``(request, id, t) -> t`` as the players may see it (:func:`.held.players_view`)."""
RECENT = 15
"""Log lines shown at once on the director's page; the older ones fold away."""


def remember(response: Response, request: Request) -> Response:
    """Keep a language asked for with ``?lang=`` for the next pages."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        response.set_cookie(LANG_COOKIE, asked, max_age=365 * 86400, samesite="lax")
    return response


def desk_html(tid: str, t: Tournament, desk: Desk, lang: Lang, *, link_base: str = "",
              unreachable: str = "") -> str:
    """The director's panel: the table links, the clock, the conflicts, the log.

    ``link_base``: where the players' links lead (:mod:`.address`); ``unreachable``: the
    loopback host they would lead to, which the panel warns about.
    """
    base = f"/tournaments/{quote(tid)}"
    parts = [f"<section class='panel' id='desk'><h2>{tr(lang, 'desk')}</h2>"]
    if unreachable:
        parts.append(f"<p class='warn' role='alert' id='loopback'>"
                     f"{escape(tr(lang, 'loopback', host=unreachable))}</p>")
    parts.append(f"<p><a class='button' href='{base}/screen?lang={lang}' id='screen-link'>"
                 f"{tr(lang, 'screen_link')}</a></p>")
    current = t.current
    if current is not None and not t.finished:
        links = desk.links(tid, link_base)
        items = "".join(
            f"<li data-links='{row['table']}'>{tr(lang, 'table', n=row['table'])}: "
            f"<a href='{escape(str(row['ns']))}' data-side='ns'>{tr(lang, 'ns')}</a> · "
            f"<a href='{escape(str(row['ew']))}' data-side='ew'>{tr(lang, 'ew')}</a></li>"
            for row in links)
        parts.append(f"<h3>{tr(lang, 'links')}</h3><p class='meta'>{tr(lang, 'links_hint')}"
                     f"</p><ul class='links' id='table-links'>{items}</ul>")
        clock = desk.clock(tid, current.number)
        parts.append(clock_html(lang, clock, now()))
        minutes = clock.minutes if clock else default_minutes(t.settings.hands)
        label = tr(lang, "restart_clock" if clock else "start_clock")
        hint = tr(lang, "minutes_hint", n=default_minutes(t.settings.hands),
                  per=MINUTES_PER_SMAZZATA)
        parts.append(
            f"<form method='post' action='{base}/clock' id='clock-form'><label class='inline'>"
            f"{tr(lang, 'minutes')} <input type='number' name='minutes' min='1' max='240' "
            f"value='{minutes}'></label> <small>{hint}</small> "
            f"<button type='submit'>{label}</button></form>")
        if clock is not None and not clock.expired(now()):
            parts.append(f"<form method='post' action='{base}/clock/time' id='time-form'>"
                         f"<button type='submit'>{tr(lang, 'call_time')}</button></form>")
        conflicts = desk.conflicts(tid, current.number, t)
        if conflicts:
            rows = "".join(
                f"<li data-conflict='{n}'>"
                + tr(lang, "conflict_row", t=n, a=ns.ns_mp, b=ns.ew_mp, c=ew.ns_mp, d=ew.ew_mp)
                + "</li>" for n, ns, ew in conflicts)
            parts.append(f"<h3>{tr(lang, 'conflicts')}</h3><ul class='warn' id='conflicts'>"
                         f"{rows}</ul><p class='meta'>{tr(lang, 'settle')}</p>")
    history = desk.history(tid)
    if history:
        lines = []
        for item in history:
            who, what = log_text(lang, item.who, item.table, item.round, item.what)
            where = _where(lang, item.round, item.table)
            lines.append(f"<tr><td>{time_of_day(lang, item.at, seconds=True)}</td>"
                        f"<td>{escape(where)}</td><td>{escape(who)}</td>"
                        f"<td>{escape(what)}</td></tr>")
        head = (f"<tr><th>{tr(lang, 'when')}</th><th></th><th>{tr(lang, 'who')}</th>"
                f"<th>{tr(lang, 'what')}</th></tr>")
        parts.append(f"<h3>{tr(lang, 'log')}</h3><table id='log'>{head}"
                     f"{''.join(lines[:RECENT])}</table>")
        if len(lines) > RECENT:
            parts.append(f"<details class='log'><summary>"
                         f"{tr(lang, 'older', n=len(lines) - RECENT)}</summary>"
                         f"<table id='log-older'>{head}{''.join(lines[RECENT:])}</table>"
                         "</details>")
    else:
        parts.append(f"<h3>{tr(lang, 'log')}</h3><p id='log'>{tr(lang, 'log_empty')}</p>")
    parts.append("</section>")
    return "".join(parts)


def _where(lang: Lang, round_number: int | None, table: int | None) -> str:
    """Where a log line happened: ``Round 1, Table 2``, ``Round 1`` or nothing."""
    said = [tr(lang, key, n=n) for key, n in (("round", round_number), ("table", table)) if n]
    if len(said) == 2:
        return tr(lang, "log_where", round=said[0], table=said[1])
    return "".join(said)


def _hands(form: dict[str, str], hands: int, *,
           timed_out: bool = False) -> list[tuple[int, int]]:
    """The smazzate one by one, if the pair gave any (all of them, or none; with
    ``timed_out``, those played before the time-out: the first ones, in order)."""
    given = [(form.get(f"h{k}_ns", "").strip(), form.get(f"h{k}_ew", "").strip())
             for k in range(1, hands + 1)]
    if not any(a or b for a, b in given):
        return []
    if timed_out:
        filled = [bool(a or b) for a, b in given]
        played = filled.index(False) if False in filled else hands
        if any(filled[played:]):
            raise TournamentError(Text("error.hands_gap", k=played + 1))
        given = given[:played]
    return [(parse_score(a, Text("what.hand_score", k=k, line=Text("ns")), hands=hands,
                         part=True),
             parse_score(b, Text("what.hand_score", k=k, line=Text("ew")), hands=hands,
                         part=True))
            for k, (a, b) in enumerate(given, start=1)]


def add_routes(router: APIRouter, director_of: Callable[[Request], Director], load: Loader,
               public: Shown,
               read_form: Callable[[Request], Coroutine[Any, Any, dict[str, str]]],
               is_director: Callable[[Request], bool]) -> None:
    """Add the club evening's routes to the tournament router (see the module's doc)."""

    def desk_of(request: Request) -> Desk:
        return Desk(director_of(request))

    def not_found(lang: Lang, message: str) -> HTMLResponse:
        return HTMLResponse(layout(tr(lang, "not_found"), f"<p class='error' role='alert' "
                                   f"id='error'>{escape(message)}</p>", lang=lang), 404)

    @router.get("/tournaments/style.css", include_in_schema=False)
    async def style() -> Response:
        return Response(CSS, media_type="text/css; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=300"})

    @router.get("/tournaments/clock.js", include_in_schema=False)
    async def script() -> Response:
        return Response(SCRIPT, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=300"})

    async def phone(request: Request, tid: str, token: str, lang: Lang, *, ok: str | None = None,
                    error: str | None = None, status: int = 200,
                    typed: dict[str, str] | None = None) -> Response:
        desk = desk_of(request)
        try:
            await load(request, tid)  # results of web tables first, a missing tournament
            t, seat = await run_in_threadpool(desk.open_link, tid, token)
        except LinkError as exc:
            message = exc.sentence(lang)
            return HTMLResponse(layout(tr(lang, "refused"), f"<p class='error' role='alert' "
                                       f"id='error'>{escape(message)}</p>", lang=lang), 403)
        except TournamentError as exc:
            return not_found(lang, say(lang, exc))
        found = await run_in_threadpool(desk.entries, tid, seat.round)
        entries: dict[str, Entry] = {side: e for (table, side), e in found.items()
                                     if table == seat.table}
        clock = await run_in_threadpool(desk.clock, tid, seat.round)
        mine = entries.get(seat.side)
        theirs = entries.get("ew" if seat.side == "ns" else "ns")
        sent = request.query_params.get("sent", "")
        # only the table's current state: once the other pair has entered (a reload after a
        # disagreement), "received, waiting" is no longer true
        if ok is None and mine is not None and theirs is None and sent in ("waiting", "same"):
            ok = tr(lang, "sent_" + sent, ns=mine.ns_mp, ew=mine.ew_mp)
        done = t.result(seat.round, seat.table)
        if ok is None and done is not None and sent == "agreed":
            ok = tr(lang, "agreed", ns=done.mp[0], ew=done.mp[1], vns=done.vp[0],
                    vew=done.vp[1])
        stamp = await run_in_threadpool(desk.stamp, tid)
        body = phone_page(tid, t, seat, token, lang, entries=entries, clock=clock, at=now(),
                          ok=ok, error=error, typed=typed, stamp=stamp)
        return remember(HTMLResponse(body, status), request)

    @router.get("/tournaments/{tid}/table/{token}", response_class=HTMLResponse,
                include_in_schema=False)
    async def table_page(request: Request, tid: str, token: str) -> Response:
        return await phone(request, tid, token, lang_of(request))

    @router.post("/tournaments/{tid}/table/{token}", include_in_schema=False)
    async def table_entry(request: Request, tid: str, token: str) -> Response:
        desk = desk_of(request)
        lang = lang_of(request)
        form: dict[str, str] = {}
        try:
            form = await read_form(request)
            lang = language(form.get("lang"), lang)
            t, _seat = await run_in_threadpool(desk.open_link, tid, token)
            hands = t.settings.hands
            ns_mp = parse_score(form.get("ns_mp", ""), Text("what.score", line=Text("ns")),
                                hands=hands)
            ew_mp = parse_score(form.get("ew_mp", ""), Text("what.score", line=Text("ew")),
                                hands=hands)
            timed_out = form.get("timed_out") == "1"
            outcome, _result = await run_in_threadpool(
                desk.submit, tid, token, ns_mp, ew_mp,
                _hands(form, hands, timed_out=timed_out), timed_out)
        except LinkError:
            return await phone(request, tid, token, lang)
        except TournamentError as exc:  # what was typed stays in the form
            return await phone(request, tid, token, lang, error=say(lang, exc), status=422,
                               typed=form)
        except Exception as exc:  # the form reader's refusals (too large)
            if getattr(exc, "status", None) is None:
                raise
            return await phone(request, tid, token, lang, error=say(lang, exc),
                               status=int(getattr(exc, "status", 422)))
        target = f"/tournaments/{quote(tid)}/table/{quote(token)}?sent={outcome}&lang={lang}"
        return RedirectResponse(target, status_code=303)

    async def screen_state(request: Request, tid: str) -> tuple[Tournament, Tournament, Any,
                                                                str]:
        t = await load(request, tid)
        desk = desk_of(request)
        clock = (await run_in_threadpool(desk.clock, tid, t.current.number)
                 if t.current is not None else None)
        stamp = await run_in_threadpool(desk.stamp, tid)
        shown = await public(request, tid, t)
        if shown is not t:  # reload once the held results come out, even with nothing new
            stamp += ".held"
        return t, shown, clock, stamp

    @router.get("/tournaments/{tid}/screen", response_class=HTMLResponse,
                include_in_schema=False)
    async def screen(request: Request, tid: str) -> Response:
        lang = lang_of(request)
        try:
            t, shown, clock, stamp = await screen_state(request, tid)
        except TournamentError as exc:
            return not_found(lang, say(lang, exc))
        body = screen_page(tid, t, shown, lang, clock=clock, at=now(), stamp=stamp)
        return remember(HTMLResponse(body), request)

    @router.get("/tournaments/{tid}/screen.json", include_in_schema=False)
    async def screen_data(request: Request, tid: str) -> JSONResponse:
        try:
            t, shown, clock, stamp = await screen_state(request, tid)
        except TournamentError as exc:
            return JSONResponse({"code": "not_found", "detail": str(exc)}, status_code=404)
        return JSONResponse(screen_json(t, shown, clock, now(), stamp),
                            headers={"Cache-Control": "no-store"})

    async def director_change(request: Request, tid: str,
                              act: Callable[[Desk, dict[str, str]], Text]) -> Response:
        lang = lang_of(request)
        if not is_director(request):
            return HTMLResponse(layout(tr(lang, "locked"), "<p class='error' role='alert' "
                                       f"id='error'>{tr(lang, 'error.pages_locked')}</p>",
                                       lang=lang), 403)
        try:
            form = await read_form(request)
            message = await run_in_threadpool(act, desk_of(request), form)
        except Refused as exc:  # refused unread (a form too large): said, not redirected
            return HTMLResponse(layout(tr(lang, "refused_title"), f"<p class='error' "
                                       f"role='alert' id='error'>{escape(say(lang, exc))}</p>",
                                       lang=lang), exc.status)
        except TournamentError as exc:
            return RedirectResponse(f"/tournaments/{quote(tid)}/?error="
                                    f"{quote(say(lang, exc))}", status_code=303)
        return RedirectResponse(f"/tournaments/{quote(tid)}/?ok={quote(say(lang, message))}",
                                status_code=303)

    @router.post("/tournaments/{tid}/clock", include_in_schema=False)
    async def start_clock(request: Request, tid: str) -> Response:
        def act(desk: Desk, form: dict[str, str]) -> Text:
            text = form.get("minutes", "").strip()
            t = desk.director.load(tid)
            try:
                minutes = int(text) if text else default_minutes(t.settings.hands)
            except ValueError:
                raise TournamentError(Text("error.minutes_whole",
                                           value=excerpt(text))) from None
            clock = desk.start_clock(tid, minutes)
            return Text("ok.clock", r=clock.round, minutes=minutes)
        return await director_change(request, tid, act)

    @router.post("/tournaments/{tid}/clock/time", include_in_schema=False)
    async def call_time(request: Request, tid: str) -> Response:
        def act(desk: Desk, form: dict[str, str]) -> Text:
            clock = desk.call_time(tid)
            return Text("ok.time", r=clock.round)
        return await director_change(request, tid, act)

    @router.get("/api/tournaments/{tid}/table-links")
    async def table_links(request: Request, tid: str, base_url: str = "") -> JSONResponse:
        """The current round's tables and each pair's link (the director's only)."""
        if not is_director(request):
            return JSONResponse({"code": "locked", "detail": "the director's key is needed"},
                                status_code=403)
        base = base_url or link_base(request)
        try:
            tables = await run_in_threadpool(desk_of(request).links, tid, base)
        except TournamentError as exc:
            return JSONResponse({"code": "refused", "detail": str(exc)}, status_code=422)
        return JSONResponse({"tables": tables})

    # the evening's table links, the wall, the clock's warning script (:mod:`.desk_routes`)
    add_desk_routes(router, director_of, load, public, is_director)
