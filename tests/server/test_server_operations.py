"""Operating the server: ``/metrics``, ``serve --workers N`` and ``bench server --cluster N``.

Real processes throughout.  ``/metrics`` is checked on a single SQLite server; the
workers and the bench's cluster need the PostgreSQL and the Redis of
``BURRACO_TEST_POSTGRES_URL`` / ``BURRACO_TEST_REDIS_URL`` and are skipped, saying so,
when either is unset.  Each test that uses Redis uses a key prefix of its own and
deletes its keys afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import BURRACO, PG_ENV, ServerProcess, alive, free_port, postgres_schema
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

REDIS_ENV = "BURRACO_TEST_REDIS_URL"


def metric(text: str, name: str) -> float:
    """The value of the one sample of ``name`` in a Prometheus text exposition."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and not sample.labels:
                return float(sample.value)
    raise AssertionError(f"no sample {name!r} in:\n{text}")


def wait_for(condition: Any, what: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


# --- /metrics ------------------------------------------------------------------------------

def test_metrics_parse_and_count_real_websockets(server: ServerProcess, guest: str) -> None:
    response = server.http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    families = {family.name for family in text_string_to_metric_families(response.text)}
    assert {"burraco_connections", "burraco_tables_owned", "burraco_commands",
            "burraco_commit_seconds", "burraco_lease_renewals", "burraco_takeovers"} <= families
    before = metric(response.text, "burraco_connections")
    table = server.create_table(guest, players=2, seats=[{"kind": "human"}, {"kind": "bot"}])

    def connections() -> float:
        return metric(server.http.get("/metrics").text, "burraco_connections")

    async def scenario() -> None:
        sockets = []
        for _ in range(3):  # three watchers of a public table
            ws = await connect(server.ws_url(table["table_id"]))
            await ws.send(json.dumps({"t": "hello"}))
            assert json.loads(await ws.recv())["t"] == "hello_ok"
            sockets.append(ws)
        await asyncio.to_thread(wait_for, lambda: connections() == before + 3,
                                "three open connections counted")
        for ws in sockets:
            await ws.close()
        await asyncio.to_thread(wait_for, lambda: connections() == before,
                                "closed connections no longer counted")

    asyncio.run(scenario())


# --- serve --workers -----------------------------------------------------------------------

def test_workers_without_redis_are_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'burraco.db'}"
    done = subprocess.run([BURRACO, "serve", "--workers", "2", "--db", db,
                           "--port", str(free_port())], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "--workers 2 needs --redis" in done.stderr
    assert not (tmp_path / "burraco.db").exists()  # refused before anything was made
    done = subprocess.run([BURRACO, "serve", "--workers", "0", "--db", db], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "--workers 0" in done.stderr


@pytest.fixture
def redis_url() -> Iterator[str]:
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"{REDIS_ENV} is not set: cluster tests skipped (CI sets it to "
                    "redis://127.0.0.1:6379/0)")
    yield url


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A Redis key prefix of the test's own; its keys are deleted afterwards."""
    import redis

    prefix = f"burraco-test-{uuid.uuid4().hex[:8]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    with contextlib.suppress(redis.RedisError):
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    client.close()


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


def worker_pids(base: str, want: int, timeout: float = 90) -> set[int]:
    """The pids answering ``/healthz`` on ``base``, on fresh connections, until ``want`` seen."""
    seen: set[int] = set()

    def more() -> bool:
        with contextlib.suppress(httpx.HTTPError), httpx.Client(base_url=base, timeout=5) as http:
            seen.add(int(http.get("/healthz").json()["pid"]))  # a new connection each time
        return len(seen) >= want

    wait_for(more, f"{want} worker pids answering on one port (seen {seen})", timeout)
    return seen


def scrape(base: str) -> str:
    with httpx.Client(base_url=base, timeout=10) as http:  # a new connection: any worker
        response = http.get("/metrics")
    assert response.status_code == 200
    return response.text


async def one_connection_seen_by_every_worker(base: str) -> None:
    """A WebSocket open on one worker is counted by the ``/metrics`` of whichever answers."""
    with httpx.Client(base_url=base, timeout=30) as http:
        guest = http.post("/api/guests", json={"nickname": "Ops"}).json()["token"]
        table = http.post("/api/tables", json={"players": 2, "seats": [
            {"kind": "human"}, {"kind": "bot"}]}, headers={"authorization": f"Bearer {guest}"})
        assert table.status_code == 201, table.text
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{table.json()['table_id']}"
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"t": "hello"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 30))["t"] == "hello_ok"
        for _ in range(6):  # scrapes reach both workers; each counts the one connection
            text = await asyncio.to_thread(scrape, base)
            assert metric(text, "burraco_connections") == 1, text
    await asyncio.to_thread(wait_for, lambda: metric(scrape(base), "burraco_connections") == 0,
                            "the closed connection no longer counted")


def test_workers_share_one_port_restart_the_dead_and_stop_on_sigterm(
        tmp_path: Path, pg_url: str, redis_url: str, redis_prefix: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "server.log", "ab")  # noqa: SIM115 - the process owns it
    supervisor = subprocess.Popen(
        [BURRACO, "serve", "--workers", "2", "--port", str(port), "--db", pg_url,
         "--redis", redis_url, "--redis-prefix", redis_prefix],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        first = worker_pids(base, 2)
        assert supervisor.pid not in first  # the workers answer, the supervisor only watches
        assert supervisor.poll() is None
        asyncio.run(one_connection_seen_by_every_worker(base))

        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        wait_for(lambda: not alive(victim), "the killed worker gone")
        # the supervisor starts a replacement: two living workers again, one of them new
        now = wait_for(lambda: (pids := worker_pids(base, 2)) and victim not in pids
                       and len(pids - first) >= 1 and pids, "a replacement worker serving")
        survivors = {pid for pid in now | first if alive(pid)}
        assert supervisor.poll() is None

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(60) == 0
        wait_for(lambda: not any(alive(pid) for pid in survivors), "every worker stopped")
        with pytest.raises(httpx.ConnectError):
            httpx.get(base + "/healthz", timeout=5)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait(30)
        log.close()
    text = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in text, text[-4000:]


# --- bench server --cluster ----------------------------------------------------------------

def test_bench_server_cluster_reports_every_figure(redis_url: str) -> None:
    db = os.environ.get(PG_ENV)
    if not db:
        pytest.skip(f"{PG_ENV} is not set: the cluster bench needs PostgreSQL")
    done = subprocess.run(
        [BURRACO, "bench", "server", "--cluster", "2", "--tables", "2", "--duration", "2",
         "--warmup", "1", "--db", db, "--redis", redis_url, "--lease-seconds", "1",
         "--kill-owner-trials", "1", "--json"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr + done.stdout
    figures = json.loads(done.stdout)
    assert figures["server_procs"] == 2 and figures["tables"] == 2
    assert figures["actions"] > 0 and figures["errors"] == 0
    assert figures["latency_ms"]["samples"] > 0
    assert set(figures["latency_ms"]) == {"p50", "p99", "max", "samples"}
    failover = figures["failover"]
    assert failover["trials"] == 1 and failover["measured"] == 1, failover
    assert failover["takeover_ms"]["p50"] is not None


def test_bench_server_cluster_checks_its_arguments(tmp_path: Path) -> None:
    for args, words in (
            (["--cluster", "2", "--db", f"sqlite:///{tmp_path / 'b.db'}", "--redis",
              "redis://127.0.0.1:1/0"], "--cluster needs --db postgresql://"),
            (["--cluster", "2", "--db", "postgresql://x@127.0.0.1:1/y"], "--cluster needs --redis"),
            (["--kill-owner-trials", "2"], "go with --cluster"),
            (["--cluster", "1", "--db", "postgresql://x@127.0.0.1:1/y", "--redis",
              "redis://127.0.0.1:1/0", "--kill-owner-trials", "1"], "--cluster 2 or more")):
        done = subprocess.run([BURRACO, "bench", "server", "--tables", "1", *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr, (args, done.stderr)
