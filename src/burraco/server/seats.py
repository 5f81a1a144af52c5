"""Bots at the table: bot seats, and stand-ins for players who dropped.

A bot never touches the table's state: it is given ``view(state, seat)`` and
the legal actions, like any client, and its choice goes back through the
table's command queue with the version it saw, exactly like a client command.
Quick levels think on the event loop; the others in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence

from burraco.bots import make_bot
from burraco.bots.base import Bot
from burraco.engine.actions import Action
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import view

QUICK_LEVELS = frozenset({"random", "basic"})
log = logging.getLogger("burraco.server.seats")


class SeatBots:
    """The bots of one table, one per seat that needs one (made on first use)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._bots: dict[tuple[int, str], Bot] = {}

    def bot(self, seat: int, level: str) -> Bot:
        key = (seat, level)
        if key not in self._bots:
            self._bots[key] = make_bot(level, seed=secrets.randbits(63), rules=self.rules)
        return self._bots[key]

    async def choose(self, seat: int, level: str, hand: HandState) -> Action:
        """The bot's action for ``seat`` from its view of ``hand`` (never changed here)."""
        legal = legal_actions(hand)
        seat_view = view(hand, seat)
        bot = self.bot(seat, level)
        if level in QUICK_LEVELS:
            action = bot.act(seat_view, legal)
        else:
            action = await asyncio.to_thread(bot.act, seat_view, legal)
        return _checked(action, legal, level, seat)


def _checked(action: Action, legal: Sequence[Action], level: str, seat: int) -> Action:
    if action in legal:
        return action
    log.error("bot %s at seat %d chose %s, which is not legal; playing %s", level, seat,
              action, legal[0])
    return legal[0]
