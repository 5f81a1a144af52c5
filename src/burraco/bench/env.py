"""``burraco bench env``: how fast ``burraco_v0`` steps, next to the engine's own speed.

Every agent picks uniformly among the ids its mask allows, one hand per
episode, on one core.  Three passes per player count:

* the standard AEC loop (``bench/aec_loop.py``) for every player count, and
  PettingZoo's ``gin_rummy_v4`` through the same loop in a reference
  interpreter (``--reference-python``), interleaved rounds, best per CPU second;
* throughput: whole hands through the raw environment as a self-play loop
  runs them (``observe`` for the agent on turn, a masked random id, ``step``),
  then the same through ``burraco_v0.env()`` (the checks built in) and
  ``last()``;
* micro: median µs of the observation alone (encoded from the state), of the mask
  alone (legal actions + ids), of ``observe`` (both) and of ``step``;
* the engine's decisions per second, played as ``burraco bench engine`` plays
  them (``legal_actions`` + ``apply_in_place``, a random legal action, the
  same deals), the ceiling the environment is measured against.

Throughputs are given per wall-clock second, as ``bench engine`` gives them,
and per second of this process's CPU time, which holds steady on a shared
machine; their ratio is the environment's cost over the bare engine.

NumPy, PettingZoo and Gymnasium come with the ``research`` extra; this module
imports them only when it runs.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

from burraco.bench import aec_loop
from burraco.bench.engine import random_playouts
from burraco.engine.rules import Rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, action="append", choices=(2, 3, 4, 5, 6),
                        help="player count (repeatable; default 2 and 4)")
    parser.add_argument("--rules", default="fibur", help="rules preset (default fibur)")
    parser.add_argument("--hands", type=int, default=100,
                        help="hands timed per player count and pass (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--reference-python", metavar="PATH",
        help="a Python with PettingZoo 1.24.3 and RLCard (pettingzoo[classic]==1.24.3): times "
             "its gin_rummy_v4 in the same run (default: this Python, if it can import it)")
    parser.add_argument("--aec-steps", type=int, default=20_000,
                        help="agent steps of the AEC loop per environment and round "
                             "(default 20000)")
    parser.add_argument("--vector-games", type=int, default=64, metavar="N",
                        help="games of the VectorEnv figure (default 64; 0: none)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the AEC comparison, best kept (default 3)")


def _raw_throughput(
    players: int, rules: Rules, hands: int, seed: int,
) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, steps) of a self-play loop through ``raw_env``."""
    import numpy as np  # the research extra: loaded only when the benchmark runs

    from burraco.env.burraco_v0 import raw_env  # NumPy, PettingZoo: only when it runs

    env = raw_env(players, rules)
    rng = random.Random(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for k in range(hands):
        env.reset(seed=seed + k)
        while not env.terminations[env.agent_selection]:
            mask = env.observe(env.agent_selection)["action_mask"]
            ids = np.flatnonzero(mask.view(bool))
            env.step(int(ids[rng.randrange(len(ids))]))
            steps += 1
    return time.perf_counter() - start, time.process_time() - cpu, steps


def _wrapped_throughput(
    players: int, rules: Rules, hands: int, seed: int,
) -> tuple[float, float, int]:
    import numpy as np  # the research extra: loaded only when the benchmark runs

    from burraco.env import burraco_v0  # NumPy, PettingZoo: only when it runs

    env = burraco_v0.env(players=players, rules=rules)
    rng = random.Random(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for k in range(hands):
        env.reset(seed=seed + k)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"].view(bool))
            env.step(int(ids[rng.randrange(len(ids))]))
            steps += 1
    return time.perf_counter() - start, time.process_time() - cpu, steps


def _micro(players: int, rules: Rules, hands: int, seed: int) -> dict[str, float]:
    import numpy as np  # the research extra: loaded only when the benchmark runs

    from burraco.env import masks  # NumPy, PettingZoo: only when it runs
    from burraco.env.burraco_v0 import raw_env  # likewise

    env = raw_env(players, rules)
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    samples: dict[str, list[int]] = {"observation": [], "mask": [], "observe": [], "step": []}
    for k in range(hands):
        env.reset(seed=seed + 10_000 + k)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            state = env.game_state
            seat = state.turn
            t0 = clock()
            env.encoder.encode_state(state, seat)
            t1 = clock()
            masks.mask_of(masks.legal_ids(state), packs=env.packs)
            t2 = clock()
            obs = env.observe(agent)
            t3 = clock()
            ids = np.flatnonzero(obs["action_mask"].view(bool))
            choice = int(ids[rng.randrange(len(ids))])
            t4 = clock()
            env.step(choice)
            t5 = clock()
            samples["observation"].append(t1 - t0)
            samples["mask"].append(t2 - t1)
            samples["observe"].append(t3 - t2)
            samples["step"].append(t5 - t4)
    return {f"{name}_us": statistics.median(v) / 1000 for name, v in samples.items()}


def bench_env(players: int, rules: Rules, *, hands: int = 100, seed: int = 1) -> dict[str, Any]:
    """Figures for one player count, as printed by ``burraco bench env --json``."""
    _raw_throughput(players, rules, max(1, hands // 10), seed + 99_999)  # warm caches
    random_playouts(players, rules, max(1, hands // 10), seed + 99_999)
    seconds, cpu, steps = _raw_throughput(players, rules, hands, seed)
    engine_cpu, engine_seconds, decisions = random_playouts(players, rules, hands, seed)
    wrapped_seconds, _, wrapped_steps = _wrapped_throughput(players, rules, hands, seed)
    figures: dict[str, Any] = {
        "hands": hands,
        "env_steps_per_s": round(steps / seconds),
        "env_steps_per_cpu_s": round(steps / cpu),
        "env_hands_per_s": round(hands / seconds, 1),
        "steps_per_hand": round(steps / hands, 1),
        "wrapped_env_steps_per_s": round(wrapped_steps / wrapped_seconds),
    }
    micro = _micro(players, rules, max(1, hands // 3), seed)
    figures.update({k: round(v, 2) for k, v in micro.items()})
    figures["engine_decisions_per_s"] = round(decisions / engine_seconds)
    figures["engine_decisions_per_cpu_s"] = round(decisions / engine_cpu)
    figures["env_vs_engine"] = round((steps / cpu) / (decisions / engine_cpu), 3)
    return figures


def reference_loop(python: str | None, steps: int, seed: int) -> dict[str, Any] | None:
    """PettingZoo's gin_rummy_v4 through the AEC loop: in ``python`` (a subprocess running
    ``aec_loop.py``), or here if this interpreter can import it; ``None`` if neither."""
    if python is not None:
        done = subprocess.run(
            [python, aec_loop.__file__, "gin_rummy_v4", "--steps", str(steps), "--seed",
             str(seed)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{python} could not run gin_rummy_v4: "
                               f"{done.stderr.strip().splitlines()[-1:]}")
        result: dict[str, Any] = json.loads(done.stdout)
        return result
    try:
        import pettingzoo.classic.gin_rummy_v4  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return None
    return dict(aec_loop.gin_rummy(steps, seed))


def aec_comparison(
    players: list[int], rules: Rules, *, steps: int, rounds: int, seed: int,
    reference_python: str | None, vector_games: int = 0,
) -> dict[str, Any]:
    """The standard AEC loop, per CPU second, for gin_rummy_v4 and burraco_v0, interleaved
    over ``rounds`` rounds on this one core (the best round of each is kept: the machine's
    other load only ever slows a round down)."""
    from burraco.env import burraco_v0  # NumPy, PettingZoo: only when it runs

    best: dict[str, float] = {}
    reference: dict[str, Any] | None = None
    for k in range(rounds):
        ref = reference_loop(reference_python, steps, seed + k)
        if ref is not None and (reference is None
                                or ref["steps_per_cpu_s"] > reference["steps_per_cpu_s"]):
            reference = ref
        for n in players:
            def make(n: int = n) -> Any:
                return burraco_v0.env(players=n, rules=rules)

            if k == 0:
                aec_loop.timed_loop(make, max(200, steps // 10), seed + 99_999)  # warm up
            r = aec_loop.timed_loop(make, steps, seed + k)
            best[f"{n}p"] = max(best.get(f"{n}p", 0.0), r["steps_per_cpu_s"])
    out: dict[str, Any] = {"steps": steps, "rounds": rounds,
                           "burraco_v0_steps_per_cpu_s": {k: round(v) for k, v in best.items()}}
    if vector_games:
        out["vector"] = {f"{n}p": vector_throughput(n, rules, vector_games,
                                                    max(1, steps // vector_games), seed)
                         for n in players}
    if reference is not None:
        ref_rate = reference["steps_per_cpu_s"]
        out["gin_rummy_v4_steps_per_cpu_s"] = round(ref_rate)
        out["gin_rummy_v4_pettingzoo"] = reference.get("pettingzoo")
        out["ratio_vs_gin_rummy_v4"] = {k: round(v / ref_rate, 2) for k, v in best.items()}
    return out


def vector_throughput(players: int, rules: Rules, games: int, steps: int,
                      seed: int) -> dict[str, float]:
    """Game steps per second of :class:`~burraco.env.vector.VectorEnv` with ``games`` games,
    a uniformly random legal id per game (``random_actions``), arrays copied as by default."""
    import numpy as np  # the research extra: loaded only when the benchmark runs

    from burraco.env.vector import VectorEnv  # NumPy, PettingZoo: only when it runs

    vec = VectorEnv(games, players=players, rules=rules)
    vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(max(1, steps // 10)):  # warm the caches
        vec.step(vec.random_actions(rng))
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        vec.step(vec.random_actions(rng))
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return {"games": games, "game_steps_per_s": round(games * steps / wall),
            "game_steps_per_cpu_s": round(games * steps / used)}


def format_aec(aec: dict[str, Any]) -> str:
    rates = aec["burraco_v0_steps_per_cpu_s"]
    lines = [f"AEC loop (agent_iter, last, a random id of the mask, step), agent steps per CPU "
             f"second, best of {aec['rounds']} rounds of {aec['steps']} steps:"]
    ratios = aec.get("ratio_vs_gin_rummy_v4")
    if ratios is None:
        lines.append("  gin_rummy_v4 not available (give --reference-python, a Python with "
                     "pettingzoo[classic]==1.24.3): absolute figures only")
    else:
        lines.append(f"  gin_rummy_v4 (PettingZoo {aec['gin_rummy_v4_pettingzoo']}): "
                     f"{aec['gin_rummy_v4_steps_per_cpu_s']}")
    for label, rate in rates.items():
        extra = f"  ({ratios[label]}x gin_rummy_v4)" if ratios else ""
        vector = aec.get("vector", {}).get(label)
        if vector:
            extra += (f"; VectorEnv of {vector['games']} games: "
                      f"{vector['game_steps_per_cpu_s']} game steps")
        lines.append(f"  burraco_v0 {label}: {rate}{extra}")
    return "\n".join(lines)


def format_report(results: dict[str, dict[str, Any]], rules: Rules) -> str:
    lines = [f"burraco_v0 benchmark, rules {rules.name}, every agent uniformly random over its "
             "mask, one core"]
    for label, r in results.items():
        lines.append(
            f"{label}: env {r['env_steps_per_s']:>6} steps/s ({r['env_steps_per_cpu_s']} per "
            f"CPU s, {r['env_hands_per_s']} hands/s; {r['wrapped_env_steps_per_s']} steps/s "
            f"through env() and last())  | engine {r['engine_decisions_per_s']:>6} decisions/s "
            f"({r['engine_decisions_per_cpu_s']} per CPU s)  | env/engine {r['env_vs_engine']}\n"
            f"    median µs: observation {r['observation_us']}  mask {r['mask_us']}  observe "
            f"{r['observe_us']}  step {r['step_us']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        import numpy  # noqa: F401  # is the research extra installed?
        import pettingzoo  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        print("burraco bench env: needs the research extra: pip install 'burraco[research]'",
              file=sys.stderr)
        return 2
    try:
        rules = Rules.preset(args.rules)
    except ValueError as exc:
        print(f"burraco bench env: {exc}", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("burraco bench env: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.aec_steps < 1 or args.rounds < 1 or args.vector_games < 0:
        print("burraco bench env: --aec-steps and --rounds must be at least 1, --vector-games "
              "at least 0", file=sys.stderr)
        return 2
    if args.reference_python is not None and shutil.which(args.reference_python) is None:
        print(f"burraco bench env: --reference-python {args.reference_python}: no such "
              "program", file=sys.stderr)
        return 2
    players = args.players or [2, 4]
    try:
        aec = aec_comparison(players, rules, steps=args.aec_steps, rounds=args.rounds,
                             seed=args.seed, reference_python=args.reference_python,
                             vector_games=args.vector_games)
    except RuntimeError as exc:
        print(f"burraco bench env: {exc}", file=sys.stderr)
        return 2
    results: dict[str, Any] = {
        f"{n}p": bench_env(n, rules, hands=args.hands, seed=args.seed) for n in players}
    if args.json:
        print(json.dumps({**results, "aec": aec}))
    else:
        print(format_aec(aec))
        print(format_report(results, rules))
    return 0
