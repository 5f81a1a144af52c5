"""Open online tournaments at a server: scheduled by players, club admins and the server,
then run by themselves (docs/protocol.md, "Online tournaments").

The events are :mod:`burraco.meet.events` values kept in the database
(:mod:`burraco.community.event_store`).  Every process runs :meth:`OnlineEvents.tick` about
every :data:`EVERY` seconds: it schedules the server's recurring events
(:mod:`burraco.community.recurring`) and drives each event that is running or due, one
process at a time (a lease on the event's row, :data:`LEASE_SECONDS`; a process that dies
is replaced when its lease runs out).  Driving an event is:

1. at its start time, starting it (or cancelling it with fewer than two entrants);
2. closing its games: a finished table's recorded match gives the result (each side's match
   points; a rated abandonment loses for the leaver's side); a table still waiting
   ``show_seconds`` after its game began is a no-show for each side not all of whose seats
   are taken (:func:`burraco.meet.events.no_show`: the game is lost by default, a second
   miss withdraws the entrant), and the table is deleted;
3. pairing: a Swiss's next round once every game of the round is closed
   (:func:`burraco.meet.swiss.next_round`); an arena's waiting entrants at once
   (:func:`burraco.meet.arena.start_games`); finishing it after the last round or the
   arena's end, and writing each entrant's place for the profiles;
4. making a table for each new game (:mod:`burraco.community.event_tables`): a Swiss
   round's tables share one deal group, so every table of a round plays the same deals.

Each change is saved by compare-and-set on the row's version, so a registration or a
withdrawal that came in between is never overwritten: the step is worked out again.  The
entrants learn their seat links from ``GET /api/events/{id}`` (each their own) and from the
notifications.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from sqlalchemy import Connection

from burraco.accounts.identity import Guest
from burraco.community import event_store as store
from burraco.community import event_tables as tables
from burraco.community.event_store import Stored
from burraco.community.recurring import Recurring
from burraco.meet import arena, swiss
from burraco.meet.events import (
    EventError,
    EventState,
    Game,
    finish,
    no_show,
    record_result,
    start,
)
from burraco.server.hub import Hub
from burraco.server.tables import TableConfigError
from burraco.server.waiting import CancelRefused, cancel_table

log = logging.getLogger("burraco.community.online_events")

EVERY = 1.0
LEASE_SECONDS = 15.0
"""How long a process drives an event unrenewed before another may take it over."""
NO_TABLE_SECONDS = 120.0
"""A game whose table could not be made for this long (past its show time) is lost by both."""
RETIRE_WITHIN = 600.0
"""A no-show's table still waiting this long after the no-show is looked for again."""
RETIRE_EVENTS = 500
"""The most events looked at for such tables in one round."""


class OnlineEvents:
    """The server's online events: their driving loop (every process runs one)."""

    def __init__(self, hub: Hub, *, clock: Callable[[], float] = time.time,
                 every: float = EVERY, lease: float = LEASE_SECONDS,
                 recurring: Sequence[Recurring] = ()) -> None:
        self.hub = hub
        self.clock = clock
        self.every = every
        self.lease = lease
        self.recurring = tuple(recurring)
        self.node = hub.settings.node_id or f"{os.getpid()}-{secrets.token_hex(4)}"
        self._scheduled: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    # --- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        failing = False
        while True:
            self._wake.clear()
            try:
                await self.tick()
                failing = False
            except Exception as exc:  # the database away: the next round tries again
                if not failing:
                    log.exception("online events: a round failed")
                else:
                    log.debug("online events: a round failed again: %r", exc)
                failing = True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)

    async def tick(self) -> None:
        now = self.clock()
        await self.schedule(now)
        for event_id in await self.hub.read(lambda conn: store.due(conn, now, 0.0)):
            try:
                await self.drive(event_id)
            except Exception:
                log.exception("online event %s: this round of it failed", event_id)
        for stored in await self.hub.read(lambda conn: store.listing(
                conn, now - RETIRE_WITHIN, RETIRE_EVENTS)):  # a no-show may have ended one
            if stored.state.started is not None:
                try:
                    await self.retire_no_shows(stored, now)
                except Exception:
                    log.exception("online event %s: its no-shows' tables", stored.event_id)

    async def schedule(self, now: float) -> None:
        """The next event of each recurring series, once it is announced (idempotent: one
        row per series and start, whichever process comes first)."""
        for series in self.recurring:
            state, key = series.next_event(now)
            if state is None or key in self._scheduled:
                continue
            await self.hub.writer.run(partial(store.insert_event, state=state,
                                              created_by=None, now=now, series=key))
            self._scheduled.add(key)

    # --- driving one event ---------------------------------------------------------------

    async def drive(self, event_id: str) -> None:
        """One step of the event, if this process holds (or takes) its lease."""
        now = self.clock()
        if not await self.hub.writer.run(lambda conn: store.take_lease(
                conn, event_id, self.node, now, self.lease)):
            return
        for _ in range(5):
            stored = await self.hub.read(lambda conn: store.load(conn, event_id))
            if stored is None or stored.phase not in store.LIVE:
                return
            state, phase = await self.advance(stored, now)
            if state == stored.state and phase == stored.phase:
                break
            if await self.hub.writer.run(partial(save_step, stored=stored, state=state,
                                                 now=now, phase=phase, holder=self.node)):
                if phase == "finished":
                    log.info("online event %s (%s) is over", event_id, state.spec.name)
                break
        await self.make_tables(event_id)

    async def advance(self, stored: Stored, now: float) -> tuple[EventState, str]:
        """The event's next state and phase."""
        state = stored.state
        if state.phase == "open":
            if now < state.spec.starts:
                return state, state.phase
            try:
                state = start(state, now)
            except EventError:  # fewer than two entrants
                return state, "cancelled"
        for game in state.open_games():
            table_id = stored.tables.get(game.id)
            if table_id is None:
                if now - game.started > state.spec.show_seconds + NO_TABLE_SECONDS:
                    state = no_show(state, game.id, game.sides, now)
                continue
            fact = await self.hub.read(partial(tables.facts, table_id=table_id))
            if fact.recorded and fact.points is not None:
                state = record_result(state, game.id, fact.points, now, winner=fact.winner)
            elif fact.status is None:  # deleted: nobody could sit down
                state = no_show(state, game.id, game.sides, now)
            elif fact.status == "waiting" \
                    and now - max(game.started, fact.made) >= state.spec.show_seconds:
                # the time to sit down counts from the table's making (a driver that took
                # the event over may have made it late)
                absent = tables.absent_sides(state, game, fact.claimed)
                if absent:
                    state = no_show(state, game.id, absent, now)
        return pair(state, now)

    async def retire_no_shows(self, stored: Stored, now: float) -> None:
        """Delete the tables run here of the recent games lost by not sitting down that
        still wait.  Every process does it for the tables it runs (in a cluster a table is
        deleted by its owner), whoever drives the event, and again after a crash."""
        for game in stored.state.games:
            result, table_id = game.result, stored.tables.get(game.id)
            if result is None or not result.absent or table_id is None \
                    or now - result.at > RETIRE_WITHIN or not self.runs(table_id):
                continue
            fact = await self.hub.read(partial(tables.facts, table_id=table_id))
            if fact.status == "waiting":
                await self.retire(stored.event_id, table_id, game)

    def runs(self, table_id: str) -> bool:
        """Whether this process runs the table (alone, every table is its own)."""
        cluster = self.hub.cluster
        return cluster is None or table_id in cluster.owned

    async def retire(self, event_id: str, table_id: str, game: Game) -> None:
        """Delete a no-show's table (a present player is sent back to the event)."""
        try:
            await cancel_table(self.hub, table_id, tables.creator_of(event_id, game.id),
                               seated_too=True, reason="the opponent did not sit down in "
                               "time: the game is won by default")
        except CancelRefused as exc:
            log.info("online event %s: table %s is not deleted: %s", event_id, table_id,
                     exc.detail)

    async def make_tables(self, event_id: str) -> None:
        """A table for each open game without one (found again if made before a crash)."""
        stored = await self.hub.read(lambda conn: store.load(conn, event_id))
        if stored is None or stored.state.phase != "running":
            return
        spec = stored.state.spec
        made: dict[str, str] = {}
        for game in stored.state.open_games():
            if game.id in stored.tables:
                continue
            creator = tables.creator_of(event_id, game.id)
            found = await self.hub.read(partial(tables.made_by, creator=creator.id))
            if found is None:
                found = await self.create(creator, spec, tables.deal_group(spec, event_id, game))
            if found is not None:
                made[game.id] = found
        if made and not await self.hub.writer.run(partial(
                store.add_tables, event_id=event_id, tables=made, now=self.clock(),
                holder=self.node)):  # another process took the event over meanwhile: it
            log.warning("online event %s: lost its lease while making tables %s (the new "
                        "holder finds them by their creator)", event_id, made)

    async def create(self, creator: Guest, spec: Any, group: str | None) -> str | None:
        request = tables.request_for(spec)
        try:
            created = await self.hub.create_table(creator, request, deal_group=group)
        except TableConfigError as exc:
            if group is None or exc.field != "deal_group":
                log.error("online event table refused: %s", exc)
                return None
            created = await self.hub.create_table(creator, request)  # the group closed early
        return str(created["table_id"])


def pair(state: EventState, now: float) -> tuple[EventState, str]:
    """Pair what may be paired at ``now``, or finish the event; (state, phase)."""
    if state.phase != "running":
        return state, state.phase
    spec = state.spec
    if spec.kind == "swiss":
        if state.open_games():
            return state, state.phase
        if state.round < (spec.rounds or 0) and len(state.active()) >= 2:
            return swiss.next_round(state, now), "running"
        state = finish(state, now, early=state.round < (spec.rounds or 0))
        return state, state.phase
    ends = state.ends or now
    if now < ends:
        busy = state.playing()
        waiting = {e.id: since(state, e.id) for e in state.active() if e.id not in busy}
        return arena.start_games(state, waiting, now), "running"
    if state.open_games():
        return state, state.phase
    state = finish(state, now)
    return state, state.phase


def since(state: EventState, entrant_id: str) -> float:
    """When the entrant began to wait: the end of its last game, else the start."""
    ends = [g.result.at for g in state.games
            if entrant_id in g.sides and g.result is not None]
    return max(ends, default=state.started or 0.0)


def save_step(conn: Connection, stored: Stored, state: EventState, now: float, phase: str,
              holder: str) -> bool:
    """Save a step of the driver holding the lease (with the final places when it
    finishes the event: in the same transaction, so neither goes without the other)."""
    if not store.save(conn, stored, state, now, phase=phase, holder=holder):
        return False
    if phase == "finished":
        store.write_results(conn, stored.event_id, result_rows(conn, stored.event_id, state))
    return True


def result_rows(conn: Connection, event_id: str, state: EventState) -> list[dict[str, Any]]:
    """One row per account of each entrant that took part: its place and score."""
    standing: Sequence[Any] = (swiss.standings(state) if state.spec.kind == "swiss"
                               else arena.standings(state))
    rows = []
    for row in standing:
        for account in row.accounts:
            rows.append({"event_id": event_id, "player_id": account,
                         "name": state.spec.name, "kind": state.spec.kind, "rank": row.rank,
                         "entrants": len(standing), "score": float(row.score),
                         "finished": state.finished or 0.0})
    return rows


def attach(hub: Hub, **options: Any) -> OnlineEvents:
    service = OnlineEvents(hub, **options)
    hub.hooks.started.append(service.start)
    hub.hooks.stopping.append(service.stop)
    return service


__all__ = ["OnlineEvents", "attach", "pair"]
