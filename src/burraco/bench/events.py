"""``burraco bench events``: the open tournaments' pairing time (:mod:`burraco.meet.events_bench`).

    burraco bench events [--players 500] [--rounds 7] [--minutes 60] [--seed S] [--json]

An arena of ``--players`` paired every second for ``--minutes`` (CPU time per pairing call,
p50 / p95 / max) and a Swiss of ``--players`` over ``--rounds`` (CPU time per round).
"""

from __future__ import annotations

import argparse
import json
import sys

from burraco.meet.events import EventError
from burraco.meet.events_bench import bench_arena, bench_swiss, describe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=500, metavar="N",
                        help="entrants of each event (default 500)")
    parser.add_argument("--rounds", type=int, default=7, help="the Swiss's rounds (default 7)")
    parser.add_argument("--minutes", type=int, default=60,
                        help="the arena's length in simulated minutes (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")


def run(args: argparse.Namespace) -> int:
    if args.players < 4 or args.rounds < 1 or args.minutes < 1:
        print("burraco bench events: --players at least 4, --rounds and --minutes at least 1",
              file=sys.stderr)
        return 2
    try:
        arena = bench_arena(args.players, seed=args.seed, minutes=args.minutes)
        swiss = bench_swiss(args.players, rounds=args.rounds, seed=args.seed)
    except EventError as exc:
        print(f"burraco bench events: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"arena": arena, "swiss": swiss}))
    else:
        print(describe(arena))
        print(describe(swiss))
    return 0
