"""``burraco bench bots``: how long each bot level takes to decide, on one core.

The arena's command line registers it under ``burraco bench`` (:mod:`burraco.arena.cli`);
it plays with the arena's runner.

Each level plays whole hands at side 0 against ``advanced`` at the other side
(the level an opponent most often meets), in this process only.  Every call
of the bot's ``act`` is timed, forced moves (a single legal action) included,
as a player waiting for the bot would feel them; the report gives the median,
p95 and max per level and player count, and hands per second.

Two clocks: wall time, and the process's CPU time (``time.process_time``),
which is what one core spends on the decision even when other programs share
the machine; on an idle core the two agree.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from burraco.arena.runner import play_hand
from burraco.arena.stats import percentile
from burraco.bots.base import LEVEL_NAMES, Bot, make_bot
from burraco.engine.actions import Action
from burraco.engine.deal import deal_seeded
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import View

DEFAULT_HANDS = {"random": 40, "basic": 40, "advanced": 40, "expert": 4}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--levels", default=",".join(LEVEL_NAMES),
                        help="comma-separated bots (default every level; options allowed, "
                             "e.g. expert:iterations=48)")
    parser.add_argument("--players", type=int, action="append", choices=(2, 4),
                        help="player count (repeatable; default 2 and 4)")
    parser.add_argument("--rules", default="fibur", help="rules preset (default fibur)")
    parser.add_argument("--hands", type=int, default=None,
                        help="hands per level and player count (default 40; expert 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


class _Timed:
    """A bot whose every decision is timed on both clocks."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.act(view, legal)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return action


def bench_bot(spec: str, players: int, rules: Rules, *, hands: int, seed: int) -> dict[str, Any]:
    """Latency figures of one bot spec at one player count."""
    wall: list[float] = []
    cpu: list[float] = []
    start = time.perf_counter()
    for k in range(hands):
        deal = deal_seeded(seed + k, players=players, rules=rules)
        timed = [
            _Timed(make_bot(spec, seed=seed * 1000 + k * 10 + seat, rules=rules))
            for seat in range(0, players, 2)
        ]
        bots: list[Bot] = [
            timed[seat // 2] if seat % 2 == 0 else make_bot(
                "advanced", seed=seed * 1000 + k * 10 + seat, rules=rules)
            for seat in range(players)
        ]
        play_hand(HandState.start(deal, rules), bots)
        for bot in timed:
            wall += bot.wall
            cpu += bot.cpu
    seconds = time.perf_counter() - start
    return {
        "hands": hands,
        "decisions": len(wall),
        "p50_ms": round(1000 * percentile(wall, 0.5), 3),
        "p95_ms": round(1000 * percentile(wall, 0.95), 3),
        "max_ms": round(1000 * max(wall, default=0.0), 3),
        "mean_ms": round(1000 * sum(wall) / max(1, len(wall)), 3),
        "cpu_p50_ms": round(1000 * percentile(cpu, 0.5), 3),
        "cpu_p95_ms": round(1000 * percentile(cpu, 0.95), 3),
        "hands_per_s": round(hands / seconds, 3),
    }


def run(args: argparse.Namespace) -> int:
    try:
        rules = Rules.preset(args.rules)
        levels = [s.strip() for s in args.levels.split(",") if s.strip()]
        for spec in levels:
            make_bot(spec, seed=0)
    except ValueError as exc:
        print(f"burraco bench bots: {exc}", file=sys.stderr)
        return 2
    if args.hands is not None and args.hands < 1:
        print("burraco bench bots: --hands must be at least 1", file=sys.stderr)
        return 2
    results: dict[str, dict[str, Any]] = {}
    for spec in levels:
        name = spec.partition(":")[0]
        hands = args.hands or DEFAULT_HANDS.get(name, 10)
        results[spec] = {
            f"{players}p": bench_bot(spec, players, rules, hands=hands, seed=args.seed)
            for players in (args.players or [2, 4])
        }
    print(json.dumps(results) if args.json else format_report(results, rules))
    return 0


def format_report(results: dict[str, dict[str, Any]], rules: Rules) -> str:
    lines = [f"bot decision latency, rules {rules.name}, one core, vs advanced"]
    for spec, by_players in results.items():
        for label, r in by_players.items():
            lines.append(
                f"{spec:<24} {label}: median {r['p50_ms']:>8.3f} ms  p95 {r['p95_ms']:>8.3f} ms"
                f"  max {r['max_ms']:>9.3f} ms  (CPU: median {r['cpu_p50_ms']:.3f} ms, p95 "
                f"{r['cpu_p95_ms']:.3f} ms; {r['decisions']} decisions, "
                f"{r['hands_per_s']} hands/s)")
    return "\n".join(lines)
