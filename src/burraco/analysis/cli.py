"""``burraco analyze RECORD.json [--seat N] [--json]``: what the strongest level would have
played at each of a seat's decisions, and the match points each move lost."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from burraco.analysis.review import STRONGEST, Analysis, Settings, analyze
from burraco.bots.base import make_bot
from burraco.engine.records import RecordError

DESCRIPTION = (
    "Replay a hand's record (burraco play --record FILE writes one) and, at each decision of "
    "the seat, ask the strongest level what it would have played from that seat's view at that "
    "moment (never with the hidden cards), and estimate the match points the move played lost "
    "(0 when it agrees or the difference is within the noise).")


def register(sub: Any) -> None:
    parser = sub.add_parser("analyze", help="the strongest bot's marks on a seat's decisions",
                            description=DESCRIPTION)
    parser.add_argument("record", metavar="RECORD.json", help="a hand's record")
    parser.add_argument("--seat", type=int, default=0, help="the seat to analyse (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--level", default=STRONGEST,
                        help=f"the level that judges (default {STRONGEST})")
    parser.add_argument("--samples", type=int, default=32,
                        help="imagined deals per comparison (default 32)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the analysis")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.record, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        return _fail(f"{args.record}: {exc.strerror}")
    except json.JSONDecodeError as exc:
        return _fail(f"{args.record}: not JSON ({exc})")
    if args.samples < 2:
        return _fail(f"--samples {args.samples}: give at least 2")
    try:
        make_bot(args.level, seed=0)
    except ValueError as exc:
        return _fail(f"--level: {exc}")
    settings = Settings(level=args.level, samples=args.samples, seed=args.seed)
    try:
        result = analyze(data, args.seat, settings, progress=None if args.json else _progress)
    except RecordError as exc:
        return _fail(f"{args.record}: {exc}")
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(format_analysis(result))
    return 0


def format_analysis(result: Analysis) -> str:
    marked = [d for d in result.decisions if d.loss > 0]
    lines = [f"seat {result.seat}, {result.players} players, rules {result.rules}: "
             f"{len(result.decisions)} decisions judged by {result.level}, {len(marked)} "
             f"marked, {result.total_loss:.0f} match points lost in all"]
    for d in result.decisions:
        if d.played == d.best:
            lines.append(f"  move {d.index + 1:>3}  {d.played:<28} ok")
        elif d.loss > 0:
            lines.append(f"  move {d.index + 1:>3}  {d.played:<28} ?  better {d.best} "
                         f"(-{d.loss:.0f} MP, ± {d.se:.0f})")
        else:
            lines.append(f"  move {d.index + 1:>3}  {d.played:<28} ok (or {d.best}: "
                         f"{d.gain:+.0f} ± {d.se:.0f}, within the noise)")
    return "\n".join(lines)


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\ranalysing: {done}/{total} decisions", end="" if done < total else "\n",
              file=sys.stderr, flush=True)


def _fail(message: str) -> int:
    print(f"burraco analyze: {message}", file=sys.stderr)
    return 2
