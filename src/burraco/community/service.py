"""What the community adds to the table server: finished matches recorded, the daily duplicate.

:func:`attach` registers on the hub's hooks (:class:`burraco.server.hub.Hooks`): a match that
ends is turned into history, statistics and ratings (``results``); on start, what a crash left
unrecorded is recorded and the clock that closes each day's duplicate starts (``daily``); a
daily group's deals stay held until its day is over.  The table server imports nothing of this.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from burraco.accounts.identity import Guest
from burraco.community import daily, results
from burraco.server.hub import Hub
from burraco.server.tables import TableConfigError

log = logging.getLogger("burraco.server.players")


class Results:
    """Finished matches into history, statistics and ratings (``results.record_match``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._recording: set[asyncio.Task[None]] = set()
        self._closer: asyncio.Task[None] | None = None

    def record_soon(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.record(table_id))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    async def record(self, table_id: str) -> None:
        try:
            await self.hub.writer.run(lambda conn: results.record_match(conn, table_id))
        except Exception:
            log.exception("table %s: the finished match could not be recorded", table_id)

    async def start(self) -> None:
        """Record what a crash left between a match's end and its recording; start the clock
        that publishes each day's duplicate deals when the day closes."""
        for table_id in await self.hub.read(results.unrecorded_finished):
            await self.record(table_id)
        self._closer = asyncio.get_running_loop().create_task(self._close_days())

    async def _close_days(self, every: float = daily.CHECK_EVERY) -> None:
        """Publish the held deals of each closed day, then record its matches (once their
        tables have published the reveals, so the statistics see every hand)."""
        while True:
            try:
                for table_id in await self.hub.read(lambda conn: [
                        t for t in results.unrecorded_finished(conn)
                        if not daily.record_waits(conn, t)]):
                    await self.record(table_id)
                for group in await self.hub.read(daily.closed_groups_with_held):
                    await self.hub.settle_group(group)
            except Exception:
                log.exception("closing the daily duplicate failed; trying again later")
            await asyncio.sleep(every)

    async def stop(self) -> None:
        if self._closer is not None:
            self._closer.cancel()
        if self._recording:
            await asyncio.gather(*self._recording, return_exceptions=True)


class DailyError(Exception):
    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra


class Daily:
    """The daily duplicate's calls (``daily`` has the rules of it)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def overview(self, guest: Guest | None, day: str | None) -> dict[str, Any]:
        current = daily.today()
        day = day or current
        closed = daily.clock() >= daily.closes_at(day)
        sets: dict[str, Any] = {}
        pid = guest.id if guest is not None and guest.account else None
        for form in daily.FORMS:
            def secret_of(conn: Any, form: str = form) -> str | None:
                if day == current:
                    return daily.ensure_group(conn, current, form)
                return daily.group_secret(conn, day, form)

            def mine_of(conn: Any, form: str = form) -> str | None:
                return daily.entry_of(conn, day, form, pid) if pid else None

            secret = await (self.hub.writer.run(secret_of) if day == current
                            else self.hub.read(secret_of))
            mine = await self.hub.read(mine_of)

            def status_of(conn: Any, table: str | None = mine) -> str | None:
                return daily.table_status(conn, table) if table else None

            status = await self.hub.read(status_of) if mine else None

            def held_of(conn: Any, form: str = form) -> frozenset[int]:
                return daily.pending_hands(conn, day, form)

            held = await self.hub.read(held_of) if closed and secret else frozenset()
            sets[form] = {
                "hands": daily.HANDS, "bots": daily.BOT, "my_table": mine, "my_status": status,
                "my_seat_token": self.hub.tokens.seat_token(mine, 0) if mine else None,
                "deals": daily.commitments(secret, form, reveal=closed, held=held)
                if secret else None}
        return {"day": day, "closes_at": daily.closes_at(day), "closed": closed, "sets": sets}

    async def enter(self, guest: Guest, form: str) -> dict[str, Any]:
        if not guest.account:
            raise DailyError(401, "login_required", "the daily duplicate is for accounts: "
                             "register or log in")
        day = daily.today()
        existing = await self.hub.read(lambda conn: daily.entry_of(conn, day, form, guest.id))
        if existing is not None:
            raise DailyError(409, "daily_played", "you have entered today's set already",
                             table_id=existing)
        await self.hub.writer.run(lambda conn: daily.ensure_group(conn, day, form))
        try:
            created = await self.hub.create_table(guest, daily.request(form),
                                                  deal_group=daily.group_id(day, form))
        except TableConfigError as exc:
            raise DailyError(409, "daily_closed", str(exc)) from None
        table_id = created["table_id"]
        await self.hub.writer.run(lambda conn: daily.add_entry(conn, day, form, guest.id,
                                                               table_id))
        return created

    async def board(self, guest: Guest | None, form: str, day: str | None) -> dict[str, Any]:
        day = day or daily.today()
        me = guest.id if guest is not None and guest.account else None
        board = await self.hub.read(lambda conn: daily.day_board(conn, day, form, me))
        if board is None:
            raise DailyError(403, "daily_play_first", "the day's results are shown to those who "
                             "have played its whole set, and to everyone once the day is over")
        return board

    async def month(self, form: str, month: str) -> dict[str, Any]:
        return await self.hub.read(lambda conn: daily.month_board(conn, month, form))


def attach(hub: Hub) -> tuple[Results, Daily]:
    """Register the community's hooks on ``hub``; its services for the routes."""
    recorder = Results(hub)
    hub.hooks.started.append(recorder.start)
    hub.hooks.stopping.append(recorder.stop)
    hub.hooks.finished.append(recorder.record_soon)
    hub.hooks.may_release.append(daily.may_release)
    return recorder, Daily(hub)
