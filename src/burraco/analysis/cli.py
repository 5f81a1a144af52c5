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
    "(0 when it agrees, or when the strongest level's move gains less than 2 standard errors "
    "or 5 points).")


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
        print(format_analysis(result, settings))
    return 0


def format_analysis(result: Analysis, settings: Settings | None = None) -> str:
    """The analysis as text: one line per decision, the statistics said as they are."""
    settings = settings or Settings()
    marked = [d for d in result.decisions if d.loss > 0]
    lines = [f"seat {result.seat}, {result.players} players, rules {result.rules}: "
             f"{len(result.decisions)} decisions judged by {result.level}, {len(marked)} "
             f"marked, {result.total_loss:.0f} match points lost in all"]
    for d in result.decisions:
        head = f"  move {d.index + 1:>3}  {d.played:<28}"
        if d.played == d.best:
            lines.append(f"{head} ok")
        elif d.loss > 0:
            lines.append(f"{head} ?  better {d.best} (-{d.loss:.0f} MP, ± {d.se:.0f}, "
                         f"{errors(d.gain, d.se)})")
        else:
            digits = 1 if 0 < d.se < 1 else 0  # "+0 ± 0" would hide a difference of 0.3 ± 0.3
            lines.append(f"{head} ok (or {d.best}: {d.gain:+.{digits}f} ± {d.se:.{digits}f}, "
                         f"{unmarked_why(d.gain, d.se, settings)})")
    return "\n".join(lines)


def errors(gain: float, se: float) -> str:
    """How many standard errors ``gain`` lies from 0: ``4.0 standard errors``."""
    if se <= 0:
        return "the same on every deal" if gain == 0 else "every deal alike"
    return f"{abs(gain) / se:.1f} standard errors"


def unmarked_why(gain: float, se: float, settings: Settings) -> str:
    """Why a move other than the strongest level's costs no mark, as the statistics say it:
    within the noise only up to ``z`` standard errors (the analysis' own test); beyond them,
    either the move played did better or the gain is below the margin that counts."""
    if abs(gain) <= settings.z * se:
        return f"within the noise: {errors(gain, se)}"
    if gain < 0:
        return f"the move played did better: {errors(gain, se)}"
    return f"{errors(gain, se)}, but below the {settings.margin:g}-point margin"


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\ranalysing: {done}/{total} decisions", end="" if done < total else "\n",
              file=sys.stderr, flush=True)


def _fail(message: str) -> int:
    print(f"burraco analyze: {message}", file=sys.stderr)
    return 2
