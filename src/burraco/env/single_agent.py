"""A Gymnasium environment where one seat learns and bots play every other seat.

The learner's observations, masks, ids and rewards are those of
``burraco_v0`` (its partner, at 4 players, is a bot too).  Bots are
``burraco.bots`` levels, seeded from the episode's seed, so an episode replays
exactly.  The mask is in the observation and in ``info["action_mask"]``, and
:meth:`SingleAgentEnv.action_masks` returns it (the MaskablePPO convention).

>>> env = SingleAgentEnv(players=2, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> bool(obs["action_mask"][0])
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from burraco.bots.base import Bot, make_bot
from burraco.engine.rules import Rules
from burraco.env.aec import Observation, Reward, raw_env
from burraco.env.catalog import action_id


class SingleAgentEnv(gymnasium.Env[Observation, int]):
    """``players`` 2 to 6; the learner sits at ``seat`` (``None``: a random seat each
    episode); ``opponents`` one bot spec for every other seat, or one per opponent seat in
    playing order (4 players: two; 3, 5, 6 players: one per other seat, partner included);
    ``partner`` the fixed partner's bot at 4 and 6 players (default: the first opponent's).
    An illegal id ends the episode with ``illegal_reward`` (``info["illegal_action"]``), as
    PettingZoo's ``TerminateIllegalWrapper`` does.  Other keywords go to
    :class:`~burraco.env.burraco_v0.raw_env`."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  # Gymnasium's own type

    def __init__(
        self, players: int = 4, *, seat: int | None = 0,
        opponents: str | Sequence[str] = "basic", partner: str | None = None,
        rules: str | Rules = "fibur", match: bool = False, reward: Reward = "score",
        reward_scale: float = 1000.0, illegal_reward: float = -1.0,
        render_mode: str | None = None, **options: Any,
    ) -> None:
        self.game = raw_env(
            players, rules, match=match, reward=reward, reward_scale=reward_scale,
            render_mode=render_mode, **options)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a table of {players}")
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        per_seat = players // 2 if players == 4 else players - 1
        if len(specs) not in (1, per_seat):
            raise ValueError(f"give one opponent bot or {per_seat}, not {len(specs)}")
        self.opponent_specs = specs * per_seat if len(specs) == 1 else specs
        self.partner_given = partner
        self.partner_spec = partner or self.opponent_specs[0]
        for spec in {*self.opponent_specs, self.partner_spec}:
            make_bot(spec, seed=0, rules=self.game.rules)  # fail early on a bad spec
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.render_mode = render_mode
        agent = self.game.possible_agents[0]
        self.observation_space = self.game.observation_space(agent)
        self.action_space = self.game.action_space(agent)
        self.illegal_reward = illegal_reward
        self._bots: dict[int, Bot] = {}
        self._rng = random.Random()
        self._illegal = False

    @property
    def agent(self) -> str:
        return self.game.possible_agents[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        players = self.game.players
        if self.fixed_seat is None:
            self.seat = self._rng.randrange(players)
        self.game.reset(seed=self._rng.getrandbits(63))
        self._illegal = False
        rules = self.game.rules
        self._bots = {}
        for k in range(1, players):
            other = (self.seat + k) % players
            if players == 4:
                spec = self.partner_spec if k == 2 else self.opponent_specs[(k - 1) // 2]
            elif players == 6 and k == 3:
                spec = self.partner_given or self.opponent_specs[k - 1]
            else:
                spec = self.opponent_specs[k - 1]
            self._bots[other] = make_bot(spec, seed=self._rng.getrandbits(63), rules=rules)
        reward = self._play_bots()
        obs = self.game.observe(self.agent)
        return obs, self._info(obs, reward)

    def step(
        self, action: int,
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if game.agent_selection != self.agent or self._done() or self._illegal:
            raise RuntimeError("the episode is over: call reset()")
        if int(action) not in game.legal_actions():
            # as PettingZoo's TerminateIllegalWrapper: the episode ends, the mover pays
            self._illegal = True
            obs = game.observe(self.agent)
            info = self._info(obs, 0.0)
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        game.step(int(action))
        reward = game.rewards[self.agent]
        reward += self._play_bots()
        obs = game.observe(self.agent)
        info = self._info(obs, 0.0)
        return obs, reward, game.terminations[self.agent], game.truncations[self.agent], info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal ids as booleans (all False off turn or once the episode is over);
        through Gymnasium's wrappers: ``env.get_wrapper_attr("action_masks")()``."""
        if self._illegal:
            return np.zeros(len(self.game._zero_mask), dtype=bool)
        return self.game._mask_for(self.agent).astype(bool)

    def render(self) -> str | None:
        return self.game.render()

    def close(self) -> None:
        self.game.close()

    def _done(self) -> bool:
        return self.game.terminations[self.agent] or self.game.truncations[self.agent]

    def _play_bots(self) -> float:
        """Bots play until the learner is on turn or the episode ends; its reward meanwhile."""
        game = self.game
        reward = 0.0
        while not self._done() and game.agent_selection != self.agent:
            agent = game.agent_selection
            legal = game.legal_actions()
            action = self._bots[game.possible_agents.index(agent)].act(
                game.view(agent), list(legal.values()))
            game.step(action_id(action, packs=game.packs))
            reward += game.rewards[self.agent]
        return reward

    def _info(self, obs: Observation, reward: float) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": obs["action_mask"], "seat": self.seat}
        if reward:
            info["reward_before_first_turn"] = reward
        return info
