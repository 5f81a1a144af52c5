"""``burraco bench engine``: how fast the pure engine plays, with every seat random.

Two passes per player count.  The throughput pass plays whole hands with
``legal_actions`` + ``apply_in_place`` and nothing else timed, so hands and
decisions per second are not inflated by the clock.  The micro pass times
each call of ``legal_actions``, ``apply`` (the copying form) and ``clone``
separately and reports medians.  Peak memory is the process's resident peak.

Rates are per second of the process's CPU time, which is what one core
delivers whatever else the machine is doing; the wall-clock rate is reported
beside them (``wall_hands_per_s``) and is lower on a busy machine.
"""

from __future__ import annotations

import random
import resource
import statistics
import sys
import time
from typing import Any

from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState


def random_playouts(
    players: int, rules: Rules, hands: int, seed: int,
) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, decisions) of seeded uniformly random hands."""
    decisions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for k in range(hands):
        rng = random.Random(seed + k)
        state = HandState.start(deal_seeded(seed + k, players=players, rules=rules), rules)
        while not state.is_over:
            state.apply_in_place(rng.choice(legal_actions(state)))
            decisions += 1
    return time.process_time() - cpu_start, time.perf_counter() - start, decisions


def _micro(players: int, rules: Rules, hands: int, seed: int) -> dict[str, float]:
    legal_ns: list[int] = []
    apply_ns: list[int] = []
    clone_ns: list[int] = []
    clock = time.process_time_ns
    for k in range(hands):
        rng = random.Random(seed + 10_000 + k)
        state = HandState.start(
            deal_seeded(seed + 10_000 + k, players=players, rules=rules), rules)
        while not state.is_over:
            t0 = clock()
            actions = legal_actions(state)
            t1 = clock()
            state.clone()
            t2 = clock()
            state, _ = state.apply(rng.choice(actions))
            t3 = clock()
            legal_ns.append(t1 - t0)
            clone_ns.append(t2 - t1)
            apply_ns.append(t3 - t2)
    return {
        "legal_actions_us": statistics.median(legal_ns) / 1000,
        "apply_us": statistics.median(apply_ns) / 1000,
        "clone_us": statistics.median(clone_ns) / 1000,
    }


def peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def bench_engine(
    players: int, rules: Rules, *, hands: int = 300, micro_hands: int = 100, seed: int = 1,
) -> dict[str, Any]:
    """Figures for one player count, as printed by ``burraco bench engine --json``."""
    random_playouts(players, rules, max(1, hands // 10), seed + 99_999)  # warm caches
    seconds, wall, decisions = random_playouts(players, rules, hands, seed)
    figures: dict[str, Any] = {
        "hands": hands,
        "hands_per_s": round(hands / seconds, 1),
        "decisions_per_s": round(decisions / seconds),
        "decisions_per_hand": round(decisions / hands, 1),
        "wall_hands_per_s": round(hands / wall, 1),
    }
    figures.update({k: round(v, 2) for k, v in _micro(players, rules, micro_hands, seed).items()})
    figures["peak_mb"] = round(peak_mb(), 1)
    return figures


def format_report(results: dict[str, dict[str, Any]], rules: Rules) -> str:
    lines = [f"engine benchmark, rules {rules.name}, every seat uniformly random, "
             "per second of one core's CPU time"]
    for label, r in results.items():
        lines.append(
            f"{label}: {r['hands_per_s']:>8} hands/s  {r['decisions_per_s']:>7} decisions/s  "
            f"{r['decisions_per_hand']:>6} decisions/hand  legal_actions {r['legal_actions_us']} µs"
            f"  apply {r['apply_us']} µs  clone {r['clone_us']} µs  peak {r['peak_mb']} MB")
    return "\n".join(lines)
