"""Research environments (optional extra ``burraco[research]``: PettingZoo, Gymnasium, NumPy).

``from burraco.env import burraco_v0; env = burraco_v0.env(players=4)`` is the
PettingZoo AEC environment; :mod:`burraco.env.catalog` the fixed action ids,
:mod:`burraco.env.observation` the flat observation, and
:class:`burraco.env.single_agent.SingleAgentEnv` the Gymnasium wrapper (one
seat learns, bots play the others; ``gymnasium.make("Burraco-v0")``), and
:class:`burraco.env.vector.VectorEnv` many games stepped at once as arrays, and
:class:`burraco.env.gym_vector.GymVectorEnv` the single-agent wrapper as a
Gymnasium-native vector env (``gymnasium.make_vec("Burraco-v0", num_envs=8)``).
docs/research-env.md documents them.
"""

import gymnasium

from burraco.bots.determinize import determinize
from burraco.env import burraco_v0, catalog
from burraco.env.catalog import CATALOG_VERSION
from burraco.env.gym_vector import GymVectorEnv
from burraco.env.observation import OBS_SIZE, SLICES, Encoder, Layout, layout_for
from burraco.env.vector import VectorEnv

GYM_ID = "Burraco-v0"
"""``gymnasium.make("Burraco-v0", players=2, opponents="basic")``: the single-agent wrapper
(registered when ``burraco.env`` is imported; ``gymnasium.make("burraco.env:Burraco-v0")``
imports it first); ``gymnasium.make_vec("Burraco-v0", num_envs=8)`` its native vector env."""
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="burraco.env.single_agent:SingleAgentEnv",
                       vector_entry_point="burraco.env.gym_vector:GymVectorEnv")

__all__ = [
    "CATALOG_VERSION",
    "GYM_ID",
    "OBS_SIZE",
    "SLICES",
    "Encoder",
    "GymVectorEnv",
    "Layout",
    "VectorEnv",
    "burraco_v0",
    "catalog",
    "determinize",
    "layout_for",
]
