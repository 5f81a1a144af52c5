"""The director's register page and the federation's downloads (added to :mod:`.web`'s router).

* ``GET  /tournaments/{id}/register``        the evening's register (:mod:`.register`): the
                                             fee, the dinner's price, the club, the date and
                                             the level; per player his member number, his
                                             card, paid (and how much), dinner; the totals
* ``POST /tournaments/{id}/register/terms``  ``fee``, ``dinner_price`` (``15``, ``15,50``),
                                             ``club``, ``date`` (``2027-03-03``), ``level``
* ``POST /tournaments/{id}/register/players`` per player P-K (pair P, player K): ``row-P-K``
                                             (the line is in the form), ``member-P-K``,
                                             ``card-P-K``, ``type-P-K``, ``paid-P-K`` (ticked),
                                             ``amount-P-K``, ``dinner-P-K`` (ticked)
* ``POST /tournaments/{id}/register/card``   a member's card: ``member``, ``card``, ``type``
* ``GET  /tournaments/{id}/federation.csv``, ``federation.json``  the results for the
                                             federation (:mod:`.federation`)

Everything here is the director's: with a key set (``BURRACO_DIRECTOR_KEY``) the pages answer
403 without it.  A download made without the key given (none set: anyone) leaves out a
duplicate round still held (:mod:`.held`), as the PDFs do.  A refused change answers 422 with
the register page and the reason, changing nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from html import escape
from typing import TYPE_CHECKING
from urllib.parse import quote

from babel.numbers import format_decimal
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from burraco.tournament.access import KEY_ENV, check_key, read_form
from burraco.tournament.errors import Refused, TournamentError
from burraco.tournament.federation import FORMAT, federation_csv, federation_json, read
from burraco.tournament.held import players_view
from burraco.tournament.i18n import Lang, Text, language, say, tr
from burraco.tournament.members import CARD_TYPES, Card, save_member_card
from burraco.tournament.pages import lang_of, layout
from burraco.tournament.register import (
    LEVELS,
    Line,
    Register,
    Typed,
    load,
    money_text,
    save_lines,
    save_terms,
)

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament
    from burraco.tournament.service import Director

ROW = re.compile(r"row-(\d{1,4})-(\d{1,3})")
STYLE = """<style>
.ledger-wrap { overflow-x: auto; } .ledger td input[type=text] { width: 7em; }
.ledger td.tick { text-align: center; } .ledger td small { display: block; }
.ledger td.tick input { min-height: 0; width: 1.3em; height: 1.3em; vertical-align: middle; }
form.terms label { display: inline-block; margin: .2em .6em .2em 0; }
@media (max-width: 600px) {  /* a phone: each player a block of labelled fields */
  table.ledger, .ledger tbody, .ledger tr, .ledger td { display: block; width: 100%; }
  .ledger tr:first-child { display: none; }
  .ledger tr { border-top: 2px solid #fff4; padding: .3em 0; }
  .ledger td { border: none; overflow-wrap: normal; padding: .15em .3em; }
  .ledger td.pair { display: inline-block; width: auto; font-weight: 700; }
  .ledger td.who { font-weight: 700; color: var(--gold); }
  .ledger td[data-label]:not(.who)::before { content: attr(data-label); display: block;
    font-size: .8em; opacity: .8; }
  .ledger td.tick, .ledger td.num { text-align: left; }
  .ledger td.tick::before, .ledger td.num::before { display: inline !important;
    margin-right: .6em; }
  .ledger td input[type=text] { width: 100%; }
}
</style>"""


def money_input(lang: Lang, cents: int) -> str:
    """An amount as a form field holds it: ``15,00`` (no currency, no grouping)."""
    return format_decimal(Decimal(cents) / 100, format="0.00", locale=language(lang))


def _attr(text: str) -> str:
    return escape(text, quote=True)


def terms_html(base: str, register: Register, lang: Lang) -> str:
    t = register.terms
    levels = "".join(f"<option value='{code}'{' selected' if code == t.level else ''}>"
                     f"{escape(tr(lang, f'level.{code}'))}</option>" for code in LEVELS)
    return (
        f"<h2>{tr(lang, 'ledger.terms')}</h2>"
        f"<form method='post' action='{base}/register/terms' id='terms' class='terms'><p>"
        f"<label>{tr(lang, 'ledger.fee')} <input type='text' inputmode='decimal' name='fee' "
        f"size='7' value='{money_input(lang, t.fee)}'></label>"
        f"<label>{tr(lang, 'ledger.dinner_price')} <input type='text' inputmode='decimal' "
        f"name='dinner_price' size='7' value='{money_input(lang, t.dinner_price)}'> "
        f"<small>{tr(lang, 'ledger.dinner_hint')}</small></label></p><p>"
        f"<label>{tr(lang, 'ledger.club')} <input type='text' name='club' size='30' "
        f"value='{_attr(t.club)}'></label>"
        f"<label>{tr(lang, 'ledger.date')} <input type='date' name='date' "
        f"value='{t.date.isoformat() if t.date else ''}'> "
        f"<small>{tr(lang, 'ledger.date_hint')}</small></label>"
        f"<label>{tr(lang, 'ledger.level')} <select name='level'>{levels}</select></label> "
        f"<button type='submit'>{tr(lang, 'ledger.save_terms')}</button></p></form>")


def totals_html(register: Register, lang: Lang) -> str:
    s = register.totals()
    cells = [("players", s.players, str(s.players)), ("paying", s.paying, str(s.paying)),
             ("paid", s.paid, money_text(lang, s.paid)),
             ("owed", s.owed, money_text(lang, s.owed)),
             ("due", s.due, money_text(lang, s.due)),
             ("dinners", s.dinners, str(s.dinners)),
             ("dinner_money", s.dinner_money, money_text(lang, s.dinner_money))]
    rows = "".join(f"<tr><th>{tr(lang, f'ledger.total_{key}')}</th><td class='num' "
                   f"data-total='{key}' data-value='{value}'>{escape(shown)}</td></tr>"
                   for key, value, shown in cells)
    return f"<h2>{tr(lang, 'ledger.totals')}</h2><table id='totals'>{rows}</table>"


def _line_html(t: Tournament, register: Register, line: Line, first: bool, span: int,
               lang: Lang) -> str:
    key = f"{line.pair}-{line.player}"
    terms = register.terms

    def cell(label_key: str, inner: str, extra: str = "") -> str:
        """A cell, its column's name kept for a phone's narrow layout (``data-label``)."""
        return f"<td data-label='{_attr(tr(lang, label_key))}'{extra}>{inner}</td>"

    def field(name: str, label_key: str, value: str, size: int, extra: str = "") -> str:
        said = f"{tr(lang, label_key)} — {line.name}"
        return (f"<input type='text' name='{name}-{key}' size='{size}' value='{_attr(value)}' "
                f"aria-label='{_attr(said)}'{extra}>")

    def tick(name: str, label_key: str, on: bool) -> str:
        said = f"{tr(lang, label_key)} — {line.name}"
        return cell(label_key, f"<input type='checkbox' name='{name}-{key}' value='1'"
                    f"{' checked' if on else ''} aria-label='{_attr(said)}'>", " class='tick'")

    cells = ""
    if first:
        cells += (f"<td rowspan='{span}' class='num pair'>{line.pair}</td>"
                  f"<td rowspan='{span}' class='pair'>{escape(t.pair(line.pair).name)}</td>")
    held = register.cards.get(line.member) if line.member else None
    note = (f"<small data-member-card='{key}'>"
            f"{escape(tr(lang, 'ledger.members_card', card=_card_text(held)))}</small>"
            if held else "")
    own = line.card
    due = money_input(lang, line.due(terms))
    paid = money_input(lang, line.paid) if line.paid is not None else ""
    owed = line.owed(terms)
    cells += (
        cell("ledger.player", f"{escape(line.name)}<input type='hidden' name='row-{key}' "
                              "value='1'>", " class='who'")
        + cell("ledger.member", field("member", "ledger.member", line.member or "", 6) + note)
        + cell("ledger.card_number",
               field("card", "ledger.card_number", own.number if own else "", 10))
        + cell("ledger.card_type", field("type", "ledger.card_type", own.type if own else "",
                                         10, " list='card-types'"))
        + tick("paid", "ledger.paid", line.paid is not None)
        + cell("ledger.amount", field("amount", "ledger.amount", paid, 6,
                                      f" inputmode='decimal' placeholder='{due}'"))
        + tick("dinner", "ledger.dinner", line.dinner)
        + cell("ledger.owed", escape(money_text(lang, owed)),
               f" class='num' data-owed='{owed}'"))
    return f"<tr data-pair='{line.pair}' data-player='{line.player}'>{cells}</tr>"


def _card_text(held: Card) -> str:
    return f"{held.number} ({held.type})" if held.type else str(held.number)


def lines_html(base: str, t: Tournament, register: Register, lang: Lang) -> str:
    if not register.lines:
        return f"<h2>{tr(lang, 'ledger.players')}</h2><p id='ledger-none'>" \
               f"{tr(lang, 'ledger.none')}</p>"
    spans: dict[int, int] = {}
    for line in register.lines:
        spans[line.pair] = spans.get(line.pair, 0) + 1
    rows = []
    seen: set[int] = set()
    for line in register.lines:
        rows.append(_line_html(t, register, line, line.pair not in seen, spans[line.pair],
                               lang))
        seen.add(line.pair)
    head = "".join(f"<th>{tr(lang, key)}</th>" for key in (
        "ledger.player", "ledger.member", "ledger.card_number", "ledger.card_type",
        "ledger.paid", "ledger.amount", "ledger.dinner", "ledger.owed"))
    types = "".join(f"<option value='{kind}'>" for kind in CARD_TYPES)
    return (f"<h2>{tr(lang, 'ledger.players')}</h2><p class='meta'>{tr(lang, 'ledger.hint')}"
            f"</p><form method='post' action='{base}/register/players' id='ledger-form'>"
            f"<div class='ledger-wrap'><table class='ledger' id='ledger'><tr><th colspan='2'>"
            f"{tr(lang, 'entrant.' + t.settings.entrant)}</th>{head}</tr>{''.join(rows)}"
            f"</table></div><datalist id='card-types'>{types}</datalist><p><button "
            f"type='submit'>{tr(lang, 'ledger.save_players')}</button></p></form>")


def card_form_html(base: str, lang: Lang) -> str:
    return (f"<form method='post' action='{base}/register/card' id='member-card'><p>"
            f"{tr(lang, 'ledger.card_form')} <label>{tr(lang, 'ledger.member')} <input "
            f"type='text' name='member' size='8' required></label> <label>"
            f"{tr(lang, 'ledger.card_number')} <input type='text' name='card' size='12'>"
            f"</label> <label>{tr(lang, 'ledger.card_type')} <input type='text' name='type' "
            f"size='12' list='card-types'></label> <button type='submit'>"
            f"{tr(lang, 'ledger.save_card')}</button></p></form>")


def register_page(tid: str, t: Tournament, register: Register, lang: Lang, *,
                  ok: str | None = None, error: str | None = None) -> str:
    base = f"/tournaments/{quote(tid)}"
    notice = ""
    if ok:
        notice += f"<p class='ok' role='status' id='notice'>{escape(ok)}</p>"
    if error:
        notice += f"<p class='error' role='alert' id='error'>{escape(error)}</p>"
    title = tr(lang, "ledger.title", name=t.settings.name)
    body = [f"<nav><a href='{base}/' id='back'>{tr(lang, 'ledger.back')}</a>"
            f"<a href='{base}/federation.csv' id='federation-csv'>CSV</a>"
            f"<a href='{base}/federation.json' id='federation-json'>JSON</a></nav>",
            f"<h1>{escape(title)}</h1>", notice, totals_html(register, lang),
            terms_html(base, register, lang), lines_html(base, t, register, lang),
            card_form_html(base, lang),
            f"<h2>{tr(lang, 'ledger.federation')}</h2><p class='meta'>"
            f"{escape(tr(lang, 'ledger.federation_hint', format=FORMAT))} "
            f"<a href='{base}/federation.csv'>federation.csv</a> · "
            f"<a href='{base}/federation.json'>federation.json</a></p>"]
    return layout(title, "\n".join(body), lang=lang, path=f"{base}/register", head=STYLE)


def typed_lines(form: dict[str, str]) -> dict[tuple[int, int], Typed]:
    """The register's lines a form sends, by (pair, player)."""
    out = {}
    for name in form:
        found = ROW.fullmatch(name)
        if found is None:
            continue
        key = f"{found[1]}-{found[2]}"
        out[int(found[1]), int(found[2])] = Typed(
            form.get(f"member-{key}", ""), form.get(f"card-{key}", ""),
            form.get(f"type-{key}", ""), bool(form.get(f"paid-{key}")),
            form.get(f"amount-{key}", ""), bool(form.get(f"dinner-{key}")))
    return out


Act = Callable[["Director", dict[str, str]], Text]


def add_register_routes(router: APIRouter, director_of: Callable[[Request], Director],
                        is_director: Callable[[Request], bool],
                        key_given: Callable[[Request], bool]) -> None:
    """``key_given``: the request gives the director's key (it sees the held rounds)."""

    def locked(lang: Lang) -> HTMLResponse:
        return HTMLResponse(layout(tr(lang, "locked"), "<p class='error' role='alert' "
                                   f"id='error'>{escape(tr(lang, 'error.locked', env=KEY_ENV))}"
                                   "</p>", lang=lang), 403)

    def missing(lang: Lang, exc: Exception) -> HTMLResponse:
        return HTMLResponse(layout(tr(lang, "not_found"), "<p class='error' role='alert' "
                                   f"id='error'>{escape(say(lang, exc))}</p>", lang=lang), 404)

    async def shown(request: Request, tid: str, *, ok: str | None = None,
                    error: str | None = None, status: int = 200) -> Response:
        lang = lang_of(request)
        director = director_of(request)

        def build() -> str:
            t = director.load(tid)
            with director.engine.connect() as conn:
                register = load(conn, tid, t)
            return register_page(tid, t, register, lang, ok=ok, error=error)
        try:
            return HTMLResponse(await run_in_threadpool(build), status)
        except TournamentError as exc:
            return missing(lang, exc)

    @router.get("/tournaments/{tid}/register", response_class=HTMLResponse,
                include_in_schema=False)
    async def register_view(request: Request, tid: str, ok: str | None = None) -> Response:
        if not is_director(request):
            return locked(lang_of(request))
        return await shown(request, tid, ok=ok)

    async def change(request: Request, tid: str, act: Act) -> Response:
        lang = lang_of(request)
        try:
            check_key(request)
            form = await read_form(request)
            message = await run_in_threadpool(act, director_of(request), form)
        except TournamentError as exc:
            return await shown(request, tid, error=say(lang, exc), status=422)
        except Refused as exc:
            if exc.status == 403:
                return locked(lang)
            return await shown(request, tid, error=say(lang, exc), status=exc.status)
        return RedirectResponse(f"/tournaments/{quote(tid)}/register?ok="
                                f"{quote(say(lang, message))}", status_code=303)

    @router.post("/tournaments/{tid}/register/terms", include_in_schema=False)
    async def terms(request: Request, tid: str) -> Response:
        def act(director: Director, form: dict[str, str]) -> Text:
            director.load(tid)  # the tournament exists
            with director.engine.begin() as conn:
                saved = save_terms(conn, tid, fee=form.get("fee", ""),
                                   dinner_price=form.get("dinner_price", ""),
                                   club=form.get("club", ""), day=form.get("date", ""),
                                   level=form.get("level", ""))
            lang = lang_of(request)
            return Text("ok.terms", fee=money_text(lang, saved.fee),
                        dinner=money_text(lang, saved.dinner_price),
                        level=Text(f"level.{saved.level}"))
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/register/players", include_in_schema=False)
    async def players(request: Request, tid: str) -> Response:
        def act(director: Director, form: dict[str, str]) -> Text:
            t = director.load(tid)
            typed = typed_lines(form)
            if not typed:
                raise TournamentError(Text("error.register_empty"))
            with director.engine.begin() as conn:
                save_lines(conn, tid, t, typed)
            return Text("ok.register")
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/register/card", include_in_schema=False)
    async def member_card(request: Request, tid: str) -> Response:
        def act(director: Director, form: dict[str, str]) -> Text:
            director.load(tid)
            with director.engine.begin() as conn:
                m = save_member_card(conn, form.get("member", "").strip().lstrip("#"),
                                     form.get("card", ""), form.get("type", ""))
            if m.card is None:
                return Text("ok.card_removed", number=m.number, name=m.name)
            return Text("ok.card", number=m.number, name=m.name, card=_card_text(m.card))
        return await change(request, tid, act)

    async def export(request: Request,
                     tid: str) -> tuple[str, Tournament, Register, date | None]:
        director = director_of(request)
        given = key_given(request)

        def gather() -> tuple[Tournament, Register, date | None]:
            t = director.load(tid)
            if not given:  # no key set: this may be anyone (a held round stays out)
                t = players_view(director, tid, t)
            with director.engine.connect() as conn:
                register, day = read(conn, tid, t)
            return t, register, day
        t, register, day = await run_in_threadpool(gather)
        return tid, t, register, day

    @router.get("/tournaments/{tid}/federation.csv", include_in_schema=False)
    async def federation_file(request: Request, tid: str) -> Response:
        lang = lang_of(request)
        if not is_director(request):
            return locked(lang)
        try:
            text = federation_csv(*await export(request, tid))
        except TournamentError as exc:
            return missing(lang, exc)
        return Response(text, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f"attachment; filename={tid}-federation.csv"})

    @router.get("/tournaments/{tid}/federation.json", include_in_schema=False)
    async def federation_data(request: Request, tid: str) -> Response:
        lang = lang_of(request)
        if not is_director(request):
            return locked(lang)
        try:
            doc = federation_json(*await export(request, tid))
        except TournamentError as exc:
            return missing(lang, exc)
        return JSONResponse(doc, headers={
            "Content-Disposition": f"attachment; filename={tid}-federation.json"})
