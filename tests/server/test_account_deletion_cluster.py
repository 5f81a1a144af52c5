"""Leaving in a cluster: two ``burraco serve`` processes on one PostgreSQL and Redis.  An
account deleted on A stops at once on B (its token refused, the WebSocket opened there with
it closed), its export taken on B has its rows, and afterwards no row of the database names
it but the held name.  Skips, saying why, without PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_harness import cluster, postgres_database
from harness import Client
from players_harness import bearer, register
from websockets.exceptions import ConnectionClosed

from burraco.accounts.erasure import KEPT
from burraco.infra.db import make_engine
from burraco.infra.scrub import reflected, rows_naming

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def naming(db_url: str, *needles: str) -> dict[str, list[dict[str, Any]]]:
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            return rows_naming(conn, reflected(conn), needles)
    finally:
        engine.dispose()


def status(base: str, token: str, path: str = "/api/me") -> int:
    return httpx.get(f"{base}{path}", headers=bearer(token)).status_code


def test_a_deleted_account_stops_at_once_on_every_process(tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        leaver = register(a, "Goner1", PASSWORD)
        host = register(b, "Host1", PASSWORD)
        pid, token = leaver["player_id"], leaver["token"]
        assert httpx.put(f"{b.base}/api/me/following/Host1",
                         headers=bearer(token)).status_code == 200
        assert status(b.base, token) == 200  # B has the session cached
        exported = httpx.get(f"{b.base}/api/me/export", headers=bearer(token))
        assert exported.status_code == 200, exported.text
        tables = exported.json()["tables"]
        assert tables["follows"] == [{"follower": pid, "followed": host["player_id"],
                                      "since": tables["follows"][0]["since"]}]
        assert set(naming(db_url, pid)) - {"sessions"} <= set(tables)
        table = b.create_table(host["token"], players=2, seats=[
            {"kind": "human"}, {"kind": "bot", "level": "basic"}])

        async def main() -> int | None:
            watcher = Client(b, table, None, guest=token)  # the session's socket is on B
            hello = await watcher.connect()
            assert hello["t"] == "hello_ok", hello
            await watcher.until(lambda f: f.get("t") == "sync")
            gone = await asyncio.to_thread(httpx.request, "DELETE", f"{a.base}/api/me",
                                           headers=bearer(token), json={"password": PASSWORD})
            assert gone.status_code == 200 and gone.json() == {"deleted": True}, gone.text
            started = time.monotonic()
            try:
                while True:
                    await watcher.recv(5)
            except ConnectionClosed as exc:
                assert time.monotonic() - started < 2
                return exc.rcvd.code if exc.rcvd is not None else None

        assert asyncio.run(main()) == 4401
        assert status(a.base, token) == 401 and status(b.base, token) == 401
        refused = httpx.post(f"{b.base}/api/tables", json={"players": 2}, headers=bearer(token))
        assert refused.status_code == 401
        assert status(b.base, token, "/api/me/export") == 401
        left = naming(db_url, pid, "Goner1")
        assert set(left) <= KEPT and "Goner1" not in json.dumps(left), left
        taken = httpx.post(f"{b.base}/api/accounts",
                           json={"username": "goner1", "password": PASSWORD})
        assert taken.status_code == 409 and taken.json()["code"] == "username_taken"
        circle = httpx.get(f"{a.base}/api/me/friends", headers=bearer(host["token"])).json()
        assert not any(circle.values())
