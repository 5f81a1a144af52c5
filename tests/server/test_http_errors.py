"""Error answers and hardening of a real ``burraco serve`` over real HTTP: every error in the
``{code, detail}`` shape (bodies nested too deep, integers too long, bad JSON, unknown paths and
methods), strict body types, non-ASCII tokens and director keys, a duplicate round's results
in the JSON, CSV cells that would run as formulas, and the security headers of the pages.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess

KEY = "s3cret-key"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose tournament pages are locked by a director key."""
    folder: Path = tmp_path_factory.mktemp("errors")
    saved = os.environ.get("BURRACO_DIRECTOR_KEY")
    os.environ["BURRACO_DIRECTOR_KEY"] = KEY
    try:
        process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
        process.start()
    finally:
        if saved is None:
            del os.environ["BURRACO_DIRECTOR_KEY"]
        else:
            os.environ["BURRACO_DIRECTOR_KEY"] = saved
    yield process
    process.stop()


def shaped(response: httpx.Response, status: int | tuple[int, ...]) -> dict[str, Any]:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"code", "detail"}, body
    assert isinstance(body["code"], str) and body["code"], body
    assert isinstance(body["detail"], str) and body["detail"], body
    return dict(body)


def post_raw(server: ServerProcess, path: str, content: bytes | str,
             **headers: str) -> httpx.Response:
    return server.http.post(path, content=content,
                            headers={"content-type": "application/json", **headers})


# --- item 10: every error in the documented shape -----------------------------------------------

def test_bodies_that_do_not_read_as_json_answer_with_a_code(server: ServerProcess) -> None:
    guest = server.guest()
    auth = {"authorization": f"Bearer {guest}"}
    for path in ("/api/guests", "/api/tables"):
        for body in ("[" * 30_000, '{"nickname": ' + "9" * 5000 + "}",
                     '{"players": 1' + "0" * 5000 + "}", '{"nickname": "Ada"', "\xff\xfe",
                     "", "null", '"text"', "[1, 2]", '{"nickname": NaN}'):
            response = post_raw(server, path, body, **auth)
            answer = shaped(response, (400, 422))
            assert answer["code"] in ("bad_json", "bad_request"), answer
            assert (answer["code"] == "bad_json") == (response.status_code == 400), answer
    assert server.http.get("/healthz").status_code == 200


def test_unknown_paths_and_methods_answer_with_a_code(server: ServerProcess) -> None:
    assert shaped(server.http.get("/api/nothing-here"), 404)["code"] == "not_found"
    assert shaped(server.http.get("/api/tables/nope"), 404)["code"] == "table_not_found"
    wrong = server.http.delete("/api/tables")
    assert shaped(wrong, 405)["code"] == "method_not_allowed"
    assert "GET" in wrong.headers["allow"]
    query = server.http.get("/api/web/tables/x/hands/first/replay")
    assert shaped(query, 422)["code"] == "bad_request"
    assert "number" in query.json()["detail"]


def test_a_missing_or_non_ascii_token_is_401(server: ServerProcess) -> None:
    assert shaped(server.http.get("/api/me"), 401)["code"] == "guest_required"
    for token in ("g.abc.QWRh.é", "g.é.é.é", "\u00e9" * 40):
        answer = server.http.get("/api/me", headers={
            "authorization": f"Bearer {token}".encode()})  # type: ignore[dict-item]
        assert shaped(answer, 401)["code"] == "bad_token"
        cookie = server.http.get("/api/me", headers={
            "cookie": f"burraco_guest={token}".encode()})  # type: ignore[dict-item]
        assert shaped(cookie, 401)["code"] == "bad_token"
    lone = post_raw(server, "/api/tables", '{"players": 2}',
                    authorization="Bearer g.\\ud800")
    shaped(lone, 401)


# --- item 11: strict types ---------------------------------------------------------------------

@pytest.mark.parametrize(("field", "value"), [
    ("public", "yes"), ("casual", 1), ("players", "4"), ("players", 4.0), ("players", True),
    ("bot_delay", "1"), ("turn_seconds", "30"), ("target", "505"), ("mode", 1),
    ("seats", {"kind": "bot"}), ("rules", ["fibur"]), ("creator_seat", "0"),
    ("options", []), ("standin", 3), ("rules", "x" * 1000), ("seats", [{"kind": "bot"}] * 7),
])
def test_body_fields_have_strict_types(server: ServerProcess, field: str, value: Any) -> None:
    guest = server.guest()
    answer = server.http.post("/api/tables", json={field: value},
                              headers={"authorization": f"Bearer {guest}"})
    body = shaped(answer, 422)
    assert body["code"] == "bad_request" and body["detail"].startswith(field), body


def test_a_nickname_of_the_wrong_type_or_size_is_refused(server: ServerProcess) -> None:
    for value in (5, None, ["Ada"], "x" * 10_000):
        shaped(server.http.post("/api/guests", json={"nickname": value}), 422)


# --- item 8: a director key that is not ASCII ---------------------------------------------------

@contextlib.contextmanager
def director(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as client:
        client.get("/tournaments/login", params={"key": KEY})
        assert client.cookies.get("burraco_director") == KEY
        yield client


def make_duplicate_round(server: ServerProcess) -> str:
    with director(server) as client:
        created = client.post("/tournaments/", data={
            "name": "=HYPERLINK(\"x\")", "schedule": "mitchell:2", "duplicate": "1"},
            follow_redirects=False)
        assert created.status_code == 303, created.text
        tid = created.headers["location"].strip("/").split("/")[1]
        pairs = "=cmd|' /C calc'!A0\n+Bob\n-Carl\n@Dora"
        assert client.post(f"/tournaments/{tid}/pairs", data={"pairs": pairs}).status_code == 303
        assert client.post(f"/tournaments/{tid}/rounds").status_code == 303
        entered = client.post(f"/tournaments/{tid}/results", data={
            "round": "1", "table": "1", "ns_mp": "1200", "ew_mp": "900"})
        assert entered.status_code == 303, entered.text
    return tid


def test_a_non_ascii_director_cookie_is_refused_not_a_crash(server: ServerProcess) -> None:
    tid = make_duplicate_round(server)
    for key in ("s3cret-kéy", "ключ", "\u00ff" * 10):
        headers = {"cookie": f"burraco_director={key}".encode()}
        page = server.http.get(f"/tournaments/{tid}/", headers=headers)  # type: ignore[arg-type]
        assert page.status_code == 403, page.status_code
        result = server.http.post(f"/tournaments/{tid}/results", headers=headers,  # type: ignore[arg-type]
                                  data={"round": "1", "table": "2", "ns_mp": "1",
                                        "ew_mp": "2"})
        assert result.status_code in (401, 403), result.status_code
        api = server.http.get(f"/api/tournaments/{tid}", headers={
            "x-director-key": key.encode()})  # type: ignore[dict-item]
        assert api.status_code == 200 and api.json()["results"] == []


def test_a_wrong_or_non_ascii_key_at_login_sets_no_cookie(server: ServerProcess) -> None:
    for key in ("wrong", "Ā", "ключ", "s3cret-key\u00e9", ""):
        with httpx.Client(base_url=server.base, timeout=30) as client:
            answer = client.get("/tournaments/login", params={"key": key},
                                follow_redirects=False)
            assert answer.status_code == 403, (key, answer.status_code)
            assert "burraco_director" not in client.cookies


# --- item 11: a duplicate round's results, CSV cells ---------------------------------------------

def test_the_json_hides_a_running_duplicate_round_without_the_key(server: ServerProcess) -> None:
    tid = make_duplicate_round(server)
    open_json = server.http.get(f"/api/tournaments/{tid}").json()
    assert open_json["results"] == [], "a table still plays: its results are hidden"
    assert "1200" not in server.http.get(f"/tournaments/{tid}/results.csv").text
    keyed = server.http.get(f"/api/tournaments/{tid}", headers={"x-director-key": KEY})
    assert len(keyed.json()["results"]) == 1
    with director(server) as client:
        assert len(client.get(f"/api/tournaments/{tid}").json()["results"]) == 1


def test_csv_exports_escape_cells_that_would_run_as_formulas(server: ServerProcess) -> None:
    tid = make_duplicate_round(server)
    with director(server) as client:
        for name in ("standings.csv", "results.csv"):
            text = client.get(f"/tournaments/{tid}/{name}").text
            cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
            assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")
                        or (c.startswith("-") and not c.lstrip("-").replace(".", "").isdigit())
                        ], (name, text)
            assert any(c.startswith("'=cmd") or c.startswith("'+Bob") for c in cells), text


# --- item 11: security headers ------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/play/abc", "/replay/abc", "/tournaments/",
                                  "/api/tables", "/healthz"])
def test_pages_carry_the_security_headers(server: ServerProcess, path: str) -> None:
    headers = server.http.get(path).headers
    csp = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "default-src 'self'" in csp
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
