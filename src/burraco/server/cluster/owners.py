"""Who owns which table, as a door sees it: a cache, and one MGET for many questions.

Every connection routed through a door asks who owns its table.  Asked one by
one, a burst of hundreds of connections becomes hundreds of Redis round trips
at once (and as many pool connections).  Here the questions asked in one turn
of the event loop share one ``MGET``, and an answer is kept until the watch
loop reads the leases again, a lease changes, or an owner says the table moved
(then the entry is dropped and the next question reads Redis).

A stale entry is harmless: the door joins the owner it names, which checks its
own lease and answers "moved", and the door asks again with the entry gone.
Nobody is ever named owner from the cache alone when Redis says nobody is:
absent owners are never cached.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable


class OwnerBook:
    def __init__(self, read: Callable[[list[str]], Awaitable[dict[str, str | None]]],
                 max_age: float) -> None:
        self._read = read
        self.max_age = max_age
        """Seconds an answer is trusted without a lease change being seen."""
        self._known: dict[str, tuple[str, float]] = {}
        self._asked: dict[str, asyncio.Future[str | None]] = {}
        self._flush: asyncio.Handle | None = None
        self.reads = 0
        """Redis reads made (for tests and the bench's curiosity)."""

    def note(self, table_id: str, token: str | None) -> None:
        """What a lease read, a take or a hand-over just told."""
        if token is None:
            self._known.pop(table_id, None)
        else:
            self._known[table_id] = (token, time.monotonic())

    def note_all(self, owners: dict[str, str | None]) -> None:
        for table_id, token in owners.items():
            self.note(table_id, token)

    def forget(self, table_id: str | None = None) -> None:
        """An owner moved (or Redis came back): ask Redis next time."""
        if table_id is None:
            self._known.clear()
        else:
            self._known.pop(table_id, None)

    def cached(self, table_id: str) -> str | None:
        entry = self._known.get(table_id)
        if entry is None or time.monotonic() - entry[1] > self.max_age:
            return None
        return entry[0]

    async def owner(self, table_id: str) -> str | None:
        """The table's lease token (``None``: nobody holds it), from the cache or Redis."""
        token = self.cached(table_id)
        if token is not None:
            return token
        return await self.fresh(table_id)

    async def fresh(self, table_id: str) -> str | None:
        """The table's lease token read from Redis (with whatever else is asked now)."""
        future = self._asked.get(table_id)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._asked[table_id] = future
            if self._flush is None:
                self._flush = asyncio.get_running_loop().call_soon(self._start_read)
        return await asyncio.shield(future)

    async def read_many(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """Owners of many tables in one read (the watch and the scan), noted."""
        ids = list(table_ids)
        if not ids:
            return {}
        self.reads += 1
        owners = await self._read(ids)
        self.note_all(owners)
        return owners

    def _start_read(self) -> None:
        self._flush = None
        asked, self._asked = self._asked, {}
        asyncio.get_running_loop().create_task(self._answer(asked))

    async def _answer(self, asked: dict[str, asyncio.Future[str | None]]) -> None:
        try:
            owners = await self.read_many(asked)
        except Exception as exc:
            for future in asked.values():
                if not future.done():
                    future.set_exception(exc)
                    future.exception()  # retrieved here: each asker raises it
            return
        for table_id, future in asked.items():
            if not future.done():
                future.set_result(owners.get(table_id))
