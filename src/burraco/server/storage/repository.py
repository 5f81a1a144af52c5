"""Reading and writing the database; every function takes an open SQLAlchemy connection.

Writes happen only through :func:`apply_unit`, inside the writer's transaction:
a :class:`CommitUnit` is everything one command changed.  The table's version
is advanced with a compare-and-set (``UPDATE ... WHERE version = :expected``),
so two writers can never both extend a table's history.

Deal groups (duplicate play) live here too: :func:`deal_group` creates or reads a
group and its secret, :func:`group_releases` decides which held reveals every
table of a group has now played.  The secret is read by the hub only; no
function whose result reaches a client returns it.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from burraco.infra.schema import Base
from burraco.server.commitment import DealSecret, new_group_secret
from burraco.server.storage.models import (
    CommandRow,
    DealGroupRow,
    DealGroupTableRow,
    EventRow,
    GameRow,
    GuestRow,
    SecretRow,
    SnapshotRow,
    TableRow,
)


class ConflictError(RuntimeError):
    """The table's stored version is not the one the command was checked against."""


class GroupClosedError(RuntimeError):
    """A table may not join a deal group that is missing or has revealed a deal already."""


@dataclass(slots=True)
class CommitUnit:
    """Everything one command changes, written in one transaction."""

    table_id: str
    expected_version: int
    new_version: int
    status: str
    events: list[tuple[int, str, dict[str, Any]]]
    """(version, kind, complete payload)"""
    command: dict[str, Any]
    """seat, cmid, kind, body, source (versions are filled in)"""
    new_table: dict[str, Any] | None = None
    """creator, config, public: for the command that opens a table"""
    games_started: list[dict[str, Any]] = field(default_factory=list)
    games_ended: list[dict[str, Any]] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    deal_group: str | None = None
    """The deal group a new table joins (with ``new_table``)."""
    games_revealed: list[int] = field(default_factory=list)
    """Hands whose held reveal this command published."""


RECENT_CMIDS = 4096
"""Client message ids a live table keeps in memory to answer ``duplicate_message`` at once
(more than a whole match of human play); older ones are looked up (:func:`applied_command`)."""
_TABLES = Base.metadata.tables["tables"]
_EVENTS = Base.metadata.tables["events"]
_COMMANDS = Base.metadata.tables["commands"]
_GAMES = Base.metadata.tables["games"]
_SNAPSHOTS = Base.metadata.tables["snapshots"]
_MEMBERS = Base.metadata.tables["deal_group_tables"]

_ADVANCE = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_expected"))
    .values(version=bindparam("b_new"), status=bindparam("b_status"), updated_at=func.now()))
_END_GAME = (
    update(_GAMES)
    .where(_GAMES.c.table_id == bindparam("b_table"), _GAMES.c.number == bindparam("b_number"))
    .values(ended_version=bindparam("b_ended"), result=bindparam("b_result"),
            record=bindparam("b_record"), reveal_held=bindparam("b_held")))
_REVEALED = (
    update(_GAMES)
    .where(_GAMES.c.table_id == bindparam("b_table"), _GAMES.c.number == bindparam("b_number"))
    .values(reveal_held=False))


def apply_unit(conn: Connection, unit: CommitUnit) -> None:
    apply_units(conn, [unit])


def apply_units(conn: Connection, units: list[CommitUnit]) -> None:
    """Write several commands (of different tables, or in order) with one statement per kind.

    Raises :class:`ConflictError` if any table is not at the version its command
    was checked against; the caller's transaction must then be rolled back.
    """
    new = [u for u in units if u.new_table is not None]
    if new:
        conn.execute(insert(_TABLES), [
            {"id": u.table_id, "version": u.new_version, "status": u.status, **(u.new_table or {})}
            for u in new])
        joining = [u for u in new if u.deal_group is not None]
        for unit in joining:
            closed = conn.scalar(select(DealGroupRow.closed).where(
                DealGroupRow.id == unit.deal_group))
            if closed is None or closed:
                raise GroupClosedError(f"deal group {unit.deal_group!r} is missing or has "
                                       "revealed a deal already")
        if joining:
            conn.execute(insert(_MEMBERS), [{"table_id": u.table_id, "group_id": u.deal_group}
                                            for u in joining])
    moving = [u for u in units if u.new_table is None]
    if moving:
        done = conn.execute(_ADVANCE, [
            {"b_id": u.table_id, "b_expected": u.expected_version, "b_new": u.new_version,
             "b_status": u.status} for u in moving])
        if done.rowcount != len(moving):
            raise ConflictError("a table is not at the version its command was checked "
                                f"against ({len(moving) - done.rowcount} of {len(moving)})")
    events = [{"table_id": u.table_id, "version": v, "kind": kind, "payload": payload}
              for u in units for v, kind, payload in u.events]
    if events:
        conn.execute(insert(_EVENTS), events)
    conn.execute(insert(_COMMANDS), [
        {"table_id": u.table_id, "first_version": u.expected_version + 1,
         "last_version": u.new_version, **u.command} for u in units])
    started = [{"table_id": u.table_id, **g} for u in units for g in u.games_started]
    if started:
        conn.execute(insert(_GAMES), started)
    ended = [{"b_table": u.table_id, "b_number": g["number"], "b_ended": g["ended_version"],
              "b_result": g["result"], "b_record": g["record"],
              "b_held": bool(g.get("reveal_held", False))}
             for u in units for g in u.games_ended]
    if ended:
        conn.execute(_END_GAME, ended)
    revealed = [{"b_table": u.table_id, "b_number": n} for u in units for n in u.games_revealed]
    if revealed:
        conn.execute(_REVEALED, revealed)
    snapshots = [{"table_id": u.table_id, **u.snapshot} for u in units if u.snapshot]
    if snapshots:
        conn.execute(insert(_SNAPSHOTS), snapshots)


def insert_guest(conn: Connection, guest_id: str, nickname: str) -> None:
    conn.execute(insert(GuestRow).values(id=guest_id, nickname=nickname))


def signing_secret(conn: Connection) -> bytes:
    """The server's token key, created on first use."""
    value = conn.scalar(select(SecretRow.value).where(SecretRow.name == "tokens"))
    if value is None:
        value = secrets.token_hex(32)
        conn.execute(insert(SecretRow).values(name="tokens", value=value))
    return bytes.fromhex(value)


# --- reading ----------------------------------------------------------------------------------

@dataclass(slots=True)
class TableLoad:
    """What recovery needs to rebuild one table."""

    table_id: str
    config: dict[str, Any]
    version: int
    status: str
    snapshot: dict[str, Any] | None
    snapshot_version: int
    commands: list[dict[str, Any]]
    """Commands after the snapshot, in order."""
    games: dict[int, dict[str, Any]]
    """Hands by number: deck, salt, cut (those recovery may need)."""
    cmids: dict[tuple[int, str], tuple[int, int]]
    """Every client message id applied at this table, with its versions."""
    recent_events: list[tuple[int, str, dict[str, Any]]]
    deal_group: str | None = None
    group_secret: str | None = None
    """The deal group's secret (hex), for dealing the hands still to come."""


def live_table_ids(conn: Connection) -> list[str]:
    return list(conn.scalars(select(TableRow.id).where(TableRow.status.in_(("waiting",
                                                                             "playing")))))


def load_table(conn: Connection, table_id: str, *, recent: int = 400) -> TableLoad | None:
    row = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).first()
    if row is None:
        return None
    snap = conn.execute(
        select(SnapshotRow.__table__).where(SnapshotRow.table_id == table_id)
        .order_by(SnapshotRow.version.desc()).limit(1)).first()
    since = snap.version if snap is not None else 0
    commands = [
        {"first": c.first_version, "last": c.last_version, "seat": c.seat, "cmid": c.cmid,
         "kind": c.kind, "body": c.body, "source": c.source}
        for c in conn.execute(
            select(CommandRow.__table__).where(CommandRow.table_id == table_id,
                                     CommandRow.first_version > since)
            .order_by(CommandRow.first_version))]
    cmids = {  # the clients' latest only: older ones are looked up when needed
        (seat, cmid): (first, last)
        for seat, cmid, first, last in reversed(conn.execute(
            select(CommandRow.seat, CommandRow.cmid, CommandRow.first_version,
                   CommandRow.last_version).where(
                CommandRow.table_id == table_id, CommandRow.source == "client",
                CommandRow.kind.in_(("act", "undo")))
            .order_by(CommandRow.first_version.desc()).limit(RECENT_CMIDS + 1)).all())}
    first_hand = snap.hand_no if snap is not None else 1
    games = {
        g.number: {"deck": g.deck, "salt": g.salt, "cut": g.cut, "dealer": g.dealer}
        for g in conn.execute(select(GameRow.__table__).where(GameRow.table_id == table_id,
                                                    GameRow.number >= first_hand))}
    events = [
        (e.version, e.kind, e.payload)
        for e in conn.execute(select(EventRow.__table__).where(EventRow.table_id == table_id)
                              .order_by(EventRow.version.desc()).limit(recent))]
    events.reverse()
    group = conn.execute(
        select(DealGroupRow.id, DealGroupRow.secret)
        .join(DealGroupTableRow, DealGroupTableRow.group_id == DealGroupRow.id)
        .where(DealGroupTableRow.table_id == table_id)).first()
    return TableLoad(table_id, row.config, row.version, row.status,
                     snap.state if snap is not None else None, since, commands, games, cmids,
                     events, group.id if group else None, group.secret if group else None)


def applied_command(conn: Connection, table_id: str, seat: int,
                    cmid: str) -> tuple[int, int] | None:
    """The versions a stored command got (first, last), or ``None`` if there is none."""
    row = conn.execute(
        select(CommandRow.first_version, CommandRow.last_version).where(
            CommandRow.table_id == table_id, CommandRow.seat == seat,
            CommandRow.cmid == cmid)).first()
    return (row[0], row[1]) if row is not None else None


def table_summaries(conn: Connection, *, public_only: bool = True,
                    limit: int = 200) -> list[dict[str, Any]]:
    query = select(TableRow.__table__).order_by(TableRow.created_at.desc()).limit(limit)
    if public_only:
        query = query.where(TableRow.public.is_(True))
    rows = [{"id": t.id, "status": t.status, "version": t.version, "config": t.config,
             **({"finished_at": _seconds(t.updated_at)} if t.status == "finished" else {})}
            for t in conn.execute(query)]
    ends = match_ends(conn, [r["id"] for r in rows if r["status"] == "finished"])
    for row in rows:
        if row["id"] in ends:
            row.update(ends[row["id"]])
    return rows


def _seconds(at: datetime) -> float:
    """A stored moment as seconds since the epoch (SQLite keeps UTC without its zone)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def match_ends(conn: Connection, table_ids: list[str]) -> dict[str, dict[str, Any]]:
    """How each finished table of ``table_ids`` ended: ``{"scores", "winner", "names"}``.

    The scores and the winner are the match's (its ``MatchOver`` event); ``names`` is the
    nickname of who held each seat at the end (``None`` for a seat nobody held: a bot's), from
    the last snapshot; never their ids.  Only tables that are over have an entry: nothing
    here may describe a match still being played.
    """
    if not table_ids:
        return {}
    finished = list(conn.scalars(select(TableRow.id).where(
        TableRow.id.in_(table_ids), TableRow.status == "finished")))
    if not finished:
        return {}
    out: dict[str, dict[str, Any]] = {
        tid: {"scores": None, "winner": None, "names": None} for tid in finished}
    for tid, payload in conn.execute(select(EventRow.table_id, EventRow.payload).where(
            EventRow.table_id.in_(finished), EventRow.kind == "MatchOver")):
        out[tid]["scores"] = list(payload.get("scores") or []) or None
        out[tid]["winner"] = payload.get("winner")
    last = (select(SnapshotRow.table_id, func.max(SnapshotRow.version).label("version"))
            .where(SnapshotRow.table_id.in_(finished)).group_by(SnapshotRow.table_id)
            .subquery())
    for tid, state in conn.execute(select(SnapshotRow.table_id, SnapshotRow.state).join(
            last, (SnapshotRow.table_id == last.c.table_id)
            & (SnapshotRow.version == last.c.version))):
        out[tid]["names"] = [h[1] if h else None for h in state.get("holders") or []]
    return out


def table_info(conn: Connection, table_id: str) -> dict[str, Any] | None:
    row = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).first()
    if row is None:
        return None
    return {"id": row.id, "status": row.status, "version": row.version, "config": row.config,
            "public": row.public,
            **({"finished_at": _seconds(row.updated_at)} if row.status == "finished" else {})}


def hand_rows(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    """Every hand of a table; secrets only for hands that are over and not held.

    A deal group's hand stays ``held`` (no reveal, no record: both show every
    card) until every table of the group has played it; its result is shown.
    """
    out = []
    for g in conn.execute(select(GameRow.__table__).where(GameRow.table_id == table_id)
                          .order_by(GameRow.number)):
        over = g.ended_version is not None
        shown = over and not g.reveal_held
        row = {
            "number": g.number, "dealer": g.dealer, "commitment": g.commitment,
            "started_version": g.started_version, "ended_version": g.ended_version,
            "result": g.result if over else None,
            "reveal": {"order": g.deck, "salt": g.salt, "cut": g.cut,
                       "individual": g.individual} if shown else None,
            "record": g.record if shown else None,
        }
        if g.reveal_held:
            row["held"] = True
        out.append(row)
    return out


def events_between(conn: Connection, table_id: str, first: int,
                   last: int) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e.version, e.kind, e.payload) for e in conn.execute(
        select(EventRow.__table__).where(EventRow.table_id == table_id, EventRow.version >= first,
                               EventRow.version <= last).order_by(EventRow.version))]


def all_commands(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    return [{"first": c.first_version, "last": c.last_version, "seat": c.seat, "cmid": c.cmid,
             "kind": c.kind, "body": c.body, "source": c.source}
            for c in conn.execute(select(CommandRow.__table__)
                                  .where(CommandRow.table_id == table_id)
                                  .order_by(CommandRow.first_version))]


def all_games(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    """Every hand with its secret deal (for tests and audits, never for clients)."""
    return [{"number": g.number, "dealer": g.dealer, "deck": g.deck, "salt": g.salt,
             "cut": g.cut, "individual": g.individual, "commitment": g.commitment,
             "started_version": g.started_version,
             "ended_version": g.ended_version, "reveal_held": g.reveal_held}
            for g in conn.execute(select(GameRow.__table__).where(GameRow.table_id == table_id)
                                  .order_by(GameRow.number))]


def delete_table(conn: Connection, table_id: str) -> None:
    for model in (EventRow, CommandRow, GameRow, SnapshotRow, DealGroupTableRow):
        conn.execute(delete(model).where(model.table_id == table_id))
    conn.execute(delete(TableRow).where(TableRow.id == table_id))


# --- deal groups ------------------------------------------------------------------------------

def deal_group(conn: Connection, group_id: str,
               settings: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
    """(secret hex, settings, closed) of a group, created with a fresh secret on first use."""
    row = conn.execute(select(DealGroupRow.secret, DealGroupRow.settings, DealGroupRow.closed)
                       .where(DealGroupRow.id == group_id)).first()
    if row is None:
        secret = new_group_secret()
        conn.execute(insert(DealGroupRow).values(id=group_id, secret=secret, settings=settings,
                                                 closed=False))
        return secret, settings, False
    return row.secret, row.settings, bool(row.closed)


def group_tables(conn: Connection, group_id: str) -> list[str]:
    return list(conn.scalars(select(DealGroupTableRow.table_id)
                             .where(DealGroupTableRow.group_id == group_id)
                             .order_by(DealGroupTableRow.table_id)))


def groups_with_held(conn: Connection) -> list[str]:
    """Groups with a reveal still held somewhere (recovery settles them on start)."""
    return list(conn.scalars(
        select(DealGroupTableRow.group_id).distinct()
        .join(GameRow, GameRow.table_id == DealGroupTableRow.table_id)
        .where(GameRow.reveal_held.is_(True))))


def group_releases(conn: Connection, group_id: str) -> list[tuple[str, int, dict[str, Any]]]:
    """The held reveals of a group that may now be published: (table, hand number, reveal).

    Hand n is released once every table of the group has ended it or is finished.
    The first release closes the group to new tables.  Run by the writer, so it
    sees every committed hand end and no table joins half-way through it.
    """
    members = conn.execute(
        select(TableRow.id, TableRow.status, TableRow.config)
        .join(DealGroupTableRow, DealGroupTableRow.table_id == TableRow.id)
        .where(DealGroupTableRow.group_id == group_id)).all()
    if not members:
        return []
    players = {m.id: m.config["players"] for m in members}
    playing = [m.id for m in members if m.status != "finished"]
    ended: dict[str, set[int]] = defaultdict(set)
    held = []
    for g in conn.execute(select(GameRow.__table__).where(
            GameRow.table_id.in_(list(players)), GameRow.ended_version.is_not(None))):
        ended[g.table_id].add(g.number)
        if g.reveal_held:
            held.append(g)
    out = []
    for g in sorted(held, key=lambda g: (g.number, g.table_id)):
        if all(g.number in ended[table] for table in playing):
            reveal = {**DealSecret(tuple(g.deck), g.salt, g.cut).reveal(),
                      "players": players[g.table_id], "dealer": g.dealer,
                      "individual": bool(g.individual)}
            out.append((g.table_id, g.number, reveal))
    if out:
        conn.execute(update(DealGroupRow).where(DealGroupRow.id == group_id)
                     .values(closed=True))
    return out
