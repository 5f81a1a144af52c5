"""Tables waiting for players: how many a guest has, and deleting the abandoned ones.

A table waits until every human seat is claimed.  One a guest created and left
would otherwise stay for ever, be recovered at every restart and listed in the
lobby, so a guest may have only so many waiting at once
(``waiting_tables_per_guest``), and a waiting table that has not changed for
``waiting_expiry`` seconds and that nobody is connected to is deleted.

Only tables created through ``POST /api/tables`` expire: their creator is a
stored guest.  A tournament's tables (created by the server for its director,
and those of a deal group) wait as long as their round needs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import Connection, func, select

from burraco.server.storage import repository as repo
from burraco.server.storage.models import DealGroupTableRow, GuestRow, TableRow

if TYPE_CHECKING:
    from burraco.accounts.identity import Guest
    from burraco.server.actor import TableActor
    from burraco.server.hub import Hub

log = logging.getLogger(__name__)
WAITING = "waiting"


def waiting_count(conn: Connection, guest_id: str) -> int:
    """Tables ``guest_id`` created that still wait for players."""
    return int(conn.scalar(select(func.count()).select_from(TableRow).where(
        TableRow.creator == guest_id, TableRow.status == WAITING)) or 0)


def live_bot_tables(conn: Connection, guest_id: str) -> int:
    """Unfinished tables ``guest_id`` created whose every seat is a bot."""
    configs = conn.scalars(select(TableRow.config).where(
        TableRow.creator == guest_id, TableRow.status != "finished"))
    return sum(1 for config in configs
               if all(seat.get("kind") == "bot" for seat in config.get("seats", ())))


def _abandoned(conn: Connection, cutoff: datetime) -> list[tuple[str, int]]:
    if conn.dialect.name == "sqlite":  # SQLite keeps UTC text without an offset
        cutoff = cutoff.replace(tzinfo=None)
    query = (select(TableRow.id, TableRow.version)
             .where(TableRow.status == WAITING, TableRow.updated_at < cutoff,
                    TableRow.creator.in_(select(GuestRow.id)),
                    TableRow.id.not_in(select(DealGroupTableRow.table_id)))
             .limit(500))
    return [(row.id, row.version) for row in conn.execute(query)]


def _delete_if_unchanged(conn: Connection, table_id: str, version: int) -> bool:
    row = conn.execute(select(TableRow.status, TableRow.version)
                       .where(TableRow.id == table_id)).first()
    if row is None or row.status != WAITING or row.version != version:
        return False
    repo.delete_table(conn, table_id)
    return True


def _deleter(table_id: str, version: int) -> Callable[[Connection], bool]:
    return lambda conn: _delete_if_unchanged(conn, table_id, version)


async def expire_waiting(hub: Hub, max_age: float) -> list[str]:
    """Delete the waiting tables unchanged for ``max_age`` seconds and unwatched; their ids."""
    cutoff = datetime.now(UTC) - timedelta(seconds=max_age)
    deleted = []
    for table_id, version in await hub.read(lambda conn: _abandoned(conn, cutoff)):
        actor = hub.actors.get(table_id)
        if hub.cluster is not None and actor is None:
            continue  # another process of the cluster runs it: that one expires it
        if table_id in hub._loading or (actor is not None and (
                actor.subs or actor.game.version != version)):
            continue
        # while the table goes, a connection asking for it waits for this and finds nothing
        gone: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        hub._loading[table_id] = gone
        try:
            if actor is not None:
                del hub.actors[table_id]
                await actor.stop()
            done = await hub.writer.run(_deleter(table_id, version))
        finally:
            del hub._loading[table_id]
        if done:
            deleted.append(table_id)
            gone.set_result(None)
        else:  # it changed meanwhile (a seat was claimed): it lives on
            gone.set_result(await hub.actor_for(table_id))
    if deleted:
        log.warning("deleted %d waiting tables unchanged for %g s", len(deleted), max_age)
    return deleted


async def expire_forever(hub: Hub, max_age: float) -> None:
    """Run :func:`expire_waiting` every ``max_age / 4`` seconds (at most a minute apart)."""
    while True:
        await asyncio.sleep(min(max_age / 4, 60.0))
        try:
            await expire_waiting(hub, max_age)
        except Exception:  # the next round tries again
            log.exception("expiring waiting tables failed")


CANCELLED = 4410
"""The close code of the connections of a table its creator cancelled."""


class CancelRefused(Exception):
    """Why a table cannot be cancelled; ``code`` is a protocol error code."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


async def cancel_table(hub: Hub, table_id: str, guest: Guest, *, seated_too: bool = False,
                       reason: str = "the table was cancelled by its creator") -> None:
    """Delete a waiting table its creator made and nobody else joined (docs/protocol.md).

    Its connections are closed with :data:`CANCELLED` and ``reason``; nothing of it is
    kept.  ``seated_too``: even when others took seats (server-side creators only: an
    online event's game that a player did not sit down for).
    """
    actor = await hub.actor_for(table_id)
    if actor is None:
        raise CancelRefused(404, "table_not_found", f"no table {table_id!r} here")
    creator = await hub.read(lambda conn: conn.scalar(
        select(TableRow.creator).where(TableRow.id == table_id)))
    if creator != guest.id:
        raise CancelRefused(403, "not_creator", "only the table's creator may cancel it")
    game = actor.game
    if game.status != WAITING:
        raise CancelRefused(409, "not_waiting", f"the match is {game.status}: a table is "
                            "cancelled only before it starts")
    if not seated_too and any(h is not None and h.guest_id != guest.id for h in game.holders):
        raise CancelRefused(409, "others_joined", "another player has taken a seat: the table "
                            "can no longer be cancelled")
    gone: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
    hub._loading[table_id] = gone
    try:
        if hub.actors.get(table_id) is actor:
            del hub.actors[table_id]
        actor.close_all(CANCELLED, reason)
        await actor.stop()
        done = await hub.writer.run(_deleter(table_id, game.version))
    finally:
        del hub._loading[table_id]
    if done:
        gone.set_result(None)
        log.info("table %s cancelled by its creator", table_id)
        return
    gone.set_result(await hub.actor_for(table_id))  # it changed meanwhile: it lives on
    raise CancelRefused(409, "others_joined", "the table changed meanwhile: it lives on")
