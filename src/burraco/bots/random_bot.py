"""``random``: a uniformly random legal action, the baseline every bot must beat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from burraco.engine.actions import Action
from burraco.engine.views import View


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))
