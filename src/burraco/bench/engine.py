"""``burraco bench engine``: how fast the pure engine plays, with every seat random.

Two passes per player count.  The throughput pass plays whole hands with
``legal_actions`` + ``apply_in_place`` and nothing else timed, so hands and
decisions per second are not inflated by the clock.  The micro pass times
each call of ``legal_actions``, ``apply`` (the copying form) and ``clone``
separately and reports medians.  Peak memory is the process's resident peak.

Rates are per second of the process's CPU time, which is what one core
delivers whatever else the machine is doing; the wall-clock rate is reported
beside them (``wall_hands_per_s``) and is lower on a busy machine.

The rollout pass is what a search bot pays: from mid-hand states, ``clone()``
and play uniformly at random to the end, many times per state.  With
``--compare-openspiel`` the same run also plays OpenSpiel's C++ ``gin_rummy``
uniformly at random from Python (chance nodes are not decisions), in rounds
alternating with ours, so the ratios are measured under the same load.
"""

from __future__ import annotations

import importlib
import random
import resource
import statistics
import sys
import time
from typing import Any

import burraco.engine.state as state_module
from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState


def engine_compiled() -> bool:
    """Whether the engine in use is the mypyc-compiled build (an extension module)."""
    return not (state_module.__file__ or "").endswith(".py")


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


def rollout_roots(players: int, rules: Rules, count: int, seed: int) -> list[HandState]:
    """Mid-hand states (10 to 60 random decisions in) to start rollouts from."""
    roots: list[HandState] = []
    k = 0
    while len(roots) < count:
        rng = random.Random(seed + 50_000 + k)
        state = HandState.start(
            deal_seeded(seed + 50_000 + k, players=players, rules=rules), rules)
        for _ in range(rng.randrange(10, 60)):
            if state.is_over:
                break
            state.apply_in_place(rng.choice(legal_actions(state)))
        if not state.is_over:
            roots.append(state)
        k += 1
    return roots


def random_rollouts(roots: list[HandState], per_root: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, decisions) of ``per_root`` uniformly random rollouts from each root's
    ``clone()`` to the end of the hand."""
    decisions = 0
    cpu_start = time.process_time()
    for i, root in enumerate(roots):
        rng = random.Random(seed + i)
        for _ in range(per_root):
            state = root.clone()
            while not state.is_over:
                state.apply_in_place(rng.choice(legal_actions(state)))
                decisions += 1
    return time.process_time() - cpu_start, decisions


def openspiel_playouts(game_name: str, games: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, decisions) of uniformly random OpenSpiel games, driven from Python.

    Raises ``ImportError`` when ``open_spiel`` is not installed.
    """
    pyspiel: Any = importlib.import_module("pyspiel")  # optional: the comparison only
    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)
    decisions = 0
    cpu_start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return time.process_time() - cpu_start, decisions


def compare_openspiel(
    players: int, rules: Rules, *, hands: int = 300, rounds: int = 3, seed: int = 1,
    game: str = "gin_rummy",
) -> dict[str, Any]:
    """Our decisions/s (whole hands, and rollouts from ``clone()``) beside OpenSpiel's, per
    CPU second, in ``rounds`` alternating rounds of the three loops."""
    roots = rollout_roots(players, rules, 20, seed)
    random_playouts(players, rules, max(1, hands // 10), seed + 99_999)  # warm caches
    openspiel_playouts(game, 20, seed + 99_999)
    ours = [0.0, 0]
    rolled = [0.0, 0]
    theirs = [0.0, 0]
    per_root = max(1, hands // 40)
    for r in range(rounds):
        cpu, _, decisions = random_playouts(players, rules, hands, seed + r * hands)
        ours[0] += cpu
        ours[1] += decisions
        cpu, decisions = random_rollouts(roots, per_root, seed + r)
        rolled[0] += cpu
        rolled[1] += decisions
        cpu, decisions = openspiel_playouts(game, hands, seed + r * hands)
        theirs[0] += cpu
        theirs[1] += decisions
    ours_rate = ours[1] / ours[0]
    rollout_rate = rolled[1] / rolled[0]
    theirs_rate = theirs[1] / theirs[0]
    return {
        "players": players,
        "rules": rules.name,
        "engine_compiled": engine_compiled(),
        "rounds": rounds,
        "decisions_per_s": round(ours_rate),
        "rollout_decisions_per_s": round(rollout_rate),
        f"openspiel_{game}_decisions_per_s": round(theirs_rate),
        "ratio_hands": round(ours_rate / theirs_rate, 2),
        "ratio_rollouts": round(rollout_rate / theirs_rate, 2),
    }


def format_comparison(result: dict[str, Any]) -> str:
    theirs = next(v for k, v in result.items() if k.startswith("openspiel_"))
    build = "compiled (mypyc)" if result["engine_compiled"] else "pure Python"
    return "\n".join([
        f"engine vs OpenSpiel gin_rummy, {result['players']} players, rules {result['rules']}, "
        f"{build} engine, every seat uniformly random, per CPU second, "
        f"{result['rounds']} alternating rounds",
        f"ours, whole hands:        {result['decisions_per_s']:>8} decisions/s  "
        f"{result['ratio_hands']}x",
        f"ours, rollouts (clone):   {result['rollout_decisions_per_s']:>8} decisions/s  "
        f"{result['ratio_rollouts']}x",
        f"OpenSpiel gin_rummy (C++): {theirs:>7} decisions/s  1.0x",
    ])


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
    roots = rollout_roots(players, rules, 10, seed)
    cpu, rolled = random_rollouts(roots, max(1, hands // 30), seed)
    figures["rollout_decisions_per_s"] = round(rolled / cpu)
    figures["engine_compiled"] = engine_compiled()
    figures["peak_mb"] = round(peak_mb(), 1)
    return figures


def format_report(results: dict[str, dict[str, Any]], rules: Rules) -> str:
    build = "compiled (mypyc)" if engine_compiled() else "pure Python"
    lines = [f"engine benchmark, rules {rules.name}, {build} engine, every seat uniformly "
             "random, per second of one core's CPU time"]
    for label, r in results.items():
        lines.append(
            f"{label}: {r['hands_per_s']:>8} hands/s  {r['decisions_per_s']:>7} decisions/s  "
            f"{r['decisions_per_hand']:>6} decisions/hand  legal_actions {r['legal_actions_us']} µs"
            f"  apply {r['apply_us']} µs  clone {r['clone_us']} µs  "
            f"rollouts {r['rollout_decisions_per_s']} decisions/s  peak {r['peak_mb']} MB")
    return "\n".join(lines)
