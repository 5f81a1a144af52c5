"""The single database writer: a thread that commits queued work in groups.

Table actors (and the HTTP handlers) hand it a function of a connection and
await the result.  The thread takes every job waiting, runs them all in one
transaction and commits once (group commit: one fsync for many tables); each
job's future is resolved only after that commit.  If the group fails, each
job is retried alone, so one bad command cannot sink the others.

With SQLite the writer also checkpoints the write-ahead log (PASSIVE) from a
second thread every ``checkpoint_every`` seconds, so the checkpoint SQLite runs
at a commit once the log passes 1000 pages finds little left to copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from burraco.infra.db import checkpoint
from burraco.server.storage.repository import CommitUnit, apply_units

T = TypeVar("T")
log = logging.getLogger("burraco.server.storage")


@dataclass(slots=True)
class _Job:
    fn: Callable[[Connection], Any] | None
    unit: CommitUnit | None
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop

    def __call__(self, conn: Connection) -> Any:
        if self.unit is not None:
            apply_units(conn, [self.unit])
            return None
        assert self.fn is not None
        return self.fn(conn)


class Writer:
    def __init__(self, engine: Engine, *, max_batch: int = 500,
                 checkpoint_every: float | None = None) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="burraco-writer", daemon=True)
        self._checkpoint_every = checkpoint_every
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints,
                                              name="burraco-checkpoint", daemon=True)
        self.batches = 0
        self.jobs = 0
        self._conn: Connection | None = None

    def start(self) -> None:
        self._thread.start()
        if self._checkpoint_every is not None:
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        assert self._checkpoint_every is not None
        while not self._stop.wait(self._checkpoint_every):
            try:
                checkpoint(self.engine)
            except Exception as exc:  # a busy database: try again next time
                log.warning("checkpoint failed: %s", exc)

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in the writer's transaction; return once that transaction is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(fn, None, future, loop))
        return await future

    async def commit(self, unit: CommitUnit) -> None:
        """Write one command's unit; return once it is committed (units are written in bulk)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put(_Job(None, unit, future, loop))
        await future

    async def close(self) -> None:
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        if self._checkpointer.is_alive():
            self._stop.set()
            await asyncio.to_thread(self._checkpointer.join)
            await asyncio.to_thread(checkpoint, self.engine, "TRUNCATE")

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                self._drop_connection()
                return
            batch = [job]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                self._drop_connection()
                return

    def _connection(self) -> Connection:
        """The writer's own connection, kept between groups: a group then costs no pool
        checkout (and no pre-ping round trip to PostgreSQL). A failed group drops it, so
        the next group starts on a fresh, checked one."""
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(self, batch: list[_Job]) -> None:
        self.batches += 1
        self.jobs += len(batch)
        try:
            conn = self._connection()
            with conn.begin():
                units = [job.unit for job in batch if job.unit is not None]
                if units:
                    apply_units(conn, units)
                results = [None if job.unit is not None else job(conn) for job in batch]
        except Exception as exc:
            self._drop_connection()
            if len(batch) == 1:
                self._deliver(batch[0], None, exc)
                return
            log.warning("group commit of %d jobs failed (%s); retrying one by one",
                        len(batch), exc)
            for job in batch:
                try:
                    with self.engine.begin() as conn:
                        result = job(conn)
                except Exception as single:
                    self._deliver(job, None, single)
                else:
                    self._deliver(job, result, None)
            return
        for job, result in zip(batch, results, strict=True):
            self._deliver(job, result, None)

    @staticmethod
    def _deliver(job: _Job, result: Any, exc: BaseException | None) -> None:
        def settle() -> None:
            if job.future.done():
                return
            if exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(result)

        with contextlib.suppress(RuntimeError):  # a closed loop: the server is stopping
            job.loop.call_soon_threadsafe(settle)
