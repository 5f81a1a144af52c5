"""Play a hand with bots: each seat gets its view and the legal actions, nothing more."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from burraco.bots.base import Bot
from burraco.engine.actions import Action
from burraco.engine.events import Event
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.engine.views import view

MoveHook = Callable[[HandState, int, Action, list[Event]], None]
TimeHook = Callable[[int, float], None]
"""Called with (seat, seconds) after each decision."""


class IllegalBotAction(ValueError):
    """A bot returned an action that is not among the legal ones: a bot defect."""


def play_hand(
    state: HandState, bots: Sequence[Bot], *, on_move: MoveHook | None = None,
    on_time: TimeHook | None = None,
) -> HandState:
    """Play ``state`` to its end; ``bots[seat]`` chooses for each seat from its view only."""
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for {state.players} seats")
    clock = time.perf_counter
    # outside programs (burraco.bots.external) are told what their seat saw happen
    observers = [f for f in (getattr(b, "observe_all", None) for b in bots) if f is not None]
    while not state.is_over:
        seat = state.turn
        legal = legal_actions(state)
        seen = view(state, seat)
        start = clock()
        action = bots[seat].act(seen, legal)
        if on_time is not None:
            on_time(seat, clock() - start)
        if action not in legal:
            raise IllegalBotAction(
                f"bot {bots[seat].name} at seat {seat} chose an illegal {action}")
        events = state.apply_in_place(action)
        for observe in observers:
            observe(events)
        if on_move is not None:
            on_move(state, seat, action, events)
    return state
