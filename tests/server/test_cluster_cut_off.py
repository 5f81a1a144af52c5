"""A process whose link to Redis is cut says so and sends its clients elsewhere.

The audit's finding 8: two processes on one PostgreSQL and Redis, one of them reaching Redis
through a relay that drops every connection for a few seconds.  While it cannot reach Redis
it answers ``/healthz`` and every request that needs Redis 503 with ``Retry-After`` (never
500), and closes its WebSockets with 1012 so that the clients reconnect to the other
process, which has taken the table over; once Redis answers again it serves again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_harness import Cluster, Relay, postgres_database, redis_prefix, urls
from harness import Client
from websockets.exceptions import ConnectionClosed


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} within {timeout} s"
        time.sleep(0.1)


async def closed_with(client: Client, timeout: float) -> int | None:
    try:
        while True:
            await client.recv(timeout)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else 1006
    except TimeoutError:
        return None


def test_a_process_cut_off_from_redis_answers_503_and_sends_its_clients_away(
        tmp_path: Path, db_url: str) -> None:
    _, redis_url = urls()
    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    relay = Relay(port).start()
    with redis_prefix(redis_url) as prefix:
        group = Cluster(db_url, redis_url, prefix, tmp_path)
        try:
            a = group.add(redis_url=relay.url)
            b = group.add()
            ada, bob = a.guest("Ada"), a.guest("Bob")
            table = a.create_table(ada, players=2, seats=[{"kind": "human"},
                                                          {"kind": "human"}])

            async def main() -> None:
                seat = Client(a, table, 0, guest=ada)
                watcher = Client(a, table, None)
                for client in (seat, watcher):
                    assert (await client.connect())["t"] == "hello_ok"
                relay.cut()
                codes = await asyncio.gather(closed_with(seat, 15), closed_with(watcher, 15))
                assert codes == [1012, 1012], codes
                health = await asyncio.to_thread(a.http.get, "/healthz")
                assert health.status_code == 503 and int(health.headers["retry-after"]) >= 1
                assert health.json()["cluster"]["redis"] is False
                create = await asyncio.to_thread(
                    a.http.post, "/api/tables", json={"players": 2},
                    headers={"authorization": f"Bearer {bob}"})
                assert create.status_code == 503, create.text
                assert create.json()["code"] == "cluster_unavailable"
                assert int(create.headers["retry-after"]) >= 1
                # the clients go to the other process, which took the table over
                again = Client(b, table, 0, guest=ada)
                hello = await again.connect()
                assert hello["t"] == "hello_ok", hello
                other = Client(b, table, 1, guest=bob)
                assert (await other.connect())["t"] == "hello_ok"
                await again.until(lambda f: f.get("t") == "legal", timeout=20)
                for client in (again, other):
                    await client.close()

            asyncio.run(main())
            assert a.log().count("Traceback") == 0, a.log()[-3000:]
            relay.restore()
            wait_for(lambda: httpx.get(f"{a.base}/healthz", timeout=5).status_code == 200, 20,
                     "the process serves again once Redis answers")
        finally:
            group.stop()
            relay.stop()
