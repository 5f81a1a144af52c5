"""``burraco serve --workers N``: N server processes behind one port, on one machine.

uvicorn's own multiprocess supervisor does the work (docs/decisions.md, "Several
workers behind one port"): the supervisor binds the port once, starts N worker
processes (``spawn``) that accept on that one socket, restarts a worker that dies,
and on SIGTERM or SIGINT sends SIGTERM to every worker and waits for each to
finish its own graceful shutdown (the hub's drain) before it exits.

Each worker is a whole ``burraco serve`` process: its own hub, database pool and
Redis connection, one of the cluster's nodes.  So several workers need the
cluster's Redis, and ``--workers N`` without ``--redis`` is refused before
anything starts.

The worker's app and HTTP protocol travel to the spawned child pickled, so both
are module-level callables here (a partial of :func:`worker_app` and
:class:`HeaderTimeoutFactory`), not closures.

Metrics: the workers share one port, so a scrape of ``/metrics`` reaches any one of
them; the supervisor therefore points prometheus-client's multiprocess mode at a
fresh folder of its own (``PROMETHEUS_MULTIPROC_DIR``) and every worker's
``/metrics`` answers for all of them (:mod:`burraco.server.metrics`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import logging
import os
import shutil
import sys
import tempfile
from typing import TYPE_CHECKING, Any

from burraco.infra.config import ServerConfig
from burraco.server.metrics import MULTIPROC_ENV

if TYPE_CHECKING:
    from fastapi import FastAPI


HEALTHCHECK_SECONDS = 30
"""How long a worker may leave the supervisor's ping unanswered before it is replaced.

uvicorn's default (5 s) could replace a worker that is merely busy on a loaded
machine; replacing one costs its tables a failover, so be patient.
"""


def check_workers(workers: int, redis_url: str | None) -> str | None:
    """Why ``--workers`` cannot be used as given, or ``None``."""
    if workers < 1:
        return f"--workers {workers}: must be at least 1"
    if workers > 1 and not redis_url:
        return (f"--workers {workers} needs --redis URL: the worker processes run one "
                "cluster and share its tables through Redis (leases and fan-out); without "
                "it each would run the same tables on its own")
    return None


def tune_process() -> None:
    """What ``burraco serve`` sets up in every server process (the single one or a worker).

    A live table's state lives for seconds, long enough to be promoted to the
    oldest generation; with the default thresholds full collections then run every
    few seconds over millions of objects.  Collect the young generation far less
    often instead.
    """
    gc.set_threshold(50_000, 50, 100)


def worker_app(settings: ServerConfig) -> FastAPI:
    """The app of one worker: built in the worker process, after it was spawned."""
    from burraco.app.asgi import create_app  # the server loads in the worker, not in `burraco`

    tune_process()
    if settings.node_id:  # one name for N processes: each worker's own, and a new one at restart
        settings = dataclasses.replace(settings, node_id=f"{settings.node_id}-{os.getpid()}")
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s")
    return create_app(settings)


def prepare_database(db_url: str) -> None:
    """Migrate the database and make its token key once, before the workers start at once.

    Every worker does both on start too; done here first, they find it done instead
    of racing to create the same rows.
    """
    # SQLAlchemy and the schema load when a server starts, not with every `burraco` command
    from burraco.infra.db import make_engine, migrate
    from burraco.server.storage import repository as repo

    engine = make_engine(db_url)
    try:
        migrate(engine)
        with engine.begin() as conn:
            repo.signing_secret(conn)
    finally:
        engine.dispose()


class HeaderTimeoutFactory:
    """A picklable stand-in for :func:`~burraco.infra.http_protocol.header_timeout_protocol`.

    uvicorn calls the HTTP protocol class to make one protocol per connection; this
    makes the class in the worker (once) and calls it.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    @functools.cached_property
    def _protocol(self) -> type[asyncio.Protocol]:
        from burraco.infra.http_protocol import header_timeout_protocol  # uvicorn, in the worker

        return header_timeout_protocol(self.seconds)

    def __call__(self, *args: Any, **kwargs: Any) -> asyncio.Protocol:
        return self._protocol(*args, **kwargs)

    def __getstate__(self) -> dict[str, Any]:
        return {"seconds": self.seconds}  # never the class made in another process

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.seconds = state["seconds"]


def serve_workers(settings: ServerConfig, workers: int, options: dict[str, Any]) -> int:
    """Run the supervisor until SIGTERM/SIGINT; ``options`` are the uvicorn settings of one."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(
        functools.partial(worker_app, settings), factory=True, workers=workers,
        host=settings.host, port=settings.port,
        http=HeaderTimeoutFactory(settings.header_timeout),  # type: ignore[arg-type]
        timeout_worker_healthcheck=HEALTHCHECK_SECONDS, **options)
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s")
    try:
        sock = config.bind_socket()
    except SystemExit:  # uvicorn logged why (the port is taken, say)
        return 1
    try:
        prepare_database(settings.db_url)
    except Exception as exc:  # unreachable, refused, ...: say so, start nothing
        sock.close()
        print(f"burraco serve: the database could not be prepared: {exc}", file=sys.stderr)
        return 1
    metrics_dir = tempfile.mkdtemp(prefix="burraco-metrics-")
    os.environ[MULTIPROC_ENV] = metrics_dir  # inherited by every spawned worker
    supervisor = Multiprocess(config, sockets=[sock])
    try:
        supervisor.run()
    finally:
        sock.close()
        shutil.rmtree(metrics_dir, ignore_errors=True)
    # uvicorn stops the supervisor when a worker fails before serving (it would again)
    failed = any(worker.exitcode == STARTUP_FAILURE for worker in supervisor.processes)
    return 1 if failed else 0
