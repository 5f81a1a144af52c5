"""The director's pages for the paper and the evening's changes (added to :mod:`.web`'s router).

* ``GET  /tournaments/{id}/pdf/KIND``     a printable PDF (:mod:`.paper`; ``?lang=`` any of
                                          the platform's languages, else the page's;
                                          ``?round=N``); director only: the table cards
                                          hold the result links, the deal sheets the cards.
                                          Without the key given (none set: anyone is let
                                          in), a duplicate round still held (:mod:`.held`)
                                          is left out, as on the printable page
* ``POST /tournaments/{id}/withdraw``     ``pair``, ``mode`` (byes | reseat), between rounds
* ``POST /tournaments/{id}/penalties``    ``pair``, ``vp`` and/or ``mp``, ``reason``, ``round``
* ``POST /tournaments/{id}/line-rankings`` ``on`` (1 or 0): NS and EW rankings of a Mitchell
* ``POST /tournaments/{id}/prizes``       ``prizes``: ``overall:3,NS:1,Senior:1``
* ``POST /tournaments/members``           ``number``, ``name``, ``category``, ``account``
                                          (JSON answer; ``/tournaments/{id}/members`` is
                                          the director's page form)
* ``GET  /api/tournaments/members``       the club's members
* ``GET  /api/tournaments/{id}/evening``  withdrawals, penalties, NS/EW rankings, prizes and
                                          the accounts each pair names, as JSON

A refused change answers 422 with the director's page and the reason, changing nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from burraco.tournament import changes, paper
from burraco.tournament.access import check_key, read_form
from burraco.tournament.address import link_base
from burraco.tournament.errors import Refused, TournamentError, excerpt
from burraco.tournament.export import page, taken
from burraco.tournament.held import players_view
from burraco.tournament.i18n import LANGUAGES, Lang, Text, number, say, tr
from burraco.tournament.members import members, pair_accounts, save_member
from burraco.tournament.online_club import link as link_online_club
from burraco.tournament.pages import lang_of
from burraco.tournament.prizes import prize_list
from burraco.tournament.register_web import add_register_routes
from burraco.tournament.standings import line_standings
from burraco.tournament.table_desk import Desk

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament
    from burraco.tournament.paper import LinkBuilder
    from burraco.tournament.service import Director

Act = Callable[["Director", dict[str, str]], Text]
Change = Callable[[Request, str, Act], Awaitable[Any]]


def request_links(director: Director, request: Request, tid: str) -> LinkBuilder:
    """The result-entry links of the table cards: the public URL's, else the address the
    director used."""
    return Desk(director).link_builder(tid, link_base(request))


def evening_json(t: Tournament) -> dict[str, Any]:
    out: dict[str, Any] = t.evening.to_dict()
    out["prize_list"] = [a.to_dict() for a in prize_list(t)]
    if t.evening.line_rankings:
        out["line_standings"] = {line: [s.to_dict() for s in rows]
                                 for line, rows in line_standings(t).items()}
    return out


def _options(values: list[str], chosen: str = "") -> str:
    return "".join(f"<option{' selected' if v == chosen else ''}>{escape(v)}</option>"
                   for v in values)


def category_word(lang: Lang, category: str) -> str:
    """A prize category as the page says it: ``overall``, ``NS`` and ``EW`` in ``lang``'s
    words, a members' category as the director wrote it."""
    key = category.casefold()
    if key == "overall":
        return tr(lang, "prize.overall")
    return tr(lang, key) if key in ("ns", "ew") else category


def evening_html(tid: str, t: Tournament, lang: Lang = "en",
                 online_club: str | None = None) -> str:
    """The director's page section: the paper to print and the forms for the changes."""
    base = f"/tournaments/{quote(tid)}"
    kinds = [k for k in paper.KINDS if k != "deals" or t.settings.duplicate]
    printing = " · ".join(
        f"<a href='{base}/pdf/{k}?lang={lang}' data-pdf='{k}-{lang}'>{tr(lang, f'print.{k}')}"
        "</a>" for k in kinds)
    pairs = _options([f"{p.number}" for p in t.pairs])
    parts = [f"<h2>{tr(lang, 'paper')}</h2><p id='paper'>{printing}</p>",
             f"<h2>{tr(lang, 'changes')}</h2>"]

    def x(key: str) -> str:
        return tr(lang, key)

    if t.rounds and not t.finished and t.settings.kind == "pairs":
        parts.append(
            f"<form method='post' action='{base}/withdraw' id='withdraw'><p>"
            f"{x('withdraw.lead')} <label>{x('withdraw.pair')} <select name='pair'>{pairs}"
            f"</select></label> {x('withdraw.when')} <label>{x('withdraw.mode')} <select "
            f"name='mode'><option value='byes'>{x('withdraw.byes')}</option><option "
            f"value='reseat'>{x('withdraw.reseat')}</option></select></label> "
            f"<button type='submit'>{x('withdraw.button')}</button></p></form>")
    parts.append(
        f"<form method='post' action='{base}/penalties' id='penalty'><p>{x('penalty.lead')} "
        f"<label>{x('withdraw.pair')} <select name='pair'>{pairs}</select></label> <label>"
        f"{x('vp')} <input name='vp' size='3'></label> <label>{x('mp')} <input name='mp' "
        f"size='5'></label> <label>{x('penalty.round')} <input name='round' size='3'></label> "
        f"<label>{x('penalty.reason')} <input name='reason' size='30' required></label> "
        f"<button type='submit'>{x('penalty.button')}</button></p></form>")
    on = t.evening.line_rankings
    parts.append(
        f"<form method='post' action='{base}/line-rankings' id='line-rankings'><p>"
        f"{x('lines.lead')} <strong>{x('lines.on' if on else 'lines.off')}</strong> <input "
        f"type='hidden' name='on' value='{0 if on else 1}'><button type='submit'>"
        f"{x('lines.switch_off' if on else 'lines.switch_on')}</button></p></form>")
    prizes = ",".join(str(p) for p in t.evening.prizes)
    parts.append(
        f"<form method='post' action='{base}/prizes' id='prizes'><p><label>{x('prizes.label')} "
        f"<input name='prizes' value='{escape(prizes)}' placeholder='overall:3,NS:1,Senior:1' "
        f"size='30'></label> <button type='submit'>{x('prizes.button')}</button></p></form>")
    hint = tr(lang, "member.hint", number="<code>#NUMBER</code>",
              account="<code>@username</code>", example="<code>Rossi @mrossi / #12</code>")
    parts.append(
        f"<form method='post' action='{base}/members' id='member'><p>{x('member.lead')} <label>"
        f"{x('member.number')} <input name='number' size='8' required></label> <label>"
        f"{x('name')} <input name='name' size='20' required></label> <label>"
        f"{x('member.category')} <input name='category' size='12' required></label> <label>"
        f"{x('member.account')} <input name='account' size='12' placeholder='"
        f"{escape(x('member.username'), quote=True)}'></label> <button type='submit'>"
        f"{x('member.button')}</button></p><p><small>{hint}</small></p></form>")
    club = online_club or ""
    club_hint = tr(lang, "online_club.hint", example="<code>/clubs/circolo-roma</code>")
    parts.append(
        f"<form method='post' action='{base}/online-club' id='online-club'><p><label>"
        f"{x('online_club.label')} <input name='club' size='20' value='{escape(club, quote=True)}'"
        f" placeholder='circolo-roma'></label> <button type='submit'>"
        f"{x('online_club.button')}</button></p><p><small>{club_hint}</small></p></form>")
    items = [tr(lang, "change.penalty", pair=p.pair, reason=p.reason,
                taken=taken(lang, p.vp, p.mp)) for p in t.evening.penalties]
    items += [tr(lang, "change.withdrawal", pair=w.pair, round=w.from_round,
                 mode=tr(lang, f"mode.{w.mode}")) for w in t.evening.withdrawals]
    if items:
        parts.append(f"<ul id='changes'>{''.join(f'<li>{escape(i)}</li>' for i in items)}</ul>")
    awards = prize_list(t)
    if awards:
        rows = "".join(f"<tr><td>{escape(category_word(lang, a.category))}</td><td>{a.place}"
                       "</td><td>"
                       + (f"{a.standing.pair} {escape(a.standing.name)}" if a.standing
                          else f"<i class='unawarded'>{x('prize.not_awarded')}</i>")
                       + "</td></tr>" for a in awards)
        parts.append(f"<table id='prize-list'><tr><th>{x('prize.category')}</th><th>"
                     f"{x('prize.place')}</th><th>{x('entrant.pair')}</th></tr>{rows}</table>")
    if t.evening.line_rankings:
        for line, rows_of in line_standings(t).items():
            rows = "".join(f"<tr><td>{s.rank}</td><td>{s.pair} {escape(s.name)}</td>"
                           f"<td>{number(lang, s.vp)}</td></tr>" for s in rows_of)
            title = tr(lang, "line_ranking", line=tr(lang, line.lower()))
            parts.append(f"<h3>{escape(title)}</h3><table id='ranking-{line.lower()}'><tr>"
                         f"<th>{x('rank')}</th><th>{x('entrant.pair')}</th><th>{x('vp')}</th>"
                         f"</tr>{rows}</table>")
    return "\n".join(parts)


def _int(form: dict[str, str], name: str, what: Text, default: int | None = None) -> int:
    text = form.get(name, "").strip()
    if not text:
        if default is None:
            raise TournamentError(Text("error.missing", what=what))
        return default
    try:
        return int(text)
    except ValueError:
        raise TournamentError(Text("error.whole_number", what=what,
                                   value=excerpt(text))) from None


def add_evening_routes(router: APIRouter, director_of: Callable[[Request], Director],
                       change: Change, is_director: Callable[[Request], bool],
                       key_given: Callable[[Request], bool]) -> None:
    """``key_given``: the request gives the director's key (it sees the held rounds)."""
    @router.get("/tournaments/{tid}/pdf/{kind}", include_in_schema=False)
    async def pdf(request: Request, tid: str, kind: str, lang: str = "",
                  round: str = "") -> Response:
        said = lang if lang in LANGUAGES else lang_of(request)  # the refusals' language
        lang = lang or said
        if not is_director(request):
            return HTMLResponse(page(tr(said, "locked"), "<p class='error' id='error'>"
                                     f"{tr(said, 'error.paper_locked')}</p>", said), 403)
        director = director_of(request)
        try:
            number = _int({"round": round}, "round", Text("what.round"), 0) or None
            t = await run_in_threadpool(director.load, tid)
            if not key_given(request):  # no key set: this may be anyone
                t = await run_in_threadpool(players_view, director, tid, t)
            body = await run_in_threadpool(lambda: paper.render(
                kind, t, links=request_links(director, request, tid), lang=lang,
                round_number=number))
        except TournamentError as exc:
            status = 404 if str(exc).startswith("no tournament") else 422
            return HTMLResponse(page(tr(said, "refused_title"), f"<p class='error' role='alert' "
                                     f"id='error'>{escape(say(said, exc))}</p>", said), status)
        return Response(body, media_type="application/pdf", headers={
            "Content-Disposition": f"inline; filename={tid}-{kind}-{lang}.pdf"})

    @router.post("/tournaments/{tid}/withdraw", include_in_schema=False)
    async def withdraw(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            pair = _int(form, "pair", Text("what.pair"))
            mode = form.get("mode", "byes").strip() or "byes"
            after = director.evening(tid, lambda t: changes.withdraw(t, pair, mode))
            w = after.evening.withdrawals[-1]
            Desk(director).log(tid, w.from_round, None, "director",
                               f"withdraw {pair} {w.from_round} {w.mode}")
            return Text("ok.withdrawn", pair=pair, round=w.from_round,
                        mode=Text(f"ok.withdrawn.{w.mode}"))
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/penalties", include_in_schema=False)
    async def penalise(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            pair = _int(form, "pair", Text("what.pair"))
            vp = _int(form, "vp", Text("what.penalty_vp"), 0)
            mp = _int(form, "mp", Text("what.penalty_mp"), 0)
            number = _int(form, "round", Text("what.round"), 0) or None
            reason = form.get("reason", "")
            director.evening(tid, lambda t: changes.penalise(
                t, pair, vp=vp, mp=mp, reason=reason, round_number=number))
            Desk(director).log(tid, number, None, "director",
                               f"penalty {pair} {vp} {number or 0} {mp} {reason.strip()}")
            return Text("ok.penalised", pair=pair, vp=vp, mp=mp, reason=reason.strip())
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/line-rankings", include_in_schema=False)
    async def line_rankings(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            value = form.get("on", "").strip()
            if value not in ("0", "1"):
                raise TournamentError(Text("error.line_rankings_value", value=repr(value)))
            director.evening(tid, lambda t: changes.set_line_rankings(t, value == "1"))
            return Text("ok.lines_on" if value == "1" else "ok.lines_off")
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/prizes", include_in_schema=False)
    async def prizes(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            text = form.get("prizes", "")
            after = director.evening(tid, lambda t: changes.set_prizes(t, text))
            listed = ", ".join(str(p) for p in after.evening.prizes)
            Desk(director).log(tid, None, None, "director", f"prizes {listed or '–'}")
            return Text("ok.prizes", prizes=listed) if listed else Text("ok.prizes_none")
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/members", include_in_schema=False)
    async def member_form(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            with director.engine.begin() as conn:
                m = save_member(conn, form.get("number", ""), form.get("name", ""),
                                form.get("category", ""),
                                form.get("account", "").strip() or None)
            if m.username:
                return Text("ok.member_account", number=m.number, name=m.name,
                            category=m.category, username=m.username)
            return Text("ok.member", number=m.number, name=m.name, category=m.category)
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/online-club", include_in_schema=False)
    async def online_club_form(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            with director.engine.begin() as conn:
                name = link_online_club(conn, form.get("club", "")[:80])
            return Text("ok.online_club", club=name) if name else Text("ok.online_club_none")
        return await change(request, tid, act)

    @router.post("/tournaments/members", include_in_schema=False)
    async def add_member(request: Request) -> JSONResponse:
        director = director_of(request)
        try:
            check_key(request)
            form = await read_form(request)

            def save() -> dict[str, Any]:
                with director.engine.begin() as conn:
                    return save_member(conn, form.get("number", ""), form.get("name", ""),
                                       form.get("category", ""),
                                       form.get("account", "").strip() or None).to_dict()
            return JSONResponse(await run_in_threadpool(save))
        except TournamentError as exc:
            return JSONResponse({"code": "refused", "detail": str(exc)}, status_code=422)
        except Refused as exc:
            return JSONResponse({"code": "refused", "detail": str(exc)},
                                status_code=exc.status)

    @router.get("/api/tournaments/members")
    async def member_list(request: Request) -> JSONResponse:
        director = director_of(request)

        def read() -> list[dict[str, Any]]:
            with director.engine.connect() as conn:
                return [m.to_dict() for m in members(conn)]
        return JSONResponse({"members": await run_in_threadpool(read)})

    @router.get("/api/tournaments/{tid}/evening")
    async def evening(request: Request, tid: str) -> JSONResponse:
        director = director_of(request)

        def read() -> dict[str, Any]:
            t = director.load(tid)
            seen = t if key_given(request) else players_view(director, tid, t)
            with director.engine.connect() as conn:
                accounts = pair_accounts(conn, tid)
            return {**evening_json(seen),
                    "accounts": {str(k): v for k, v in accounts.items()}}
        try:
            return JSONResponse(await run_in_threadpool(read))
        except TournamentError as exc:
            return JSONResponse({"code": "not_found", "detail": str(exc)}, status_code=404)

    # the evening's register and the federation's downloads (:mod:`.register_web`)
    add_register_routes(router, director_of, is_director, key_given)
