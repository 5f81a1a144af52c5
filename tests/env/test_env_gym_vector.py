"""The Gymnasium-native vector env against the single env and SyncVectorEnv, and the masks
through ``gymnasium.make``'s wrappers."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from burraco.env import GYM_ID, GymVectorEnv
from burraco.env.single_agent import SingleAgentEnv

OPTIONS: dict[str, Any] = {"players": 2, "opponents": "random", "seat": None,
                           "max_steps": 120}  # hands cut short: many auto-resets


def _pick(mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))]) if len(legal) else 0


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_each_row_plays_as_the_single_env_on_the_same_seed(mode: AutoresetMode) -> None:
    """Observations, masks (observation, infos, action_masks), rewards and ends equal those
    of SingleAgentEnv reset with seed + i, row by row, across auto-resets."""
    n, seed = 3, 7
    vec = GymVectorEnv(n, autoreset_mode=mode, **OPTIONS)
    assert vec.metadata["autoreset_mode"] == mode
    singles = [SingleAgentEnv(**OPTIONS) for _ in range(n)]
    want = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
    obs, infos = vec.reset(seed=seed)
    assert vec.observation_space.contains(obs)
    rng = random.Random(int(mode == AutoresetMode.SAME_STEP))
    pending = [False] * n  # NEXT_STEP: the single env ended last step and must be reset
    resets = 0
    for _ in range(300):
        masks = vec.action_masks()
        for i, env in enumerate(singles):
            assert np.array_equal(obs["observation"][i], want[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], want[i]["action_mask"])
            assert np.array_equal(infos["action_mask"][i], want[i]["action_mask"])
            assert np.array_equal(masks[i], want[i]["action_mask"].astype(bool))
            if not pending[i]:
                assert np.array_equal(masks[i], env.action_masks())
                assert set(np.flatnonzero(masks[i])) == set(env.game.legal_actions()) \
                    or not masks[i].any()
        actions = np.array([_pick(masks[i], rng) for i in range(n)])
        obs, rewards, terminations, truncations, infos = vec.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:
                want[i], _ = env.reset()
                pending[i] = False
                assert rewards[i] == 0 and not terminations[i] and not truncations[i]
                resets += 1
                continue
            want[i], reward, term, trunc, _ = env.step(int(actions[i]))
            assert rewards[i] == pytest.approx(float(reward))
            assert (terminations[i], truncations[i]) == (term, trunc)
            if term or trunc:
                if mode == AutoresetMode.SAME_STEP:
                    final = infos["final_obs"][i]
                    assert infos["_final_obs"][i]
                    assert np.array_equal(final["observation"], want[i]["observation"])
                    assert not final["action_mask"].any()  # the episode is over
                    want[i], _ = env.reset()
                    resets += 1
                else:
                    pending[i] = True
    assert resets >= 3, resets


def test_the_native_vector_env_matches_gymnasiums_sync_vector_env() -> None:
    """``make_vec`` builds ours by default; it returns what Gymnasium's own SyncVectorEnv of
    the single env returns (same seeds, same actions), infos included."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = gymnasium.make_vec(GYM_ID, num_envs=2, **OPTIONS)
        sync = gymnasium.make_vec(GYM_ID, num_envs=2, vectorization_mode="sync", **OPTIONS)
        assert isinstance(ours.unwrapped, GymVectorEnv)
        assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
        assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
        assert ours.single_observation_space == sync.single_observation_space
        assert ours.action_space == sync.action_space
        a, a_info = ours.reset(seed=5)
        b, b_info = sync.reset(seed=5)
        rng = random.Random(5)
        ends = 0
        for _ in range(250):
            for key in ("observation", "action_mask"):
                assert np.array_equal(a[key], b[key])
            assert a_info.keys() == b_info.keys()
            for key in a_info:
                assert np.array_equal(a_info[key], b_info[key]), key
            actions = np.array([_pick(row, rng) for row in a["action_mask"]])
            a, a_rew, a_term, a_trunc, a_info = ours.step(actions)
            b, b_rew, b_term, b_trunc, b_info = sync.step(actions)
            assert np.array_equal(a_rew, b_rew)
            assert np.array_equal(a_term, b_term) and np.array_equal(a_trunc, b_trunc)
            ends += int(a_term.sum() + a_trunc.sum())
        assert ends >= 2


def test_make_vec_entry_point_and_bad_input() -> None:
    vec = gymnasium.make_vec(GYM_ID, num_envs=4, vectorization_mode="vector_entry_point",
                             players=3, opponents="random")
    obs, _ = vec.reset(seed=[1, 2, 3, None])
    assert obs["observation"].shape == (4, vec.single_observation_space["observation"].shape[0])
    assert vec.action_masks().shape == (4, vec.single_action_space.n)
    assert vec.action_masks().any(axis=1).all()
    with pytest.raises(ValueError, match="4 ids"):
        vec.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="4 seeds"):
        vec.reset(seed=[1, 2])
    with pytest.raises(RuntimeError, match="reset"):
        GymVectorEnv(2, players=2).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError):
        GymVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="at least 1"):
        GymVectorEnv(0)
    vec.close()


def _wrapped(**extra: Any) -> gymnasium.Env[Any, Any]:
    env = gymnasium.make(GYM_ID, players=4, opponents="random", seat=None, **extra)
    return gymnasium.wrappers.RecordEpisodeStatistics(env)


def test_action_masks_through_gymnasium_makes_wrappers() -> None:
    """``gymnasium.make`` wraps the env (PassiveEnvChecker, OrderEnforcing, here TimeLimit
    and RecordEpisodeStatistics too); ``get_wrapper_attr("action_masks")``, which
    sb3-contrib's ``get_action_masks`` and ``MaskablePPO`` call, reaches the env's method,
    and the mask is exactly the legal ids at every step of whole episodes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = _wrapped(max_episode_steps=1000)
        assert not hasattr(env, "action_masks")  # Gymnasium 1.x wrappers forward nothing
        rng = random.Random(2)
        steps = 0
        for episode in range(2):
            obs, info = env.reset(seed=episode)
            done = False
            while not done:
                masks = env.get_wrapper_attr("action_masks")()
                assert masks.dtype == bool
                legal = set(env.unwrapped.game.legal_actions())  # type: ignore[attr-defined]
                assert set(np.flatnonzero(masks)) == legal
                assert np.array_equal(masks, obs["action_mask"].astype(bool))
                assert np.array_equal(masks, info["action_mask"].astype(bool))
                obs, _, terminated, truncated, info = env.step(_pick(masks, rng))
                done = terminated or truncated
                steps += 1
            assert not env.get_wrapper_attr("action_masks")().any()  # the episode is over
        assert steps > 20


def test_sb3_contribs_mask_access_through_make() -> None:
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is in the train extra: "
                                              "pip install -e '.[research,train]'")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = _wrapped()
        obs, _ = env.reset(seed=1)
        assert is_masking_supported(env)
        assert np.array_equal(get_action_masks(env), obs["action_mask"].astype(bool))
        vec = DummyVecEnv([_wrapped, _wrapped])
        vec.seed(3)
        batch = vec.reset()
        assert is_masking_supported(vec)
        assert np.array_equal(get_action_masks(vec), batch["action_mask"].astype(bool))
