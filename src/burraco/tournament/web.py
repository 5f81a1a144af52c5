"""Director and player pages: plain server-rendered HTML, printable, no JavaScript.

:func:`make_router` gives a FastAPI router under ``/tournaments``; the game
server can include it (before the browser client's catch-all), and
:func:`create_app` wraps it in a small app of its own for ``burraco tournament
serve`` and the browser tests.

* ``GET  /tournaments/``                 every tournament, and the form to create one
* ``POST /tournaments/``                 create (form fields as the CLI's options)
* ``GET  /tournaments/{id}/``            the director's page: pairs, rounds, result forms
* ``POST /tournaments/{id}/pairs``       register pairs (one per line)
* ``POST /tournaments/{id}/rounds``      start the next round
* ``POST /tournaments/{id}/results``     enter or correct a table's result
* ``GET  /tournaments/{id}/standings``   for players: the current round's tables and the
                                         standings (``?refresh=SECONDS`` reloads it)
* ``GET  /tournaments/{id}/print``       the printable page; ``standings.csv``, ``results.csv``
* ``POST /tournaments/{id}/online``      play the current round's tables on the game server
                                         (only inside ``burraco serve``), bots for missing
                                         entrants
* ``GET  /api/tournaments/{id}``         the same as JSON
* the paper (``/tournaments/{id}/pdf/KIND``) and the evening's changes: :mod:`.evening_web`

The pages are left out of the OpenAPI schema (they are HTML for people); the JSON is in it.

A refused change answers 422 with the page and the reason, and changes nothing.
If ``BURRACO_DIRECTOR_KEY`` is set, the POSTs and the director's page (which
holds the seat invitations of online rounds) need the cookie set by
``GET /tournaments/login?key=KEY``; without it the pages are open, as suits a
club's own machine.  A duplicate round's results are shown while the round is
*held* (a table without a result, or a web table of its deal group still playing:
:mod:`.held`) only on the director's page and to a request that gives the key
(cookie, or the ``X-Director-Key`` header): the JSON, the CSV exports, the printable
page, the PDFs, the players' page and the big screen leave them out otherwise, whether
a key is set or not.  The JSON says which rounds are held: ``"pending_rounds"`` (round
numbers) and the current round's ``"pending"``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from functools import partial
from html import escape
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from limits.aio.storage import Storage
from starlette.concurrency import run_in_threadpool

from burraco.infra.http_headers import SecurityHeaders
from burraco.infra.http_limits import BodyLimit, client_address
from burraco.infra.rates import Throttle
from burraco.tournament import online
from burraco.tournament.access import (
    KEY_COOKIE,
    KEY_ENV,
    MAX_FORM,
    check_key,
    director_key_given,
    is_director,
    read_form,
    same_key,
)
from burraco.tournament.accidents_web import accidents_html, add_accident_routes
from burraco.tournament.address import link_base, unreachable
from burraco.tournament.club_web import add_routes, desk_html, remember
from burraco.tournament.entries import entry
from burraco.tournament.errors import Refused, TournamentError, excerpt
from burraco.tournament.evening_web import add_evening_routes, evening_html, evening_json
from burraco.tournament.export import (
    MOVEMENT_NAMES,
    meta_html,
    printable_html,
    results_csv,
    round_html,
    standings_csv,
    standings_html,
)
from burraco.tournament.held import held_now, players_view, without
from burraco.tournament.home import home_page as render_home
from burraco.tournament.i18n import Text, say, tr
from burraco.tournament.model import (
    DEFAULT_TIE_BREAKS,
    KINDS,
    Settings,
    Tournament,
    default_schedule,
)
from burraco.tournament.online_club import linked_club
from burraco.tournament.pages import Lang, lang_of, layout
from burraco.tournament.scale import scale_for
from burraco.tournament.schedule import Schedule
from burraco.tournament.service import Director
from burraco.tournament.standings import standings
from burraco.tournament.table_desk import Desk
from burraco.tournament.web_tables import web_tables

DirectorOf = Callable[[Request], Director]

LOGIN_LIMIT = (10, 15 * 60.0)
"""Wrong director keys allowed per client address in a window of seconds (as the accounts'
logins are throttled): past them the address waits for the oldest to leave the window."""


def _int(form: dict[str, str], name: str, what: Text, default: int | None = None) -> int:
    text = form.get(name, "").strip()
    if not text and default is not None:
        return default
    try:
        return int(text)
    except ValueError:
        raise TournamentError(Text("error.whole_number", what=what,
                                   value=excerpt(text))) from None


def settings_from_form(form: dict[str, str]) -> Settings:
    hands = _int(form, "hands", Text("what.hands"), 3)
    tie_breaks = form.get("tie_breaks", ",".join(DEFAULT_TIE_BREAKS))
    vp_table = form.get("vp_table", "").strip()
    kind = form.get("kind", "pairs").strip() or "pairs"
    if kind not in KINDS:
        raise TournamentError(Text("error.kind", kinds=", ".join(KINDS), kind=repr(kind)))
    schedule = form.get("schedule", "").strip() or default_schedule(kind)
    return Settings(
        name=form.get("name", "").strip(), hands=hands, kind=kind,
        schedule=Schedule.parse(schedule),
        scale=scale_for(hands, vp_table) if vp_table else None,
        duplicate=form.get("duplicate", "") in ("1", "on", "true"),
        bye_vp=_int(form, "bye_vp", Text("what.bye_vp"), 14),
        bye_mp=_int(form, "bye_mp", Text("what.bye_mp"), 355),
        tie_breaks=tuple(k.strip() for k in tie_breaks.split(",") if k.strip()),
        seating="draw" if form.get("seating") == "draw" else "registration",
        seed=_int(form, "seed", Text("what.seed"), 1))


# --- pages ------------------------------------------------------------------------------------

def page(title: str, body: str, lang: Lang = "en", path: str = "") -> str:
    """A tournament page in the app's look (the printable page keeps its paper style)."""
    return layout(title, body, lang=lang, path=path)


def _notice(ok: str | None, error: str | None) -> str:
    out = ""
    if ok:
        out += f"<p class='ok' role='status' id='notice'>{escape(ok)}</p>"
    if error:
        out += f"<p class='error' role='alert' id='error'>{escape(error)}</p>"
    return out


def nav_home(lang: Lang) -> str:
    return f"<nav><a href='/tournaments/'>{tr(lang, 'all')}</a></nav>"


def home_page(director: Director, *, error: str | None = None, lang: Lang = "en") -> str:
    """Every tournament and the form to create one (:mod:`.home`)."""
    return render_home(director, error=error, lang=lang)


Links = dict[int, list[dict[str, Any]]]
"""Table number → its web tables (one, or two for a team match), as the director stored them."""


def online_html(t: Tournament, online: Links, *, invites: bool, lang: Lang = "en") -> str:
    """The web tables of the current round: seat invitations (director) or watch links.

    Players do not get the watch links of a duplicate round still playing: every table
    has the same cards, so watching another table would show what is coming.
    """
    if not online or t.current is None:
        return ""
    title = tr(lang, "online.title")
    if not invites and t.settings.duplicate and not t.round_complete(t.current.number):
        return f"<h3>{title}</h3><p id='online'>{tr(lang, 'online.held')}</p>"
    names = {p.number: p.name for p in t.pairs}
    what = tr(lang, f"entrant.{t.settings.entrant}")
    items = []
    for number in sorted(online):
        done = t.result(t.current.number, number) is not None
        seating = {web.room: web for web in web_tables(t.settings.kind,
                                                         t.current.table(number))}
        for link in online[number]:
            web = seating[link["room"]]
            parts = [f"<a href='{escape(link['seats']['watch'])}'>{tr(lang, 'online.watch')}</a>"]
            if invites:
                for seat in link["seats"]["seats"]:
                    entrant = web.seats[seat["seat"]]
                    line = tr(lang, "ns" if seat["seat"] in (0, 2) else "ew")
                    who = tr(lang, "online.who", line=line, what=what, number=entrant,
                             name=names[entrant])
                    if seat.get("invite"):
                        said = tr(lang, "online.seat", seat=seat["seat"], who=who)
                        parts.append(f"<a href='{escape(seat['invite'])}'>{escape(said)}</a>")
                    else:
                        level = str(seat.get("level"))
                        shown = tr(lang, f"level.{level}") if level in LEVELS else level
                        parts.append(escape(tr(lang, "online.bot", seat=seat["seat"],
                                               level=shown, who=who)))
            label = (tr(lang, "online.room", n=number, room=web.room) if web.room
                     else tr(lang, "online.table", n=number))
            label = tr(lang, "online.finished" if done else "online.playing", table=label)
            items.append(f"<li data-online='{number}' data-room='{web.room}'>{label}: "
                         f"{' · '.join(parts)}</li>")
    return f"<h3>{title}</h3><ul id='online'>{''.join(items)}</ul>"


LEVELS = ("advanced", "expert", "basic", "random")
"""The bots' levels a director may choose for the entrants missing online."""
EXAMPLES = {"pair": "Rossi / Bianchi", "player": "Rossi",
            "team": "Circolo Roma: Rossi / Bianchi / Verdi / Neri"}


def members_club(director: Director) -> str | None:
    with director.engine.connect() as conn:
        return linked_club(conn)


def director_page(tid: str, t: Tournament, *, ok: str | None = None,
                  error: str | None = None, online: Links | None = None,
                  can_play_online: bool = False, desk: str = "", lang: Lang = "en",
                  held: frozenset[int] = frozenset(), online_club: str | None = None) -> str:
    base = f"/tournaments/{quote(tid)}"
    nav = (f"<nav><a href='/tournaments/'>{tr(lang, 'all')}</a>"
           f"<a href='{base}/standings'>{tr(lang, 'players_page')}</a>"
           f"<a href='{base}/screen'>{tr(lang, 'screen_link')}</a>"
           f"<a href='{base}/wall'>{tr(lang, 'wall.link')}</a>"
           f"<a href='{base}/print'>{tr(lang, 'print_page')}</a>"
           f"<a href='{base}/register' id='register-link'>{tr(lang, 'ledger.link')}</a>"
           f"<a href='{base}/standings.csv'>"
           f"{tr(lang, 'standings_csv')}</a><a href='{base}/results.csv'>"
           f"{tr(lang, 'results_csv')}</a></nav>")
    parts = [nav, f"<h1>{escape(t.settings.name)}</h1>", meta_html(t, lang), _notice(ok, error)]
    what = t.settings.entrant
    pairs = "".join(
        f"<li value='{p.number}'>{escape(p.name)}"
        + (f" <small>({escape(', '.join(p.players))})</small>" if t.settings.kind == "teams"
           else "") + "</li>" for p in t.pairs)
    parts.append(f"<h2>{tr(lang, f'heading.{what}', n=len(t.pairs))}</h2>"
                 f"<ol id='pairs'>{pairs}</ol>")
    if not t.rounds:
        label = escape(tr(lang, f"register.{what}", example=EXAMPLES[what]))
        parts.append("<form method='post' action='pairs' id='register'>"
                     f"<p><label>{label}<br>"
                     "<textarea name='pairs' rows='6' cols='40'></textarea></label></p>"
                     f"<p><button type='submit'>{tr(lang, 'register')}</button></p></form>")
    current = t.current
    if current is not None:
        if held:
            rounds = ", ".join(map(str, sorted(held)))
            parts.append(f"<p class='meta' id='held'>"
                         f"{escape(tr(lang, 'held_director', rounds=rounds))}</p>")
        parts.append(round_html(t, current, with_forms=True, lang=lang))
        parts.append(online_html(t, online or {}, invites=True, lang=lang))
        if can_play_online and t.missing(current.number):
            example = escape(tr(lang, "online.example", example="3,7"), quote=True)
            levels = "".join(f"<option value='{level}'>{tr(lang, f'level.{level}')}</option>"
                             for level in LEVELS)
            parts.append(
                f"<form method='post' action='online' id='online-form'><p>"
                f"{tr(lang, 'online.form')} <label>{tr(lang, f'online.bots.{what}')} "
                f"<input name='bots' placeholder='{example}' size='12'></label> <label>"
                f"{tr(lang, 'online.level')} <select name='level'>{levels}</select></label> "
                f"<button type='submit'>{tr(lang, 'online.open')}</button></p></form>")
    parts.append(desk)
    if not t.finished and (current is None or t.round_complete(current.number)):
        label = tr(lang, "start_round", n=1 if current is None else current.number + 1)
        parts.append(f"<form method='post' action='rounds' id='start'><button type='submit'>"
                     f"{label}</button></form>")
    parts.append(f"<h2>{tr(lang, 'final' if t.finished else 'standings')}</h2>"
                 f"{standings_html(t, lang)}")
    parts.append(accidents_html(tid, t, lang))
    parts.append(evening_html(tid, t, lang, online_club))
    for played in reversed(t.rounds[:-1]):
        parts.append(round_html(t, played, with_forms=True, lang=lang))
    return page(t.settings.name, "\n".join(parts), lang, f"{base}/")


def locked_page(tid: str, message: str, lang: Lang = "en") -> str:
    base = f"/tournaments/{quote(tid)}"
    link = f"<a href='{base}/standings'>{tr(lang, 'locked_link')}</a>"
    return page(tr(lang, "locked"), f"{nav_home(lang)}{_notice(None, message)}<p>"
                f"{tr(lang, 'locked_hint', link=link)}</p>", lang)


def players_page(t: Tournament, refresh: int | None = None,
                 online: Links | None = None, lang: Lang = "en", tid: str = "") -> str:
    """``t`` as the players may see it (:func:`.held.players_view`)."""
    parts = [f"<h1>{escape(t.settings.name)}</h1>", meta_html(t, lang)]
    current = t.current
    if current is not None:
        waiting = [r.number for r in t.rounds if t.settings.duplicate
                   and not t.round_complete(r.number)]  # held: their results are left out
        if waiting:
            said = (tr(lang, "held_this") if waiting == [current.number] else
                    tr(lang, "held_rounds", rounds=", ".join(map(str, waiting))))
            parts.append(f"<p class='meta' id='held'>{escape(said)}</p>")
        parts.append(round_html(t, current, lang=lang))
        parts.append(online_html(t, online or {}, invites=False, lang=lang))
    parts.append(f"<h2>{tr(lang, 'final' if t.finished else 'standings')}</h2>"
                 f"{standings_html(t, lang)}")
    html = page(t.settings.name, "\n".join(parts), lang,
                f"/tournaments/{quote(tid)}/standings" if tid else "")
    if refresh:
        html = html.replace("<meta charset='utf-8'>",
                            f"<meta charset='utf-8'><meta http-equiv='refresh' "
                            f"content='{max(5, refresh)}'>", 1)
    return html


def tournament_json(tid: str, t: Tournament,
                    held: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The tournament as JSON; ``held``: the duplicate rounds whose results only the director
    sees yet (:mod:`.held`), listed as ``pending_rounds`` (and left out of ``t`` unless the
    request is the director's)."""
    current = t.current
    return {
        "id": tid, "name": t.settings.name, "status": t.status,
        "settings": t.settings.to_dict(),
        "kind": t.settings.kind,
        "pairs": [{"number": p.number, "name": p.name, "players": list(p.players)}
                  for p in t.pairs],
        "round": None if current is None else {
            "number": current.number, "movement": current.movement,
            "tables": [{"table": tb.number, "ns": list(tb.line(0)), "ew": list(tb.line(1))}
                       if t.settings.kind == "individual" else
                       {"table": tb.number, "ns": tb.ns, "ew": tb.ew} for tb in current.tables],
            "byes": list(current.byes), "pending": current.number in held},
        "pending_rounds": sorted(held),
        "results": [r.to_dict() for r in t.results],
        "standings": [s.to_dict() for s in standings(t)],
        "evening": evening_json(t),
    }


# --- the router -------------------------------------------------------------------------------

def _hub(request: Request) -> Any:
    """The game server's hub when these pages run inside ``burraco serve``, else ``None``."""
    return getattr(request.app.state, "hub", None)


def make_router(director_of: DirectorOf, counts: Storage | None = None) -> APIRouter:
    """The pages; ``counts``: where wrong directors' keys are counted (the cluster's Redis
    inside ``burraco serve --redis``, so every process counts together; else memory)."""
    router = APIRouter()
    watchers: set[asyncio.Task[None]] = set()
    wrong_keys = Throttle(*LOGIN_LIMIT, counts, name="director-login")

    def html(body: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(body, status_code=status)

    async def load(request: Request, tid: str) -> Tournament:
        director = director_of(request)
        hub = _hub(request)
        if hub is not None:  # results of finished web tables come in before any page shows
            with suppress(TournamentError):
                await run_in_threadpool(online.collect, director, hub.engine, tid)
        return await run_in_threadpool(director.load, tid)

    async def held(request: Request, tid: str, t: Tournament) -> frozenset[int]:
        """The rounds only the director may see yet (a web table of theirs may still play)."""
        return await run_in_threadpool(held_now, director_of(request), tid, t)

    async def for_players(request: Request, tid: str, t: Tournament) -> Tournament:
        """``t`` without the results of its held rounds (:mod:`.held`)."""
        return await run_in_threadpool(players_view, director_of(request), tid, t)

    async def seen(request: Request, tid: str) -> Tournament:
        """The tournament as this visitor may see it (everything, for the director's key)."""
        t = await load(request, tid)
        return t if director_key_given(request) else await for_players(request, tid, t)

    async def links(request: Request, t: Tournament, tid: str) -> Links:
        if t.current is None:
            return {}
        return await run_in_threadpool(director_of(request).online_tables, tid,
                                       t.current.number)

    add_routes(router, director_of, load, for_players, read_form, is_director)

    async def desk_for(request: Request, tid: str, t: Tournament) -> str:
        return await run_in_threadpool(partial(
            desk_html, tid, t, Desk(director_of(request)), lang_of(request),
            link_base=link_base(request), unreachable=unreachable(request)))

    async def refused_page(request: Request, tid: str, exc: Exception,
                           status: int) -> HTMLResponse:
        lang = lang_of(request)
        if not is_director(request):  # the director's page holds the seat invitations
            return html(locked_page(tid, say(lang, exc), lang), status)
        try:
            t = await load(request, tid)
        except TournamentError:
            return not_found(lang, exc, nav=True)
        return html(director_page(tid, t, error=say(lang, exc),
                                  online=await links(request, t, tid),
                                  can_play_online=_hub(request) is not None,
                                  desk=await desk_for(request, tid, t),
                                  lang=lang, held=await held(request, tid, t)),
                    status)

    def not_found(lang: Lang, exc: Exception, *, nav: bool = False) -> HTMLResponse:
        return html(page(tr(lang, "not_found"), (nav_home(lang) if nav else "")
                         + _notice(None, say(lang, exc)), lang), 404)

    @router.get("/tournaments/login", include_in_schema=False)
    async def login(request: Request, key: str = "") -> Response:
        """Set the director's cookie, for the right key only (any text: compared as bytes);
        an address past :data:`LOGIN_LIMIT` wrong keys is refused without trying its key."""
        expected = os.environ.get(KEY_ENV)
        address = client_address(request.scope)
        lang = lang_of(request)
        if expected:
            wait = await wrong_keys.retry_after(address)
            if wait:
                refused = html(page(tr(lang, "locked"), nav_home(lang) + _notice(
                    None, tr(lang, "error.too_many_keys", seconds=wait)), lang), 429)
                refused.headers["Retry-After"] = str(wait)
                return refused
        if expected and not same_key(key, expected):
            await wrong_keys.failed(address)
            return html(page(tr(lang, "locked"), nav_home(lang) + _notice(
                None, tr(lang, "error.wrong_key")), lang), 403)
        response = RedirectResponse("/tournaments/", status_code=303)
        if expected:  # the cookie holds the key percent-encoded: a header holds latin-1 only
            response.set_cookie(KEY_COOKIE, quote(key, safe=""), httponly=True,
                                samesite="strict")
        return response

    @router.get("/tournaments/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> Response:
        page_html = await run_in_threadpool(home_page, director_of(request),
                                            lang=lang_of(request))
        return remember(html(page_html), request)

    @router.post("/tournaments/", include_in_schema=False)
    async def create(request: Request) -> Any:
        director = director_of(request)
        try:
            check_key(request)
            form = await read_form(request)
            settings = settings_from_form(form)
            tid = await run_in_threadpool(director.create, settings)
        except TournamentError as exc:
            return html(await run_in_threadpool(home_page, director,
                                                error=say(lang_of(request), exc),
                                                lang=lang_of(request)), 422)
        except Refused as exc:
            return html(await run_in_threadpool(home_page, director,
                                                error=say(lang_of(request), exc),
                                                lang=lang_of(request)), exc.status)
        return RedirectResponse(f"/tournaments/{quote(tid)}/?ok=created", status_code=303)

    @router.get("/tournaments/{tid}/", response_class=HTMLResponse, include_in_schema=False)
    async def director_view(request: Request, tid: str, ok: str | None = None,
                            error: str | None = None) -> Response:
        lang = lang_of(request)
        if not is_director(request):
            return html(locked_page(tid, tr(lang, "error.page_locked", env=KEY_ENV), lang), 403)
        try:
            t = await load(request, tid)
        except TournamentError as exc:
            return not_found(lang, exc, nav=True)
        if ok == "created":
            ok = tr(lang, "ok.created")
        return remember(html(director_page(tid, t, ok=ok, error=error,
                                           online=await links(request, t, tid),
                                           can_play_online=_hub(request) is not None,
                                           desk=await desk_for(request, tid, t),
                                           online_club=await run_in_threadpool(
                                               members_club, director_of(request)),
                                           lang=lang,
                                           held=await held(request, tid, t))), request)

    async def change(request: Request, tid: str,
                     act: Callable[[Director, dict[str, str]], Text]) -> Any:
        director = director_of(request)
        try:
            check_key(request)
            form = await read_form(request)
            message = await run_in_threadpool(act, director, form)
        except TournamentError as exc:
            return await refused_page(request, tid, exc, 422)
        except Refused as exc:
            return await refused_page(request, tid, exc, exc.status)
        said = say(lang_of(request), message)
        return RedirectResponse(f"/tournaments/{quote(tid)}/?ok={quote(said)}",
                                status_code=303)

    @router.post("/tournaments/{tid}/pairs", include_in_schema=False)
    async def register(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            names = [line.strip() for line in form.get("pairs", "").splitlines()
                     if line.strip()]
            if not names:
                raise TournamentError(Text("error.write_pairs"))
            added = director.register_all(tid, [entry(n) for n in names])
            what = director.load(tid).settings.entrant
            return Text(f"ok.registered.{what}", n=len(added),
                        names=", ".join(p.label for p in added))
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/rounds", include_in_schema=False)
    async def start_round(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            played = director.start_round(tid)
            movement = (Text(f"movement.{played.movement}")
                        if played.movement in MOVEMENT_NAMES else played.movement)
            return Text("ok.started", n=played.number, movement=movement)
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/results", include_in_schema=False)
    async def result(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            number = _int(form, "round", Text("what.round"))
            table = _int(form, "table", Text("what.table"))
            rooms: list[tuple[int, int]] = []
            if form.get("r1_home", "").strip():  # a team match, table by table
                rooms = [(_int(form, f"r{k}_home", Text("what.room_home", k=k)),
                          _int(form, f"r{k}_away", Text("what.room_away", k=k)))
                         for k in (1, 2)]
                ns_mp, ew_mp = sum(r[0] for r in rooms), sum(r[1] for r in rooms)
            else:
                ns_mp = _int(form, "ns_mp", Text("what.score", line=Text("ns")))
                ew_mp = _int(form, "ew_mp", Text("what.score", line=Text("ew")))
            correct = form.get("correct") == "1"
            before = director.load(tid).result(number, table) if correct else None
            r = director.record(tid, number, table, ns_mp, ew_mp, rooms=rooms,
                                correct=correct)
            was = f" {before.logged}" if before is not None else ""
            Desk(director).log(tid, number, table, "director",
                               f"{'correct' if correct else 'result'} {r.mp[0]} {r.mp[1]} "
                               f"{r.vp[0]} {r.vp[1]}{was}")
            key = "ok.result_match" if rooms else "ok.result"  # a team match sends its tables
            return Text(key, r=number, t=table, a=r.mp[0], b=r.mp[1], c=r.vp[0], d=r.vp[1])
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/online", include_in_schema=False)
    async def play_online(request: Request, tid: str) -> Any:
        director = director_of(request)
        hub = _hub(request)
        try:
            check_key(request)
            if hub is None:
                raise TournamentError(Text("error.online_server"))
            form = await read_form(request)
            level = form.get("level", "advanced").strip() or "advanced"
            bots = {}
            for part in form.get("bots", "").replace(" ", ",").split(","):
                if part.strip():
                    bots[_int({"n": part}, "n", Text("what.bot"))] = level
            delay = float(form.get("bot_delay", "0.8") or 0.8)
            opened = await online.open_round(hub, director, tid, bots=bots, bot_delay=delay)
        except TournamentError as exc:
            return await refused_page(request, tid, exc, 422)
        except Refused as exc:
            return await refused_page(request, tid, exc, exc.status)
        except ValueError as exc:  # the server refused the table settings
            return await refused_page(request, tid, exc, 422)
        task = asyncio.get_running_loop().create_task(online.watch(director, hub.engine, tid))
        watchers.add(task)
        task.add_done_callback(watchers.discard)
        message = tr(lang_of(request), "ok.online", tables=", ".join(map(str, opened)))
        return RedirectResponse(f"/tournaments/{quote(tid)}/?ok={quote(message)}",
                                status_code=303)

    @router.get("/tournaments/{tid}/standings", response_class=HTMLResponse,
                include_in_schema=False)
    async def players(request: Request, tid: str, refresh: int | None = None) -> Response:
        try:
            t = await load(request, tid)
        except TournamentError as exc:
            return not_found(lang_of(request), exc)
        shown = await for_players(request, tid, t)
        return remember(html(players_page(shown, refresh, await links(request, t, tid),
                                          lang_of(request), tid)), request)

    @router.get("/tournaments/{tid}/print", response_class=HTMLResponse,
                include_in_schema=False)
    async def printable(request: Request, tid: str) -> Response:
        lang = lang_of(request)
        try:
            return remember(html(printable_html(await seen(request, tid), lang)), request)
        except TournamentError as exc:
            return not_found(lang, exc)

    @router.get("/tournaments/{tid}/standings.csv", include_in_schema=False)
    async def standings_file(request: Request, tid: str) -> Response:
        try:
            return _csv(standings_csv(await seen(request, tid)), f"{tid}-standings.csv")
        except TournamentError as exc:
            return not_found(lang_of(request), exc)

    @router.get("/tournaments/{tid}/results.csv", include_in_schema=False)
    async def results_file(request: Request, tid: str) -> Response:
        try:
            return _csv(results_csv(await seen(request, tid)), f"{tid}-results.csv")
        except TournamentError as exc:
            return not_found(lang_of(request), exc)

    add_accident_routes(router, change)
    add_evening_routes(router, director_of, change, is_director,  # before /api/…/{tid}
                       director_key_given)

    @router.get("/api/tournaments/{tid}")
    async def as_json(request: Request, tid: str) -> JSONResponse:
        try:
            t = await load(request, tid)
        except TournamentError as exc:
            return JSONResponse({"code": "not_found", "detail": str(exc)}, status_code=404)
        pending = await held(request, tid, t)
        shown = t if director_key_given(request) else without(t, pending)
        return JSONResponse(tournament_json(tid, shown, pending))

    return router


def _csv(text: str, filename: str) -> PlainTextResponse:
    return PlainTextResponse(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f"attachment; filename={filename}"})


def server_director(request: Request) -> Director:
    """The director of the game server's database (the app's hub), created once per app."""
    state = request.app.state
    director: Director | None = getattr(state, "tournament_director", None)
    if director is None:
        director = Director(state.hub.engine)
        state.tournament_director = director
    return director


def install(app: FastAPI, counts: Storage | None = None) -> None:
    """Add the tournament pages to the game server's app (call before its catch-all)."""
    app.include_router(make_router(server_director, counts))


def create_app(db_url: str) -> FastAPI:
    """A small app serving only the tournament pages, on its own database connection."""
    holder: dict[str, Director] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        holder["director"] = await run_in_threadpool(Director.open, db_url)
        try:
            yield
        finally:
            holder["director"].close()

    app = FastAPI(title="burraco tournaments", lifespan=lifespan, docs_url=None,
                  redoc_url=None)
    app.include_router(make_router(lambda _request: holder["director"]))
    # the game server's own request bounds and headers (docs/deployment.md)
    app.add_middleware(BodyLimit, max_bytes=MAX_FORM, timeout=30.0)
    app.add_middleware(SecurityHeaders)

    @app.get("/")
    async def root() -> RedirectResponse:
        return RedirectResponse("/tournaments/", status_code=307)

    return app
