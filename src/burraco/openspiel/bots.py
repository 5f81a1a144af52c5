"""This project's bots as OpenSpiel bots, to play them against OpenSpiel's algorithms.

A :class:`ProjectBot` gets what every bot of the project gets: its seat's view and the legal
actions (``BurracoState.view``, ``legal_engine_actions``), never the state's hidden cards;
it answers with the chosen action's catalog id.  OpenSpiel's ``evaluate_bots`` plays a
hand between any of them::

    bots = [ismcts_bot, ProjectBot("basic", seat=1, seed=7)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
"""

from __future__ import annotations

from typing import Any

import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type information

from burraco.bots.base import Bot, make_bot
from burraco.openspiel.game import BurracoState


class ProjectBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel's classes are untyped
    """A bot level (``basic``, ``advanced``, ``expert:iterations=32``, …) at one seat."""

    def __init__(self, spec: str, *, seat: int, seed: int | None = None,
                 rules: Any = None) -> None:
        pyspiel.Bot.__init__(self)
        self.spec = spec
        self.seat = seat
        self.bot: Bot = make_bot(spec, seed=seed, rules=rules)

    def step(self, state: BurracoState) -> int:
        if state.current_player() != self.seat:
            raise ValueError(f"seat {self.seat} is not on turn")
        legal = state.legal_engine_actions()
        ids = {action: i for i, action in legal.items()}
        chosen = self.bot.act(state.view(self.seat), list(legal.values()))
        return ids[chosen]

    def restart_at(self, state: BurracoState) -> None:
        pass

    def inform_action(self, state: BurracoState, player_id: int, action: int) -> None:
        pass
