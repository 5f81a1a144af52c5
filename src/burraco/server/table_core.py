"""What a table's parts share: the table as its mixed-in parts see it (:class:`TableLike`),
and the constants of a table's life.

:class:`burraco.server.actor.TableActor` is the one implementation; its turn clock
(:mod:`.table_clock`) and its bots and stand-ins (:mod:`.table_bots`) are written against
this protocol, so each part states what of the table it uses.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from burraco.engine.state import HandState
from burraco.server.game import DealSource, Game, Step
from burraco.server.seats import SeatBots
from burraco.server.table_config import TableConfig
from burraco.server.table_items import Conn, Item, Timer

log = logging.getLogger("burraco.server.actor")
RECENT_EVENTS = 400
"""Events kept in memory per table for catching up reconnecting clients (about two hands)."""
RETRY_SECONDS = 1.0
"""After a move of the server's own (clock, bot, stand-in) failed to be stored: try again."""


class TableLike(Protocol):
    table_id: str
    game: Game
    config: TableConfig
    deal: DealSource
    subs: list[Conn]
    online: list[int]
    grace: dict[int, tuple[float, asyncio.TimerHandle]]
    standin: set[int]
    bots: SeatBots
    clock_resume: tuple[object, float] | None
    on_clock: Callable[[str, object, float | None], None] | None
    _bot_version: int
    _bot_task: asyncio.Task[None] | None
    _clock_key: object
    _clock_deadline: float | None
    _clock_handle: asyncio.TimerHandle | None
    _hinting: set[int]

    def submit(self, item: Item) -> bool: ...

    def _commit(self, step: Step, *, seat: int, cmid: str, kind: str, body: dict[str, Any],
                source: str, conn: Conn | None = None) -> Coroutine[Any, Any, bool]: ...

    def _after_change(self) -> None: ...

    def _reject(self, conn: Conn | None, code: str, reason: str, cmid: str | None,
                **extra: Any) -> None: ...

    def _send_presence(self) -> None: ...

    # the turn clock's (table_clock.TurnClock)
    def _check_grace(self) -> None: ...

    def _start_grace(self, seat: int) -> None: ...

    def _arm_clock(self) -> None: ...

    def _timer(self, timer: Timer) -> Coroutine[Any, Any, None]: ...

    def _clock_info(self) -> dict[str, Any] | None: ...

    # the bots' and stand-ins' (table_bots.SeatPlayers)
    def _bot_again(self) -> None: ...

    def _bot_level(self, seat: int) -> tuple[str, str] | None: ...

    def _schedule_bot(self) -> None: ...

    def _think(self, seat: int, level: str, source: str, version: int,
               hand: HandState) -> Coroutine[Any, Any, None]: ...

    # the hints' (table_hints.TableHints)
    def _think_hint(self, conn: Conn, seat: int, version: int, cmid: str,
                    hand: HandState) -> Coroutine[Any, Any, None]: ...



