"""Play a hand with bots: each seat gets its view and the legal actions, nothing more."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from burraco.bots.base import Bot
from burraco.engine.actions import Action
from burraco.engine.events import Event
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.engine.views import view

MoveHook = Callable[[HandState, int, Action, list[Event]], None]


def play_hand(state: HandState, bots: Sequence[Bot], *, on_move: MoveHook | None = None) -> HandState:
    """Play ``state`` to its end; ``bots[seat]`` chooses for each seat."""
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for {state.players} seats")
    while not state.is_over:
        seat = state.turn
        legal = legal_actions(state)
        action = bots[seat].act(view(state, seat), legal)
        if action not in legal:
            raise ValueError(f"bot {bots[seat].name} at seat {seat} chose an illegal {action}")
        events = state.apply_in_place(action)
        if on_move is not None:
            on_move(state, seat, action, events)
    return state
