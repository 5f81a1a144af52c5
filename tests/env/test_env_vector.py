"""The vector API against the single environment on the same seeds, and the Gymnasium id."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest

from burraco.env import GYM_ID, VectorEnv, burraco_v0


@pytest.mark.parametrize(("players", "steps"), [(2, 400), (4, 300), (6, 200)])
def test_the_vector_env_steps_each_game_as_the_single_env(players: int, steps: int) -> None:
    """Four games, random masked ids: every row's observation, mask, seat on turn, rewards
    and ends equal those of a raw_env reset with the same seed; finished rows are dealt
    again as the single env's next reset() deals."""
    n, seed = 4, 50 + players
    vec = VectorEnv(n, players=players, max_steps=150)  # hands cut short: more resets
    singles = [burraco_v0.raw_env(players, max_steps=150) for _ in range(n)]
    for i, env in enumerate(singles):
        env.reset(seed=seed + i)
    out, _ = vec.reset(seed=seed)
    rng = random.Random(players)
    episodes = 0
    for _ in range(steps):
        actions = []
        for i, env in enumerate(singles):
            agent = env.agent_selection
            want = env.observe(agent)
            assert out["agents"][i] == env.possible_agents.index(agent)
            assert np.array_equal(out["obs"][i], want["observation"])
            assert np.array_equal(out["masks"][i], want["action_mask"])
            legal = np.flatnonzero(want["action_mask"])
            actions.append(int(legal[rng.randrange(len(legal))]))
        out, rewards, terminated, truncated, info = vec.step(np.array(actions))
        for i, env in enumerate(singles):
            mover = env.agent_selection
            env.step(actions[i])
            expected = [env.rewards[a] for a in env.possible_agents]
            assert rewards[i].tolist() == pytest.approx(expected)
            assert terminated[i] == env.terminations[mover]
            assert truncated[i] == env.truncations[mover]
            assert info["final"][i] == (terminated[i] or truncated[i])
            if info["final"][i]:
                episodes += 1
                assert sum(expected) == pytest.approx(0.0, abs=1e-6)
                env.reset()
    assert episodes >= 2, episodes


def test_bad_actions_are_refused_before_any_game_moves() -> None:
    vec = VectorEnv(3, players=2)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(3, dtype=np.int64))
    out, _ = vec.reset(seed=1)
    before = out["obs"].copy()
    with pytest.raises(ValueError, match="3 integer ids"):
        vec.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="integer ids"):
        vec.step(np.zeros(3))
    good = [int(np.flatnonzero(row)[0]) for row in out["masks"]]
    states = [game.game_state.clone() for game in vec.games]
    with pytest.raises(ValueError, match="game 2: action 5 is not legal"):
        vec.step(np.array([good[0], good[1], 5]))
    # nothing moved: games 0 and 1 were not stepped either
    for game, state in zip(vec.games, states, strict=True):
        assert game.game_state.hands == state.hands and game.game_state.phase == state.phase
    assert np.array_equal(vec._obs, before)
    after, *_ = vec.step(np.array(good))
    assert not np.array_equal(after["obs"], before)
    with pytest.raises(ValueError, match="at least 1"):
        VectorEnv(0)


def test_copies_unless_asked_not_to() -> None:
    vec = VectorEnv(2, players=2)
    out, _ = vec.reset(seed=3)
    out["obs"][:] = -1
    again, _ = vec.reset(seed=3)
    assert (again["obs"] >= 0).all()
    fast = VectorEnv(2, players=2, copy=False)
    a, _ = fast.reset(seed=3)
    b, _ = fast.reset(seed=4)
    assert a["obs"] is b["obs"]


def test_gymnasium_make_builds_the_single_agent_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make(GYM_ID, players=2, opponents="random")
        obs, info = env.reset(seed=0)
        assert obs["action_mask"].shape == (env.action_space.n,)
        legal = np.flatnonzero(info["action_mask"])
        env.step(int(legal[0]))
        again = gymnasium.make("burraco.env:Burraco-v0", players=3, opponents="random")
        obs3, _ = again.reset(seed=1)
        assert obs3["observation"].shape == again.observation_space["observation"].shape
        assert again.unwrapped.game.players == 3
        for players in (5, 6):
            table = gymnasium.make(GYM_ID, players=players, opponents="random", seat=None)
            obs, info = table.reset(seed=players)
            done = False
            while not done:  # a whole episode against bots, the learner playing randomly
                legal = np.flatnonzero(info["action_mask"])
                obs, _, terminated, truncated, info = table.step(int(legal[0]))
                done = terminated or truncated
