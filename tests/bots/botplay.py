"""Helpers for the bot tests: hands played by bots, and the states met along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator

from burraco.bots.base import make_bot
from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import view

LEVEL_MIX = ("random", "basic", "advanced")


def start(seed: int, players: int, rules: Rules | None = None) -> HandState:
    rules = rules or Rules.preset("fibur")
    individual = players in (3, 5) and seed % 3 == 0
    return HandState.start(
        deal_seeded(seed, players=players, rules=rules, individual=individual), rules)


def states_of_hand(seed: int, players: int, *, rules: Rules | None = None,
                   levels: tuple[str, ...] = LEVEL_MIX) -> Iterator[HandState]:
    """Every state of one hand played by a mix of bots (the state is yielded before each move)."""
    rules = rules or Rules.preset("fibur")
    state = start(seed, players, rules)
    bots = [make_bot(levels[(seed + s) % len(levels)], seed=seed * 10 + s, rules=rules)
            for s in range(players)]
    while not state.is_over:
        yield state
        legal = legal_actions(state)
        state = state.clone()
        state.apply_in_place(bots[state.turn].act(view(state, state.turn), legal))
    yield state


def random_state(seed: int, players: int, steps: int) -> HandState:
    rng = random.Random(seed)
    state = start(seed, players)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply_in_place(rng.choice(legal_actions(state)))
    return state
