"""RLlib's PPO with action masking on ``Burraco-v0`` (one seat learns, bots play the others).

RLlib's new API stack samples through ``gymnasium.make_vec("Burraco-v0",
vectorization_mode="vector_entry_point")``, i.e. the environment's own
Gymnasium vector env (:class:`burraco.env.GymVectorEnv`, NEXT_STEP auto-reset,
which RLlib's env runner expects).  The observation is a ``Dict``
(``observation``: the flat float32 observation, ``action_mask``: int8 over the
catalog); :class:`MaskedPPOModule`, a PPO ``RLModule``, builds its MLP on the
observation alone and adds ``log(mask)`` (clamped) to the action logits, so an
illegal id is never sampled, in exploration, inference and training alike.

Every run first scores the untrained network on the held-out deals (masked,
greedy), then trains ``--iterations`` PPO iterations and scores it again on the
same deals, each as a mean with its standard error over the deals.  A handful of
iterations is a smoke test, not a study: compare with the untrained score and
its error before reading a gain into it.

    python examples/rllib_masked.py --iterations 2 --eval-episodes 4
    python examples/rllib_masked.py --iterations 50 --opponent basic --eval-episodes 100

Needs the rllib extra: ``pip install 'burraco[research,rllib]'`` (Ray's RLlib and
PyTorch on the CPU; RLlib's own ``ray[rllib]`` pins an older Gymnasium, so the
extra lists RLlib's dependencies itself).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

import burraco.env  # noqa: F401  # registers Burraco-v0 and its vector entry point
from burraco.env.single_agent import SingleAgentEnv

try:  # the rllib extra; without it main() says how to install it
    import gymnasium
    import ray
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
        DefaultPPOTorchRLModule,
    )
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.utils.torch_utils import FLOAT_MIN
except ImportError as missing:
    MISSING: ImportError | None = missing
    DefaultPPOTorchRLModule = object
else:
    MISSING = None


class MaskedPPOModule(DefaultPPOTorchRLModule):  # type: ignore[misc,valid-type]
    """PPO's default torch module on the ``observation`` part of a ``Dict`` observation,
    whose action logits are masked with its ``action_mask`` part."""

    def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
        self.full_observation_space = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.full_observation_space  # what the env runner checks

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        inner = dict(batch)
        inner[Columns.OBS] = obs["observation"]
        return obs["action_mask"], inner

    @staticmethod
    def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        penalty = torch.clamp(torch.log(mask.float()), min=FLOAT_MIN)
        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + penalty
        return out

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._masked(super()._forward_inference(inner, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._masked(super()._forward_exploration(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def build(players: int, opponent: str, envs: int, batch: int, seed: int) -> Any:
    """A PPO algorithm sampling ``envs`` games in this process (no remote workers)."""
    config = (
        PPOConfig()
        .environment("Burraco-v0", env_config={
            "players": players, "opponents": opponent, "seat": None})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=envs,
                     gym_env_vectorize_mode="vector_entry_point",
                     rollout_fragment_length=max(1, batch // envs))
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(128, batch),
                  num_epochs=2, lr=3e-4, gamma=1.0, entropy_coeff=0.01)
        .rl_module(rl_module_spec=RLModuleSpec(
            module_class=MaskedPPOModule,
            model_config={"fcnet_hiddens": [128, 128], "vf_share_layers": False}))
        .debugging(seed=seed)
    )
    return config.build_algo()


def evaluate(module: Any, players: int, opponent: str, episodes: int,
             seed: int) -> tuple[float, float]:
    """Mean reward (and its standard error) of the greedy masked policy on held-out deals."""
    env = SingleAgentEnv(players, seat=None, opponents=opponent)
    rewards = []
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        total, done = 0.0, False
        while not done:
            batch = {Columns.OBS: {
                "observation": torch.from_numpy(obs["observation"][None]),
                "action_mask": torch.from_numpy(obs["action_mask"][None])}}
            with torch.no_grad():
                logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
            action = int(torch.argmax(logits[0]))
            assert obs["action_mask"][action], "the mask lets no illegal id through"
            obs, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
        rewards.append(total)
    values = np.asarray(rewards)
    error = float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0
    return float(values.mean()), error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5, 6))
    parser.add_argument("--opponent", default="random", help="bot of the other seats")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--envs", type=int, default=4, help="games sampled at once")
    parser.add_argument("--batch", type=int, default=256, help="timesteps per iteration")
    parser.add_argument("--eval-episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if MISSING is not None:
        print(f"needs the rllib extra ({MISSING.name or MISSING}): "
              "pip install 'burraco[research,rllib]'", file=sys.stderr)
        return 2
    if min(args.iterations, args.envs, args.batch, args.eval_episodes) < 1:
        print("--iterations, --envs, --batch and --eval-episodes must be at least 1",
              file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    gymnasium.logger.min_level = 40  # the passive checker's notes on the large Box bounds
    ray.init(include_dashboard=False, ignore_reinit_error=True)  # all in this process
    algo = build(args.players, args.opponent, args.envs, args.batch, args.seed)
    held_out = 1_000_000 + args.seed
    start = time.perf_counter()
    try:
        mean, error = evaluate(algo.get_module(), args.players, args.opponent,
                               args.eval_episodes, held_out)
        print(f"untrained network  mean reward vs {args.opponent} {mean:+.3f} ± {error:.3f}",
              flush=True)
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            returns = runners.get("episode_return_mean", float("nan"))  # of episodes ended now
            shown = "   n/a" if np.isnan(returns) else f"{returns:+.3f}"
            print(f"iteration {iteration:>3}  timesteps "
                  f"{int(runners.get('num_env_steps_sampled_lifetime', 0)):>7}  episodes "
                  f"{int(runners.get('num_episodes_lifetime', 0)):>5}  training return "
                  f"{shown}  ({time.perf_counter() - start:.0f} s)", flush=True)
        mean, error = evaluate(algo.get_module(), args.players, args.opponent,
                               args.eval_episodes, held_out)
        print(f"trained network    mean reward vs {args.opponent} {mean:+.3f} ± {error:.3f}",
              flush=True)
    finally:
        algo.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
