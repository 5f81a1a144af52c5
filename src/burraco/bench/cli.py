"""``burraco bench server`` and ``burraco bench frames`` (registered from ``burraco.cli``).

    burraco bench server --tables N [--pace SECONDS] [--duration S] [--json]
    burraco bench frames [--json]
    burraco bench pool [--players N] [--processes 1|2] [--redis URL] [--json]
"""

from __future__ import annotations

from typing import Any

from burraco.bench import frames, pool, server
from burraco.cliparts import subcommands_of

BENCH_DESCRIPTION = (
    "Start a server (or use --url), open N tables of 4 bot clients over real WebSockets on "
    "loopback, play for --duration seconds and report actions per second and the latency "
    "from a command to the last view of it (p50, p99).")


def register(sub: Any) -> None:
    """Add ``server``, ``frames`` and ``pool`` under the existing ``bench`` command."""
    parser = subcommands_of(sub, "bench").add_parser(
        "server", help="actions/s and latency of the game server", description=BENCH_DESCRIPTION)
    server.add_arguments(parser)
    parser.set_defaults(handler=server.run)
    counted = subcommands_of(sub, "bench").add_parser(
        "frames", help="frames and bytes each seat receives per 4-player hand, protocol 1 "
        "against 2", description=frames.__doc__)
    frames.add_arguments(counted)
    counted.set_defaults(handler=frames.run)
    pooled = subcommands_of(sub, "bench").add_parser(
        "pool", help="the matchmaking pool: pairings per second, join to seated",
        description=pool.__doc__)
    pool.add_arguments(pooled)
    pooled.set_defaults(handler=pool.run)
