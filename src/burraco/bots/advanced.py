"""``advanced``: plays like a good club player, from its view alone.

It plays :class:`~burraco.bots.advanced_policy.Policy` (what it does, in the order a
turn asks, is told there) with its numbers: its own options over a named set's
(:mod:`burraco.bots.tuned`).  To use the engine's rules for its own plays it samples one
state consistent with its view; the cards it cannot see are placed at random and no
decision reads them.  The policy's names can be imported from here too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from burraco.bots.advanced_policy import (
    DEFAULT,
    EXIT_SEARCH_NODES,
    Danger,
    Params,
    Policy,
    choose_discard,
    choose_meld,
    discard_costs,
    find_exit,
    make_context,
    pickup_gain,
    urgency,
)
from burraco.bots.determinize import determinize, rules_of
from burraco.bots.knowledge import read_history
from burraco.bots.tuned import NumberedPolicy
from burraco.engine.actions import Action
from burraco.engine.rules import Rules
from burraco.engine.views import View

__all__ = [
    "DEFAULT", "EXIT_SEARCH_NODES", "AdvancedBot", "Danger", "Params", "Policy", "choose_discard",
    "choose_meld", "discard_costs", "find_exit", "make_context", "pickup_gain", "urgency",
]


class AdvancedBot:
    """The club player."""

    name = "advanced"

    def __init__(self, rng: random.Random, *, rules: Rules | None = None,
                 numbers: str | None = None, **params: float) -> None:
        self.rng = rng
        self.rules = rules
        self.numbered = NumberedPolicy(numbers, params)
        """Its numbers: ``params``, over a named set's for the table's player count."""

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        rules = self.rules or rules_of(view)
        # cards it cannot see are placed arbitrarily: decisions read only its own and public cards
        sandbox = determinize(view, random.Random(0), rules=rules, evidence=False, history=False)
        seat = view.seat if view.seat is not None else view.turn
        policy = self.numbered.at(view.players)
        return policy.decide(sandbox, seat, legal, history=read_history(view))
