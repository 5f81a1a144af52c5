"""A finished match turned into the players' history, statistics, ratings and penalties.

:func:`record_match` runs in the writer's transaction once a table's match is
over (and again on start for any finished table not yet recorded: it is
idempotent, keyed by the table).  It reads only what the table stored: the
claims (who held each seat), the hands' results and records, the ``MatchOver``
event and, at rated tables, the commands that tell who abandoned.

At a rated table an abandonment makes the match lost for the leaver's side; the
leaver's partner keeps their rating (the loss is not theirs), the opponents win.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from burraco.accounts import fairplay, ratings
from burraco.accounts.models import (
    AccountRow,
    BoardPeriodRow,
    MatchPlayerRow,
    MatchRow,
    PenaltyRow,
    PlayerStatRow,
    RatingHistoryRow,
    RatingRow,
)
from burraco.accounts.queries import STAT_FIELDS, periods_of
from burraco.community import daily
from burraco.engine.actions import parse_action
from burraco.engine.records import RecordError, start_state
from burraco.engine.state import IllegalActionError
from burraco.server.storage import repository as repo
from burraco.server.storage.models import EventRow, GameRow, TableRow


def unrecorded_finished(conn: Connection) -> list[str]:
    """Finished tables whose match is not in the history yet (a crash came in between);
    never the guided hand's (a lesson, not a match)."""
    return [row.id for row in conn.execute(
        select(TableRow.id, TableRow.config).outerjoin(MatchRow, MatchRow.table_id == TableRow.id)
        .where(TableRow.status == "finished", MatchRow.table_id.is_(None)))
        if not row.config.get("tutorial")]


def _holders(commands: list[dict[str, Any]]) -> dict[int, tuple[str, str]]:
    out: dict[int, tuple[str, str]] = {}
    for command in commands:
        if command["kind"] == "claim":
            out[command["seat"]] = (command["body"]["guest_id"], command["body"]["nickname"])
    return out


def _pozzetto_takers(record: dict[str, Any] | None) -> list[int]:
    """Seats that took a pozzetto in a finished hand (empty when the record is held)."""
    if not record:
        return []
    try:
        state = start_state(record)
        for text in record.get("moves", []):
            state.apply_in_place(parse_action(text))
    except (RecordError, IllegalActionError, ValueError):
        return []
    return [seat for seat in state.pozzetto_taker if seat >= 0]


def record_match(conn: Connection, table_id: str, now: float | None = None) -> bool:
    """Record the finished match of ``table_id``; False when already done or not over."""
    if conn.scalar(select(MatchRow.table_id).where(MatchRow.table_id == table_id)):
        return False
    table = conn.execute(select(TableRow.config, TableRow.status).where(
        TableRow.id == table_id)).first()
    if table is None or table.status != "finished":
        return False
    if daily.record_waits(conn, table_id, now):
        return False  # a daily match enters the history once its day has closed
    config: dict[str, Any] = table.config
    if config.get("tutorial"):
        return False  # the guided hand is a lesson: no history, statistics or rating
    over = conn.scalar(select(EventRow.payload).where(
        EventRow.table_id == table_id, EventRow.kind == "MatchOver"))
    if over is None:
        return False
    now = time.time() if now is None else now
    commands = repo.all_commands(conn, table_id)
    holders = _holders(commands)
    hands = [(g.result, g.record) for g in conn.execute(
        select(GameRow.result, GameRow.record).where(
            GameRow.table_id == table_id, GameRow.result.is_not(None))
        .order_by(GameRow.number)) if not g.result.get("redeal")]
    players = int(config["players"])
    side_of = _sides(players, hands)
    seats_cfg = config["seats"]
    rated = bool(config.get("rated"))
    form = str(players)
    humans = [s for s, spec in enumerate(seats_cfg) if spec["kind"] == "human"]
    left = fairplay.abandonments(commands, humans) if rated else {}
    winner: int | None = over.get("winner")
    sides = sorted(set(side_of.values()))
    losers = {side_of[s] for s in left}
    if losers and losers != set(sides):
        ranks = {side: (1 if side in losers else 0) for side in sides}
    elif winner is not None:
        ranks = {side: (0 if side == winner else 1) for side in sides}
    else:
        ranks = dict.fromkeys(sides, 0)
    scores = list(over.get("scores") or [])
    seat_rows: list[dict[str, Any]] = []
    for seat, spec in enumerate(seats_cfg):
        holder = holders.get(seat)
        seat_rows.append({
            "seat": seat, "side": side_of[seat],
            "player_id": holder[0] if holder and spec["kind"] == "human" else None,
            "name": (f"bot:{spec.get('level') or 'basic'}" if spec["kind"] == "bot"
                     else holder[1] if holder else None),
            "bot": spec.get("level") or "basic" if spec["kind"] == "bot" else None,
        })
    people = [r["player_id"] for r in seat_rows if r["player_id"]]
    if len(people) != len(set(people)):
        rated = False  # one person held two seats: a match against oneself moves no rating
    conn.execute(insert(MatchRow).values(
        table_id=table_id, form=form, rated=rated, finished_at=now, hands=len(hands),
        winner=winner, scores=scores, seats=seat_rows))
    previous = _ratings_of(conn, form, people)
    new_ratings = _rate(conn, table_id, form, seat_rows, ranks, left, now) if rated else {}
    counted: set[str] = set()
    for row in seat_rows:
        pid = row["player_id"]
        if pid is None or pid in counted:
            continue  # a person's history and statistics count a match once
        counted.add(pid)
        side, seat = row["side"], row["seat"]
        mine, others = ranks[side], [r for s, r in ranks.items() if s != side]
        result = "tie" if all(r == mine for r in others) else (
            "won" if all(mine < r for r in others) else "lost")
        before = previous.get(pid, (ratings.MU, ratings.SIGMA))
        after = new_ratings.get(pid)
        conn.execute(insert(MatchPlayerRow).values(
            table_id=table_id, seat=seat, player_id=pid, form=form, rated=rated,
            finished_at=now, side=side, result=result,
            score=int(scores[side]) if side < len(scores) else 0, abandoned=seat in left,
            rating_before=before[0] if after else None,
            rating_after=after[0] if after else None))
        _add_stats(conn, pid, form, seat, side, result, hands, seat in left)
        if seat in left:
            _penalise(conn, pid, table_id, left[seat], now)
    return True


def _sides(players: int, hands: list[tuple[dict[str, Any], Any]]) -> dict[int, int]:
    for result, _ in hands:
        if len(result["sides"]) * (2 if players in (4, 6) else 1) >= players:
            return {seat: index for index, side in enumerate(result["sides"])
                    for seat in side["seats"]}
    if players in (4, 6):
        return {seat: seat % (players // 2) for seat in range(players)}
    return {seat: seat for seat in range(players)}


def _ratings_of(conn: Connection, form: str, ids: list[str]) -> dict[str, tuple[float, float]]:
    if not ids:
        return {}
    return {r.player_id: (r.mu, r.sigma) for r in conn.execute(
        select(RatingRow.player_id, RatingRow.mu, RatingRow.sigma).where(
            RatingRow.form == form, RatingRow.player_id.in_(ids)))}


def _rate(conn: Connection, table_id: str, form: str, seat_rows: list[dict[str, Any]],
          ranks: dict[int, int], left: dict[int, str],
          now: float) -> dict[str, tuple[float, float]]:
    """Update the ratings of the accounts at a rated table; returns their new (mu, sigma)."""
    ids = [r["player_id"] for r in seat_rows if r["player_id"]]
    accounts = set(conn.scalars(select(AccountRow.player_id).where(
        AccountRow.player_id.in_(ids)))) if ids else set()
    current = _ratings_of(conn, form, ids)
    forced = {seat_rows[s]["side"] for s in left}
    teams: dict[int, list[ratings.Seat]] = {}
    for row in seat_rows:
        pid = row["player_id"]
        if row["bot"] is not None:
            mu, sigma = ratings.bot_rating(form, row["bot"])
            seat = ratings.Seat(f"bot:{row['seat']}", mu, sigma, fixed=True)
        elif pid in accounts:
            mu, sigma = current.get(pid, (ratings.MU, ratings.SIGMA))
            seat = ratings.Seat(pid, mu, sigma, protected=(
                row["side"] in forced and row["seat"] not in left))
        else:  # cannot happen at a rated table (only accounts sit); count it as a newcomer
            seat = ratings.Seat(f"guest:{row['seat']}", ratings.MU, ratings.SIGMA, fixed=True)
        teams.setdefault(row["side"], []).append(seat)
    order = sorted(teams)
    new = ratings.rate([teams[s] for s in order], [ranks[s] for s in order])
    for pid, (mu, sigma) in new.items():
        if pid in current:
            conn.execute(update(RatingRow).where(
                RatingRow.player_id == pid, RatingRow.form == form).values(
                mu=mu, sigma=sigma, matches=RatingRow.matches + 1))
        else:
            conn.execute(insert(RatingRow).values(
                player_id=pid, form=form, mu=mu, sigma=sigma, matches=1))
        conn.execute(insert(RatingHistoryRow).values(
            player_id=pid, form=form, table_id=table_id, at=now, mu=mu, sigma=sigma))
        for period in periods_of(now):
            where = (BoardPeriodRow.period == period, BoardPeriodRow.form == form,
                     BoardPeriodRow.player_id == pid)
            if conn.scalar(select(BoardPeriodRow.matches).where(*where)) is None:
                conn.execute(insert(BoardPeriodRow).values(
                    period=period, form=form, player_id=pid, mu=mu, sigma=sigma, matches=1))
            else:
                conn.execute(update(BoardPeriodRow).where(*where).values(
                    mu=mu, sigma=sigma, matches=BoardPeriodRow.matches + 1))
    return new


def _add_stats(conn: Connection, pid: str, form: str, seat: int, side: int, result: str,
               hands: list[tuple[dict[str, Any], Any]], abandoned: bool) -> None:
    add = dict.fromkeys(STAT_FIELDS, 0)
    add["matches"] = 1
    add["won"] = int(result == "won")
    add["abandoned"] = int(abandoned)
    burraco: dict[str, int] = {}
    for hand, record in hands:
        mine = next((s for s in hand["sides"] if seat in s["seats"]), None)
        if mine is None:
            continue
        add["hands"] += 1
        add["mp"] += int(mine["total"])
        if all(int(mine["total"]) > int(s["total"]) for s in hand["sides"] if s is not mine):
            add["hands_won"] += 1
        if hand.get("closer") == seat:
            add["closings"] += 1
        add["pozzetti"] += int(seat in _pozzetto_takers(record))
        for made in mine.get("burraco", []):
            burraco[made["type"]] = burraco.get(made["type"], 0) + 1
    del side
    row = conn.execute(select(PlayerStatRow.__table__).where(
        PlayerStatRow.player_id == pid, PlayerStatRow.form == form)).first()
    if row is None:
        conn.execute(insert(PlayerStatRow).values(
            player_id=pid, form=form, burraco=burraco, **add))
        return
    merged = dict(row.burraco)
    for kind, count in burraco.items():
        merged[kind] = merged.get(kind, 0) + count
    conn.execute(update(PlayerStatRow).where(
        PlayerStatRow.player_id == pid, PlayerStatRow.form == form).values(
        burraco=merged, **{k: getattr(PlayerStatRow, k) + v for k, v in add.items()}))


def _penalise(conn: Connection, pid: str, table_id: str, reason: str, now: float) -> None:
    recent = conn.scalar(select(func.count()).select_from(PenaltyRow).where(
        PenaltyRow.player_id == pid, PenaltyRow.at > now - fairplay.MEMORY)) or 0
    conn.execute(insert(PenaltyRow).values(
        player_id=pid, table_id=table_id, reason=reason, at=now,
        until=now + fairplay.wait_after(int(recent))))
