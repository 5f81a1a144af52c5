"""Computer players.  Each sees only its seat's view and the legal actions (docs/bots.md).

Levels, weakest first: ``random``, ``basic``, ``advanced``, ``expert``; build one with
:func:`make_bot`.  :func:`determinize` samples a full state consistent with a view.
"""

from burraco.bots.base import LEVEL_NAMES, LEVELS, Bot, Level, make_bot
from burraco.bots.basic import BasicBot
from burraco.bots.determinize import determinize
from burraco.bots.random_bot import RandomBot

__all__ = [
    "LEVELS", "LEVEL_NAMES", "BasicBot", "Bot", "Level", "RandomBot", "determinize", "make_bot",
]
