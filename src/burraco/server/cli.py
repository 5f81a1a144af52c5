"""``burraco serve`` and ``burraco bench server`` (registered from ``burraco.cli``).

    burraco serve [--host H] [--port P] [--db URL] [--sqlite-sync full|normal] [limits...]
                  [--engine NAME=COMMAND ...] [--engine-deadline-ms MS]
    burraco bench server --tables N [--pace SECONDS] [--duration S] [--json]
"""

from __future__ import annotations

import argparse
import gc
import logging
import resource
import sys
from typing import Any

from burraco.cliparts import subcommands_of
from burraco.server.config import (
    ConfigError,
    ServerConfig,
    default_db_url,
    normalize_db_url,
    parse_engine,
)


def register(sub: Any) -> None:
    """Add ``serve``, and ``server`` under the existing ``bench`` command."""
    serve = sub.add_parser(
        "serve", help="run the game server (HTTP + WebSockets)",
        description="Run the Burraco game server: live tables over WebSockets, every action "
        "stored before it is shown (docs/protocol.md).  Migrates the database and recovers "
        "every live table on start.")
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", metavar="URL", default=None,
                       help="sqlite:///PATH or postgresql://USER@HOST:PORT/DB "
                            f"(default {default_db_url()})")
    serve.add_argument("--sqlite-sync", choices=("full", "normal"), default="full",
                       help="SQLite synchronous mode: full survives power loss (default), "
                            "normal survives process crashes only")
    serve.add_argument("--public-url", default="",
                       help="base URL for invite links (default http://HOST:PORT)")
    serve.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                       help="an outside engine (docs/bot-protocol.md) tables may seat as "
                       "level engine:NAME; repeatable")
    serve.add_argument("--engine-deadline-ms", type=int, default=2000, metavar="MS",
                       help="time an outside engine has per decision (default 2000)")
    serve.add_argument("--analysis-level", default="expert", metavar="LEVEL",
                       help="the bot level whose marks replays show (default expert)")
    serve.add_argument("--analysis-samples", type=int, default=32, metavar="N",
                       help="imagined deals per compared move in those marks (default 32)")
    serve.add_argument("--log-level", default="warning",
                       choices=("debug", "info", "warning", "error"))
    add_limit_arguments(serve)
    serve.set_defaults(handler=run_serve)

    parser = subcommands_of(sub, "bench").add_parser(
        "server", help="actions/s and latency of the game server", description=BENCH_DESCRIPTION)
    from burraco.bench.server import add_arguments, run

    add_arguments(parser)
    parser.set_defaults(handler=run)


BENCH_DESCRIPTION = (
    "Start a server (or use --url), open N tables of 4 bot clients over real WebSockets on "
    "loopback, play for --duration seconds and report actions per second and the latency "
    "from a command to the last view of it (p50, p99).")


def add_limit_arguments(serve: argparse.ArgumentParser) -> None:
    """The HTTP limits of ``burraco serve`` (docs/protocol.md "Limits", docs/deployment.md)."""
    d = ServerConfig(db_url="")
    limits = serve.add_argument_group("limits (docs/protocol.md, Limits)")
    limits.add_argument("--max-body-bytes", type=int, default=d.max_body_bytes, metavar="N",
                        help=f"largest HTTP request body (default {d.max_body_bytes}; 413)")
    limits.add_argument("--header-timeout", type=float, default=d.header_timeout, metavar="S",
                        help="seconds to send a request's headers, else the connection is "
                             f"closed (default {d.header_timeout:g})")
    limits.add_argument("--body-timeout", type=float, default=d.body_timeout, metavar="S",
                        help=f"seconds to send a request's body (default {d.body_timeout:g}; "
                             "408)")
    limits.add_argument("--keepalive-timeout", type=int, default=d.keepalive_timeout,
                        metavar="S", help="seconds an idle keep-alive connection is kept "
                        f"(default {d.keepalive_timeout})")
    limits.add_argument("--table-rate", default=d.table_rate, metavar="RATE",
                        help="tables one address may create, N/second|minute|hour|day or none "
                             f"(default {d.table_rate}; 429)")
    limits.add_argument("--guest-rate", default=d.guest_rate, metavar="RATE",
                        help=f"guests one address may create (default {d.guest_rate}; 429)")
    limits.add_argument("--waiting-tables-per-guest", type=int,
                        default=d.waiting_tables_per_guest, metavar="N",
                        help="tables one guest may have waiting for players, 0: no limit "
                             f"(default {d.waiting_tables_per_guest}; 429)")
    limits.add_argument("--waiting-expiry", type=float, default=d.waiting_expiry, metavar="S",
                        help="seconds after which an unchanged, unwatched waiting table is "
                             f"deleted, 0: never (default {d.waiting_expiry:g})")


def limit_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The limits given on the command line, checked; :class:`ConfigError` names a bad one."""
    from burraco.server.http_limits import check_rate

    for name in ("max_body_bytes", "header_timeout", "body_timeout", "keepalive_timeout"):
        if getattr(args, name) <= 0:
            raise ConfigError(f"--{name.replace('_', '-')} must be positive")
    for name in ("waiting_tables_per_guest", "waiting_expiry"):
        if getattr(args, name) < 0:
            raise ConfigError(f"--{name.replace('_', '-')} must be 0 or more")
    for name in ("table_rate", "guest_rate"):
        try:
            check_rate(getattr(args, name))
        except ValueError as exc:
            raise ConfigError(f"--{name.replace('_', '-')}: {exc}") from None
    return {name: getattr(args, name) for name in (
        "max_body_bytes", "header_timeout", "body_timeout", "keepalive_timeout", "table_rate",
        "guest_rate", "waiting_tables_per_guest", "waiting_expiry")}

def check_level(level: str) -> None:
    from burraco.bots.base import make_bot

    if level.startswith("cmd:"):
        raise ConfigError(f"--analysis-level {level!r}: a bot level, not a command")
    try:
        make_bot(level, seed=0)
    except ValueError as exc:
        raise ConfigError(f"--analysis-level: {exc}") from None


def run_serve(args: argparse.Namespace) -> int:
    try:
        url = normalize_db_url(args.db or default_db_url())
        limits = limit_settings(args)
        engines = tuple(parse_engine(text) for text in args.engine)
        if args.engine_deadline_ms < 1:
            raise ConfigError(f"--engine-deadline-ms {args.engine_deadline_ms}: must be >= 1")
        if args.analysis_samples < 2:
            raise ConfigError(f"--analysis-samples {args.analysis_samples}: must be >= 2")
        check_level(args.analysis_level)
    except ConfigError as exc:
        print(f"burraco serve: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"burraco serve: --port {args.port} is not a port", file=sys.stderr)
        return 2
    import uvicorn

    from burraco.server.app import create_app
    from burraco.server.http_protocol import header_timeout_protocol

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # one descriptor per connection: allow as many as the system lets us
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    # A live table's state lives for seconds, long enough to be promoted to the oldest
    # generation; with the default thresholds full collections then run every few seconds
    # over millions of objects.  Collect the young generation far less often instead.
    gc.set_threshold(50_000, 50, 100)
    settings = ServerConfig(db_url=url, host=args.host, port=args.port,
                            sqlite_sync=args.sqlite_sync, log_level=args.log_level,
                            public_url=args.public_url, engines=engines,
                            engine_deadline_ms=args.engine_deadline_ms,
                            analysis_level=args.analysis_level,
                            analysis_samples=args.analysis_samples, **limits)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        create_app(settings), host=args.host, port=args.port, lifespan="on",
        ws_max_size=settings.ws_max_bytes, ws_per_message_deflate=False,
        log_level=args.log_level, access_log=False, timeout_graceful_shutdown=5,
        http=header_timeout_protocol(settings.header_timeout),
        timeout_keep_alive=settings.keepalive_timeout)
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1
