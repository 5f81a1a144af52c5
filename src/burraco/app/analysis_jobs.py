"""Analysis of finished hands for the replay page, in the background.

``POST /api/web/tables/{id}/hands/{n}/analysis?seat=S`` starts (or finds) the
analysis of seat S in hand n (``burraco.analysis``: the strongest level's
marks, from that seat's view only); ``GET`` on the same path reports its
progress (``done`` of ``total`` decisions) and, when done, the marks.  The
hand must be over, and the same access rule as its replay holds.

The work never runs on the server's event loop nor in its process: one
worker process, at a low CPU priority (``nice`` 10: a busy process of the
server's priority gets about nine times its share), judges one decision at a
time, so live tables keep the cores they need and a job's progress is exact.
Results are kept in memory (the last :data:`KEEP` jobs); a restart forgets
them and the page may ask again.

The queue is bounded: at most :data:`PER_ADDRESS` unfinished jobs per client
address and :data:`QUEUED` in all; past either, a new one is refused 429 with
``Retry-After``.  Only finished jobs are ever dropped to keep :data:`KEEP`, so
no job that was accepted is lost, and none that was dropped ever runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from burraco.analysis.review import Decision, Settings, judge, seat_decisions
from burraco.engine.records import RecordError
from burraco.infra.http_limits import client_address
from burraco.server.rated import RATED_LIVE, live_rated
from burraco.server.storage import repository as repo

KEEP = 200
"""Finished jobs kept in memory; the oldest go first."""
PER_ADDRESS = 2
"""Unfinished jobs one client address may have (queued or running)."""
QUEUED = 16
"""Unfinished jobs in all: about as many hands as the worker judges in a few minutes."""
SECONDS_PER_JOB = 30
"""A rough time per job, for ``Retry-After``."""
PARENT_CHECK_SECONDS = 1.0
"""How often the worker looks whether its server is still there."""


class JobBody(BaseModel):
    """An analysis as the calls answer it (``decisions`` and ``total_loss`` once done)."""

    status: str
    seat: int
    done: int
    total: int
    decisions: list[dict[str, Any]] | None = None
    total_loss: float | None = None
    error: str | None = None


class QueueFull(Exception):
    """Too many analyses wait: the message says why; ``retry_after`` when to ask again."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


@dataclass(slots=True)
class Job:
    seat: int
    total: int
    status: str = "running"
    """``running`` (queued or being judged), ``done`` or ``failed``."""
    decisions: list[Decision] = field(default_factory=list)
    error: str = ""
    address: str = ""
    """The client address that asked for it (the per-address bound)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "seat": self.seat, "done":
                               len(self.decisions), "total": self.total}
        if self.status == "done":
            out["decisions"] = [d.to_dict() for d in self.decisions]
            out["total_loss"] = round(sum(d.loss for d in self.decisions), 1)
        if self.error:
            out["error"] = self.error
        return out


NICE = 10


def _start_worker(nice: int, server: int) -> None:
    """The worker's set-up: a lower priority, and an end when its server ends.

    A server killed outright (SIGKILL, a lost machine) runs no shutdown code, and the
    worker, blocked on its queue, would wait for work for ever; it watches its parent
    and leaves as soon as the server is gone.
    """
    with contextlib.suppress(OSError):
        os.nice(nice)
    threading.Thread(target=_leave_with, args=(server,), name="server-watch",
                     daemon=True).start()


def _leave_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


class AnalysisJobs:
    """The analyses asked for, and the one worker process that runs them."""

    def __init__(self, settings: Settings | None = None, *, nice: int = NICE) -> None:
        self.settings = settings or Settings()
        self.nice = nice
        self.jobs: OrderedDict[tuple[str, int, int], Job] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        """One job at a time: the worker judges the decisions of one hand in order."""

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(self.nice, os.getpid()))
        return self._pool

    def start(self, key: tuple[str, int, int], record: dict[str, Any],
              address: str = "") -> Job:
        """The job for ``key`` (table, hand, seat): the existing one, or a new one.

        :class:`QueueFull` when ``address`` has :data:`PER_ADDRESS` unfinished jobs, or
        :data:`QUEUED` are unfinished in all.
        """
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        todo = list(seat_decisions(record, key[2]))  # checks the seat; RecordError if bad
        waiting = [j for j in self.jobs.values() if j.status == "running"]
        if len(waiting) >= QUEUED:
            raise QueueFull(f"{len(waiting)} analyses are waiting: ask again later",
                            SECONDS_PER_JOB * len(waiting))
        mine = sum(1 for j in waiting if j.address == address)
        if mine >= PER_ADDRESS:
            raise QueueFull(f"{mine} analyses asked from this address are still running: "
                            "ask again when one is done", SECONDS_PER_JOB * mine)
        job = Job(key[2], len(todo), address=address)
        self.jobs[key] = job
        for old in [k for k, j in self.jobs.items() if j.status != "running"]:
            if len(self.jobs) <= KEEP:
                break
            del self.jobs[old]  # finished ones only: an accepted job is never dropped
        task = asyncio.get_running_loop().create_task(self._run(job, todo))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(self, job: Job, todo: list[Any]) -> None:
        loop = asyncio.get_running_loop()
        async with self._lock:
            try:
                for index, seen, legal, played, rules in todo:
                    decision = await loop.run_in_executor(
                        self._worker(), judge, seen, legal, played, rules, index, self.settings)
                    job.decisions.append(decision)
                job.status = "done"
            except Exception as exc:  # a broken worker must not take the server with it
                job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def install_analysis(app: FastAPI, jobs: AnalysisJobs | None = None) -> AnalysisJobs:
    """Add the analysis calls to ``app`` (before the web client's catch-all)."""
    hub = app.state.hub
    jobs = jobs or AnalysisJobs()
    app.state.analysis = jobs

    def error(status: int, code: str, detail: str) -> JSONResponse:
        return JSONResponse({"code": code, "detail": detail}, status_code=status)

    async def finished_record(table_id: str, number: int,
                              token: str | None) -> dict[str, Any] | JSONResponse:
        info = await hub.read(lambda conn: repo.table_info(conn, table_id))
        if info is None:
            return error(404, "table_not_found", f"no table {table_id!r}")
        if not info["public"] and not hub.tokens.opens(token, table_id):
            return error(403, "watch_token_required",
                         "this table is private: add ?token= (its watch or a seat token)")
        if live_rated(info):  # the access rule of the replay it analyses
            return error(403, "rated_live", RATED_LIVE)
        hands = await hub.read(lambda conn: repo.hand_rows(conn, table_id))
        row = next((h for h in hands if h["number"] == number), None)
        if row is not None and row.get("held"):
            return error(409, "deal_held", f"hand {number} is still being played at other "
                         "tables of this table's group")
        if row is None or row["record"] is None:
            return error(404, "hand_not_over", f"hand {number} of this table is not over")
        return dict(row["record"])

    path = "/api/web/tables/{table_id}/hands/{number}/analysis"

    @app.post(path, response_model=JobBody, response_model_exclude_none=True, responses={
        202: {"model": JobBody, "description": "started (or waiting): poll it with GET"}})
    async def start_analysis(table_id: str, number: int, seat: int, request: Request,
                             token: str | None = None) -> JSONResponse:
        record = await finished_record(table_id, number, token)
        if isinstance(record, JSONResponse):
            return record
        try:
            job = jobs.start((table_id, number, seat), record, client_address(request.scope))
        except RecordError as exc:
            return error(422, "bad_seat" if "seat" in str(exc) else "replay_failed", str(exc))
        except QueueFull as exc:
            answer = error(429, "analysis_queue_full", str(exc))
            answer.headers["Retry-After"] = str(exc.retry_after)
            return answer
        return JSONResponse(job.to_dict(), status_code=202 if job.status == "running" else 200)

    @app.get(path, response_model=JobBody, response_model_exclude_none=True)
    async def analysis(table_id: str, number: int, seat: int,
                       token: str | None = None) -> JSONResponse:
        record = await finished_record(table_id, number, token)
        if isinstance(record, JSONResponse):
            return record
        job = jobs.jobs.get((table_id, number, seat))
        if job is None:
            return error(404, "not_started", f"no analysis of seat {seat} in hand {number} "
                         "yet: POST to start one")
        return JSONResponse(job.to_dict())

    return jobs

