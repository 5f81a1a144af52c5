"""``burraco arena`` (bots against bots, duplicate deals) and ``burraco bench bots``.

    burraco arena A B [--players 2|4] [--rules PRESET] [--matches N] [--hands-per-match K]
                  [--jobs J | --ray [ADDRESS]] [--seed S] [--json FILE]
    burraco arena --ladder [A B C ...] [--plot FILE.png] [same options]
    burraco bench bots [--levels L1,L2] [--players 2|4] [--hands N] [--seed S] [--json]

A bot is a level name (``random``, ``basic``, ``advanced``, ``expert``), with
options after a colon: ``expert:iterations=48``; or ``cmd:COMMAND LINE``, an
outside program speaking the open bot protocol (docs/bot-protocol.md).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from typing import Any

from burraco.arena import latency
from burraco.arena.duplicate import MatchResult, MatchSpec, run_matches, summarize, tables_of
from burraco.arena.plot import PlotUnavailable, plot_ladder
from burraco.arena.ray_runner import RayUnavailable, connect, run_matches_on_ray
from burraco.arena.stats import elo_intervals, fit_elo
from burraco.bots.base import LEVEL_NAMES, RETIRED_LEVELS, make_bot
from burraco.bots.external import DEFAULT_DEADLINE_MS, is_external
from burraco.cliparts import subcommands_of
from burraco.engine.rules import Rules

DESCRIPTION = (
    "Play bots against each other with duplicate deals: each deal is played twice with the "
    "sides swapped (at 3, 5 and 6 players: with each bot alone at each place in turn), so "
    "only the play differs.  A bot may be an outside program, cmd:COMMAND LINE "
    "(docs/bot-protocol.md).  Reports A's match win rate (95 % Wilson "
    "interval), the mean match-point difference per hand (95 % interval), hands per second "
    "and each bot's decision latency (median, p95).  --ladder plays a round robin of all the "
    "bots given and fits Elo ratings (Bradley-Terry, 95 % bootstrap intervals).")


def register(sub: Any) -> None:
    """Add ``arena``, and ``bots`` under the existing ``bench``."""
    parser = sub.add_parser(
        "arena", help="bots against bots: duplicate matches, win rates, Elo",
        description=DESCRIPTION)
    add_arena_arguments(parser)
    parser.set_defaults(handler=run_arena)

    bots = subcommands_of(sub, "bench").add_parser(
        "bots", help="decision latency of each bot level, on one core",
        description="Play hands with each level at one side (advanced at the other) and "
        "report its decision latency: median, p95, max, and hands per second.")
    latency.add_arguments(bots)
    bots.set_defaults(handler=latency.run)


def _bot_spec(text: str) -> str:
    try:
        make_bot(text, seed=0)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _preset(name: str) -> str:
    try:
        Rules.preset(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bots", nargs="*", type=_bot_spec, metavar="BOT",
                        help=f"two bots (A B), or several with --ladder: {', '.join(LEVEL_NAMES)} "
                        f"(earlier versions: {', '.join(RETIRED_LEVELS)})"
                        ", options after a colon (expert:iterations=48), or cmd:COMMAND LINE; "
                        "--ladder with no level plays every level (and the cmd: bots given)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4, 5, 6), default=2,
                        help="players at each table (default 2; docs/bots.md says how 3, 5 "
                        "and 6 players are seated and scored)")
    parser.add_argument("--rules", type=_preset, default="fibur", metavar="PRESET",
                        help="rules preset (default fibur)")
    parser.add_argument("--matches", type=_positive, default=100,
                        help="duplicate matches per pair of bots (default 100)")
    parser.add_argument("--hands-per-match", type=_positive, default=1, metavar="K",
                        help="deals per match, each played twice (default 1)")
    parser.add_argument("--jobs", type=_positive, default=1,
                        help=f"processes (default 1; this machine has {os.cpu_count() or 1} "
                        "cores)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and bots")
    parser.add_argument("--deadline-ms", type=_positive, default=DEFAULT_DEADLINE_MS,
                        metavar="MS", help="time an outside (cmd:) bot has for each decision "
                        f"(default {DEFAULT_DEADLINE_MS})")
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="play the matches on a Ray cluster (a local one without ADDRESS; "
                        "needs pip install 'burraco[cluster]'; see docs/bots.md)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--ladder", action="store_true",
                        help="round robin of all the bots given, with Elo ratings")
    parser.add_argument("--plot", metavar="FILE.png", default="ladder.png",
                        help="with --ladder: the PNG of the ratings and their intervals "
                        "(default ladder.png; '' for none; needs burraco[plot])")
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="always show the progress bar (default: on a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false")


def run_arena(args: argparse.Namespace) -> int:
    bots: list[str] = args.bots
    if args.ladder and all(is_external(b) for b in bots):  # every level, and these engines
        bots = [*LEVEL_NAMES, *bots]
    if args.ray is not None:
        try:
            connect(args.ray)  # once for the whole run (a ladder plays several pairs)
        except RayUnavailable as exc:
            print(f"burraco arena: {exc}", file=sys.stderr)
            return 2
    if args.ladder:
        if len(set(bots)) < 2:
            print("burraco arena: --ladder needs at least two different bots", file=sys.stderr)
            return 2
        return _run_ladder(args, list(dict.fromkeys(bots)))
    if len(bots) != 2:
        print("burraco arena: give two bots (A B), or use --ladder for more", file=sys.stderr)
        return 2
    a, b = bots
    print(f"arena: {a} vs {b}, {args.players} players, rules {args.rules}, "
          f"{args.matches} duplicate matches of {args.hands_per_match} deal(s) "
          f"({len(tables_of(args.players)) * args.matches * args.hands_per_match} hands), "
          f"seed {args.seed}, "
          + (f"Ray cluster {args.ray}" if args.ray else f"{args.jobs} job(s)"), file=sys.stderr)
    summary = _play_pair(args, a, b, desc=f"{a} vs {b}")
    print(format_summary(summary))
    if args.json:
        _write_json(args.json, summary)
    return 0


def _play_pair(args: argparse.Namespace, a: str, b: str, *, desc: str,
               offset: int = 0) -> dict[str, Any]:
    results, seconds = _play(args, a, b, desc=desc, offset=offset)
    summary = summarize(a, b, args.players, results, seconds)
    summary.update({"rules": args.rules, "hands_per_match": args.hands_per_match,
                    "seed": args.seed})
    return summary


def _play(args: argparse.Namespace, a: str, b: str, *, desc: str,
          offset: int = 0) -> tuple[list[MatchResult], float]:
    from tqdm import tqdm  # type: ignore[import-untyped]  # slow to import: not at --help

    specs = [
        MatchSpec(a, b, args.players, args.rules, args.hands_per_match, args.seed + offset, i,
                  args.deadline_ms)
        for i in range(args.matches)
    ]
    disable = None if args.progress is None else not args.progress
    start = time.perf_counter()
    with tqdm(total=len(specs), desc=desc, unit="match", disable=disable,
              file=sys.stderr) as bar:
        if args.ray is not None:
            results = run_matches_on_ray(specs, args.ray, progress=lambda: bar.update(1))
        else:
            results = run_matches(specs, jobs=args.jobs, progress=lambda: bar.update(1))
    return results, time.perf_counter() - start


def format_summary(s: dict[str, Any]) -> str:
    lo, hi = s["win_rate_ci"]
    dlo, dhi = s["mp_diff_ci"]
    lines = [
        f"{s['a']} vs {s['b']}, {s['players']} players, {s['matches']} duplicate matches "
        f"({s['hands']} hands)",
        f"  win rate of {s['a']}: {100 * s['win_rate']:.1f} %  "
        f"(95 % CI {100 * lo:.1f}–{100 * hi:.1f} %)",
        f"  match points per hand, {s['a']} minus {s['b']}: {s['mp_diff_per_hand']:+.1f}  "
        f"(95 % CI {dlo:+.1f} to {dhi:+.1f})",
        f"  speed: {s['hands_per_s']:.2f} hands/s",
    ]
    for name, lat in s["latency_ms"].items():
        lines.append(f"  decision latency of {name}: median {lat['p50']:.2f} ms, "
                     f"p95 {lat['p95']:.2f} ms")
    for name, lost in s.get("faults", {}).items():
        marked = s.get("marked_matches", [])
        lines.append(f"  MARKED: {name} lost {lost} decision(s) to the fallback in "
                     f"{len(marked)} match(es): {', '.join(map(str, marked[:10]))}"
                     f"{' ...' if len(marked) > 10 else ''}")
    return "\n".join(lines)


def _run_ladder(args: argparse.Namespace, bots: list[str]) -> int:
    pairs = list(itertools.combinations(range(len(bots)), 2))
    print(f"arena ladder: {', '.join(bots)}; {len(pairs)} pairs x {args.matches} duplicate "
          f"matches, {args.players} players, rules {args.rules}, seed {args.seed}",
          file=sys.stderr)
    outcomes: list[tuple[int, int, float]] = []
    summaries = []
    for k, (i, j) in enumerate(pairs):
        results, seconds = _play(args, bots[i], bots[j], desc=f"{bots[i]} vs {bots[j]}",
                                 offset=1000 * k)
        summary = summarize(bots[i], bots[j], args.players, results, seconds)
        summaries.append(summary)
        outcomes += [(i, j, r.score) for r in results]
        print(format_summary(summary), file=sys.stderr)
    anchor = bots.index("random") if "random" in bots else 0
    ratings = fit_elo(len(bots), outcomes, anchor=anchor)
    intervals = elo_intervals(len(bots), outcomes, anchor=anchor, seed=args.seed)
    order = sorted(range(len(bots)), key=lambda p: -ratings[p])
    played = [sum(1 for i, j, _ in outcomes if p in (i, j)) for p in range(len(bots))]
    print(f"Elo ({bots[anchor]} = 0; 95 % bootstrap intervals over matches)\n")
    print("| bot | Elo | 95 % interval | matches |\n|---|---|---|---|")
    for p in order:
        lo, hi = intervals[p]
        print(f"| {bots[p]} | {ratings[p]:+.0f} | {lo:+.0f} to {hi:+.0f} | {played[p]} |")
    if args.plot:
        title = (f"burraco arena --ladder: {args.players} players, {args.matches} duplicate "
                 f"matches per pair, rules {args.rules}, seed {args.seed}")
        try:
            plot_ladder([(bots[p], ratings[p], *intervals[p]) for p in range(len(bots))],
                        args.plot, title=title)
            print(f"\nplot written to {args.plot}")
        except PlotUnavailable as exc:
            print(f"burraco arena: no plot: {exc}", file=sys.stderr)
    if args.json:
        _write_json(args.json, {
            "players": args.players, "rules": args.rules, "matches": args.matches,
            "hands_per_match": args.hands_per_match, "seed": args.seed, "anchor": bots[anchor],
            "elo": {bots[p]: {"elo": round(ratings[p], 1),
                              "ci": [round(intervals[p][0], 1), round(intervals[p][1], 1)]}
                    for p in range(len(bots))},
            "pairs": summaries,
        })
    return 0


def _write_json(path: str, data: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2)
        handle.write("\n")
