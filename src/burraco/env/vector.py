"""Many ``burraco_v0`` games stepped at once, as arrays, for self-play learners.

:class:`VectorEnv` holds ``num_envs`` independent games.  Each has one agent
on turn; ``step(actions)`` applies one id per game (for that game's agent on
turn) and returns, for every game, the observation and mask of the agent now
on turn, the reward every seat received in that step, and whether the episode
ended.  A game whose episode ends is dealt again at once (auto-reset): its row
then shows the new episode's first position, and ``infos["final"]`` tells
which rows ended (with their seat rewards already in ``rewards``).

Arrays (``n`` games, ``p`` seats, ``A`` ids, ``O`` observation size):

* ``obs``: float32 ``[n, O]``, ``masks``: int8 ``[n, A]`` (ones at the legal
  ids, exactly as the single environment's mask);
* ``agents``: int ``[n]``, the seat on turn, whose observation the row holds;
* ``rewards``: float32 ``[n, p]``; ``terminated`` / ``truncated``: bool ``[n]``.

Game ``i`` is seeded with ``seed + i`` on the first ``reset``; its later
episodes continue its own random stream, so the j-th episode of game ``i`` is
the j-th episode of ``burraco_v0.raw_env`` after ``reset(seed=seed + i)`` and
plain ``reset()`` calls (tested).  Only the mover's observation is encoded per
game and step; the arrays are preallocated, masks set and cleared sparsely
from the legal ids.  ``copy=False`` returns the internal buffers (overwritten
by the next step) instead of copies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from burraco.engine.rules import Rules
from burraco.env.aec import raw_env


class VectorEnv:
    """``num_envs`` games of one table kind (the keywords of ``burraco_v0.raw_env``)."""

    def __init__(self, num_envs: int, *, players: int = 4, rules: str | Rules = "fibur",
                 copy: bool = True, **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        self.games = [raw_env(players, rules, **options) for _ in range(num_envs)]
        first = self.games[0]
        self.num_envs = num_envs
        self.players = players
        self.copy = copy
        agent = first.possible_agents[0]
        self.single_observation_space = first.observation_spaces[agent]["observation"]
        self.single_action_space = first.action_spaces[agent]
        self.obs_size = first.layout.size
        self.action_count = int(self.single_action_space.n)
        self._obs = np.zeros((num_envs, self.obs_size), dtype=np.float32)
        self._masks = np.zeros((num_envs, self.action_count), dtype=np.int8)
        self._mask_ids: list[npt.NDArray[np.intp]] = [
            np.zeros(0, dtype=np.intp) for _ in range(num_envs)]
        self._agents = np.zeros(num_envs, dtype=np.int64)
        self._rewards = np.zeros((num_envs, players), dtype=np.float32)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._truncated = np.zeros(num_envs, dtype=bool)
        self._started = False

    def reset(self, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal every game (game ``i`` with ``seed + i``); ``({"obs", "masks", "agents"},
        {})``."""
        for i, game in enumerate(self.games):
            game.reset(seed=None if seed is None else seed + i)
            self._write(i, game)
        self._started = True
        return self._observations(), {}

    def step(self, actions: npt.ArrayLike) -> tuple[
            dict[str, Any], npt.NDArray[np.float32], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], dict[str, Any]]:
        """One id per game for its agent on turn: ``(observations, rewards [n, p],
        terminated [n], truncated [n], {"final": bool [n]})``; a finished game is dealt
        again (its row shows the new episode)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integer ids, got shape "
                             f"{ids.shape} of {ids.dtype}")
        chosen = ids.tolist()
        for i, (game, action) in enumerate(zip(self.games, chosen, strict=True)):
            if action not in game.legal_actions():  # check every game before moving any
                raise ValueError(f"game {i}: action {action} is not legal for "
                                 f"{game.agent_selection}")
        rewards = self._rewards
        rewards.fill(0.0)
        terminated, truncated = self._terminated, self._truncated
        for i, (game, action) in enumerate(zip(self.games, chosen, strict=True)):
            agent = game.agent_selection
            game.step(action)
            if game._rewarded:
                rewards[i] = [game.rewards[a] for a in game.possible_agents]
            term = game.terminations[agent]
            trunc = game.truncations[agent]
            terminated[i], truncated[i] = term, trunc
            if term or trunc:
                game.reset()
            self._write(i, game)
        final = terminated | truncated
        if self.copy:
            return (self._observations(), rewards.copy(), terminated.copy(), truncated.copy(),
                    {"final": final})
        return self._observations(), rewards, terminated, truncated, {"final": final}

    def legal_ids(self, i: int) -> npt.NDArray[np.intp]:
        """The legal ids of game ``i``'s agent on turn (the ones of its mask row)."""
        return self._mask_ids[i].copy()

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal id for every game, from the legal ids (no mask scan)."""
        picks = rng.random(self.num_envs)
        return np.array([ids[int(u * len(ids))] for u, ids in zip(
            picks.tolist(), self._mask_ids, strict=True)], dtype=np.int64)

    def close(self) -> None:
        for game in self.games:
            game.close()

    def _write(self, i: int, game: raw_env) -> None:
        """Row ``i``: the observation and mask of the game's agent on turn."""
        seat = game.game_state.turn
        self._agents[i] = seat
        self._obs[i] = game.encoder.encode_state(game.game_state, seat, game._match_info(seat))
        row = self._masks[i]
        row[self._mask_ids[i]] = 0
        ids = np.fromiter(game.legal_actions(), dtype=np.intp)
        row[ids] = 1
        self._mask_ids[i] = ids

    def _observations(self) -> dict[str, Any]:
        if self.copy:
            return {"obs": self._obs.copy(), "masks": self._masks.copy(),
                    "agents": self._agents.copy()}
        return {"obs": self._obs, "masks": self._masks, "agents": self._agents}
