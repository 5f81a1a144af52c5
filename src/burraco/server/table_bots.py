"""Bots and stand-ins at a table: who plays a seat now, thinking off the table's loop, and the
move submitted as any other command (``seats`` runs the bots).  Mixed into
:class:`burraco.server.actor.TableActor`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from burraco.engine.legal import legal_actions
from burraco.server.game import GameError
from burraco.server.protocol import server_cmid
from burraco.server.table_core import RETRY_SECONDS, TableLike, log
from burraco.server.table_items import BotCommand


class SeatPlayers:
    _bot_version: int
    _bot_task: asyncio.Task[None] | None

    async def _bot_command(self: TableLike, item: BotCommand) -> None:
        game = self.game
        if item.version != game.version or game.turn != item.seat:
            return  # the table moved on while the bot thought; it is asked again
        if item.source == "standin" and item.seat not in self.standin:
            return  # the player came back
        if item.source == "bot" and not self.config.is_bot(item.seat):
            return
        try:
            step = game.act(item.seat, item.action, self.deal)
        except GameError as exc:
            log.error("table %s: %s move %s refused: %s", self.table_id, item.source,
                      item.action, exc.reason)
            return self._bot_again()
        if not await self._commit(step, seat=item.seat,
                                  cmid=server_cmid(item.source, game.version + 1), kind="act",
                                  body={"action": str(item.action)}, source=item.source):
            self._bot_again()

    def _bot_again(self: TableLike) -> None:
        """The bot's move was not stored: ask it again shortly (never leave the table stuck)."""
        def again() -> None:
            self._bot_version = -1
            self._schedule_bot()

        asyncio.get_running_loop().call_later(RETRY_SECONDS, again)

    def _bot_level(self: TableLike, seat: int) -> tuple[str, str] | None:
        """(level, source) when a bot plays ``seat`` now."""
        spec = self.config.seats[seat]
        if spec.kind == "bot":
            return (spec.level or "basic", "bot")
        if seat in self.standin:
            return (self.config.standin, "standin")
        return None

    def _schedule_bot(self: TableLike) -> None:
        game = self.game
        seat = game.turn
        if seat is None or game.hand is None or self._bot_version == game.version:
            return
        playing = self._bot_level(seat)
        if playing is None:
            return
        self._bot_version = game.version
        level, source = playing
        self._bot_task = asyncio.create_task(
            self._think(seat, level, source, game.version, game.hand))

    async def _think(self: TableLike, seat: int, level: str, source: str, version: int,
                     hand: Any) -> None:
        delay = self.config.bot_delay
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            action = await self.bots.choose(seat, level, hand)
        except Exception:
            log.exception("table %s: bot %s at seat %d failed", self.table_id, level, seat)
            action = legal_actions(hand)[0]
        self.submit(BotCommand(seat, version, action, source))
