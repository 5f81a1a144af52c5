"""The standard PettingZoo AEC loop, timed: the yardstick ``burraco bench env`` compares.

``agent_iter()``, ``last()``, a uniformly random id among the mask's ones (found with
``np.flatnonzero(mask.view(bool))``, the same line for every environment; or
``None`` for a finished agent), ``step``: the observation and mask are built
every step, as a learner's rollout builds them.  This file imports nothing of
the project, so it also runs as a script in another interpreter that has only
PettingZoo (``python aec_loop.py gin_rummy_v4 --steps 20000``): that is how
the benchmark times PettingZoo's own ``gin_rummy_v4`` (RLCard inside) from a
separate virtual environment, next to ``burraco_v0``, in one run.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any


def timed_loop(make_env: Callable[[], Any], steps: int, seed: int) -> dict[str, float]:
    """Play episodes until ``steps`` agent steps; wall and CPU seconds and the counts."""
    import numpy as np  # the research extra: loaded only when the benchmark runs

    rng = random.Random(seed)
    env = make_env()
    done = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        env.reset(seed=seed + episodes)
        episodes += 1
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"].view(bool))
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            done += 1
            del agent
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return {"steps": done, "episodes": episodes, "seconds": wall, "cpu_seconds": used,
            "steps_per_s": done / wall, "steps_per_cpu_s": done / used}


def gin_rummy(steps: int, seed: int) -> dict[str, Any]:
    """PettingZoo's ``gin_rummy_v4`` through the loop (warmed up first)."""
    from pettingzoo.classic import gin_rummy_v4  # type: ignore[import-untyped]  # only here

    timed_loop(gin_rummy_v4.env, max(200, steps // 10), seed + 1)
    import pettingzoo  # type: ignore[import-untyped]  # its version, with its game

    return {**timed_loop(gin_rummy_v4.env, steps, seed), "pettingzoo": pettingzoo.__version__}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env", choices=("gin_rummy_v4",))
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(gin_rummy(args.steps, args.seed)))


if __name__ == "__main__":
    main()
