"""The score pad saved to the account over real HTTP against a real server process: the
contract of docs/protocol.md §14.2 (list, keep, forget; the later ``updated`` wins), the
refusals of bad input (each names its field and stores nothing), guests refused, one
account never seeing another's sheets; on SQLite, and on PostgreSQL when configured."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess, postgres_schema
from players_harness import bearer, register

from burraco.accounts.pad import MAX_SHEETS, SHEET_BYTES

_names = iter(range(10_000))


def account(server: ServerProcess) -> dict[str, str]:
    return bearer(register(server, f"Pad_{next(_names)}")["token"])


def sheet(sheet_id: str, **change: Any) -> dict[str, Any]:
    """A sheet as the pad writes it (web/src/scorepad/sheet.ts), with one played hand."""
    side = {"melds": 215, "burraco": {"clean": 1}, "closed": True, "took": True,
            "played": True, "unplayed": 0, "hand": 0}
    return {"version": 1, "id": sheet_id, "created": "2026-12-01T20:00:00.000Z",
            "names": ["Ada", "Bea", "Cleo", "Dino"], "preset": "fibur", "mode": "free",
            "target": 2005, "smazzate": 3, "firstDealer": 3,
            "hands": [{"solo": -1, "sides": [side, {**side, "closed": False}]}], **change}


def now_ms() -> int:
    return int(time.time() * 1000)


def listed(server: ServerProcess, auth: dict[str, str]) -> list[dict[str, Any]]:
    response = httpx.get(f"{server.base}/api/me/scorepad", headers=auth)
    assert response.status_code == 200, response.text
    return list(response.json()["sheets"])


def put(server: ServerProcess, auth: dict[str, str], sheet_id: str, body: Any) -> httpx.Response:
    return httpx.put(f"{server.base}/api/me/scorepad/{sheet_id}", headers=auth, json=body)


def check_contract(server: ServerProcess) -> None:
    auth = account(server)
    assert listed(server, auth) == []
    t = now_ms()
    first = put(server, auth, "a1b2c3d4e5f6", {"updated": t, "sheet": sheet("a1b2c3d4e5f6")})
    assert first.status_code == 201, first.text
    assert first.json() == {"id": "a1b2c3d4e5f6", "updated": t, "created": True}
    changed = sheet("a1b2c3d4e5f6", names=["Ada", "Bea", "Cleo", "Elio"])
    again = put(server, auth, "a1b2c3d4e5f6", {"updated": t + 5, "sheet": changed})
    assert again.status_code == 200 and again.json()["created"] is False
    assert listed(server, auth) == [{"id": "a1b2c3d4e5f6", "updated": t + 5, "sheet": changed}]
    # the later change wins: an older write is refused with the account's version
    stale = put(server, auth, "a1b2c3d4e5f6", {"updated": t + 1, "sheet": sheet("a1b2c3d4e5f6")})
    assert stale.status_code == 409, stale.text
    assert stale.json()["code"] == "stale"
    assert stale.json()["current"] == {"id": "a1b2c3d4e5f6", "updated": t + 5, "sheet": changed}
    # the same write again (a retry) is accepted
    retry = put(server, auth, "a1b2c3d4e5f6", {"updated": t + 5, "sheet": changed})
    assert retry.status_code == 200
    put(server, auth, "second", {"updated": t + 9, "sheet": sheet("second")})
    # the latest changed first
    assert [s["id"] for s in listed(server, auth)] == ["second", "a1b2c3d4e5f6"]
    # another account sees none of them, and cannot delete them
    other = account(server)
    assert listed(server, other) == []
    gone = httpx.delete(f"{server.base}/api/me/scorepad/second", headers=other)
    assert gone.status_code == 200 and gone.json()["deleted"] is False
    assert len(listed(server, auth)) == 2
    gone = httpx.delete(f"{server.base}/api/me/scorepad/second", headers=auth)
    assert gone.status_code == 200 and gone.json() == {"id": "second", "deleted": True}
    assert [s["id"] for s in listed(server, auth)] == ["a1b2c3d4e5f6"]


def test_the_contract_on_sqlite(server: ServerProcess) -> None:
    check_contract(server)


def test_the_contract_on_postgresql(tmp_path: Path) -> None:
    with postgres_schema() as url:
        process = ServerProcess(url, tmp_path / "pg.log")
        process.start()
        try:
            check_contract(process)
        finally:
            process.stop()


def test_the_session_cookie_works_as_the_browser_sends_it(server: ServerProcess) -> None:
    token = register(server, "Pad_cookie")["token"]
    cookies = {"burraco_session": token}
    response = httpx.put(f"{server.base}/api/me/scorepad/c00k1e", cookies=cookies,
                         json={"updated": now_ms(), "sheet": sheet("c00k1e")})
    assert response.status_code == 201, response.text
    got = httpx.get(f"{server.base}/api/me/scorepad", cookies=cookies).json()
    assert [s["id"] for s in got["sheets"]] == ["c00k1e"]
    assert got["limits"] == {"sheets": MAX_SHEETS, "sheet_bytes": SHEET_BYTES}


def test_a_guest_or_nobody_gets_401(server: ServerProcess, guest: str) -> None:
    for headers in ({}, bearer(guest), bearer("a.nosuch.session")):
        for method, path in (("GET", "/api/me/scorepad"), ("PUT", "/api/me/scorepad/abc"),
                             ("DELETE", "/api/me/scorepad/abc")):
            body = {"updated": now_ms(), "sheet": sheet("abc")} if method == "PUT" else None
            response = httpx.request(method, f"{server.base}{path}", headers=headers, json=body)
            assert response.status_code == 401, (method, headers, response.text)
            assert response.json()["code"] == "login_required"


BAD: list[tuple[str, Any, int, str]] = [
    ("bad.id", {"sheet": sheet("bad.id")}, 422, "id"),
    ("x" * 33, {"sheet": sheet("x" * 33)}, 422, "id"),
    ("ok1", {"sheet": sheet("other")}, 422, "sheet.id"),
    ("ok1", {"sheet": sheet("ok1", version=2)}, 422, "sheet.version"),
    ("ok1", {"sheet": sheet("ok1", names=["Ada"])}, 422, "sheet.names"),
    ("ok1", {"sheet": sheet("ok1", names=["Ada", 7])}, 422, "sheet.names"),
    ("ok1", {"sheet": sheet("ok1", names=["Ada", "x" * 41])}, 422, "sheet.names"),
    ("ok1", {"sheet": sheet("ok1", hands="many")}, 422, "sheet.hands"),
    ("ok1", {"sheet": sheet("ok1", hands=[1, 2])}, 422, "sheet.hands"),
    ("ok1", {"sheet": sheet("ok1", preset=None)}, 422, "sheet.preset"),
    ("ok1", {"sheet": sheet("ok1", pad="x" * (SHEET_BYTES + 1))}, 413, "sheet"),
    ("ok1", {"updated": -1, "sheet": sheet("ok1")}, 422, "updated"),
    ("ok1", {"updated": 10 ** 16, "sheet": sheet("ok1")}, 422, "updated"),
]


@pytest.mark.parametrize(("sheet_id", "body", "status", "field"), BAD)
def test_bad_input_names_the_field_and_stores_nothing(
        server: ServerProcess, sheet_id: str, body: dict[str, Any], status: int,
        field: str) -> None:
    auth = account(server)
    response = put(server, auth, sheet_id, {"updated": now_ms(), **body})
    assert response.status_code == status, response.text
    answer = response.json()
    assert answer["field"] == field and answer["detail"].startswith(field + ":"), answer
    assert listed(server, auth) == []


@pytest.mark.parametrize(("body", "named"), [
    ({"sheet": sheet("ok2")}, "updated"),
    ({"updated": "soon", "sheet": sheet("ok2")}, "updated"),
    ({"updated": True, "sheet": sheet("ok2")}, "updated"),
    ({"updated": 1}, "sheet"),
    ({"updated": 1, "sheet": [1]}, "sheet"),
    ({"updated": 1, "sheet": sheet("ok2"), "extra": 1}, "extra"),
])
def test_a_malformed_body_is_422_naming_the_field(server: ServerProcess, body: dict[str, Any],
                                                  named: str) -> None:
    auth = account(server)
    response = put(server, auth, "ok2", body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "bad_request" and named in response.json()["detail"]
    assert listed(server, auth) == []


def test_a_delete_with_a_bad_id_is_refused(server: ServerProcess) -> None:
    response = httpx.delete(f"{server.base}/api/me/scorepad/bad.id", headers=account(server))
    assert response.status_code == 422 and response.json()["field"] == "id"


def test_an_account_keeps_at_most_max_sheets(server: ServerProcess) -> None:
    auth = account(server)
    t = now_ms()
    with httpx.Client(base_url=server.base, headers=auth) as http:
        for n in range(MAX_SHEETS):
            ok = http.put(f"/api/me/scorepad/s{n}", json={"updated": t, "sheet": sheet(f"s{n}")})
            assert ok.status_code == 201, ok.text
        over = http.put("/api/me/scorepad/one_more",
                        json={"updated": t, "sheet": sheet("one_more")})
        assert over.status_code == 422, over.text
        assert over.json()["code"] == "too_many_sheets" and over.json()["field"] == "id"
        # a kept sheet may still change, and a deletion makes room
        assert http.put("/api/me/scorepad/s0", json={
            "updated": t + 1, "sheet": sheet("s0")}).status_code == 200
        assert http.delete("/api/me/scorepad/s1").json()["deleted"] is True
        assert http.put("/api/me/scorepad/one_more", json={
            "updated": t, "sheet": sheet("one_more")}).status_code == 201
        kept = http.get("/api/me/scorepad").json()["sheets"]
    assert len(kept) == MAX_SHEETS and "s1" not in {s["id"] for s in kept}
    assert len(json.dumps(kept)) < MAX_SHEETS * 1024  # the list stays small
