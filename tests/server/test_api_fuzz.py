"""Property-based fuzzing of the HTTP API from its own OpenAPI schema (Schemathesis), against
a real ``burraco serve`` process on a real SQLite file.

Every operation of ``/openapi.json`` is called with generated requests, valid and invalid,
as nobody, as a guest, as a logged-in account and with forged or garbage tokens; each
answer must be no server error (5xx), have a status and a content type the schema declares
for the operation, and match the declared schema of that status (every error is ``{code,
detail}``); an answer with a JSON body must have its shape declared.  The routes outside the
schema (the tournament pages and the club's phone links, the browser client's pages, its
files, ``/metrics``) are fuzzed with hypothesis (no 5xx), and a test walks the app's route
table so that no route escapes both.  ``FUZZ_EXAMPLES`` sets the examples per operation
(default 40); a run's figures are printed with ``-s``.

Refused requests changing nothing, and the account, pad, table, analysis and tournament
endpoints fuzzed against real targets: ``test_api_fuzz_stateful.py``.
"""

from __future__ import annotations

import collections
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import schemathesis
from fastapi import FastAPI
from harness import ServerProcess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
calls: collections.Counter[str] = collections.Counter()
statuses: collections.Counter[int] = collections.Counter()
identities: collections.Counter[str] = collections.Counter()
PASSWORD = "fuzzing is fun 123"


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log", extra=[
        "--table-rate", "none", "--guest-rate", "none", "--waiting-tables-per-guest", "0"])
    process.start()
    yield process
    process.stop()
    api = {k: n for k, n in calls.items() if not k.startswith("page ")}
    pages = {k: n for k, n in calls.items() if k.startswith("page ")}
    print(f"\nSchemathesis: {sum(api.values())} requests, {len(OPERATIONS)} operations of the "
          f"schema ({len(api)} method and path pairs with the unsupported methods), as "
          f"{dict(sorted(identities.items()))}; pages: {sum(pages.values())} requests, "
          f"{len(pages)} routes; statuses {dict(sorted(statuses.items()))}")
    assert "Traceback" not in process.log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def guest_token(fuzz_server: ServerProcess) -> str:
    return fuzz_server.guest("Fuzz")


def register(server: ServerProcess, username: str) -> str:
    """A new account's session token (the harness's client keeps no cookie of it)."""
    response = server.http.post("/api/accounts", json={"username": username,
                                                       "password": PASSWORD})
    assert response.status_code == 201, response.text
    server.http.cookies.clear()
    return str(response.json()["token"])


def flip(token: str, at: int = -1) -> str:
    """``token`` with one character changed (a forged signature or secret)."""
    index = at % len(token)
    return token[:index] + ("A" if token[index] != "A" else "B") + token[index + 1:]


def forged_tokens(guest: str, session: str) -> list[str]:
    """Tokens a server must refuse: forged, of the wrong kind, unknown, malformed, huge."""
    prefix, session_id, _secret = session.split(".")
    return [flip(guest), "s" + guest[1:], guest.rsplit(".", 1)[0] + ".", flip(session),
            f"{prefix}.{session_id}.", f"{prefix}.AAAAAAAAAAAA.{_secret}", "a..", "a.x",
            "g.x.y.z", "Bearer", "A" * 600, "a." + "A" * 250, "null", "g.\u00e9\u00e8.x.y",
            ""]


@pytest.fixture(scope="module")
def tokens(fuzz_server: ServerProcess, guest_token: str) -> dict[str, list[str]]:
    """The identities the operations are called as: ``none``, ``guest``, ``account``, ``forged``
    (a list each, taken in turn)."""
    account = register(fuzz_server, "fuzzaccount")
    return {"none": [], "guest": [guest_token], "account": [account],
            "forged": forged_tokens(guest_token, account)}


def build_app() -> FastAPI:
    """The server's app, built in-process (nothing is started)."""
    from burraco.app.asgi import create_app
    from burraco.infra.config import ServerConfig

    return create_app(ServerConfig(db_url="sqlite:///unused.db"))


APP = build_app()


def app_schema() -> dict[str, Any]:
    """The OpenAPI schema the server serves, built from the app itself (nothing is started).

    Loaded at collection, so every operation is a test case of its own; the test below checks
    that the running server serves this very schema.
    """
    return dict(APP.openapi())


OPENAPI = app_schema()
OPERATIONS = [(method.upper(), path) for path, ops in OPENAPI["paths"].items() for method in ops]
schema = schemathesis.openapi.from_dict(OPENAPI)
WHO = ("none", "guest", "account", "forged")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_in_its_documented_shape(case: Any, fuzz_server: ServerProcess,
                                                          tokens: dict[str, list[str]]) -> None:
    turn = sum(identities.values())
    who = WHO[turn % len(WHO)]
    token: str | None = None
    if tokens[who]:
        token = tokens[who][(turn // len(WHO)) % len(tokens[who])]
    if who == "account" and (case.method, case.path) == ("DELETE", "/api/sessions"):
        token = register(fuzz_server, f"gone{turn}")  # logs out a session of its own
    identities[who] += 1
    headers = {"authorization": f"Bearer {token}"} if token is not None else {}
    response = case.call_and_validate(base_url=fuzz_server.base, headers=headers, checks=CHECKS,
                                      timeout=30)
    calls[f"{case.method} {case.path}"] += 1
    statuses[response.status_code] += 1
    if response.status_code >= 400 and case.path.startswith("/api/"):
        body = response.json()
        assert isinstance(body.get("code"), str) and isinstance(body.get("detail"), str), body
    declared = OPENAPI["paths"].get(case.path, {}).get(case.method.lower(), {}).get(
        "responses", {}).get(str(response.status_code))
    if declared is not None and "json" in response.headers.get("content-type", ""):
        assert "content" in declared, (
            f"{case.method} {case.path} answered {response.status_code} with a JSON body "
            f"whose shape the schema does not declare: {response.text[:300]}")


def test_the_schema_declares_every_api_route(fuzz_server: ServerProcess) -> None:
    """The fuzzing covers the API: every route of the app is in the OpenAPI schema."""
    served = httpx.get(f"{fuzz_server.base}/openapi.json").json()
    assert served == OPENAPI
    paths = served["paths"]
    for path in ("/api/guests", "/api/me", "/api/tables", "/api/tables/{table_id}",
                 "/api/tables/{table_id}/hands", "/api/web/options",
                 "/api/web/tables/{table_id}/seats/{seat}",
                 "/api/web/tables/{table_id}/hands/{number}/replay",
                 "/api/web/tables/{table_id}/hands/{number}/analysis",
                 "/api/accounts", "/api/sessions", "/api/me/password", "/api/me/scorepad",
                 "/api/me/scorepad/{sheet_id}", "/api/tournaments/{tid}/table-links",
                 "/api/tournaments/{tid}", "/api/pool", "/healthz"):
        assert path in paths, sorted(paths)
    for path, operations in paths.items():
        for method, operation in operations.items():
            assert {"401", "404", "413", "422", "429"} <= set(operation["responses"]), (
                method, path)


def test_every_declared_answer_has_its_shape() -> None:
    """Every answer the schema declares says its shape: a JSON body with a schema (an error's
    having ``code`` and ``detail``), so that a client, and the fuzzing's schema check,
    know what comes back; a 204 (``DELETE /api/pool``), which has no body, declares none."""
    components = OPENAPI["components"]["schemas"]

    def an_error(schema: dict[str, Any]) -> bool:
        """``ErrorBody``, or a body that adds fields to its ``code`` and ``detail``."""
        ref = schema.get("$ref", "")
        body = components.get(ref.rsplit("/", 1)[-1], {}) if ref else schema
        return {"code", "detail"} <= set(body.get("required", ()))

    missing = []
    for path, operations in OPENAPI["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status == "204":
                    if "content" in answer:
                        missing.append(f"{method.upper()} {path} 204 declares a body")
                    continue
                found = answer.get("content", {}).get("application/json", {}).get("schema")
                if found is None or (int(status) >= 400 and not an_error(found)):
                    missing.append(f"{method.upper()} {path} {status}: {answer}")
    assert not missing, "answers declared without their shape:\n" + "\n".join(missing)


# --- the routes outside the schema --------------------------------------------------------------

def routes_of(app: FastAPI) -> set[tuple[str, str]]:
    """Every ``(method, path)`` ``app`` routes, its included routers' too; a WebSocket route is
    ``("WS", path)``, a mount serving files ``("MOUNT", path)``."""
    from starlette.routing import Mount, WebSocketRoute

    found: set[tuple[str, str]] = set()

    def walk(routes: list[Any], prefix: str) -> None:
        for route in routes:
            contexts = getattr(route, "effective_route_contexts", None)
            if contexts is not None:  # an included router, as FastAPI keeps it
                walk(list(contexts()), prefix)
                continue
            original = getattr(route, "original_route", route)
            path = prefix + str(getattr(route, "path", "") or "")
            if isinstance(original, Mount):
                inner = list(getattr(original, "routes", None) or [])
                if inner:
                    walk(inner, path)
                else:
                    found.add(("MOUNT", path or "/"))
            elif isinstance(original, WebSocketRoute):
                found.add(("WS", path))
            else:
                found.update((method, path) for method in getattr(route, "methods", None) or ())

    walk(list(app.routes), "")
    return found


PAGE_ROUTES = [
    ("GET", "/tournaments/"), ("GET", "/tournaments/login"), ("GET", "/tournaments/{tid}/"),
    ("GET", "/tournaments/style.css"), ("GET", "/tournaments/clock.js"),
    ("GET", "/tournaments/{tid}/standings"), ("GET", "/tournaments/{tid}/print"),
    ("GET", "/tournaments/{tid}/standings.csv"), ("GET", "/tournaments/{tid}/results.csv"),
    ("POST", "/tournaments/"), ("POST", "/tournaments/{tid}/pairs"),
    ("POST", "/tournaments/{tid}/rounds"), ("POST", "/tournaments/{tid}/results"),
    ("POST", "/tournaments/{tid}/online"),
    ("GET", "/tournaments/{tid}/screen"), ("GET", "/tournaments/{tid}/screen.json"),
    ("GET", "/tournaments/{tid}/table/{token}"), ("POST", "/tournaments/{tid}/table/{token}"),
    ("POST", "/tournaments/{tid}/clock"), ("POST", "/tournaments/{tid}/clock/time"),
    ("GET", "/tournaments/{tid}/pdf/{kind}"), ("POST", "/tournaments/{tid}/withdraw"),
    ("POST", "/tournaments/{tid}/penalties"), ("POST", "/tournaments/{tid}/line-rankings"),
    ("POST", "/tournaments/{tid}/prizes"), ("POST", "/tournaments/{tid}/members"),
    ("POST", "/tournaments/members"), ("POST", "/tournaments/{tid}/online-club"),
    ("POST", "/tournaments/{tid}/late"), ("POST", "/tournaments/{tid}/absent"),
    ("POST", "/tournaments/{tid}/remove"), ("POST", "/tournaments/{tid}/undo-round"),
    ("POST", "/tournaments/{tid}/rename"), ("POST", "/tournaments/{tid}/arbitral"),
    ("GET", "/tournaments/{tid}/register"), ("POST", "/tournaments/{tid}/register/terms"),
    ("POST", "/tournaments/{tid}/register/players"),
    ("POST", "/tournaments/{tid}/register/card"), ("GET", "/tournaments/{tid}/federation.csv"),
    ("GET", "/tournaments/{tid}/federation.json"),
    ("GET", "/tournaments/clock-warning.js"), ("GET", "/tournaments/{tid}/evening/{token}"),
    ("GET", "/tournaments/{tid}/wall"),
]
"""The tournament pages (HTML for people, and two small JSON answers): fuzzed below."""
CLIENT_ROUTES = [
    ("GET", "/"), ("GET", "/help"), ("GET", "/rules"), ("GET", "/play/{rest:path}"),
    ("GET", "/replay/{rest:path}"), ("GET", "/pad/{rest:path}"), ("GET", "/help/{rest:path}"),
    ("GET", "/rules/{rest:path}"), ("GET", "/players/{rest:path}"), ("GET", "/leaderboard"),
    ("GET", "/friends"), ("GET", "/clubs"), ("GET", "/clubs/{rest:path}"),
    ("GET", "/events"), ("GET", "/events/{rest:path}"), ("GET", "/recover"), ("GET", "/privacy"),
    ("GET", "/account"), ("GET", "/mod"),
    ("GET", "/metrics"), ("GET", "/openapi.json"), ("HEAD", "/openapi.json"), ("MOUNT", "/"),
]
"""The browser client's pages and files, the metrics and the schema itself: fuzzed below."""
FUZZED_ELSEWHERE = {("WS", "/ws/tables/{table_id}"): "test_server_ws_fuzz.py"}
"""Routes another module fuzzes (the WebSocket protocol's own fuzzing)."""
OPTIONAL_ROUTES = {("MOUNT", "/")}
"""Routes the app has only in some settings (the files: once the client is built)."""


def test_every_route_of_the_app_is_fuzzed() -> None:
    """No route escapes the fuzzing: each is an operation of the schema (Schemathesis) or is in
    a list of routes fuzzed here or elsewhere; a new route fails this until it is."""
    routes = routes_of(APP)
    in_schema = set(OPERATIONS)
    listed = set(PAGE_ROUTES) | set(CLIENT_ROUTES) | set(FUZZED_ELSEWHERE)
    assert len(routes) > len(in_schema) + 20, sorted(routes)  # the walk found the routers'
    escaped = routes - in_schema - listed
    assert not escaped, ("routes neither in the OpenAPI schema nor in a fuzz list (add them to "
                         f"PAGE_ROUTES or CLIENT_ROUTES, with what to send): {sorted(escaped)}")
    assert in_schema <= routes, sorted(in_schema - routes)
    assert not (listed - OPTIONAL_ROUTES) - routes, sorted(listed - routes)  # no stale entry
    assert not listed & in_schema, sorted(listed & in_schema)
    for module in FUZZED_ELSEWHERE.values():
        assert (Path(__file__).parent / module).is_file(), module


def test_the_route_walk_finds_a_hidden_route() -> None:
    """The walk above sees what a new route would be: left out of the schema, in an included
    router under a prefix, or added to the app directly."""
    from fastapi import APIRouter

    async def hidden() -> None:
        return None

    app = build_app()
    router = APIRouter()
    router.add_api_route("/hidden/{x}", hidden, methods=["POST"], include_in_schema=False)
    app.include_router(router, prefix="/inside")
    app.add_api_route("/also-hidden", hidden, methods=["PUT"], include_in_schema=False)
    found = routes_of(app) - set(OPERATIONS) - set(PAGE_ROUTES) - set(CLIENT_ROUTES)
    assert {("POST", "/inside/hidden/{x}"), ("PUT", "/also-hidden")} <= found, sorted(found)


FORM_FIELDS = ["name", "schedule", "hands", "kind", "duplicate", "vp_table", "tie_breaks",
               "pairs", "round", "table", "ns_mp", "ew_mp", "hands_detail", "bots", "key",
               "refresh", "bot_delay", "seating", "seed", "minutes", "lang", "h1_ns", "h1_ew",
               "h2_ns", "h2_ew", "h3_ns", "h3_ew", "pair", "mode", "vp", "mp", "reason", "on",
               "prizes", "number", "category", "account", "level", "correct", "r1_home",
               "r1_away", "r2_home", "r2_away", "ns_vp", "ew_vp", "players", "fee",
               "dinner_price", "club", "date", "member", "card", "type", "row-1-1",
               "member-1-1", "card-1-1", "type-1-1", "paid-1-1", "amount-1-1", "dinner-1-1"]
PAPER = ["table-cards", "seats", "score-sheets", "round", "standings", "deals"]


@pytest.fixture(scope="module")
def tournament_id(fuzz_server: ServerProcess) -> str:
    http = fuzz_server.http
    created = http.post("/tournaments/", data={"name": "Fuzz", "schedule": "mitchell:2",
                                               "duplicate": "1"}, follow_redirects=False)
    assert created.status_code == 303, created.text
    tid = created.headers["location"].strip("/").split("/")[1]
    http.post(f"/tournaments/{tid}/pairs", data={"pairs": "A\nB\nC\nD"})
    http.post(f"/tournaments/{tid}/rounds")
    return tid


def link_tokens(server: ServerProcess, tid: str) -> list[str]:
    """The phone links' tokens of the current round, and near-valid forgeries of them."""
    tables = server.http.get(f"/api/tournaments/{tid}/table-links").json()["tables"]
    real = [str(row[side]).rsplit("/", 1)[1] for row in tables for side in ("ns", "ew")]
    near = []
    for token in real[:2]:
        number, table, side, signature = token.split("-", 3)
        near += [flip(token), token[:-1], token + "A", token.upper(),
                 f"{number}-{table}-{'ew' if side == 'ns' else 'ns'}-{signature}",
                 f"{int(number) + 1}-{table}-{side}-{signature}",
                 f"{number}-{int(table) + 1}-{side}-{signature}",
                 f"0{number}-{table}-{side}-{signature}", f"{number}-{table}-{side}",
                 f"{number}-{table}-{side}-{signature}-x", f"-{number}-{table}-{side}-{signature}",
                 f"{'9' * 40}-{table}-{side}-{signature}", f"{number}-{table}-NS-{signature}"]
    return real + near


def test_the_tournament_pages_never_fail(fuzz_server: ServerProcess, tournament_id: str) -> None:
    texts = st.text(max_size=40) | st.sampled_from(["1", "0", "-1", "9" * 30, "1200", "", "2",
                                                    "byes", "reseat", "overall:3,NS:1", "5"])
    links = link_tokens(fuzz_server, tournament_id)
    names = st.text(st.characters(codec="utf-8", exclude_characters="/?#"), min_size=1,
                    max_size=20)

    def one(route: tuple[str, str], tid: str, token: str, kind: str,
            form: dict[str, str]) -> None:
        method, template = route
        path = template.replace("{tid}", quote(tid, safe="")).replace(
            "{token}", quote(token, safe="")).replace("{kind}", quote(kind, safe=""))
        response = fuzz_server.http.request(
            method, path, data=form if method == "POST" else None,
            params=form if method == "GET" else None, follow_redirects=False)
        fuzz_server.http.cookies.clear()
        calls[f"page {method} {template}"] += 1
        statuses[response.status_code] += 1
        assert response.status_code < 500, (method, path, form, response.text[:300])

    for route in PAGE_ROUTES:  # each route once, plainly, before the fuzzing proper
        one(route, tournament_id, links[0], PAPER[0], {})

    @given(route=st.sampled_from(PAGE_ROUTES),
           tid=st.sampled_from([tournament_id, "0", "nope"]) | names,
           token=st.sampled_from(links) | names, kind=st.sampled_from([*PAPER, "x"]) | names,
           form=st.dictionaries(st.sampled_from(FORM_FIELDS), texts, max_size=6))
    @settings(max_examples=EXAMPLES * 8, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(route: tuple[str, str], tid: str, token: str, kind: str,
             form: dict[str, str]) -> None:
        one(route, tid, token, kind, form)

    fuzz()


RESTS = ["", "x", "1", "index.html", "sw.js", "manifest.webmanifest", "assets", "assets/",
         "../../pyproject.toml", "..%2f..%2fpyproject.toml", "%2e%2e/%2e%2e/pyproject.toml",
         "a/b/c", "%00", "%ff", "x" * 300, "cards/", ".env", "//etc/passwd", "?x=1"]


def test_the_client_pages_never_fail(fuzz_server: ServerProcess) -> None:
    """The client's pages and files, ``/metrics`` and ``/openapi.json``: never a 5xx (but the
    page saying the client is not built), and no file from outside the client's folder."""
    def one(route: tuple[str, str], rest: str, method: str, query: dict[str, str]) -> None:
        kind, template = route
        if kind == "MOUNT":
            path = "/" + rest
        else:
            path = template.replace("{rest:path}", rest)
            method = kind if method != "POST" else method
        response = fuzz_server.http.request(method, path, params=query,
                                            follow_redirects=False)
        fuzz_server.http.cookies.clear()
        calls[f"page {kind} {template}"] += 1
        statuses[response.status_code] += 1
        assert response.status_code < 500 or "not built" in response.text, (
            method, path, response.status_code, response.text[:300])
        assert "[tool.ruff]" not in response.text and "root:x:" not in response.text, path

    for route in CLIENT_ROUTES:
        one(route, "", "GET", {})

    rests = st.sampled_from(RESTS) | st.text(
        st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30).map(
        lambda text: quote(text, safe="/"))
    texts = st.text(max_size=20)

    @given(route=st.sampled_from(CLIENT_ROUTES), rest=rests,
           method=st.sampled_from(["GET", "GET", "HEAD", "POST"]),
           query=st.dictionaries(texts, texts, max_size=3))
    @settings(max_examples=EXAMPLES * 3, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(route: tuple[str, str], rest: str, method: str, query: dict[str, str]) -> None:
        one(route, rest, method, query)

    fuzz()
