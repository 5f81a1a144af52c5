"""The turn clock and the grace countdown of a dropped player: what a table does by itself
when time passes (docs/protocol.md, "Clocks").

A seat that lost its last connection gets ``grace_seconds`` to come back, then a stand-in
plays it; a seat on turn with a clock draws and discards on time out (``clock``).  Mixed into
:class:`burraco.server.actor.TableActor`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from burraco.engine.legal import legal_actions
from burraco.engine.views import view
from burraco.server import clock
from burraco.server.game import PLAYING, GameError
from burraco.server.protocol import dumps, server_cmid
from burraco.server.table_core import RETRY_SECONDS, TableLike, log
from burraco.server.table_items import Timer


class TurnClock:
    _clock_key: object
    _clock_deadline: float | None
    _clock_handle: asyncio.TimerHandle | None
    clock_resume: tuple[object, float] | None

    def _check_grace(self: TableLike) -> None:
        """Start the countdown of every held human seat that has no connection."""
        game = self.game
        if game.status != PLAYING:
            return
        for seat in self.config.human_seats:
            if (game.holders[seat] is not None and self.online[seat] == 0
                    and seat not in self.grace and seat not in self.standin):
                self._start_grace(seat)

    def _start_grace(self: TableLike, seat: int) -> None:
        seconds = self.config.grace_seconds
        loop = asyncio.get_running_loop()
        deadline = time.time() + seconds
        handle = loop.call_later(seconds, self.submit, Timer("grace", seat, deadline))
        self.grace[seat] = (deadline, handle)
        self._send_presence()

    def _arm_clock(self: TableLike) -> None:
        seconds = self.config.turn_seconds
        if seconds is None:
            return
        key = self.game.turn_key()
        if key == self._clock_key:
            return
        self._clock_key = key
        if self._clock_handle is not None:
            self._clock_handle.cancel()
            self._clock_handle = None
        seat = self.game.turn
        if key is None or seat is None or self.config.is_bot(seat):
            self._clock_deadline = None
        else:
            resume, self.clock_resume = self.clock_resume, None
            deadline = time.time() + seconds
            if resume is not None and resume[0] == key:  # the same turn, after a takeover
                deadline = min(deadline, resume[1])
            self._clock_deadline = deadline
            self._clock_handle = asyncio.get_running_loop().call_later(
                max(0.0, deadline - time.time()), self.submit, Timer("clock", seat, key))
        if self.on_clock is not None:
            self.on_clock(self.table_id, key, self._clock_deadline)
        text = dumps({"t": "clock", **(self._clock_info() or {"seat": None, "deadline_ms": None,
                                                                "seconds": seconds})})
        for conn in self.subs:
            conn.send(text)

    async def _timer(self: TableLike, timer: Timer) -> None:
        if timer.kind == "grace":
            grace = self.grace.get(timer.seat)
            if grace is None or grace[0] != timer.key or self.online[timer.seat] > 0:
                return
            del self.grace[timer.seat]
            self.standin.add(timer.seat)
            self._send_presence()
            self._after_change()
            return
        # the turn clock ran out: say so, then draw if needed and discard the least useful card
        for attempt in range(3):
            game = self.game
            if game.turn_key() != timer.key or game.turn != timer.seat or game.hand is None:
                return
            hand = game.hand
            action = clock.timeout_action(view(hand, timer.seat), legal_actions(hand))
            first = attempt == 0  # the first move of the time-out carries its notice
            try:
                step = (game.time_out if first else game.act)(timer.seat, action, self.deal)
            except GameError as exc:
                log.error("table %s: timeout move %s refused: %s", self.table_id, action, exc)
                return
            if not await self._commit(step, seat=timer.seat,
                                      cmid=server_cmid("clock", game.version + 1),
                                      kind="timeout" if first else "act",
                                      body={"action": str(action)}, source="clock"):
                # not stored: the turn is still out of time, so try again shortly
                self._clock_handle = asyncio.get_running_loop().call_later(
                    RETRY_SECONDS, self.submit, Timer("clock", timer.seat, timer.key))
                return

    def _clock_info(self: TableLike) -> dict[str, Any] | None:
        if self._clock_deadline is None or self.game.turn is None:
            return None
        return {"seat": self.game.turn, "deadline_ms": int(self._clock_deadline * 1000),
                "seconds": self.config.turn_seconds}
