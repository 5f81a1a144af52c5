"""The daily duplicate: every day, one set of deals that every account plays against bots.

Each UTC day has a set per form of play (2 players; 4 in pairs): ``HANDS`` hands
dealt from a deal group ``daily:DAY:PLAYERS`` (``commitment.group_order``), the
account at seat 0 and bots (``BOT``) at the others, so everyone holds the same
cards against the same opponents.  At the start of the day the set's
commitments are published: hand n's is ``SHA-256`` of its group order under a
day salt derived from the group's secret (the scheme of ``commitment.commit``);
when the day closes the orders and salts are revealed, and the group's tables
publish their held hand reveals (until then every hand of the set is held, so no
replay shows a deal anyone may still play).

Results are scored as a duplicate tournament: on each deal a player scores their
side's points minus the mean of the others' on that deal, summed over the set.
The day's board is shown to those who have played the whole set, and to everyone
once the day is over; nobody sees the others' results for a deal before playing it.
The month's board sums the closed days.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, insert, select

from burraco.accounts.models import AccountRow, DailyEntryRow
from burraco.server.commitment import commit, group_order
from burraco.server.storage import repository as repo
from burraco.server.storage.models import DealGroupRow, DealGroupTableRow, GameRow, TableRow
from burraco.server.tables import TableRequest, build_config

HANDS = int(os.environ.get("BURRACO_DAILY_HANDS", "8"))
"""Hands of a day's set (``BURRACO_DAILY_HANDS`` shortens it, for trying it out)."""
SHIFT = float(os.environ.get("BURRACO_DAILY_CLOCK_SHIFT", "0"))
"""Seconds added to the clock of the daily duplicate (``BURRACO_DAILY_CLOCK_SHIFT``): lets
a trial or a test set the server in the middle of a day, or past its close, without waiting."""
CHECK_EVERY = float(os.environ.get("BURRACO_DAILY_CHECK_SECONDS", "60"))
"""How often the server looks for a day that has closed (``BURRACO_DAILY_CHECK_SECONDS``)."""
BOT = "advanced"
FORMS = ("2", "4")
PREFIX = "daily:"


def clock() -> float:
    """The daily duplicate's time: the wall clock, shifted by ``SHIFT``."""
    return time.time() + SHIFT


def today(now: float | None = None) -> str:
    return datetime.fromtimestamp(clock() if now is None else now, UTC).date().isoformat()


def closes_at(day: str) -> float:
    start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    return (start + timedelta(days=1)).timestamp()


def group_id(day: str, form: str) -> str:
    return f"{PREFIX}{day}:{form}"


def day_of_group(group: str) -> str | None:
    if not group.startswith(PREFIX):
        return None
    return group[len(PREFIX):].split(":", 1)[0]


def may_release(group: str, now: float | None = None) -> bool:
    """Whether a deal group's held reveals may be published: a daily set's only once its day
    is over; any other group's as soon as its tables have played them."""
    day = day_of_group(group)
    return day is None or (clock() if now is None else now) >= closes_at(day)


def request(form: str) -> TableRequest:
    players = int(form)
    seats: list[dict[str, Any]] = [{"kind": "human"}] + [
        {"kind": "bot", "level": BOT} for _ in range(players - 1)]
    return TableRequest.model_validate({
        "players": players, "mode": "smazzate", "smazzate": HANDS, "seats": seats,
        "public": False, "casual": False, "creator_seat": 0,
        "bot_delay": float(os.environ.get("BURRACO_DAILY_BOT_DELAY", "0.6"))})


def settings(form: str) -> dict[str, Any]:
    config = build_config(request(form))
    return {"players": config.players, "rules": config.rules, "options": dict(config.options)}


def _salt(secret: bytes, number: int) -> str:
    return hmac.new(secret, f"daily-salt:{number}".encode(), hashlib.sha256).hexdigest()


def commitments(secret_hex: str, form: str, *, reveal: bool,
                held: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """The set's commitments; with ``reveal``, the orders and salts too, but for the hands
    in ``held`` (still being played at some table: see :func:`pending_hands`)."""
    secret = bytes.fromhex(secret_hex)
    rules = build_config(request(form)).rules_value()
    out = []
    for number in range(1, HANDS + 1):
        order = group_order(secret, number, rules)
        salt = _salt(secret, number)
        entry: dict[str, Any] = {"hand": number, "commitment": commit(order, salt)}
        if reveal and number in held:
            entry["pending"] = True
        elif reveal:
            entry["order"] = list(order)
            entry["salt"] = salt
        out.append(entry)
    return out


def ensure_group(conn: Connection, day: str, form: str) -> str:
    """The secret of the day's group (created, with a fresh secret, on first use)."""
    secret, _, _ = repo.deal_group(conn, group_id(day, form), settings(form))
    return secret


def entry_of(conn: Connection, day: str, form: str, pid: str) -> str | None:
    return conn.scalar(select(DailyEntryRow.table_id).where(
        DailyEntryRow.day == day, DailyEntryRow.form == form, DailyEntryRow.player_id == pid))


def add_entry(conn: Connection, day: str, form: str, pid: str, table_id: str) -> None:
    conn.execute(insert(DailyEntryRow).values(day=day, form=form, player_id=pid,
                                              table_id=table_id))


def _points(result: dict[str, Any]) -> int:
    side = next(s for s in result["sides"] if 0 in s["seats"])
    return int(side["total"])


def _played(conn: Connection, day: str, form: str) -> dict[str, dict[int, int]]:
    """``{player_id: {hand: points}}`` of every entry of the day's set."""
    entries = dict(conn.execute(select(DailyEntryRow.table_id, DailyEntryRow.player_id).where(
        DailyEntryRow.day == day, DailyEntryRow.form == form)).tuples().all())
    out: dict[str, dict[int, int]] = {pid: {} for pid in entries.values()}
    if not entries:
        return out
    for g in conn.execute(select(GameRow.table_id, GameRow.number, GameRow.result).where(
            GameRow.table_id.in_(list(entries)), GameRow.result.is_not(None))):
        out[entries[g.table_id]][g.number] = _points(g.result)
    return out


def pending_hands(conn: Connection, day: str, form: str) -> frozenset[int]:
    """Hands of the day's set that a table still playing has not ended yet.

    A set entered before the close may still be played after it: until that table has
    played a deal, its deck and the day's results stay hidden (the same rule as the held
    replays, ``repository.group_releases``).
    """
    playing = list(conn.scalars(
        select(DailyEntryRow.table_id).join(TableRow, TableRow.id == DailyEntryRow.table_id)
        .where(DailyEntryRow.day == day, DailyEntryRow.form == form,
               TableRow.status != "finished")))
    if not playing:
        return frozenset()
    ended: dict[str, set[int]] = {t: set() for t in playing}
    for table_id, number in conn.execute(select(GameRow.table_id, GameRow.number).where(
            GameRow.table_id.in_(playing), GameRow.result.is_not(None))):
        ended[table_id].add(number)
    return frozenset(n for n in range(1, HANDS + 1)
                     if any(n not in hands for hands in ended.values()))


def scores(played: dict[str, dict[int, int]]) -> dict[str, dict[int, float]]:
    """Each player's score on each deal they played: points minus the field's mean there."""
    out: dict[str, dict[int, float]] = {}
    for pid, hands in played.items():
        out[pid] = {}
        for number, points in hands.items():
            field = [h[number] for q, h in played.items() if q != pid and number in h]
            out[pid][number] = points - sum(field) / len(field) if field else 0.0
    return out


def _names(conn: Connection, ids: list[str]) -> dict[str, str]:
    if not ids:
        return {}
    rows = conn.execute(select(AccountRow.player_id, AccountRow.username).where(
        AccountRow.player_id.in_(ids)))
    return {pid: name for pid, name in rows}


def day_board(conn: Connection, day: str, form: str, me: str | None,
              now: float | None = None) -> dict[str, Any] | None:
    """The day's board, or ``None`` when ``me`` may not see it yet."""
    played = _played(conn, day, form)
    closed = (clock() if now is None else now) >= closes_at(day)
    done = [pid for pid, hands in played.items() if len(hands) >= HANDS]
    if me not in done and (not closed or pending_hands(conn, day, form)):
        return None  # after the close too, for a set still being played
    per = scores(played)
    names = _names(conn, done)
    ranked = sorted(done, key=lambda pid: (-sum(per[pid].values()), names.get(pid, "")))
    entries = [{"rank": i + 1, "username": names.get(pid), "score": round(sum(per[pid].values()),
                                                                          1)}
               for i, pid in enumerate(ranked)]
    mine = None
    if me in played:
        mine = [{"hand": n, "points": played[me][n], "score": round(per[me][n], 1),
                 "field": sum(1 for q, h in played.items() if q != me and n in h)}
                for n in sorted(played[me])]
    return {"day": day, "players": int(form), "closed": closed, "entries": entries,
            "mine": mine}


_FINAL: OrderedDict[tuple[str, str, int], dict[str, float]] = OrderedDict()
"""Kept scores of the days that are over (closed, no set still in play): they cannot
change (nobody enters a past day), so the month's board sums them without reading the
hands again.  The latest ``_KEEP`` used (two months of both forms) are kept."""
_KEEP = 128


def _final_scores(conn: Connection, day: str, form: str,
                  now: float) -> dict[str, float] | None:
    """Each whole set's score on a day that is over; ``None`` while it is not."""
    key = (day, form, HANDS)
    kept = _FINAL.get(key)
    if kept is not None:
        _FINAL.move_to_end(key)
        return kept
    if now < closes_at(day) or pending_hands(conn, day, form):
        return None
    played = _played(conn, day, form)
    per = scores(played)
    final = {pid: sum(per[pid].values()) for pid, hands in played.items()
             if len(hands) >= HANDS}
    _FINAL[key] = final
    while len(_FINAL) > _KEEP:
        _FINAL.popitem(last=False)
    return final


def month_board(conn: Connection, month: str, form: str,
                now: float | None = None) -> dict[str, Any]:
    """Sums of the days of ``month`` (``YYYY-MM``) that are over."""
    now = clock() if now is None else now
    days = sorted({row for row in conn.scalars(select(DailyEntryRow.day).where(
        DailyEntryRow.form == form, DailyEntryRow.day.like(f"{month}-%")).distinct())})
    totals: dict[str, float] = {}
    counted: dict[str, int] = {}
    for day in days:
        for pid, score in (_final_scores(conn, day, form, now) or {}).items():
            totals[pid] = totals.get(pid, 0.0) + score
            counted[pid] = counted.get(pid, 0) + 1
    names = _names(conn, list(totals))
    ranked = sorted(totals, key=lambda pid: (-totals[pid], names.get(pid, "")))
    return {"month": month, "players": int(form), "entries": [
        {"rank": i + 1, "username": names.get(pid), "score": round(totals[pid], 1),
         "days": counted[pid]} for i, pid in enumerate(ranked)]}


def closed_groups_with_held(conn: Connection, now: float | None = None) -> list[str]:
    """Daily groups whose day is over and that still hold reveals (to publish now)."""
    return [g for g in repo.groups_with_held(conn)
            if day_of_group(g) is not None and may_release(g, now)]


def table_day(conn: Connection, table_id: str) -> str | None:
    """The day of the daily set ``table_id`` belongs to (``None`` for any other table)."""
    group = conn.scalar(select(DealGroupTableRow.group_id).where(
        DealGroupTableRow.table_id == table_id))
    return day_of_group(group) if group else None


def record_waits(conn: Connection, table_id: str, now: float | None = None) -> bool:
    """Whether a finished daily table's match must wait before entering the history.

    Until its day has closed and its table has published every held reveal, a daily match
    stays out of the profile (its scores, its statistics): a profile is public, and showing
    it would show the deal's result to those who have still to play it.
    """
    day = table_day(conn, table_id)
    if day is None:
        return False
    if (clock() if now is None else now) < closes_at(day):
        return True
    return conn.scalar(select(GameRow.number).where(
        GameRow.table_id == table_id, GameRow.reveal_held.is_(True)).limit(1)) is not None


def group_secret(conn: Connection, day: str, form: str) -> str | None:
    return conn.scalar(select(DealGroupRow.secret).where(
        DealGroupRow.id == group_id(day, form)))


def table_status(conn: Connection, table_id: str) -> str | None:
    return conn.scalar(select(TableRow.status).where(TableRow.id == table_id))
