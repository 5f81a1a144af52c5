"""Who may create, sit at and watch a rated table: the table server's rules of rated play.

The person's side (an account, the wait after an abandonment) is the accounts' (``Players``);
the table's side (its settings, its status, the seat asked for) is here.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, select

from burraco.accounts.identity import Guest
from burraco.accounts.service import Players
from burraco.server.storage.models import CommandRow, TableRow
from burraco.server.tables import TableConfig

RATED_LIVE = ("a rated match is shown to spectators only once it is over (its replays then "
              "show every hand)")
ACCOUNT_REQUIRED = ("only accounts sit at rated tables: log in and send your session token")
ONE_LIVE_RATED = ("you already hold a seat at a rated match that is not over (table {table}): "
                  "finish it, or cancel it while nobody else has joined, before another")


def live_rated(info: dict[str, Any]) -> bool:
    """A rated table whose match is not over: nothing of its play is shown yet."""
    return bool(info["config"].get("rated")) and info["status"] != "finished"


async def creation_refusal(players: Players, creator: Guest, config: TableConfig,
                           seated: bool) -> str | None:
    """Why ``creator`` may not create this table (``None``: they may)."""
    if not config.rated:
        return None
    if not creator.account:
        return "only accounts create rated tables: register or log in"
    if seated:
        wait = await players.wait_of(creator.id)
        if wait is not None:
            return wait_text(wait)
        elsewhere = await players.host.read(lambda conn: live_rated_seat(conn, creator.id))
        if elsewhere is not None:
            return ONE_LIVE_RATED.format(table=elsewhere)
    return None


async def admission(players: Players, table_id: str, config: TableConfig, status: str,
                    holder_id: str | None, guest: Guest | None,
                    seat: int | None) -> tuple[str, str] | None:
    """(code, reason) when a connection may not join a rated table as it asks."""
    if not config.rated:
        return None
    if seat is None:
        if status != "finished":
            return ("rated_live", RATED_LIVE)
        return None
    if guest is None or not guest.account:
        return ("account_required", ACCOUNT_REQUIRED)
    if holder_id != guest.id:
        wait = await players.wait_of(guest.id)
        if wait is not None:
            return ("rated_wait", wait_text(wait))
        elsewhere = await players.host.read(
            lambda conn: live_rated_seat(conn, guest.id, except_table=table_id))
        if elsewhere is not None:
            return ("one_seat", ONE_LIVE_RATED.format(table=elsewhere))
    return None


def live_rated_seat(conn: Connection, player_id: str, *,
                    except_table: str | None = None) -> str | None:
    """A rated table whose match is not over where ``player_id`` holds a seat (its id)."""
    live = [row.id for row in conn.execute(select(TableRow.id, TableRow.config).where(
        TableRow.status != "finished")) if row.config.get("rated") and row.id != except_table]
    if not live:
        return None
    for row in conn.execute(select(CommandRow.table_id, CommandRow.body).where(
            CommandRow.table_id.in_(live), CommandRow.kind == "claim")):
        if row.body.get("guest_id") == player_id:
            return str(row.table_id)
    return None


def wait_text(wait: dict[str, Any]) -> str:
    until = datetime.fromtimestamp(wait["until"], UTC).strftime("%Y-%m-%d %H:%M UTC")
    left = max(0, round((wait["until"] - time.time()) / 60))
    return f"you {wait['why']}: your next rated match may start at {until} (in {left} min)"
