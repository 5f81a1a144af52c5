"""Where open online events are kept: one ``online_events`` row each, changed only by
compare-and-set on its version, and driven by one process at a time under a lease.

Every function here runs in a database transaction (the hub's reader or writer) and knows
no table server.  ``state`` is :func:`burraco.meet.events_json.to_json`; ``tables`` maps each
game's id to its table's id and only ever grows.  A process may drive an event (start it,
pair it, record its results) while it holds the row's lease: :func:`take_lease` gives it
when nobody holds it, when it ran out, or to the holder again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from burraco.accounts.models import OnlineEventResultRow, OnlineEventRow
from burraco.meet.events import EventState
from burraco.meet.events_json import from_json, to_json

LIVE = ("open", "running")
"""The phases an event is driven in."""


@dataclass(frozen=True, slots=True)
class Stored:
    """An event as read: its state, its games' tables, its row's version and who made it."""

    event_id: str
    state: EventState
    tables: dict[str, str]
    version: int
    phase: str
    """The row's phase: the state's, or ``cancelled``."""
    created_by: str | None
    series: str | None


def new_event_id() -> str:
    return secrets.token_hex(5)


def insert_event(conn: Connection, state: EventState, created_by: str | None, now: float, *,
                 series: str | None = None, event_id: str | None = None) -> str | None:
    """Store a new event; its id, or ``None`` when ``series`` (a recurring slot) is there
    already (another process scheduled it first)."""
    event_id = event_id or new_event_id()
    values = {"event_id": event_id, "name": state.spec.name, "starts": state.spec.starts,
              "phase": state.phase, "club": state.spec.club, "created_by": created_by,
              "series": series, "state": to_json(state), "tables": {}, "version": 1,
              "holder": None, "lease_until": 0.0, "updated": now}
    if series is None:
        conn.execute(insert(OnlineEventRow).values(**values))
        return event_id
    try:
        with conn.begin_nested():
            conn.execute(insert(OnlineEventRow).values(**values))
    except IntegrityError:
        return None
    return event_id


def _stored(row: Any) -> Stored:
    return Stored(row.event_id, from_json(row.state), dict(row.tables), row.version, row.phase,
                  row.created_by, row.series)


def load(conn: Connection, event_id: str) -> Stored | None:
    row = conn.execute(select(OnlineEventRow).where(OnlineEventRow.event_id == event_id)).first()
    return _stored(row) if row is not None else None


def save(conn: Connection, stored: Stored, state: EventState, now: float, *,
         phase: str | None = None, holder: str | None = None) -> bool:
    """Replace the state if the row is still at ``stored.version`` (and, for a driver's
    step, still held by ``holder``); False when it moved."""
    held = [OnlineEventRow.holder == holder] if holder is not None else []
    done = conn.execute(update(OnlineEventRow).where(
        OnlineEventRow.event_id == stored.event_id, *held,
        OnlineEventRow.version == stored.version).values(
        state=to_json(state), phase=phase or state.phase, version=stored.version + 1,
        updated=now))
    return done.rowcount == 1


def add_tables(conn: Connection, event_id: str, tables: dict[str, str], now: float,
               holder: str) -> bool:
    """Add game → table entries, if ``holder`` still drives the event (a read and a write
    in one transaction of the writer); a game's table, once noted, is never replaced."""
    current = conn.scalar(select(OnlineEventRow.tables).where(
        OnlineEventRow.event_id == event_id)) or {}
    done = conn.execute(update(OnlineEventRow).where(
        OnlineEventRow.event_id == event_id, OnlineEventRow.holder == holder).values(
        tables={**tables, **current}, version=OnlineEventRow.version + 1, updated=now))
    return done.rowcount == 1


def take_lease(conn: Connection, event_id: str, holder: str, now: float, seconds: float) -> bool:
    """Whether ``holder`` drives the event until ``now + seconds``."""
    done = conn.execute(update(OnlineEventRow).where(
        OnlineEventRow.event_id == event_id, OnlineEventRow.phase.in_(LIVE),
        or_(OnlineEventRow.holder.is_(None), OnlineEventRow.holder == holder,
            OnlineEventRow.lease_until < now)).values(holder=holder,
                                                       lease_until=now + seconds))
    return done.rowcount == 1


def due(conn: Connection, now: float, ahead: float) -> list[str]:
    """The live events to look at: running, or starting within ``ahead`` seconds."""
    return list(conn.scalars(select(OnlineEventRow.event_id).where(
        OnlineEventRow.phase.in_(LIVE),
        or_(OnlineEventRow.phase == "running", OnlineEventRow.starts <= now + ahead))
        .order_by(OnlineEventRow.starts)))


def listing(conn: Connection, since: float, limit: int) -> list[Stored]:
    """Live events, and those that ended (or were cancelled) after ``since``; by start."""
    rows = conn.execute(select(OnlineEventRow).where(or_(
        OnlineEventRow.phase.in_(LIVE), OnlineEventRow.updated >= since))
        .order_by(OnlineEventRow.starts).limit(limit))
    return [_stored(row) for row in rows]


def write_results(conn: Connection, event_id: str, rows: list[dict[str, Any]]) -> None:
    """The finished event's places, one row per entrant account (again: replaced)."""
    conn.execute(delete(OnlineEventResultRow).where(OnlineEventResultRow.event_id == event_id))
    if rows:
        conn.execute(insert(OnlineEventResultRow), rows)
