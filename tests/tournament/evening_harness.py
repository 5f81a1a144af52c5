"""Helpers for the evening's tests: the director's forms and the JSON, over real HTTP."""

from __future__ import annotations

import html
from typing import Any
from urllib.parse import unquote

import httpx
from harness import ServerProcess

SIX = ["Rossi / Bianchi", "Verdi / Neri", "Gialli / Blu", "Conti / Ferri", "Sala / Riva",
       "Lodi / Pace"]


def create(server: ServerProcess, name: str, schedule: str = "mitchell:3",
           **extra: str) -> str:
    r = server.http.post("/tournaments/", data={"name": name, "schedule": schedule, **extra})
    assert r.status_code == 303, r.text
    return r.headers["location"].split("/")[2]


def post(server: ServerProcess, tid: str, action: str, **form: str) -> httpx.Response:
    return server.http.post(f"/tournaments/{tid}/{action}", data=form)


def ok(server: ServerProcess, tid: str, action: str, **form: str) -> str:
    r = post(server, tid, action, **form)
    assert r.status_code == 303, r.text
    return unquote(r.headers["location"].partition("ok=")[2])


def refused(server: ServerProcess, tid: str, action: str, expect: str, **form: str) -> None:
    before = state(server, tid)
    r = post(server, tid, action, **form)
    assert r.status_code == 422, r.text
    assert expect in html.unescape(r.text), r.text
    assert state(server, tid) == before  # nothing changed


def state(server: ServerProcess, tid: str) -> dict[str, Any]:
    r = server.http.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def tables(server: ServerProcess, tid: str) -> list[tuple[int, int, int]]:
    played = state(server, tid)["round"]
    return [(t["table"], t["ns"], t["ew"]) for t in played["tables"]]


def play_round(server: ServerProcess, tid: str, scores: dict[int, tuple[int, int]]) -> None:
    number = state(server, tid)["round"]["number"]
    for table, _ns, _ew in tables(server, tid):
        ns_mp, ew_mp = scores.get(table, (600, 400))
        ok(server, tid, "results", round=str(number), table=str(table), ns_mp=str(ns_mp),
           ew_mp=str(ew_mp))


def six_pairs(server: ServerProcess, name: str, schedule: str = "mitchell:3") -> str:
    tid = create(server, name, schedule)
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    return tid
