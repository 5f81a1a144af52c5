"""``burraco_v0`` as a PettingZoo AEC environment:
PettingZoo's API and seed tests, rewards, match episodes and the bridge to search."""

from __future__ import annotations

import doctest
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import view
from burraco.env import burraco_v0, catalog, masks


def _play(env: burraco_v0.raw_env, rng: random.Random, *,
          melder: bool = False) -> dict[str, float]:
    """Random masked play to the end of the episode; the total reward of every agent.

    A ``melder`` melds and attaches whenever it can (9 times in 10), so hands reach the
    pozzetti."""
    kinds = catalog.tables(env.packs).kinds if melder else None
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        pool = ids = np.flatnonzero(obs["action_mask"].view(bool))
        if kinds is not None:
            plays = ids[kinds[ids] >= 3]
            pool = plays if len(plays) and rng.random() < 0.9 else ids
        env.step(int(pool[rng.randrange(len(pool))]))
    return totals


def _seeded(env: burraco_v0.raw_env) -> burraco_v0.raw_env:
    """api_test samples actions from the action spaces: seed them, so the test is repeatable."""
    for k, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(k)
    return env


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pettingzoo_api_test(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations and masks are the classic style
        api_test(_seeded(burraco_v0.env(players=players)), num_cycles=1000)
        api_test(_seeded(burraco_v0.env(players=players, match=True, target=505)),
                 num_cycles=300)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: burraco_v0.env(players=players), num_cycles=500)
    seed_test(lambda: burraco_v0.env(players=players, rules="fibur-international"),
              num_cycles=500)


@pytest.mark.parametrize("players", [2, 4])
def test_the_hand_reward_is_the_scaled_score_difference_shared_by_partners(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        env = burraco_v0.raw_env(players, reward_scale=100.0)
        env.reset(seed=seed)
        totals = _play(env, rng)
        result = env.last_result
        assert result is not None
        side = result.totals
        for seat, agent in enumerate(env.possible_agents):
            own, other = side[seat % 2], side[1 - seat % 2]
            assert totals[agent] == pytest.approx((own - other) / 100.0)
        assert sum(totals.values()) == pytest.approx(0.0)
        if players == 4:
            assert totals["player_0"] == totals["player_2"]


def test_win_rewards_and_match_episodes() -> None:
    rng = random.Random(8)
    env = burraco_v0.raw_env(2, reward="win")
    env.reset(seed=3)
    totals = _play(env, rng)
    assert set(totals.values()) <= {-1.0, 0.0, 1.0} and sum(totals.values()) == 0
    env = burraco_v0.raw_env(4, match=True, target=505, max_hands=3)
    env.reset(seed=5)
    totals = _play(env, rng)
    assert env.last_result is not None
    hands = env._match.hands if env._match is not None else ()
    assert 1 <= len(hands) <= 3
    assert totals["player_0"] == pytest.approx(
        sum(h[0] - h[1] for h in hands) / 1000.0)


def test_a_match_deals_hand_after_hand_and_shows_the_score() -> None:
    env = burraco_v0.raw_env(2, match=True, target=100_000, max_hands=2)
    env.reset(seed=1)
    rng = random.Random(1)
    seen_hands = set()
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        obs = env.observe(env.agent_selection)["observation"]
        seen_hands.add(int(obs[catalog_slice("match")][3]))
        ids = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(ids[rng.randrange(len(ids))]))
    assert seen_hands == {0, 1}
    assert all(env.truncations.values()) and not any(env.terminations.values())


def catalog_slice(name: str) -> slice:
    from burraco.env.observation import SLICES

    return SLICES[name]


def test_illegal_ids_raise_in_the_raw_env_and_end_the_wrapped_one() -> None:
    env = burraco_v0.raw_env(2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(catalog.DISCARD)
    wrapped = burraco_v0.env(players=2)
    wrapped.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(catalog.DISCARD)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards["player_0"] == -1


def test_masks_are_zero_off_turn_and_observations_differ_by_seat() -> None:
    env = burraco_v0.raw_env(4)
    env.reset(seed=2)
    on = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == on)
    assert not np.array_equal(env.observe("player_0")["observation"],
                              env.observe("player_1")["observation"])


def test_search_shares_the_bots_sampler() -> None:
    """determinize from the environment: a state the agent cannot tell from the real one,
    on which the catalog and the encoder work as on the real state."""
    env = burraco_v0.raw_env(4, rules="fibur")
    env.reset(seed=4)
    rng = random.Random(0)
    for _ in range(30):
        agent = env.agent_selection
        ids = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(ids[rng.randrange(len(ids))]))
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    sample = env.determinize(agent, random.Random(1))
    assert isinstance(sample, HandState)
    assert view(sample, seat) == env.view(agent)
    real = env.observe(agent)
    mine = env.encode(sample, seat)
    assert np.array_equal(real["observation"], mine["observation"])
    assert np.array_equal(real["action_mask"], mine["action_mask"])
    assert set(masks.legal_ids(sample)) == set(np.flatnonzero(real["action_mask"]))
    # a rollout on the sample to the end of the hand
    while not sample.is_over:
        sample.apply_in_place(rng.choice(list(masks.legal_ids(sample).values())))
    assert len(hand_result(sample).totals) == 2


@pytest.mark.parametrize("preset", sorted(__import__("burraco.engine.rules",
                                                      fromlist=["PRESETS"]).PRESETS))
def test_every_preset_plays_a_hand(preset: str) -> None:
    env = burraco_v0.raw_env(4, rules=preset)
    env.reset(seed=11)
    _play(env, random.Random(11))
    assert env.rules == Rules.preset(preset).for_players(4)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="2 to 6 players, not 7"):
        burraco_v0.raw_env(7)
    with pytest.raises(ValueError, match="reward"):
        burraco_v0.raw_env(2, reward="elo")  # type: ignore[arg-type]


def test_render() -> None:
    env = burraco_v0.raw_env(2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "seat 0 to play" in text


def test_doctests() -> None:
    assert doctest.testmod(burraco_v0).failed == 0


@pytest.mark.parametrize("players", [3, 5, 6])
def test_rewards_when_partners_change_or_are_three_pairs(players: int) -> None:
    """RULES.md §13.2–13.4: at 3 and 5 players each seat scores alone (a pair formed mid-hand
    halves its score, rounded up to 5); the reward is the seat's score minus the mean of the
    other seats'.  At 6 players it is the pair's score minus the mean of the other two pairs'."""
    rng = random.Random(players)
    paired = 0
    for seed in range(4):
        env = burraco_v0.raw_env(players, reward_scale=100.0)
        env.reset(seed=seed)
        totals = _play(env, rng, melder=True)
        result = env.last_result
        assert result is not None
        state = env.game_state
        if players == 6:
            units = list(result.totals)
            own = [units[seat % 3] for seat in range(players)]
        else:
            units = list(result.seat_totals)
            own = units
        for seat, agent in enumerate(env.possible_agents):
            mean_others = (sum(units) - own[seat]) / (len(units) - 1)
            assert totals[agent] == pytest.approx((own[seat] - mean_others) / 100.0)
            partner = state.partner_of(seat)
            if partner is not None:  # partners share one reward
                assert totals[agent] == pytest.approx(totals[env.possible_agents[partner]])
                paired += 1
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)
    assert paired >= 4 * (2 if players == 3 else 4 if players == 5 else 6) // 2


@pytest.mark.parametrize("players", [3, 5])
def test_a_match_of_three_or_five_keeps_scores_per_seat(players: int) -> None:
    rng = random.Random(1)
    env = burraco_v0.raw_env(players, match=True, target=1005, reward="win", max_hands=40)
    env.reset(seed=2)
    totals = _play(env, rng, melder=True)
    m = env._match
    assert m is not None and len(m.scores) == players and m.target == 1005
    assert m.finished and max(m.scores) >= 1005
    if m.finished:
        assert totals[env.possible_agents[m.winner]] == 1.0
        assert sorted(totals.values()) == [-1.0] * (players - 1) + [1.0]


@pytest.mark.parametrize("players", [2, 5])
def test_the_checked_env_behaves_as_pettingzoos_three_wrappers(players: int) -> None:
    """The same random game, an illegal id thrown in after 40 steps: env() (the checks built
    in) and wrapped_env() (PettingZoo's wrappers) give the same observations, rewards and
    ends at every step, the illegal move's end included."""
    fused, wrapped = burraco_v0.env(players=players), burraco_v0.wrapped_env(players=players)
    rng = random.Random(players)
    for env in (fused, wrapped):
        env.reset(seed=9)
    steps = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for agent, other in zip(fused.agent_iter(), wrapped.agent_iter(), strict=True):
            assert agent == other
            a, b = fused.last(), wrapped.last()
            assert np.array_equal(a[0]["observation"], b[0]["observation"])
            assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
            assert a[1:4] == b[1:4]
            if a[2] or a[3]:
                action = None
            elif steps == 40:
                action = int(np.flatnonzero(a[0]["action_mask"] == 0)[0])  # illegal
            else:
                legal = np.flatnonzero(a[0]["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            fused.step(action)
            wrapped.step(action)
            steps += 1
    assert steps > 40 and not fused.agents and not wrapped.agents


def test_the_checked_env_enforces_the_order_and_the_bounds() -> None:
    env = burraco_v0.env(players=2)
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    with pytest.raises(Exception, match="reset"):
        env.observe("player_0")
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        env.step(catalog.size())
    with pytest.raises(AssertionError, match="action space"):
        env.step(0.5)  # type: ignore[arg-type]
    env.step(np.int64(0))  # a NumPy integer is an id too (draw)
    agents = iter(env.agent_iter())
    next(agents)
    with pytest.raises(AssertionError, match="call step"):
        next(agents)  # two agents without a step between them
