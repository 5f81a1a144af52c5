"""``burraco bench server`` and ``burraco bench frames`` (registered from ``burraco.cli``).

    burraco bench server --tables N [--pace SECONDS] [--duration S] [--json]
    burraco bench frames [--json]
    burraco bench pool [--players N] [--processes 1|2] [--redis URL] [--json]
    burraco bench events [--players N] [--rounds R] [--minutes M] [--json]
"""

from __future__ import annotations

from typing import Any

from burraco.bench import events, frames, pool, server
from burraco.cliparts import subcommands_of

BENCH_DESCRIPTION = (
    "Start a server (or use --url), open N tables of 4 bot clients over real WebSockets on "
    "loopback, play for --duration seconds and report actions per second and the latency "
    "from a command to the last view of it (p50, p99).")


def register(sub: Any) -> None:
    """Add ``server``, ``frames``, ``pool`` and ``events`` under the existing ``bench``
    command."""
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
    evented = subcommands_of(sub, "bench").add_parser(
        "events", help="open tournaments: a 500-player arena's and Swiss's pairing time",
        description=events.__doc__)
    events.add_arguments(evented)
    evented.set_defaults(handler=events.run)
