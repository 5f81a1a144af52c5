"""``burraco_v0``: Burraco as a PettingZoo AEC environment (classic-games style).

Every seat is an agent (``player_0`` … ``player_{n-1}``, 2 to 6 players, seat
numbers of RULES.md §2.3); partners are separate agents that receive their
side's reward, and at 3 and 5 players the pairs form mid-hand (§13.2–13.3).
One step is one atomic engine action (draw, pickup, meld, attach, discard), so
the agent on turn acts several times in a row.  ``observe(agent)`` returns
``{"observation": float32[layout.size], "action_mask": int8[catalog.size(packs)]}``,
both built from what that seat may see (the mask is all zeros off turn).  The
episode is one hand, or a free-play match with ``match=True``; rewards come
at the end of each hand: the scorer's (side's; the seat's at 3 and 5 players)
score minus the mean of the other scorers', divided by ``reward_scale``
(``reward="score"``), or +1 / -1 / 0 for the scorer alone on top, the others,
a tie on top (``reward="win"``: of the hand, or of the match at its end).

>>> import numpy as np
>>> from burraco.env.catalog import describe
>>> table = env(players=2)
>>> table.reset(seed=1)
>>> [describe(i) for i in np.flatnonzero(table.last()[0]["action_mask"])]
['draw', 'pickup']

``raw_env`` also exposes the engine: :meth:`raw_env.view` (the raw view),
:meth:`raw_env.legal_actions`, :attr:`raw_env.game_state` and
:meth:`raw_env.determinize`, the bots' sampler of hidden cards, so search and
learning share one sampler.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from burraco.engine.state import HandState
from burraco.engine.views import View, view
from burraco.env.aec import ENV_VERSION, raw_env
from burraco.env.catalog import CATALOG_VERSION
from burraco.env.checked import CheckedEnv
from burraco.env.single_agent import SingleAgentEnv

__all__ = ["CATALOG_VERSION", "ENV_VERSION", "env", "gym_env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The checked environment: PettingZoo's three classic wrappers' checks in one class
    (:class:`burraco.env.checked.CheckedEnv`; illegal ids end the episode with -1 for the
    mover)."""
    return CheckedEnv(**kwargs)


def wrapped_env(**kwargs: Any) -> Any:
    """The raw environment inside PettingZoo's own three wrappers (the same checks as
    :func:`env`, slower: kept to compare the two)."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


def view_without_moves(state: HandState, seat: int) -> View:
    """``view(state, seat)`` without the public history, which the observation never reads."""
    return view(state, seat, moves=False)


def gym_env(**kwargs: Any) -> Any:
    """The Gymnasium single-agent environment: one seat learns, bots play the others
    (:class:`burraco.env.single_agent.SingleAgentEnv`, same keywords)."""
    return SingleAgentEnv(**kwargs)
