"""Bots at the table: bot seats, and stand-ins for players who dropped.

A bot never touches the table's state: it is given ``view(state, seat)`` and
the legal actions, like any client, and its choice goes back through the
table's command queue with the version it saw, exactly like a client command.
Quick levels think on the event loop; the others in a worker thread.

An outside engine (the open bot protocol, docs/bot-protocol.md) sits at a
seat as level ``engine:NAME``, NAME registered in the server's settings
(``burraco serve --engine NAME=COMMAND``); clients can only name it, never
give a command.  Its process starts at its first decision and lives as long
as the table; decisions it loses to the fallback are counted per seat.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence

from burraco.bots import make_bot
from burraco.bots.base import Bot
from burraco.bots.external import ENGINE_PREFIX, ExternalBot
from burraco.engine.actions import Action
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import view

QUICK_LEVELS = frozenset({"random", "basic"})
log = logging.getLogger("burraco.server.seats")


class SeatBots:
    """The bots of one table, one per seat that needs one (made on first use)."""

    def __init__(self, rules: Rules, *, engines: dict[str, str] | None = None,
                 deadline_ms: int = 2000, seed: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        """A fixed seed makes every bot of the table play alike each time (the tutorial's)."""
        self.engines = engines or {}
        self.deadline_ms = deadline_ms
        self._bots: dict[tuple[int, str], Bot] = {}

    def bot(self, seat: int, level: str) -> Bot:
        key = (seat, level)
        if key not in self._bots:
            seed = secrets.randbits(63) if self.seed is None else self.seed + seat
            name = level[len(ENGINE_PREFIX):]
            if level.startswith(ENGINE_PREFIX) and name not in self.engines:
                log.error("no outside engine %r registered any more: the fallback (basic) "
                          "plays seat %d", name, seat)
                self._bots[key] = make_bot("basic", seed=seed)
            elif level.startswith(ENGINE_PREFIX):
                self._bots[key] = ExternalBot(
                    self.engines[name], rules=self.rules, seed=seed, name=level,
                    deadline_ms=self.deadline_ms)
            else:
                self._bots[key] = make_bot(level, seed=seed, rules=self.rules)
        return self._bots[key]

    def faults(self, seat: int) -> int | None:
        """Decisions the outside engine at ``seat`` lost to the fallback (None: no engine)."""
        found = [b for (s, _), b in self._bots.items() if s == seat and isinstance(b, ExternalBot)]
        return sum(len(b.faults) for b in found) if found else None

    def close(self) -> None:
        """End the outside engines' processes (the table is done or the server stops)."""
        for bot in self._bots.values():
            if isinstance(bot, ExternalBot):
                bot.close()

    async def choose(self, seat: int, level: str, hand: HandState) -> Action:
        """The bot's action for ``seat`` from its view of ``hand`` (never changed here)."""
        legal = legal_actions(hand)
        seat_view = view(hand, seat)
        bot = self.bot(seat, level)
        if level in QUICK_LEVELS:
            action = bot.act(seat_view, legal)
        else:
            before = len(bot.faults) if isinstance(bot, ExternalBot) else 0
            action = await asyncio.to_thread(bot.act, seat_view, legal)
            if isinstance(bot, ExternalBot) and len(bot.faults) > before:
                fault = bot.faults[-1]
                log.warning("engine %s at seat %d lost a decision to the fallback (%s: %s)",
                            level, seat, fault.kind, fault.detail)
        return _checked(action, legal, level, seat)


def _checked(action: Action, legal: Sequence[Action], level: str, seat: int) -> Action:
    if action in legal:
        return action
    log.error("bot %s at seat %d chose %s, which is not legal; playing %s", level, seat,
              action, legal[0])
    return legal[0]
