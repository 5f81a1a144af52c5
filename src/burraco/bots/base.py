"""The bot interface: a view and the legal actions in, one action out.

A bot never receives the hand state, only ``view(state, seat)``, so it cannot
peek; the legal actions are information its seat has anyway.  Bots are
seeded, so a game between bots replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from burraco.engine.actions import Action
from burraco.engine.views import View


class Bot(Protocol):
    name: str

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""
        ...


def make_bot(level: str, *, seed: int | None = None) -> Bot:
    """A bot by level name: ``random`` or ``basic``."""
    from burraco.bots.basic import BasicBot
    from burraco.bots.random_bot import RandomBot

    rng = random.Random(seed)
    if level == "random":
        return RandomBot(rng)
    if level == "basic":
        return BasicBot(rng)
    raise ValueError(f"unknown bot level {level!r} (random, basic)")
