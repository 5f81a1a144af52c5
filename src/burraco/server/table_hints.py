"""Hints at casual tables: "what would the expert do" for the seat on turn, thought off the
table's loop from the seat's own view (:meth:`SeatBots.choose`), then given as a command of
its own (``HintGiven``: the action to the seat, only the count to the others), counted for
the match and written into the hand's record.  Mixed into
:class:`burraco.server.actor.TableActor`.
"""

from __future__ import annotations

import asyncio

from burraco.engine.state import HandState
from burraco.server.game import GameError
from burraco.server.protocol import HintAsk
from burraco.server.table_core import TableLike, log
from burraco.server.table_items import Conn, HintReady

HINT_LEVEL = "expert"
"""The bot whose choice a hint gives."""


class TableHints:
    _hinting: set[int]

    def _ask_hint(self: TableLike, conn: Conn, seat: int, message: HintAsk) -> None:
        """Check the ask, then think the hint in a task of its own; it comes back as
        :class:`HintReady`."""
        game = self.game
        try:
            hand = game.may_hint(seat)  # the same checks the hint's command makes
        except GameError as exc:
            return self._reject(conn, exc.code, exc.reason, message.id)
        if seat in self._hinting:
            return self._reject(conn, "hint_given", "the hint for this position is on its "
                                "way", message.id)
        self._hinting.add(seat)
        asyncio.get_running_loop().create_task(
            self._think_hint(conn, seat, game.version, message.id, hand))

    async def _think_hint(self: TableLike, conn: Conn, seat: int, version: int, cmid: str,
                          hand: HandState) -> None:
        try:
            action = await self.bots.choose(seat, HINT_LEVEL, hand)
        except Exception:
            log.exception("table %s: the hint for seat %d failed", self.table_id, seat)
            self._hinting.discard(seat)
            return self._reject(conn, "internal_error", "the hint could not be thought; ask "
                                "again", cmid)
        if not self.submit(HintReady(conn, seat, version, cmid, action)):
            self._hinting.discard(seat)
            self._reject(conn, "overloaded", "too many commands are waiting at this table; "
                         "ask again", cmid)

    async def _give_hint(self: TableLike, item: HintReady) -> None:
        self._hinting.discard(item.seat)
        if item.version != self.game.version:
            return self._reject(item.conn, "stale_version", "the table moved on while the "
                                "hint was thought: ask again", item.cmid)
        try:
            step = self.game.hint(item.seat, item.action)
        except GameError as exc:
            return self._reject(item.conn, exc.code, exc.reason, item.cmid)
        await self._commit(step, seat=item.seat, cmid=item.cmid, kind="hint",
                           body={"action": str(item.action)}, source="client", conn=item.conn)
