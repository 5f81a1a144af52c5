"""Property-based fuzzing of the HTTP API from its own OpenAPI schema (Schemathesis), against
a real ``burraco serve`` process on a real SQLite file.

Every operation of ``/openapi.json`` is called with generated requests, valid and invalid,
with and without a guest token; each answer must be no server error (5xx), have a status
and a content type the schema declares for the operation, and match the declared schema of
that status (every error is ``{code, detail}``).  ``FUZZ_EXAMPLES`` sets the examples per
operation (default 40); a run's figures are printed with ``-s``.
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
from harness import ServerProcess
from hypothesis import HealthCheck, settings
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
          f"schema ({len(api)} method and path pairs with the unsupported methods); pages: "
          f"{sum(pages.values())} requests, "
          f"{len(pages)} routes; statuses {dict(sorted(statuses.items()))}")
    assert "Traceback" not in process.log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def guest_token(fuzz_server: ServerProcess) -> str:
    return fuzz_server.guest("Fuzz")


def app_schema() -> dict[str, Any]:
    """The OpenAPI schema the server serves, built from the app itself (nothing is started).

    Loaded at collection, so every operation is a test case of its own; the test below checks
    that the running server serves this very schema.
    """
    from burraco.server.app import create_app
    from burraco.server.config import ServerConfig

    return dict(create_app(ServerConfig(db_url="sqlite:///unused.db")).openapi())


OPENAPI = app_schema()
OPERATIONS = [(method.upper(), path) for path, ops in OPENAPI["paths"].items() for method in ops]
schema = schemathesis.openapi.from_dict(OPENAPI)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_in_its_documented_shape(case: Any, fuzz_server: ServerProcess,
                                                          guest_token: str) -> None:
    headers = {"authorization": f"Bearer {guest_token}"} if len(calls) % 2 == 0 else {}
    response = case.call_and_validate(base_url=fuzz_server.base, headers=headers, checks=CHECKS,
                                      timeout=30)
    calls[f"{case.method} {case.path}"] += 1
    statuses[response.status_code] += 1
    if response.status_code >= 400 and case.path.startswith("/api/"):
        body = response.json()
        assert isinstance(body.get("code"), str) and isinstance(body.get("detail"), str), body


def test_the_schema_declares_every_api_route(fuzz_server: ServerProcess) -> None:
    """The fuzzing covers the API: every route of the app is in the OpenAPI schema."""
    served = httpx.get(f"{fuzz_server.base}/openapi.json").json()
    assert served == OPENAPI
    paths = served["paths"]
    for path in ("/api/guests", "/api/me", "/api/tables", "/api/tables/{table_id}",
                 "/api/tables/{table_id}/hands", "/api/web/options",
                 "/api/web/tables/{table_id}/seats/{seat}",
                 "/api/web/tables/{table_id}/hands/{number}/replay",
                 "/api/tournaments/{tid}", "/healthz"):
        assert path in paths, sorted(paths)
    for path, operations in paths.items():
        for method, operation in operations.items():
            assert {"401", "404", "413", "422", "429"} <= set(operation["responses"]), (
                method, path)


# --- the tournament pages (HTML for people: not in the schema, fuzzed here) ---------------------

PAGE_ROUTES = [
    ("GET", "/tournaments/"), ("GET", "/tournaments/login"), ("GET", "/tournaments/{tid}/"),
    ("GET", "/tournaments/{tid}/standings"), ("GET", "/tournaments/{tid}/print"),
    ("GET", "/tournaments/{tid}/standings.csv"), ("GET", "/tournaments/{tid}/results.csv"),
    ("POST", "/tournaments/"), ("POST", "/tournaments/{tid}/pairs"),
    ("POST", "/tournaments/{tid}/rounds"), ("POST", "/tournaments/{tid}/results"),
    ("POST", "/tournaments/{tid}/online"),
    ("GET", "/tournaments/{tid}/screen"), ("GET", "/tournaments/{tid}/screen.json"),
    ("GET", "/tournaments/{tid}/table/1-1-ns-AAAAAAAAAAAAAAAAAAAAAA"),
    ("POST", "/tournaments/{tid}/table/1-1-ew-AAAAAAAAAAAAAAAAAAAAAA"),
    ("POST", "/tournaments/{tid}/clock"), ("POST", "/tournaments/{tid}/clock/time"),
]
FORM_FIELDS = ["name", "schedule", "hands", "kind", "duplicate", "vp_table", "tie_breaks",
               "pairs", "round", "table", "ns_mp", "ew_mp", "hands_detail", "bots", "key",
               "refresh", "bot_delay", "seating", "seed", "minutes", "lang", "h1_ns", "h1_ew"]


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


def test_the_tournament_pages_never_fail(fuzz_server: ServerProcess, tournament_id: str) -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    texts = st.text(max_size=40) | st.sampled_from(["1", "0", "-1", "9" * 30, "1200", ""])

    @given(route=st.sampled_from(PAGE_ROUTES),
           tid=st.sampled_from([tournament_id, "0", "nope"]) | st.text(
               st.characters(codec="utf-8", exclude_characters="/?#"), min_size=1,
               max_size=20),
           form=st.dictionaries(st.sampled_from(FORM_FIELDS), texts, max_size=6))
    @settings(max_examples=EXAMPLES * 6, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def one(route: tuple[str, str], tid: str, form: dict[str, str]) -> None:
        method, template = route
        path = template.replace("{tid}", quote(tid, safe=""))
        response = fuzz_server.http.request(
            method, path, data=form if method == "POST" else None,
            params=form if method == "GET" else None, follow_redirects=False)
        calls[f"page {method} {template}"] += 1
        statuses[response.status_code] += 1
        assert response.status_code < 500, (method, path, form, response.text[:300])

    one()
