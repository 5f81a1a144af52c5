"""How the pool's matches become tables (:mod:`.matchmaking`, whose class this mixes into):
each pairing round takes the matches delivered to this process, makes each one's table
through the hub (found again when a match is delivered twice), checks a rated match's
accounts once more, and acknowledges it; a rated seat's rules for one account
(:meth:`PoolSeating.check_rated`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from burraco.accounts import screening
from burraco.accounts.identity import Guest
from burraco.community.pool_reads import (
    PoolRefused,
    SeatsRefused,
    creator_of,
    table_level,
    table_made_by,
    table_status,
)
from burraco.community.presence import Presence
from burraco.meet.entries import FORMAT_TABLE, Entry, PoolKey
from burraco.meet.matches import Match
from burraco.meet.store import Delivery, PoolStore
from burraco.server import rated
from burraco.server.hub import Hub
from burraco.server.tables import SeatRequest, TableRequest
from burraco.server.waiting import CancelRefused, cancel_table

log = logging.getLogger("burraco.community.matchmaking")


class PoolSeating:
    """The seating half of :class:`burraco.community.matchmaking.Matchmaking`."""

    hub: Hub
    store: PoolStore
    clock: Callable[[], float]
    polls: Presence
    abandoned_after: float | None
    tables_made: int
    _waiting: tuple[float, list[Entry]] | None

    async def check_rated(self, guest: Guest) -> None:
        """A rated table's seat rules, for one account (as ``rated.creation_refusal`` with a
        seat of one's own, each with its code), and no rated table of the pool to play."""
        if not guest.account:
            raise PoolRefused(403, "account_required", "rated pools are for accounts: "
                              "register or log in (guests may join casual pools)")
        wait = await self.hub.players.wait_of(guest.id)
        if wait is not None:
            raise PoolRefused(403, "rated_wait", rated.wait_text(wait))
        elsewhere = await self.hub.read(lambda conn: rated.live_rated_seat(conn, guest.id))
        if elsewhere is not None:
            raise PoolRefused(409, "one_seat", rated.ONE_LIVE_RATED.format(table=elsewhere))
        placement = await self.store.matches_for(guest.id)
        if placement is not None and placement.match.rated and placement.table:
            table = placement.table
            status = await self.hub.read(lambda conn: table_status(conn, table))
            if status not in (None, "finished"):
                raise PoolRefused(409, "one_seat", f"your rated match from the pool (table "
                                  f"{table}) is not over: play it before another")

    # --- pairing and seating ---------------------------------------------------------------

    async def pair_once(self) -> list[str]:
        """One pairing: every match delivered to this process seated; the tables' ids."""
        await self.drop_abandoned()
        made = []
        for delivery in await self.store.pair(self.clock()):
            table_id = await self.seat(delivery)
            if table_id is not None:
                made.append(table_id)
        if made:
            self._waiting = None
        return made

    async def drop_abandoned(self) -> list[str]:
        """Take out of the pools the parties none of whose players has asked where they are
        (``GET /api/pool``; the lobby asks every 1.5 s) for :attr:`abandoned_after` seconds:
        a tab that closed without leaving, a phone that lost its network.  Their accounts."""
        if self.abandoned_after is None:
            return []
        now = self.clock()
        stale = [e for e in await self.store.waiting() if now - e.since > self.abandoned_after]
        if not stale:
            return []
        alive = await self.polls.online([a for e in stale for a in e.accounts], now,
                                        within=self.abandoned_after)
        dropped: list[str] = []
        for entry in stale:
            if not alive.intersection(entry.accounts):
                await self.store.leave(entry.accounts[0])
                dropped.extend(entry.accounts)
        if dropped:
            log.info("left the pools, not heard of for %.0f s: %s", self.abandoned_after,
                     ", ".join(dropped))
            self._waiting = None
        return dropped

    async def seat(self, delivery: Delivery) -> str | None:
        """Create (or find) the match's table and acknowledge it; the table's id, or
        ``None`` when the match went back to the pool or to another process."""
        match = delivery.match
        try:
            table_id = await self.table_for(delivery)
        except SeatsRefused as exc:
            log.info("match %s: %s; its other players go back to the pool", match.id, exc)
            await self.store.give_back(delivery)
            for account in exc.accounts:
                await self.store.leave(account)
            return None
        except Exception:
            log.exception("match %s: its table could not be made; it goes back to the pool",
                          match.id)
            await self.store.give_back(delivery)
            return None
        if await self.store.ack(delivery, table_id, self.clock()):
            players: dict[str, str | None] = dict.fromkeys(match.accounts)
            await self.hub.writer.run(lambda conn: screening.paired(conn, table_id, players,
                                                                    "pool"))
            return table_id
        await self.drop(table_id, match)
        return None

    async def table_for(self, delivery: Delivery) -> str:
        """The table of a delivered match: the one an earlier delivery made, else a new one."""
        match = delivery.match
        creator = creator_of(match.id)
        if delivery.attempt > 1:
            earlier = await self.hub.read(lambda conn: table_made_by(conn, creator.id))
            if earlier is not None:
                return earlier
        if match.rated:
            await self._recheck(match)
        created = await self.hub.create_table(creator, request_for(
            match.pool, [SeatRequest(kind="human") if s.account is not None else
                         SeatRequest(kind="bot", level=table_level(match.form, s.bot or ""))
                         for s in match.seats]))
        self.tables_made += 1
        return str(created["table_id"])

    async def _recheck(self, match: Match) -> None:
        """Each account of a rated match may still take a rated seat (it may have left a
        match, or sat at one, since it joined): :class:`SeatsRefused` names those that may not."""
        refused: list[str] = []
        reasons: list[str] = []
        for account in match.accounts:
            try:
                await self.check_rated(Guest(account, "", account=True))
            except PoolRefused as exc:
                refused.append(account)
                reasons.append(exc.code)
        if refused:
            raise SeatsRefused(refused, f"{', '.join(refused)} may not take a rated seat now "
                               f"({', '.join(reasons)})")

    async def drop(self, table_id: str, match: Match) -> None:
        """The ack was refused: drop the table unless the match lives on with it."""
        placement = await self.store.matches_for(match.accounts[0]) if match.accounts else None
        if placement is not None and placement.match.id == match.id and (
                placement.table in (None, table_id)):
            return  # pending at another process, which finds this table, or seated at it
        try:
            await cancel_table(self.hub, table_id, creator_of(match.id))
        except CancelRefused as exc:
            log.warning("match %s: its table %s is not dropped: %s", match.id, table_id,
                        exc.detail)


def request_for(key: PoolKey, seats: list[SeatRequest]) -> TableRequest:
    """The creation request of a table of ``key``'s pool with these seats."""
    fields = FORMAT_TABLE[key.format]
    return TableRequest(players=key.seats, seats=seats, public=False, rated=key.rated,
                        casual=not key.rated, **fields)
