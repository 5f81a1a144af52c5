"""``burraco audit secrecy``: the counterfactual secrecy audit over many hands (1: a leak)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from burraco.audit.secrecy import Tally, audit_hand
from burraco.bots.base import make_bot
from burraco.engine.rules import PRESETS

DESCRIPTION = (
    "Play hands, and at sampled positions swap a card of the seat on turn that nobody else "
    "has seen with a card nobody has seen (the stock, an untaken pozzetto; always the other "
    "copy of the same face when it is there), play the same actions in both worlds and check "
    "that every seat that has not seen the difference itself got identical views, research "
    "observations, bot-protocol messages and server frames. Exit 0: no difference; 1: a leak "
    "(each is printed); 2: bad usage.")


def register(sub: Any) -> None:
    parser = sub.add_parser("audit", help="audits of the whole platform (secrecy)",
                            description="Audits of the whole platform.")
    audits = parser.add_subparsers(dest="audit", metavar="AUDIT", required=True)
    secrecy = audits.add_parser("secrecy", help="counterfactual secrecy audit",
                                description=DESCRIPTION)
    secrecy.add_argument("--players", default="2,3,4,5,6",
                         help="player counts, comma-separated (default 2,3,4,5,6)")
    secrecy.add_argument("--rules", default="all", metavar="PRESETS",
                         help="presets, comma-separated, or all (default all)")
    secrecy.add_argument("--hands", type=int, default=20,
                         help="hands per preset, player count and policy (default 20)")
    secrecy.add_argument("--policies", default="random,basic",
                         help="who plays the hands: random or a bot level, comma-separated "
                              "(default random,basic)")
    secrecy.add_argument("--positions", type=int, default=4,
                         help="positions audited per hand (default 4)")
    secrecy.add_argument("--continuation", type=int, default=8,
                         help="public actions played in both worlds after the swap (default 8)")
    secrecy.add_argument("--swaps", type=int, default=2,
                         help="swaps with another face per position, besides every same-face "
                              "swap (default 2)")
    secrecy.add_argument("--seed", type=int, default=0, help="first hand's seed (default 0)")
    secrecy.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    secrecy.add_argument("--json", action="store_true", help="print one JSON object")
    secrecy.set_defaults(handler=run)


def _fail(message: str) -> int:
    print(f"burraco audit secrecy: {message}", file=sys.stderr)
    return 2


def _ints(text: str, name: str, low: int, high: int) -> list[int] | str:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        return f"{name} {text!r}: give numbers separated by commas"
    bad = [v for v in values if not low <= v <= high]
    if not values or bad:
        return f"{name} {text!r}: each must be {low} to {high}"
    return values


def _job(preset: str, players: int, policy: str, hands: int, seed: int,
         options: dict[str, int]) -> tuple[str, Tally]:
    tally = Tally()
    for k in range(hands):
        tally.add(audit_hand(preset, players, seed + k, policy=policy, **options))
    return f"{preset} {players}p {policy}", tally


def run(args: argparse.Namespace) -> int:
    players = _ints(args.players, "--players", 2, 6)
    if isinstance(players, str):
        return _fail(players)
    presets = sorted(PRESETS) if args.rules == "all" else [
        p.strip() for p in args.rules.split(",") if p.strip()]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown or not presets:
        return _fail(f"--rules {args.rules!r}: unknown preset(s) {', '.join(unknown) or '-'} "
                     f"(known: {', '.join(sorted(PRESETS))}, or all)")
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    for policy in policies:
        if policy != "random":
            try:
                make_bot(policy, seed=0)
            except ValueError as exc:
                return _fail(f"--policies: {exc}")
    for name in ("hands", "positions", "continuation", "jobs"):
        if getattr(args, name) < 1:
            return _fail(f"--{name} {getattr(args, name)}: give at least 1")
    if args.swaps < 0:
        return _fail(f"--swaps {args.swaps}: give 0 or more")
    options = {"positions": args.positions, "continuation": args.continuation,
               "swaps": args.swaps}
    jobs = [(preset, count, policy, args.hands, args.seed, options)
            for preset in presets for count in players for policy in policies]
    started = time.perf_counter()
    total = Tally()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name, tally in pool.map(_job, *zip(*jobs, strict=True)):
            total.add(tally)
            if not args.json:
                print(f"{name}: {tally.worlds} worlds ({tally.same_face} differ only in a copy), "
                      f"{tally.comparisons} comparisons, {len(tally.findings)} differences",
                      file=sys.stderr)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({
            "hands": total.hands, "positions": total.positions, "worlds": total.worlds,
            "same_face_worlds": total.same_face, "comparisons": total.comparisons,
            "differences": [str(f) for f in total.findings], "seconds": round(seconds, 1)}))
    else:
        print(f"{total.hands} hands, {total.positions} positions, {total.worlds} pairs of worlds "
              f"({total.same_face} differing only in which copy is where), "
              f"{total.comparisons} comparisons of every surface, {seconds:.0f} s: "
              f"{len(total.findings)} differences")
        for finding in total.findings[:20]:
            print(f"  {finding}")
    return 1 if total.findings else 0
