"""Research environments (optional extra ``burraco[research]``: PettingZoo, Gymnasium, NumPy).

``from burraco.env import burraco_v0; env = burraco_v0.env(players=4)`` is the
PettingZoo AEC environment; :mod:`burraco.env.catalog` the fixed action ids,
:mod:`burraco.env.observation` the flat observation, and
:class:`burraco.env.single_agent.SingleAgentEnv` the Gymnasium wrapper (one
seat learns, bots play the others).  docs/research-env.md documents them.
"""

from burraco.bots.determinize import determinize
from burraco.env import burraco_v0, catalog
from burraco.env.catalog import CATALOG_VERSION
from burraco.env.observation import OBS_SIZE, SLICES, Encoder

__all__ = [
    "CATALOG_VERSION",
    "OBS_SIZE",
    "SLICES",
    "Encoder",
    "burraco_v0",
    "catalog",
    "determinize",
]
