"""A session that ends stops at once on every process, with the WebSockets opened with it.

Over real HTTP and WebSockets against real ``burraco serve`` processes: one process on SQLite,
and two on one PostgreSQL and Redis (the cluster tests skip, saying why, without them).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_harness import cluster, postgres_database
from harness import Client, ServerProcess
from players_harness import bearer, register
from websockets.exceptions import ConnectionClosed

PASSWORD = "correct horse"


def login(base: str, username: str, password: str = PASSWORD) -> str:
    answer = httpx.post(f"{base}/api/sessions", json={"username": username, "password": password})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def me(base: str, token: str) -> int:
    return httpx.get(f"{base}/api/me", headers=bearer(token)).status_code


def soon(check: Any, timeout: float = 2.0) -> bool:
    """``check()`` became true within ``timeout`` seconds (a message between processes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())


async def closed_code(client: Client, timeout: float = 5.0) -> int | None:
    """Read until the server closes the connection; its close code (None: still open)."""
    try:
        while True:
            await client.recv(timeout)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else 1006
    except TimeoutError:
        return None


async def seated(base_server: ServerProcess, table: dict[str, Any], session: str) -> Client:
    client = Client(base_server, table, 0, guest=session)
    first = await client.connect()
    assert first["t"] == "hello_ok", first
    await client.until(lambda f: f.get("t") == "sync")
    return client


def test_a_password_change_closes_the_sockets_of_the_sessions_it_ends(
        server: ServerProcess) -> None:
    """The audit's finding 6 on one process: the socket opened with the session that a
    password change ends is closed (4401), and an act sent on it after is never acked."""
    register(server, "Olga", PASSWORD)
    keeper, doomed = login(server.base, "Olga"), login(server.base, "Olga")
    table = server.create_table(doomed, players=2, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"}], bot_delay=0)

    async def main() -> None:
        client = await seated(server, table, doomed)
        changed = await asyncio.to_thread(
            httpx.post, f"{server.base}/api/me/password", headers=bearer(keeper),
            json={"current_password": PASSWORD, "new_password": "another horse"})
        assert changed.status_code == 200, changed.text
        # the server may close before the send lands, or just after
        with contextlib.suppress(ConnectionClosed):
            await client.send_raw(json.dumps({"t": "act", "id": "late", "v": client.version,
                                              "action": "draw"}))
        code = await closed_code(client)
        assert code == 4401, f"still open after the password change (code {code})"
        assert client.ws is not None and client.ws.close_code == 4401
        assert not any(f.get("t") == "ack" and f.get("id") == "late" for _, f in client.frames)

    asyncio.run(main())
    assert me(server.base, doomed) == 401 and me(server.base, keeper) == 200


def test_logout_closes_the_sockets_opened_with_the_session(server: ServerProcess) -> None:
    token = register(server, "Pietro", PASSWORD)["token"]
    table = server.create_table(token, players=2, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"}])

    async def main() -> None:
        client = await seated(server, table, token)
        out = await asyncio.to_thread(httpx.delete, f"{server.base}/api/sessions",
                                      headers=bearer(token))
        assert out.status_code == 200
        assert await closed_code(client) == 4401

    asyncio.run(main())


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def test_logout_and_password_change_end_sessions_on_every_process(
        tmp_path: Path, db_url: str) -> None:
    """The audit's finding 1: two processes on one PostgreSQL and Redis; sessions used on B,
    ended on A, are refused on B at once, and B closes the sockets opened with them."""
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        register(a, "Quirino", PASSWORD)
        s1, s2, s3 = (login(a.base, "Quirino") for _ in range(3))
        assert me(b.base, s1) == 200 and me(b.base, s2) == 200  # B caches both
        table = b.create_table(s2, players=2, seats=[
            {"kind": "human"}, {"kind": "bot", "level": "basic"}])

        async def main() -> None:
            on_b = await seated(b, table, s2)
            out = await asyncio.to_thread(httpx.delete, f"{a.base}/api/sessions",
                                          headers=bearer(s1))
            assert out.status_code == 200
            assert me(a.base, s1) == 401
            assert await asyncio.to_thread(soon, lambda: me(b.base, s1) == 401)
            create = await asyncio.to_thread(
                httpx.post, f"{b.base}/api/tables", json={"players": 2},
                headers=bearer(s1))
            assert create.status_code == 401, create.text
            changed = await asyncio.to_thread(
                httpx.post, f"{a.base}/api/me/password", headers=bearer(s3),
                json={"current_password": PASSWORD, "new_password": "another horse"})
            assert changed.status_code == 200, changed.text
            assert await closed_code(on_b) == 4401  # the socket on B, opened with s2
            assert await asyncio.to_thread(soon, lambda: me(b.base, s2) == 401)
            assert me(b.base, s3) == 200 and me(a.base, s3) == 200

        asyncio.run(main())
