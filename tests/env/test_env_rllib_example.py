"""The RLlib example: PPO with action masking runs a few iterations (needs the rllib extra)."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

REASON = "the RLlib example needs the rllib extra: pip install -e '.[research,rllib]'"
pytest.importorskip("torch", reason=REASON)
pytest.importorskip("ray.rllib.algorithms.ppo", reason=REASON)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rllib_masked.py"


def test_masked_ppo_never_samples_an_illegal_id_and_trains(
        capsys: pytest.CaptureFixture[str]) -> None:
    import ray  # the extra is there (checked above)

    module = runpy.run_path(str(EXAMPLE))
    ray.init(include_dashboard=False, num_cpus=2)  # one process does everything: no dashboard
    try:
        algo = module["build"](2, "random", 2, 64, 0)
        try:
            runner = algo.env_runner_group.local_env_runner
            assert type(runner.env.unwrapped).__name__ == "GymVectorEnv"  # make_vec's own
            sampled = 0
            for episode in runner.sample(num_timesteps=96, explore=True):
                masks = episode.get_observations()["action_mask"]
                actions = np.asarray(episode.get_actions())
                assert masks[np.arange(len(actions)), actions].all()  # every id was legal
                sampled += len(actions)
            assert sampled >= 96
            result = algo.train()
            assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 64
            mean, error = module["evaluate"](algo.get_module(), 2, "random", 2, 1_000_000)
            assert -3 < mean < 3 and error >= 0
        finally:
            algo.stop()
        assert module["main"](["--iterations", "0"]) == 2
        assert module["main"](["--iterations", "1", "--envs", "2", "--batch", "64",
                               "--eval-episodes", "2"]) == 0
        out = capsys.readouterr().out
        assert "untrained network" in out and "iteration   1" in out
        assert "trained network" in out and "±" in out
    finally:
        ray.shutdown()
