"""``Burraco-v0`` as a Gymnasium-native vector environment (``gymnasium.vector.VectorEnv``).

:class:`GymVectorEnv` steps ``num_envs`` single-agent games (one seat learns,
bots play the others: :class:`~burraco.env.single_agent.SingleAgentEnv`, the
same keywords) as one batch, with Gymnasium 1.x's API: ``single_observation_space``
(the single env's ``Dict``), ``observation_space`` (its batch),
``single_action_space`` (``Discrete``), ``action_space`` (``MultiDiscrete``),
``reset(seed=, options=)`` and ``step(actions)`` returning batched observations,
rewards, terminations, truncations and infos.  It is the ``vector_entry_point``
of ``Burraco-v0``: ``gymnasium.make_vec("Burraco-v0", num_envs=8)`` builds it
(``vectorization_mode="sync"`` gives Gymnasium's own ``SyncVectorEnv`` instead).

**Auto-reset: ``NEXT_STEP``** (Gymnasium's default, ``metadata["autoreset_mode"]``),
or ``SAME_STEP`` when asked (``autoreset_mode=``):

* ``NEXT_STEP``: the step that ends row ``i``'s episode returns its last
  observation (whose mask is all zeros: the learner has nothing left to do);
  the next ``step`` ignores row ``i``'s action, deals it again and returns the new
  episode's first observation and mask, with reward 0 and no end;
* ``SAME_STEP``: the step that ends row ``i`` returns the new episode's first
  observation at once, the last one in ``infos["final_obs"][i]`` (and its info in
  ``infos["final_info"]``), so every row's mask always has a legal id.

Masks: in the observation (``obs["action_mask"]``, int8 ``[n, ids]``), in
``infos["action_mask"]``, and ``action_masks()`` (bool ``[n, ids]``, the
MaskablePPO convention): always the mask of the observation each row shows, so a
row just dealt again shows its new episode's legal ids.

Seeds: ``reset(seed=s)`` seeds row ``i`` with ``s + i`` (a list gives one seed per
row), as ``SyncVectorEnv`` does; later episodes of a row continue its own random
stream, so row ``i`` plays exactly what ``SingleAgentEnv`` plays after
``reset(seed=s + i)`` and plain ``reset()`` calls (tested row by row).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from burraco.env.aec import Observation
from burraco.env.single_agent import SingleAgentEnv

__all__ = ["GymVectorEnv"]


class GymVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` copies of ``Burraco-v0`` stepped as one batch (see the module);
    ``options`` are :class:`SingleAgentEnv`'s keywords."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  # Gymnasium's type

    def __init__(self, num_envs: int = 1, *,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
                 copy: bool = True, **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode is NEXT_STEP or SAME_STEP, not {mode}")
        self.envs = [SingleAgentEnv(**options) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode,
                         "render_modes": list(first.metadata["render_modes"])}
        self.render_mode = first.render_mode
        self.copy = copy
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size = first.game.layout.size
        ids = int(first.action_space.n)  # type: ignore[attr-defined]
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, ids), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=bool)
        self._truncations = np.zeros(num_envs, dtype=bool)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._started = False

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Deal every row (row ``i`` with ``seed + i``, or ``seed[i]``)."""
        if seed is None or isinstance(seed, int):
            if isinstance(seed, int):
                super().reset(seed=seed)
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give {self.num_envs} seeds, not {len(seeds)}")
        infos: dict[str, Any] = {}
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            obs, info = env.reset(seed=s, options=options)
            self._write(i, obs)
            infos = self._add_info(infos, info, i)
        self._autoreset[:] = False
        self._started = True
        return self._observations(), infos

    def step(self, actions: npt.ArrayLike) -> tuple[
            dict[str, npt.NDArray[Any]], npt.NDArray[np.float64], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], dict[str, Any]]:
        """One id per row; a row whose episode ended deals again (see the module)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions must be {self.num_envs} ids, got shape {chosen.shape}")
        infos: dict[str, Any] = {}
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        for i, (env, action) in enumerate(zip(self.envs, chosen.tolist(), strict=True)):
            if self._autoreset[i]:  # NEXT_STEP: the row ended last step; its action is ignored
                obs, info = env.reset()
                rewards[i], terminations[i], truncations[i] = 0.0, False, False
            else:
                obs, reward, term, trunc, info = env.step(int(action))
                rewards[i], terminations[i], truncations[i] = float(reward), term, trunc
                if same_step and (term or trunc):
                    infos = self._add_info(infos, {"final_obs": obs, "final_info": info}, i)
                    obs, info = env.reset()
            self._write(i, obs)
            infos = self._add_info(infos, info, i)
        if not same_step:
            self._autoreset = terminations | truncations
        if self.copy:
            return (self._observations(), rewards.copy(), terminations.copy(),
                    truncations.copy(), infos)
        return self._observations(), rewards, terminations, truncations, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The mask of each row's observation as booleans, ``[num_envs, ids]`` (a row whose
        episode just ended under ``NEXT_STEP`` shows its last observation: all False)."""
        return self._masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()

    def _write(self, i: int, obs: Observation) -> None:
        self._obs[i] = obs["observation"]
        self._masks[i] = obs["action_mask"]

    def _observations(self) -> dict[str, npt.NDArray[Any]]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._obs, "action_mask": self._masks}
