"""The director's page for the evening's accidents (added to :mod:`.web`'s router).

* ``POST /tournaments/{id}/late``       ``pair`` (a registration line: ``Rossi – Bianchi``
                                        or ``Name: player, player``), ``mode`` (bye |
                                        redraw): a pair arriving after round 1 was drawn
* ``POST /tournaments/{id}/absent``     ``vp``, ``mp``: what a round a late pair missed
                                        scores (both empty: the mirror of a bye)
* ``POST /tournaments/{id}/remove``     ``pair``: off the register, before round 1
* ``POST /tournaments/{id}/undo-round`` the last round drawn, while nobody entered a result
* ``POST /tournaments/{id}/rename``     ``pair``, ``name`` and/or ``players`` (comma
                                        separated), at any time; the change is kept
* ``POST /tournaments/{id}/arbitral``   ``round``, ``table``, ``ns_vp``, ``ew_vp`` and
                                        optionally ``ns_mp``, ``ew_mp``: the director's VP
                                        for a table (a no-show, a split score, an average)

Each is logged in the director's log; a refused one answers 422 with the director's page
and the reason, changing nothing (:mod:`.changes`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import APIRouter, Request

from burraco.tournament import changes
from burraco.tournament.entries import entry
from burraco.tournament.errors import TournamentError, excerpt
from burraco.tournament.i18n import Lang, Text, number, tr
from burraco.tournament.table_desk import Desk

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament
    from burraco.tournament.service import Director

Act = Callable[["Director", dict[str, str]], Text]
Change = Callable[[Request, str, Act], Awaitable[Any]]


def _int(form: dict[str, str], name: str, what: Text) -> int | None:
    text = form.get(name, "").strip().replace("−", "-")
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise TournamentError(Text("error.whole_number", what=what,
                                   value=excerpt(text))) from None


def _needed(form: dict[str, str], name: str, what: Text) -> int:
    value = _int(form, name, what)
    if value is None:
        raise TournamentError(Text("error.missing", what=what))
    return value


def accidents_html(tid: str, t: Tournament, lang: Lang = "en") -> str:
    """The forms for late pairs, no-shows, a round drawn by mistake, renames and arbitral
    scores, each where it applies."""
    base = f"/tournaments/{quote(tid)}"

    def x(key: str, **values: object) -> str:
        return escape(tr(lang, key, **values))

    pairs = "".join(f"<option value='{p.number}'>{p.number} {escape(p.name)}</option>"
                    for p in t.pairs)
    parts = [f"<h2>{x('accident.heading')}</h2>"]
    if t.rounds and not t.finished and len(t.rounds) < t.total_rounds \
            and t.settings.kind == "pairs":
        vp, mp = t.evening.absent_score(t.settings.bye_vp, t.settings.bye_mp)
        parts.append(
            f"<form method='post' action='{base}/late' id='late'><p>{x('late.lead')} <label>"
            f"{x('late.pair')} <input name='pair' size='28' required></label> <label>"
            f"{x('late.mode')} <select name='mode'><option value='bye'>{x('late.bye')}</option>"
            f"<option value='redraw'>{x('late.redraw')}</option></select></label> "
            f"<button type='submit'>{x('late.button')}</button></p>"
            f"<p><small>{x('late.absent', vp=number(lang, vp), mp=number(lang, mp, signed=True))}"
            "</small></p></form>")
        parts.append(
            f"<form method='post' action='{base}/absent' id='absent'><p>{x('absent.lead')} "
            f"<label>{x('vp')} <input name='vp' size='3' value='{vp}'></label> <label>"
            f"{x('mp')} <input name='mp' size='5' value='{mp}'></label> <button "
            f"type='submit'>{x('absent.button')}</button></p></form>")
    if not t.rounds and t.pairs:
        parts.append(
            f"<form method='post' action='{base}/remove' id='remove'><p>{x('remove.lead')} "
            f"<label>{x('withdraw.pair')} <select name='pair'>{pairs}</select></label> "
            f"<button type='submit'>{x('remove.button')}</button></p></form>")
    if t.rounds and not t.round_results(len(t.rounds)):
        parts.append(
            f"<form method='post' action='{base}/undo-round' id='undo-round'><p>"
            f"{x('undo.lead', n=len(t.rounds))} <button type='submit'>"
            f"{x('undo.button', n=len(t.rounds))}</button></p></form>")
    if t.pairs:
        parts.append(
            f"<form method='post' action='{base}/rename' id='rename'><p>{x('rename.lead')} "
            f"<label>{x('withdraw.pair')} <select name='pair'>{pairs}</select></label> <label>"
            f"{x('rename.name')} <input name='name' size='20'></label> <label>"
            f"{x('rename.players')} <input name='players' size='28'></label> <button "
            f"type='submit'>{x('rename.button')}</button></p></form>")
    if t.rounds:
        parts.append(
            f"<form method='post' action='{base}/arbitral' id='arbitral'><p>"
            f"{x('arbitral.lead')} <label>{x('paper.round')} <input name='round' size='2' "
            f"value='{len(t.rounds)}' required></label> <label>{x('paper.table')} <input "
            f"name='table' size='2' required></label> <label>"
            f"{x('arbitral.vp', line=tr(lang, 'ns'))} <input name='ns_vp' size='2' required>"
            f"</label> <label>"
            f"{x('arbitral.vp', line=tr(lang, 'ew'))} <input name='ew_vp' size='2' required>"
            f"</label> <label>{x('ns_mp')} <input name='ns_mp' size='5'></label> <label>"
            f"{x('ew_mp')} <input name='ew_mp' size='5'></label> <button type='submit'>"
            f"{x('arbitral.button')}</button></p><p><small>{x('arbitral.hint')}</small></p>"
            "</form>")
    history = [tr(lang, "rename.history", pair=r.pair, before=r.was, after=r.now,
                  rounds=r.rounds)
               for r in t.evening.renames]
    history += [tr(lang, "late.entry", pair=e.pair, name=t.pair(e.pair).name,
                   round=e.from_round, mode=tr(lang, f"late.{e.mode}"))
                for e in t.evening.late]
    if history:
        parts.append("<ul id='accidents'>"
                     + "".join(f"<li>{escape(h)}</li>" for h in history) + "</ul>")
    return "\n".join(parts)


def add_accident_routes(router: APIRouter, change: Change) -> None:
    @router.post("/tournaments/{tid}/late", include_in_schema=False)
    async def late(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            line = form.get("pair", "").strip()
            if not line:
                raise TournamentError(Text("error.write_pairs"))
            name, players = entry(line)
            mode = form.get("mode", "bye").strip() or "bye"
            pair = director.late_register(tid, name, players, mode)
            t = director.load(tid)
            e = t.evening.late_entry(pair.number)
            assert e is not None
            Desk(director).log(tid, e.from_round, None, "director",
                               f"late {pair.number} {e.from_round} {e.mode} {pair.name}")
            return Text("ok.late", pair=pair.label, round=e.from_round,
                        mode=Text(f"late.{e.mode}"))
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/absent", include_in_schema=False)
    async def absent(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            vp = _int(form, "vp", Text("what.absent_vp"))
            mp = _int(form, "mp", Text("what.absent_mp"))
            if (vp is None) != (mp is None):
                raise TournamentError(Text("error.absent_both"))
            after = director.evening(tid, lambda t: changes.set_absent(t, vp, mp))
            a, b = after.evening.absent_score(after.settings.bye_vp, after.settings.bye_mp)
            Desk(director).log(tid, None, None, "director", f"absent {a} {b}")
            return Text("ok.absent", vp=a, mp=b)
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/remove", include_in_schema=False)
    async def remove(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            pair = director.remove_pair(tid, _needed(form, "pair", Text("what.pair")))
            Desk(director).log(tid, None, None, "director", f"remove {pair.number} {pair.name}")
            return Text("ok.removed", pair=pair.label)
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/undo-round", include_in_schema=False)
    async def undo(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            played = director.undo_round(tid)
            Desk(director).log(tid, played.number, None, "director", f"undo {played.number}")
            return Text("ok.undone", n=played.number)
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/rename", include_in_schema=False)
    async def rename(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            pair = _needed(form, "pair", Text("what.pair"))
            name = form.get("name", "").strip() or None
            listed = form.get("players", "").strip()
            players = [p.strip() for p in listed.split(",")] if listed else None
            if name is None and players is None:
                raise TournamentError(Text("error.rename_nothing"))
            after = director.evening(tid, lambda t: changes.rename(t, pair, name, players))
            r = after.evening.renames[-1]
            Desk(director).log(tid, None, None, "director", f"rename {pair} {r.was} → {r.now}")
            return Text("ok.renamed", pair=pair, before=r.was, after=r.now)
        return await change(request, tid, act)

    @router.post("/tournaments/{tid}/arbitral", include_in_schema=False)
    async def arbitral(request: Request, tid: str) -> Any:
        def act(director: Director, form: dict[str, str]) -> Text:
            round_number = _needed(form, "round", Text("what.round"))
            table = _needed(form, "table", Text("what.table"))
            vp = (_needed(form, "ns_vp", Text("what.arbitral_vp", line=Text("ns"))),
                  _needed(form, "ew_vp", Text("what.arbitral_vp", line=Text("ew"))))
            ns_mp = _int(form, "ns_mp", Text("what.score", line=Text("ns"))) or 0
            ew_mp = _int(form, "ew_mp", Text("what.score", line=Text("ew"))) or 0
            before = director.load(tid).result(round_number, table)
            r = director.record(tid, round_number, table, ns_mp, ew_mp, arbitral=vp,
                                correct=before is not None)
            was = f" {before.logged}" if before is not None else ""
            Desk(director).log(tid, round_number, table, "director",
                               f"arbitral {r.vp[0]} {r.vp[1]} {r.mp[0]} {r.mp[1]}{was}")
            return Text("ok.arbitral", r=round_number, t=table, c=r.vp[0], d=r.vp[1])
        return await change(request, tid, act)
