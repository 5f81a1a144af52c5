"""``burraco_v0.env()``: the raw environment with PettingZoo's three checks built in.

PettingZoo's classic games wrap their environment in ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``.  Each wrapper
forwards every attribute read (``agent_selection``, ``terminations``, …)
through ``__getattr__``, so three layers cost about as much per step as the
observation itself.  :class:`CheckedEnv` makes the same checks in one class:

* order: ``step``, ``observe``, ``render``, ``state`` and ``agent_iter`` before
  ``reset`` fail as PettingZoo's do, and a step with no agent left warns;
* bounds: an action outside ``Discrete(n)`` (other than ``None`` for a
  finished agent) fails an assertion;
* illegal ids: the mover gets ``illegal_reward`` (default -1), every agent is
  terminated and truncated, and the episode ends, as ``TerminateIllegalWrapper``
  does (the mask is exactly the legal ids, so "not in the mask" and "not
  legal" are one test).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.env import AECIterable, AECIterator  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from burraco.env.aec import Observation, raw_env


def _in_bounds(action: Any, n: int) -> bool:
    """``Discrete(n).contains(action)``: a Python or NumPy integer in ``[0, n)``."""
    if isinstance(action, int):
        return 0 <= action < n
    if isinstance(action, np.generic | np.ndarray) and action.shape == () \
            and np.issubdtype(action.dtype, np.integer):
        return 0 <= int(action) < n
    return False


class _OrderedIterator(AECIterator):  # type: ignore[misc]
    """``agent_iter``'s iterator that insists on a ``step`` between two agents."""

    def __next__(self) -> str:
        agent: str = super().__next__()
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return agent


class _OrderedIterable(AECIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderedIterator:
        return _OrderedIterator(self.env, self.max_iter)


class CheckedEnv(raw_env):
    """``raw_env`` that ends the episode on an illegal id instead of raising (see module)."""

    def __init__(self, *, illegal_reward: float = -1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.illegal_reward = float(illegal_reward)
        self._has_reset = False
        self._has_updated = False
        self._actions = int(self.action_spaces[self.possible_agents[0]].n)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> Observation:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            assert action is None or _in_bounds(action, self._actions), \
                "action is not in action space"
            self._was_dead_step(action)
            return
        assert _in_bounds(action, self._actions), "action is not in action space"
        if int(action) not in self.legal_actions():  # type: ignore[arg-type]
            EnvLogger.warn_on_illegal_move()
            self._cumulative_rewards[agent] = 0
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = self.illegal_reward
            self._accumulate_rewards()
            self._deads_step_first()
            return
        super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedIterable(self, max_iter)

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> Any:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def __str__(self) -> str:
        return "burraco_v0"
