"""Test harness for the cluster: a PostgreSQL database per test module, a Redis key prefix per
test, and N ``burraco serve --redis`` processes on them.

Skips cleanly, saying why, when ``BURRACO_TEST_POSTGRES_URL`` or ``BURRACO_TEST_REDIS_URL``
is unset (CI sets both).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from harness import PG_ENV, ServerProcess, free_port

REDIS_ENV = "BURRACO_TEST_REDIS_URL"
LEASE = "1.5"
"""Lease seconds in the tests: short, so that a takeover comes soon after a kill."""


def urls() -> tuple[str, str]:
    import pytest

    pg, redis = os.environ.get(PG_ENV), os.environ.get(REDIS_ENV)
    if not pg or not redis:
        pytest.skip(f"{PG_ENV} and {REDIS_ENV} must both be set for the cluster tests (.ci/run "
                    "sets them)")
    return pg, redis


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh database on the test PostgreSQL server, dropped afterwards."""
    import psycopg

    base, _ = urls()
    dsn = base.replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"burraco_cluster_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    head, _, _ = dsn.split("?", 1)[0].rpartition("/")
    try:
        yield f"{head}/{name}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@contextlib.contextmanager
def redis_prefix(url: str) -> Iterator[str]:
    """A key prefix of the test's own on the shared Redis; its keys are deleted afterwards."""
    import redis

    prefix = f"burraco-test-{uuid.uuid4().hex[:10]}"
    try:
        yield prefix
    finally:
        with contextlib.suppress(Exception):
            client = redis.Redis.from_url(url)
            keys = list(client.scan_iter(f"{prefix}:*"))
            if keys:
                client.delete(*keys)
            client.close()


class Node(ServerProcess):
    """One ``burraco serve`` of a cluster."""

    def __init__(self, db_url: str, redis_url: str, prefix: str, name: str, folder: Path,
                 *, lease: str = LEASE) -> None:
        super().__init__(db_url, folder / f"{name}.log", extra=[
            "--redis", redis_url, "--redis-prefix", prefix, "--lease-seconds", lease,
            "--node-id", name, "--log-level", "warning"])
        self.name = name

    def health(self) -> dict[str, Any]:
        return dict(self.http.get("/healthz", timeout=5).json())

    def restart_http(self) -> None:
        self.http = httpx.Client(base_url=self.base, timeout=30)


class Cluster:
    def __init__(self, db_url: str, redis_url: str, prefix: str, folder: Path) -> None:
        self.db_url, self.redis_url, self.prefix, self.folder = db_url, redis_url, prefix, folder
        self.nodes: list[Node] = []
        self._names = iter(f"n{i}" for i in range(1000))

    def add(self, *, lease: str = LEASE, redis_url: str | None = None) -> Node:
        node = Node(self.db_url, redis_url or self.redis_url, self.prefix, next(self._names),
                    self.folder, lease=lease)
        node.start()
        self.nodes.append(node)
        return node

    def stop(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop()

    def owner(self, table_id: str) -> str | None:
        import redis

        client = redis.Redis.from_url(self.redis_url)
        try:
            value = client.get(f"{self.prefix}:lease:{table_id}")
        finally:
            client.close()
        return value.decode().rsplit(".", 1)[0] if value else None

    def node(self, name: str | None) -> Node:
        return next(n for n in self.nodes if n.name == name)


@contextlib.contextmanager
def cluster(tmp_path: Path, db_url: str, size: int, *,
            redis_url: str | None = None) -> Iterator[Cluster]:
    _, shared = urls()
    url = redis_url or shared
    with redis_prefix(url) as prefix:
        group = Cluster(db_url, url, prefix, tmp_path)
        try:
            for _ in range(size):
                group.add()
            yield group
        finally:
            group.stop()


@contextlib.contextmanager
def own_redis(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A ``redis-server`` of the test's own, on a free port (never the shared one)."""
    binary = shutil.which("redis-server")
    if binary is None:
        import pytest

        pytest.skip("redis-server is not installed")
    port = free_port()
    proc = start_redis(binary, port, tmp_path)
    try:
        yield f"redis://127.0.0.1:{port}/0", port
    finally:
        stop_redis(proc)


def start_redis(binary: str, port: int, folder: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([binary, "--port", str(port), "--save", "", "--appendonly", "no",
                             "--dir", str(folder)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    import redis

    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if redis.Redis(port=port).ping():
                return proc
        time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def kill_redis_on(port: int) -> None:
    """Shut the ``redis-server`` on ``port`` down without saving: every key is lost with it."""
    import redis

    client = redis.Redis(port=port)
    with contextlib.suppress(redis.ConnectionError):  # it went while answering
        client.shutdown(nosave=True)


def stop_redis(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


class Relay:
    """A TCP relay to a server (Redis) that a test can cut: :meth:`cut` drops every
    connection through it and drops each new one at once, :meth:`restore` relays again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.is_cut = False
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Relay:
        self._thread.start()
        self._ready.wait(10)
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def serve() -> None:
            await asyncio.start_server(self._handle, "127.0.0.1", self.port)
            self._ready.set()
            await asyncio.Event().wait()

        with contextlib.suppress(RuntimeError):
            self._loop.run_until_complete(serve())

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.is_cut:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._writers -= {writer, up_writer}

    def cut(self) -> None:
        def drop() -> None:
            self.is_cut = True
            for writer in list(self._writers):
                writer.transport.abort()
            self._writers.clear()
        self._loop.call_soon_threadsafe(drop)

    def restore(self) -> None:
        def back() -> None:
            self.is_cut = False
        self._loop.call_soon_threadsafe(back)

    def stop(self) -> None:
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)
