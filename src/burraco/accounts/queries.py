"""The profile and the leaderboards: reads that stay fast with many players and matches.

Every query walks an index: a profile reads one account, its statistics and
ratings by key, its latest matches by ``(player_id, finished_at)`` and its rating
history by ``(player_id, form, at)``; the all-time board pages ``ratings`` by
``(form, mu)``, and "my rank" counts the entries above on the same index; a
weekly or monthly board pages ``board_periods`` by ``(period, form, mu)`` the
same way (each rated result updates the player's week and month rows).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, func, select

from burraco.accounts import avatars
from burraco.accounts.fairplay import SUSPENDED, active_wait
from burraco.accounts.models import (
    AccountRow,
    BoardPeriodRow,
    MatchPlayerRow,
    MatchRow,
    OnlineEventResultRow,
    PlayerStatRow,
    RatingHistoryRow,
    RatingRow,
)
from burraco.accounts.names import username_key
from burraco.accounts.ratings import FORMS, MU, SIGMA, shown

STAT_FIELDS = ("matches", "won", "hands", "hands_won", "mp", "closings", "pozzetti",
               "abandoned")


def periods_of(at: float) -> tuple[str, str]:
    """The calendar week (ISO, UTC) and month a moment falls in, as board keys."""
    day = datetime.fromtimestamp(at, UTC)
    year, week, _ = day.isocalendar()
    return f"week:{year}-W{week:02d}", f"month:{day.year}-{day.month:02d}"


RECENT = 20
HISTORY_POINTS = 500
PAGE_SIZE = 50


def ratings_of(conn: Connection, pid: str) -> dict[str, Any]:
    return {r.form: {"rating": shown(r.mu), "deviation": round(r.sigma), "matches": r.matches}
            for r in conn.execute(select(RatingRow.form, RatingRow.mu, RatingRow.sigma,
                                         RatingRow.matches).where(RatingRow.player_id == pid))}


def _stats(conn: Connection, pid: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row in conn.execute(select(PlayerStatRow.__table__).where(
            PlayerStatRow.player_id == pid)):
        entry = {k: getattr(row, k) for k in STAT_FIELDS}
        entry["mean_mp"] = round(row.mp / row.hands, 1) if row.hands else None
        entry["burraco"] = dict(row.burraco)
        out[row.form] = entry
    return out


def _names(conn: Connection, ids: set[str]) -> dict[str, tuple[str, str]]:
    """The username and the avatar of each account among ``ids``."""
    if not ids:
        return {}
    rows = conn.execute(select(AccountRow.player_id, AccountRow.username, AccountRow.avatar)
                        .where(AccountRow.player_id.in_(ids)))
    return {pid: (name, avatars.shown(pid, avatar)) for pid, name, avatar in rows}


def recent_matches(conn: Connection, pid: str, *, limit: int = RECENT,
                   before: float | None = None) -> list[dict[str, Any]]:
    """The player's latest finished matches, newest first, with who sat where."""
    query = (select(MatchPlayerRow.__table__, MatchRow.seats, MatchRow.scores, MatchRow.hands)
             .join(MatchRow, MatchRow.table_id == MatchPlayerRow.table_id)
             .where(MatchPlayerRow.player_id == pid))
    if before is not None:
        query = query.where(MatchPlayerRow.finished_at < before)
    rows = list(conn.execute(query.order_by(MatchPlayerRow.finished_at.desc()).limit(limit)))
    names = _names(conn, {s["player_id"] for r in rows for s in r.seats if s["player_id"]})
    out = []
    for r in rows:
        def who(seat: dict[str, Any]) -> dict[str, Any]:
            account = names.get(seat["player_id"]) if seat["player_id"] else None
            avatar = (account[1] if account else avatars.of_bot(seat["bot"]) if seat["bot"]
                      else avatars.GUEST)
            return {"seat": seat["seat"], "username": account[0] if account else None,
                    "name": account[0] if account else seat["name"], "bot": seat["bot"],
                    "avatar": avatar}

        partner = [who(s) for s in r.seats if s["side"] == r.side and s["seat"] != r.seat]
        opponents = [who(s) for s in r.seats if s["side"] != r.side]
        out.append({
            "table_id": r.table_id, "finished_at": r.finished_at, "form": r.form,
            "rated": r.rated, "result": r.result, "abandoned": r.abandoned,
            "scores": r.scores, "side": r.side, "partner": partner[0] if partner else None,
            "opponents": opponents,
            "rating_before": shown(r.rating_before) if r.rating_before is not None else None,
            "rating_after": shown(r.rating_after) if r.rating_after is not None else None,
            "replays": [f"/replay/{r.table_id}?hand={n}" for n in range(1, r.hands + 1)],
        })
    return out


def rating_history(conn: Connection, pid: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for form in FORMS:
        rows = list(conn.execute(
            select(RatingHistoryRow.at, RatingHistoryRow.mu, RatingHistoryRow.sigma)
            .where(RatingHistoryRow.player_id == pid, RatingHistoryRow.form == form)
            .order_by(RatingHistoryRow.at.desc()).limit(HISTORY_POINTS)))
        if rows:
            points = [{"at": r.at, "rating": shown(r.mu), "deviation": round(r.sigma)}
                      for r in reversed(rows)]
            if len(rows) < HISTORY_POINTS:  # the whole history: it starts where newcomers do
                points.insert(0, {"at": rows[-1].at, "rating": shown(MU),
                                  "deviation": round(SIGMA), "start": True})
            out[form] = points
    return out


EVENTS_SHOWN = 20
PODIUM = ("gold", "silver", "bronze")


def event_history(conn: Connection, pid: str) -> list[dict[str, Any]]:
    """The player's latest finished online events (``community.online_events``), newest
    first: the event, its kind, the place among how many, the score."""
    return [{"event": r.event_id, "name": r.name, "kind": r.kind, "rank": r.rank,
             "entrants": r.entrants, "score": r.score, "finished": r.finished,
             "badge": PODIUM[r.rank - 1] if r.rank <= len(PODIUM) else None}
            for r in conn.execute(
                select(OnlineEventResultRow).where(OnlineEventResultRow.player_id == pid)
                .order_by(OnlineEventResultRow.finished.desc()).limit(EVENTS_SHOWN))]


def badges(conn: Connection, pid: str) -> dict[str, int]:
    """Podium places in online events: how many golds, silvers and bronzes."""
    counts = {row[0]: row[1] for row in conn.execute(
        select(OnlineEventResultRow.rank, func.count()).where(
            OnlineEventResultRow.player_id == pid,
            OnlineEventResultRow.rank <= len(PODIUM))
        .group_by(OnlineEventResultRow.rank))}
    return {badge: int(counts.get(rank, 0)) for rank, badge in enumerate(PODIUM, 1)}


def profile(conn: Connection, username: str) -> dict[str, Any] | None:
    account = conn.execute(select(AccountRow.player_id, AccountRow.username,
                                  AccountRow.avatar, AccountRow.created_at).where(
        AccountRow.username_key == username_key(username))).first()
    if account is None:
        return None
    pid = account.player_id
    wait = active_wait(conn, pid)
    if wait is not None and wait["reason"] == SUSPENDED:
        wait = None  # a moderator's sanction is the person's own business, not the profile's
    return {
        "username": account.username, "player_id": pid,
        "avatar": avatars.shown(pid, account.avatar),
        "since": account.created_at.isoformat() if account.created_at else None,
        "ratings": ratings_of(conn, pid), "stats": _stats(conn, pid),
        "recent": recent_matches(conn, pid), "history": rating_history(conn, pid),
        "wait": wait, "events": event_history(conn, pid), "badges": badges(conn, pid),
    }


def leaderboard(conn: Connection, form: str, period: str, page: int,
                me: str | None = None, *, size: int = PAGE_SIZE,
                now: float | None = None) -> dict[str, Any]:
    """One page of a board, and ``me``'s own entry (rank included) when given.

    ``all``: current ratings.  ``week`` / ``month``: the current calendar week
    (ISO, UTC) or month, each player at the rating of their last rated match in
    it, among those who played one.  Ties are broken by player id, the same way
    on the page and in the rank.
    """
    offset = (page - 1) * size
    if period == "all":
        table: Any = RatingRow
        where = [RatingRow.form == form]
        count_col: Any = RatingRow.matches
    else:
        week, month = periods_of(time.time() if now is None else now)
        table = BoardPeriodRow
        where = [BoardPeriodRow.period == (week if period == "week" else month),
                 BoardPeriodRow.form == form]
        count_col = BoardPeriodRow.matches
    # the page is cut on the index alone, then named: OFFSET skips index entries, not joins
    page_rows = (select(table.player_id, table.mu, table.sigma, count_col.label("n"))
                 .where(*where).order_by(table.mu.desc(), table.player_id.desc())
                 .offset(offset).limit(size).subquery())
    rows = list(conn.execute(
        select(page_rows, AccountRow.username, AccountRow.avatar)
        .join(AccountRow, AccountRow.player_id == page_rows.c.player_id)
        .order_by(page_rows.c.mu.desc(), page_rows.c.player_id.desc())))
    total = conn.scalar(select(func.count()).select_from(table).where(*where)) or 0
    entries = [{"rank": offset + i + 1, "username": r.username,
                "avatar": avatars.shown(r.player_id, r.avatar), "rating": shown(r.mu),
                "deviation": round(r.sigma), "matches": r.n} for i, r in enumerate(rows)]
    out: dict[str, Any] = {"players": int(form), "period": period, "page": page,
                           "page_size": size, "total": total, "entries": entries}
    if me is not None:
        mine = conn.execute(select(table.mu, table.sigma, count_col.label("n")).where(
            *where, table.player_id == me)).first()
        if mine is None:
            out["me"] = None
        else:
            # two range counts on the board's index: cheaper than one with an OR
            above = (conn.scalar(select(func.count()).select_from(table).where(
                *where, table.mu > mine.mu)) or 0) + (conn.scalar(
                    select(func.count()).select_from(table).where(
                        *where, table.mu == mine.mu, table.player_id > me)) or 0)
            account = conn.execute(select(AccountRow.username, AccountRow.avatar).where(
                AccountRow.player_id == me)).first()
            name, avatar = (account.username, account.avatar) if account else (None, None)
            out["me"] = {"rank": above + 1, "username": name,
                         "avatar": avatars.shown(me, avatar), "rating": shown(mine.mu),
                         "deviation": round(mine.sigma), "matches": mine.n,
                         "page": above // size + 1}
    return out
