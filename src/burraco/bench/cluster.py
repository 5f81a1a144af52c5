"""``burraco bench server --cluster N``: N server processes on one PostgreSQL and one Redis.

The bench makes a database of its own on the PostgreSQL server of ``--db`` (dropped
afterwards) and a key prefix of its own in the Redis of ``--redis`` (its keys are
deleted afterwards), and starts N ``burraco serve`` processes on them: one cluster.
:mod:`burraco.bench.server` creates the tables on the first process and connects
each table's seats to different processes, so every command crosses the cluster.

``--kill-owner-trials K`` measures failover: a table of four server-side bots is
watched from every other process; its owner is found (its Redis lease), sent SIGKILL, and the
time until the next event reaches a watcher on a surviving process is one trial's
takeover time.  The killed process is started again before the next trial, which kills
the table's new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from burraco.bench.common import SEATS, http, percentile, rounded


@dataclass
class Node:
    """One server process of the bench's cluster, restartable on its port."""

    command: list[str]
    port: int
    log: Path
    proc: subprocess.Popen[bytes] | None = field(default=None)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


# --- a fresh PostgreSQL database and Redis prefix --------------------------------------------

def _plain_dsn(url: str) -> str:
    """A ``postgresql://`` URL as psycopg reads it (no SQLAlchemy driver name)."""
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


@contextlib.contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new database on the server of ``admin_url``, dropped (sessions and all) afterwards."""
    if not _plain_dsn(admin_url).startswith("postgresql://"):
        raise RuntimeError(f"--cluster needs --db postgresql://USER@HOST:PORT/DB, not "
                           f"{admin_url!r}: the processes share one PostgreSQL database")
    import psycopg

    admin = _plain_dsn(admin_url)
    name = f"burraco_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(admin)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def fresh_redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of the bench's own; its keys are deleted afterwards."""
    import redis

    prefix = f"burraco-bench-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(redis_url)
    try:
        client.ping()
    except redis.RedisError as exc:
        client.close()
        raise RuntimeError(f"--redis {redis_url}: {exc}") from None
    try:
        yield prefix
    finally:
        with contextlib.suppress(redis.RedisError):
            keys = list(client.scan_iter(match=prefix + ":*", count=1000))
            for start in range(0, len(keys), 500):
                client.delete(*keys[start:start + 500])
        client.close()


# --- failover trials ----------------------------------------------------------------------------

def cluster_options(redis_url: str, prefix: str, index: int,
                    lease_seconds: float | None = None) -> list[str]:
    """The ``burraco serve`` options of the bench cluster's node ``index``."""
    lease = ["--lease-seconds", f"{lease_seconds:g}"] if lease_seconds is not None else []
    return ["--redis", redis_url, "--redis-prefix", prefix, "--node-id", node_name(index),
            *lease]


def node_name(index: int) -> str:
    return f"bench{index}"


def owner_of(table_id: str, nodes: list[Node], redis_url: str, prefix: str) -> int | None:
    """The index of the node holding ``table_id``'s lease, if one holds it.

    The lease is the Redis key ``PREFIX:lease:TABLE`` holding ``NODE.EPOCH``; the
    bench named its nodes (``--node-id``), so the owner's index is in its name.
    """
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        raw = client.get(f"{prefix}:lease:{table_id}")
    finally:
        client.close()
    if not isinstance(raw, bytes):
        return None
    node = raw.decode().split(".", 1)[0]
    for index in range(len(nodes)):
        if node == node_name(index):
            return index
    return None


async def _watch(url: str, events: asyncio.Queue[tuple[float, int]], stop: asyncio.Event) -> None:
    """Watch a table from one process; put (arrival, version) of every event, reconnecting."""
    from websockets.asyncio.client import connect

    version = 0
    while not stop.is_set():
        try:
            async with connect(url, max_size=None, open_timeout=10) as ws:
                hello: dict[str, Any] = {"t": "hello"}
                if version:
                    hello["v"] = version  # catch up from what this watcher has seen
                await ws.send(json.dumps(hello))
                async for raw in ws:
                    frame = json.loads(raw)
                    if "v" in frame and "t" not in frame:
                        version = frame["v"]
                        events.put_nowait((time.monotonic(), version))
                    elif frame.get("t") == "sync":
                        version = frame["version"]
                        events.put_nowait((time.monotonic(), version))
        except Exception:  # the process died, or is restarting: watch again
            await asyncio.sleep(0.2)


def stored_version(db_url: str, table_id: str) -> int:
    """The table's version in the database: what its owner had committed."""
    import psycopg

    with psycopg.connect(_plain_dsn(db_url)) as conn:
        row = conn.execute("SELECT version FROM tables WHERE id = %s", (table_id,)).fetchone()
    return int(row[0]) if row else 0


async def _one_trial(table_id: str, nodes: list[Node], owner: int, restart: Any,
                     timeout: float, db_url: str) -> float | None:
    """SIGKILL ``owner``; seconds until a watcher on another node sees a version it never had.

    A frame the owner sent just before it died may still arrive after the SIGKILL; the
    versions it committed are in the database, so only a later one, which the new owner
    made, ends the takeover.
    """
    events: asyncio.Queue[tuple[float, int]] = asyncio.Queue()
    stop = asyncio.Event()
    watchers = [asyncio.create_task(_watch(f"{node.ws_base}/ws/tables/{table_id}", events, stop))
                for index, node in enumerate(nodes) if index != owner]
    try:
        latest = 0
        settle = time.monotonic() + 1.0  # every watcher is in and has seen a version
        while time.monotonic() < settle or latest == 0:
            with contextlib.suppress(TimeoutError):
                _, version = await asyncio.wait_for(events.get(), timeout=max(
                    0.05, settle - time.monotonic()))
                latest = max(latest, version)
            if time.monotonic() > settle + timeout:
                return None
        proc = nodes[owner].proc
        assert proc is not None
        killed = time.monotonic()
        proc.send_signal(signal.SIGKILL)
        await asyncio.to_thread(proc.wait)
        latest = max(latest, await asyncio.to_thread(stored_version, db_url, table_id))
        while True:
            left = killed + timeout - time.monotonic()
            if left <= 0:
                return None
            try:
                seen, version = await asyncio.wait_for(events.get(), timeout=left)
            except TimeoutError:
                return None
            if seen >= killed and version > latest:
                return seen - killed
            latest = max(latest, version)
    finally:
        stop.set()
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        await asyncio.to_thread(restart, owner)


def kill_owner_trials(nodes: list[Node], trials: int, guest: str, restart: Any, *,
                      db_url: str, redis_url: str, prefix: str,
                      timeout: float = 30.0) -> dict[str, Any]:
    """``trials`` SIGKILLs of a bot table's owner; the takeover times, p50/p99 (ms)."""
    body = {"players": SEATS, "seats": [{"kind": "bot", "level": "basic"}] * SEATS,
            "target": 100_000, "bot_delay": 0.1}
    times: list[float] = []
    failures: list[str] = []
    # one table for every trial: after a takeover its new owner is the next one killed
    table_id = http(nodes[0].base, "POST", "/api/tables", body, guest)["table_id"]
    for trial in range(trials):
        owner = None
        deadline = time.monotonic() + max(15.0, timeout)
        while owner is None and time.monotonic() < deadline:
            owner = owner_of(table_id, nodes, redis_url, prefix)
            if owner is None:
                time.sleep(0.2)
        if owner is None:
            failures.append(f"trial {trial}: no process holds table {table_id}'s lease")
            continue
        took = asyncio.run(_one_trial(table_id, nodes, owner, restart, timeout, db_url))
        if took is None:
            failures.append(f"trial {trial}: no event within {timeout:g} s of the SIGKILL")
        else:
            times.append(took)
    return {"trials": trials, "measured": len(times),
            "takeover_ms": {"p50": rounded(percentile(times, 0.5)),
                            "p99": rounded(percentile(times, 0.99)),
                            "max": rounded(percentile(times, 1.0))},
            "failures": failures[:5], "failure_count": len(failures)}
