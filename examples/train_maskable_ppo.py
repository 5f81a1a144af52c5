"""Train Stable-Baselines3-contrib's ``MaskablePPO`` on ``burraco_v0`` against ``basic``.

The learner is one seat of the Gymnasium single-agent wrapper
(``gymnasium.make("Burraco-v0")``: bots play the other seats); it sees the
flat observation and chooses among the legal ids only (``action_masks()``,
MaskablePPO's convention).  One hand per episode, the reward the scaled score
difference (own side minus the opponents', RULES.md §9).  Every
``--eval-every`` timesteps the policy plays a fixed set of held-out deals
against ``basic`` (masked, deterministic) and the mean reward is printed and
kept with its standard error over the deals; ``--untrained K`` first scores K
untrained networks (the training seed's and K-1 others) on the same deals, the
yardstick a gain must clear; ``--plot FILE`` draws the learning curve with
error bars and the untrained networks' band as a PNG.  On CPU.

    python examples/train_maskable_ppo.py --timesteps 30000 --untrained 5 --plot curve.png
    python examples/train_maskable_ppo.py --timesteps 256 --eval-every 128 --eval-episodes 2

Needs the train extra: ``pip install 'burraco[research,train]'`` (PyTorch,
sb3-contrib, Matplotlib).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import burraco.env  # noqa: F401  # registers Burraco-v0


class FlatObservation(gymnasium.ObservationWrapper[Any, int, Any]):
    """The observation vector alone (the mask goes through ``action_masks``)."""

    def __init__(self, env: gymnasium.Env[Any, int]) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]  # type: ignore[index]

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        return np.asarray(observation["observation"], dtype=np.float32)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        masks: npt.NDArray[np.bool_] = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return masks


def make_env(players: int, opponent: str, seed: int) -> gymnasium.Env[Any, int]:
    env = gymnasium.make("Burraco-v0", players=players, opponents=opponent, seat=None,
                         disable_env_checker=True)
    env.reset(seed=seed)
    return FlatObservation(env)


def evaluate(model: Any, players: int, opponent: str, episodes: int,
             seed: int) -> list[float]:
    """The reward of each of ``episodes`` held-out deals (the same deals at every call)."""
    env = make_env(players, opponent, seed)
    rewards = []
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        total, done = 0.0, False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        rewards.append(total)
    return rewards


def mean_and_error(rewards: list[float]) -> tuple[float, float]:
    """The mean and its standard error over the deals (0 for a single deal)."""
    values = np.asarray(rewards, dtype=np.float64)
    error = float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0
    return float(values.mean()), error


def plot(curve: list[tuple[int, float, float, float]], untrained: list[tuple[int, float, float]],
         path: str, title: str) -> None:
    import matplotlib  # lazy: only when a plot is asked for

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [c[0] for c in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.errorbar(steps, [c[1] for c in curve], yerr=[c[3] for c in curve], marker="o",
                capsize=3, label="MaskablePPO (± 1 standard error over the deals)")
    if untrained:
        scores = [u[1] for u in untrained]
        ax.axhspan(min(scores), max(scores), color="grey", alpha=0.25,
                   label=f"{len(scores)} untrained networks (lowest to highest)")
    ax.axhline(curve[0][1], color="grey", linestyle=":", label="this run's untrained policy")
    ax.set_xlabel("timesteps (learner decisions)")
    ax.set_ylabel("mean reward (score diff / 1000)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5, 6))
    parser.add_argument("--opponent", default="basic", help="bot of the other seats")
    parser.add_argument("--timesteps", type=int, default=30_000)
    parser.add_argument("--eval-every", type=int, default=3_000, metavar="STEPS")
    parser.add_argument("--eval-episodes", type=int, default=40)
    parser.add_argument("--n-steps", type=int, default=512, help="rollout length per update")
    parser.add_argument("--untrained", type=int, default=0, metavar="K",
                        help="first score K untrained networks (seeds SEED..SEED+K-1) on the "
                             "held-out deals")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-deals", type=int, default=0, metavar="FIRST",
                        help="the held-out deals' first seed offset (keep it to compare seeds "
                             "on the same deals)")
    parser.add_argument("--plot", metavar="PNG", help="write the learning curve here")
    parser.add_argument("--json", metavar="FILE", help="write the curve as JSON")
    args = parser.parse_args(argv)
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        print("needs the train extra: pip install 'burraco[research,train]'", file=sys.stderr)
        return 2
    if min(args.timesteps, args.eval_every, args.eval_episodes) < 1 or args.untrained < 0:
        print("--timesteps, --eval-every and --eval-episodes must be at least 1, "
              "--untrained at least 0", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    env = make_env(args.players, args.opponent, args.seed)

    def network(seed: int) -> Any:
        return MaskablePPO(
            "MlpPolicy", env, n_steps=args.n_steps, batch_size=min(128, args.n_steps),
            learning_rate=3e-4, gamma=1.0, ent_coef=0.01, seed=seed, verbose=0,
            policy_kwargs={"net_arch": [128, 128]}, device="cpu")

    held_out = 1_000_000 + args.eval_deals
    curve: list[tuple[int, float, float, float]] = []
    untrained: list[tuple[int, float, float]] = []
    start = time.perf_counter()

    def save() -> None:
        title = f"burraco_v0 {args.players}p, MaskablePPO vs {args.opponent}"
        if args.plot:  # after every evaluation, so a long run can be looked at as it goes
            plot(curve, untrained, args.plot, title)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump({"players": args.players, "opponent": args.opponent,
                           "eval_episodes": args.eval_episodes,
                           "curve": [list(c) for c in curve],
                           "untrained": [list(u) for u in untrained]}, handle, indent=1)

    for seed in range(args.seed, args.seed + args.untrained):
        mean, error = mean_and_error(evaluate(
            network(seed), args.players, args.opponent, args.eval_episodes, held_out))
        untrained.append((seed, mean, error))
        print(f"untrained network, seed {seed:>3}  mean reward vs {args.opponent} "
              f"{mean:+.3f} ± {error:.3f}", flush=True)
    if untrained:
        scores = [u[1] for u in untrained]
        print(f"untrained networks: {min(scores):+.3f} to {max(scores):+.3f}, mean "
              f"{np.mean(scores):+.3f}", flush=True)
    model = network(args.seed)

    def record(steps: int) -> None:
        mean, error = mean_and_error(evaluate(
            model, args.players, args.opponent, args.eval_episodes, held_out))
        curve.append((steps, mean, time.perf_counter() - start, error))
        print(f"{steps:>9} timesteps  mean reward vs {args.opponent} {mean:+.3f} ± "
              f"{error:.3f}  ({curve[-1][2]:.0f} s)", flush=True)
        save()

    record(0)
    done = 0
    while done < args.timesteps:
        chunk = min(args.eval_every, args.timesteps - done)
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        done += chunk
        record(done)
    return 0


if __name__ == "__main__":
    sys.exit(main())
