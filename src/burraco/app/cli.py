"""``burraco serve`` (registered from ``burraco.cli``).

    burraco serve [--host H] [--port P] [--db URL] [--sqlite-sync full|normal] [limits...]
                  [--engine NAME=COMMAND ...] [--engine-deadline-ms MS]
                  [--redis URL [--redis-prefix P] [--lease-seconds S] [--node-id NAME]]
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import sys
from typing import Any

from burraco.app.workers import check_workers, serve_workers, tune_process
from burraco.bots.base import make_bot
from burraco.community.recurring import RecurringError
from burraco.community.recurring import parse as parse_recurring
from burraco.infra.config import (
    ConfigError,
    ServerConfig,
    default_db_url,
    normalize_db_url,
    parse_engine,
)
from burraco.infra.rates import check_rate


def register(sub: Any) -> None:
    """Add ``serve``."""
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
    serve.add_argument("--public-url", default=os.environ.get("BURRACO_PUBLIC_URL", ""),
                       help="base URL the players reach: invite links, the tournaments' table "
                            "links and QR codes (default $BURRACO_PUBLIC_URL, else "
                            "http://HOST:PORT)")
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
    retire = ServerConfig(db_url="").finished_table_seconds
    serve.add_argument("--finished-table-seconds", type=float, default=retire, metavar="S",
                       help="seconds a finished table nobody watches stays in memory; then it "
                            f"is read from the database when asked for (default {retire:g})")
    serve.add_argument("--events", default="default", metavar="SERIES",
                       help="the server's recurring online tournaments: 'default' (an hourly "
                            "arena, a nightly Swiss of pairs), 'none', a JSON list of series or "
                            "@FILE (docs/tournaments-online.md)")
    add_limit_arguments(serve)
    add_cluster_arguments(serve)
    add_worker_arguments(serve)
    serve.set_defaults(handler=run_serve)


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
    limits.add_argument("--account-rate", default=d.account_rate, metavar="RATE",
                        help="accounts one address may register "
                             f"(default {d.account_rate}; 429)")
    limits.add_argument("--bot-tables-per-guest", type=int, default=d.bot_tables_per_guest,
                        metavar="N", help="unfinished tables of bots only one guest may have, "
                        f"0: no limit (default {d.bot_tables_per_guest}; 429)")
    limits.add_argument("--bot-table-rate", default=d.bot_table_rate, metavar="RATE",
                        help="tables of bots only one address may create "
                             f"(default {d.bot_table_rate}; 429)")
    limits.add_argument("--bot-table-delay", type=float, default=d.bot_table_delay,
                        metavar="S", help="the least bot delay of a table of bots only "
                        f"(default {d.bot_table_delay:g}; 422 below it)")
    limits.add_argument("--rated-min-target", type=int, default=d.rated_min_target,
                        metavar="POINTS", help="the lowest target of a rated match to a target "
                        f"(default {d.rated_min_target})")
    limits.add_argument("--rated-min-hands", type=int, default=d.rated_min_hands, metavar="N",
                        help="the fewest hands of a rated match of set hands "
                             f"(default {d.rated_min_hands})")
    limits.add_argument("--waiting-expiry", type=float, default=d.waiting_expiry, metavar="S",
                        help="seconds after which an unchanged, unwatched waiting table is "
                             f"deleted, 0: never (default {d.waiting_expiry:g})")


def add_cluster_arguments(serve: argparse.ArgumentParser) -> None:
    """Options of a process of a cluster (docs/architecture.md, "Cluster")."""
    d = ServerConfig(db_url="")
    cluster = serve.add_argument_group("cluster (several processes on one PostgreSQL and Redis)")
    cluster.add_argument("--redis", default="", metavar="URL",
                         help="redis://HOST:PORT/DB: join the cluster of every process on the "
                              "same database and Redis (needs a PostgreSQL --db)")
    cluster.add_argument("--redis-prefix", default=d.redis_prefix, metavar="PREFIX",
                         help="prefix of the cluster's Redis keys and channels "
                              f"(default {d.redis_prefix})")
    cluster.add_argument("--lease-seconds", type=float, default=d.lease_seconds, metavar="S",
                         help="a table's lease time: a dead process's tables are taken over "
                              f"this long after it stopped renewing (default {d.lease_seconds:g})")
    cluster.add_argument("--node-id", default="", metavar="NAME",
                         help="this process's name in the cluster (default: random)")


def cluster_settings(args: argparse.Namespace, db_url: str) -> dict[str, Any]:
    """The cluster options, checked; :class:`ConfigError` names a bad one."""
    if not args.redis:
        return {}
    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(f"--redis {args.redis!r}: expected redis://HOST:PORT/DB")
    if db_url.startswith("sqlite"):
        raise ConfigError("--redis needs a database every process shares: give --db "
                          "postgresql://USER@HOST:PORT/DB")
    if not args.lease_seconds >= 0.5:
        raise ConfigError(f"--lease-seconds {args.lease_seconds}: must be at least 0.5")
    prefix = args.redis_prefix
    if not prefix or not prefix.replace("-", "").replace("_", "").replace(".", "").isalnum():
        raise ConfigError(f"--redis-prefix {prefix!r}: letters, digits, '-', '_' and '.'")
    node = args.node_id
    if node and not node.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(f"--node-id {node!r}: letters, digits, '-' and '_'")
    return {"redis_url": args.redis, "redis_prefix": prefix,
            "lease_seconds": args.lease_seconds, "node_id": node}


def add_worker_arguments(serve: argparse.ArgumentParser) -> None:
    """``--workers N``: N processes behind one port (:mod:`burraco.app.workers`)."""
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="server processes behind the one port, to use N cores; more "
                            "than 1 needs --redis (default 1)")


def limit_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The limits given on the command line, checked; :class:`ConfigError` names a bad one."""
    for name in ("max_body_bytes", "header_timeout", "body_timeout", "keepalive_timeout"):
        if getattr(args, name) <= 0:
            raise ConfigError(f"--{name.replace('_', '-')} must be positive")
    for name in ("waiting_tables_per_guest", "waiting_expiry", "rated_min_target",
                 "bot_tables_per_guest", "bot_table_delay"):
        if getattr(args, name) < 0:
            raise ConfigError(f"--{name.replace('_', '-')} must be 0 or more")
    if args.rated_min_hands < 1:
        raise ConfigError("--rated-min-hands must be 1 or more")
    for name in ("table_rate", "guest_rate", "bot_table_rate", "account_rate"):
        try:
            check_rate(getattr(args, name))
        except ValueError as exc:
            raise ConfigError(f"--{name.replace('_', '-')}: {exc}") from None
    return {name: getattr(args, name) for name in (
        "max_body_bytes", "header_timeout", "body_timeout", "keepalive_timeout", "table_rate",
        "guest_rate", "waiting_tables_per_guest", "waiting_expiry", "rated_min_target",
        "rated_min_hands", "bot_tables_per_guest", "bot_table_rate", "bot_table_delay",
        "account_rate")}

def check_level(level: str) -> None:
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
        cluster = cluster_settings(args, url)
        engines = tuple(parse_engine(text) for text in args.engine)
        if args.engine_deadline_ms < 1:
            raise ConfigError(f"--engine-deadline-ms {args.engine_deadline_ms}: must be >= 1")
        if args.analysis_samples < 2:
            raise ConfigError(f"--analysis-samples {args.analysis_samples}: must be >= 2")
        if args.finished_table_seconds < 0:
            raise ConfigError("--finished-table-seconds must be 0 or more")
        check_level(args.analysis_level)
        try:
            parse_recurring(args.events)
        except RecurringError as exc:
            raise ConfigError(f"--events: {exc}") from None
        refusal = check_workers(args.workers, args.redis)
        if refusal is not None:
            raise ConfigError(refusal)
    except ConfigError as exc:
        print(f"burraco serve: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"burraco serve: --port {args.port} is not a port", file=sys.stderr)
        return 2
    import uvicorn

    # FastAPI, uvicorn and the whole server load only when a server starts (not for --help)
    from burraco.app.asgi import create_app
    from burraco.infra.http_protocol import header_timeout_protocol

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # one descriptor per connection: allow as many as the system lets us
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tune_process()
    settings = ServerConfig(db_url=url, host=args.host, port=args.port,
                            sqlite_sync=args.sqlite_sync, log_level=args.log_level,
                            public_url=args.public_url, engines=engines,
                            engine_deadline_ms=args.engine_deadline_ms,
                            analysis_level=args.analysis_level,
                            analysis_samples=args.analysis_samples,
                            finished_table_seconds=args.finished_table_seconds,
                            recurring_events=args.events, **limits, **cluster)
    options: dict[str, Any] = dict(
        lifespan="on", ws_max_size=settings.ws_max_bytes, ws_per_message_deflate=False,
        log_level=args.log_level, access_log=False, timeout_graceful_shutdown=5,
        timeout_keep_alive=settings.keepalive_timeout)
    if args.workers > 1:
        return serve_workers(settings, args.workers, options)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        create_app(settings), host=args.host, port=args.port,
        http=header_timeout_protocol(settings.header_timeout), **options)
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1
