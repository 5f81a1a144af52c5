"""``burraco bench pool``: the matchmaking pool's pairing speed (:mod:`burraco.meet.bench`).

    burraco bench pool [--players 1000] [--processes 1|2] [--redis URL] [--seed S] [--json]

Queues the players at once and pairs them until every one is seated (or left waiting, a
rated pool one player short): pairings per second of wall time and per CPU second, joins
per second, the time from joining to seated; in one process's memory, or through Redis
from one or two processes (a cluster's pair; ``--processes 2`` needs ``--redis``).
"""

from __future__ import annotations

import argparse
import json
import sys

from burraco.meet.bench import bench_pool, describe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=1000, metavar="N",
                        help="players queued at once (default 1000)")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1,
                        help="processes pairing one shared pool (2 needs --redis)")
    parser.add_argument("--redis", metavar="URL", help="pools in Redis at URL, not in memory")
    parser.add_argument("--seed", type=int, default=1, help="the crowd's ratings (default 1)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")


def run(args: argparse.Namespace) -> int:
    if args.players < 2:
        print("burraco bench pool: --players must be at least 2", file=sys.stderr)
        return 2
    if args.processes == 2 and not args.redis:
        print("burraco bench pool: --processes 2 shares one pool through Redis: give --redis "
              "URL", file=sys.stderr)
        return 2
    result = bench_pool(args.players, args.processes, redis_url=args.redis, seed=args.seed)
    print(json.dumps(result) if args.json else describe(result))
    return 0
