"""The Gymnasium single-agent wrapper: one seat learns, chosen
bots play the others."""

from __future__ import annotations

import doctest
import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from burraco.env import burraco_v0, single_agent
from burraco.env.single_agent import SingleAgentEnv


def _episode(env: SingleAgentEnv, seed: int, rng: random.Random) -> tuple[float, int, list[int]]:
    obs, info = env.reset(seed=seed)
    total, steps, actions = 0.0, 0, []
    done = False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert env.game.agent_selection == env.agent
        ids = np.flatnonzero(obs["action_mask"])
        action = int(ids[rng.randrange(len(ids))])
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        done = terminated or truncated
    return total, steps, actions


@pytest.mark.parametrize("players", [2, 4])
def test_gymnasium_env_checker(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = SingleAgentEnv(players, opponents="random")
        env.action_space.seed(players)  # the checker samples actions: keep it repeatable
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize(("players", "opponents"), [(2, "basic"), (4, ["random", "basic"])])
def test_episodes_end_with_the_learner_side_reward(players: int, opponents: object) -> None:
    env = burraco_v0.gym_env(players=players, opponents=opponents, partner="basic")
    for seed in range(3):
        total, steps, _ = _episode(env, seed, random.Random(seed))
        result = env.game.last_result
        assert result is not None and steps > 0
        side = env.seat % 2
        assert total == pytest.approx(
            (result.totals[side] - result.totals[1 - side]) / 1000.0)


def test_a_seed_replays_the_episode() -> None:
    runs = []
    for _ in range(2):
        env = SingleAgentEnv(4, seat=None, opponents="basic")
        runs.append((_episode(env, 42, random.Random(0)), env.seat))
    assert runs[0] == runs[1]


def test_random_seats_and_illegal_actions() -> None:
    env = SingleAgentEnv(2, seat=None, opponents="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1}
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, _truncated, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_bot_specs_fail_early() -> None:
    with pytest.raises(ValueError):
        SingleAgentEnv(2, opponents="grandmaster")
    with pytest.raises(ValueError, match="one opponent bot or 2"):
        SingleAgentEnv(4, opponents=["basic", "basic", "basic"])


def test_doctests() -> None:
    assert doctest.testmod(single_agent).failed == 0
