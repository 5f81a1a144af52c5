"""Shared helpers of the environment tests: random hands and the states they pass through."""

from __future__ import annotations

import random
from collections.abc import Iterator

from burraco.engine import HandState, deal_seeded, legal_actions
from burraco.engine.actions import Action, Attach, Discard, Draw, NewMeld, Pickup
from burraco.engine.rules import Rules


def choose(actions: list[Action], rng: random.Random, policy: str) -> Action:
    """``uniform``: any legal action; ``melder``: melds and attaches first, the pile when
    offered, so hands reach many melds, the pozzetto and closing."""
    if policy == "melder":
        plays = [a for a in actions if isinstance(a, NewMeld | Attach)]
        if plays and rng.random() < 0.9:
            return rng.choice(plays)
        if any(isinstance(a, Pickup) for a in actions) and rng.random() < 0.5:
            return next(a for a in actions if isinstance(a, Pickup))
        discards = [a for a in actions if isinstance(a, Discard | Draw)]
        if discards:
            return rng.choice(discards)
    return rng.choice(actions)


def states_of_hand(
    seed: int, players: int, rules: Rules, policy: str = "uniform",
) -> Iterator[HandState]:
    """Every state of one random hand (the same object, changed in place), the end included."""
    rng = random.Random(seed)
    state = HandState.start(
        deal_seeded(seed, players=players, dealer=seed % players, rules=rules), rules)
    while True:
        yield state
        if state.is_over:
            return
        state.apply_in_place(choose(legal_actions(state), rng, policy))
