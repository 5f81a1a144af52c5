"""Results from the tables: the pairs' signed links, their entries, the round clock, the log.

Each table of the current round has one link per pair.  The link carries the round, the
table, the side (``ns`` or ``ew``) and an HMAC of them under the tournament's own secret,
so it cannot be guessed or turned into another table's link.  An *evening* link carries
only the table and the side (signed apart from any round's: :data:`EVENING`) and leads to
that table's round in play, whichever it is: the table cards printed before round 1 carry
it, so one set serves the whole evening.  A pair's entry is kept
apart from the results; when both pairs of a table have entered the same score the result
is recorded through :class:`~.service.Director` (the VP follow), when they differ nothing
is recorded and the director settles it.  Every entry, agreement, disagreement, director's
result and clock change goes into the tournament's log with who made it and when.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import Connection, delete, insert, select, update

from burraco.tournament.clock import Clock, check_minutes
from burraco.tournament.errors import TournamentError, cut, excerpt
from burraco.tournament.i18n import Lang, Text, tr
from burraco.tournament.model import Result, Tournament
from burraco.tournament.paper.links import EVENING
from burraco.tournament.service import Director
from burraco.tournament.storage import (
    ClockRow,
    LogRow,
    TableEntryRow,
    TableKeyRow,
    TournamentRow,
)

Side = Literal["ns", "ew"]
SIDES: tuple[Side, Side] = ("ns", "ew")
MAX_SMAZZATA = 4000
"""The most a phone may enter for one smazzata, above or below 0 (a total may be this times
the smazzate)."""


class LinkError(TournamentError):
    """A table link that does not open (forged, another table's, or a past round's).

    ``key`` and ``params`` name its message (``error.<key>``); the phone shows it as a
    sentence (:meth:`sentence`), the first letter a capital and a full stop at its end.
    """

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(Text(f"error.{key}", **params))
        self.key = key
        self.params = params

    def sentence(self, lang: Lang) -> str:
        said = tr(lang, f"error.{self.key}", **self.params)
        return said[:1].upper() + said[1:] + ("" if said.endswith(".") else ".")


@dataclass(frozen=True, slots=True)
class Seat:
    """What a valid link opens: one side of one table of one round."""

    round: int
    table: int
    side: Side


@dataclass(frozen=True, slots=True)
class TableSide:
    """What a valid evening link opens: one side of one table, in whichever round is played."""

    table: int
    side: Side


@dataclass(frozen=True, slots=True)
class Entry:
    side: Side
    ns_mp: int
    ew_mp: int
    hands: tuple[tuple[int, int], ...]
    at: datetime

    @property
    def score(self) -> tuple[int, int]:
        return (self.ns_mp, self.ew_mp)


@dataclass(frozen=True, slots=True)
class LogEntry:
    at: datetime
    round: int | None
    table: int | None
    who: str
    """``ns`` / ``ew`` (that pair of the table), ``director`` or ``tables`` (both pairs)."""
    what: str
    """A kind and its numbers: ``entry NS EW``, ``agreed NS EW VPNS VPEW``,
    ``disagree NS EW NS EW``, ``result``/``correct NS EW VPNS VPEW`` (a correction then the
    score it replaced, ``NS EW VPNS VPEW``), ``clock MINUTES``, ``time``, ``withdraw PAIR
    ROUND MODE``, ``penalty PAIR VP ROUND MP REASON…``, ``prizes TEXT…`` (see
    :func:`burraco.tournament.pages.log_text`)."""


Outcome = Literal["waiting", "agreed", "disagree", "same"]


def now() -> datetime:
    return datetime.now(UTC)


def _aware(at: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def score_limit(hands: int, *, part: bool = False) -> int:
    """The largest score, either way, a phone may enter for a smazzata (``part``) or a match."""
    return MAX_SMAZZATA * (1 if part else hands)


def parse_score(text: str, what: Text, *, hands: int, part: bool = False) -> int:
    """A score typed on a phone: a whole number, negative or not (a match total may be below
    0 in Burraco), within ±:data:`MAX_SMAZZATA` a smazzata; ``what``: the score's name in a
    refusal ("the NS score")."""
    text = text.strip().replace(" ", "")
    if not text:
        raise TournamentError(Text("error.missing", what=what))
    try:
        value = int(text)
    except ValueError:
        raise TournamentError(Text("error.whole_number", what=what,
                                   value=excerpt(text))) from None
    limit = score_limit(hands, part=part)
    if abs(value) > limit:
        raise TournamentError(Text("error.implausible", what=what, value=cut(value),
                                   limit=limit))
    return value


class Desk:
    """The tables' side of a tournament database (links, entries, clock, log)."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.engine = director.engine

    # --- links --------------------------------------------------------------------------------

    def _secret(self, conn: Connection, tid: str) -> bytes:
        found = conn.execute(select(TableKeyRow.secret).where(
            TableKeyRow.tournament_id == tid)).scalar()
        if found is None:
            found = secrets.token_hex(32)
            conn.execute(insert(TableKeyRow).values(tournament_id=tid, secret=found))
        return bytes.fromhex(found)

    def _signature(self, secret: bytes, tid: str, round_number: int, table: int,
                   side: str) -> str:
        mac = hmac.new(secret, f"{tid}|{round_number}|{table}|{side}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:16]).decode().rstrip("=")

    def _evening_signature(self, secret: bytes, tid: str, table: int, side: str) -> str:
        """Signed apart from every round's link: ``evening`` is never a round's number."""
        mac = hmac.new(secret, f"{tid}|evening|{table}|{side}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:16]).decode().rstrip("=")

    def token(self, tid: str, round_number: int, table: int, side: Side) -> str:
        with self.engine.begin() as conn:
            secret = self._secret(conn, tid)
        signature = self._signature(secret, tid, round_number, table, side)
        return f"{round_number}-{table}-{side}-{signature}"

    def link_builder(self, tid: str, base_url: str = "") -> Callable[[int, int], tuple[str, str]]:
        """``(round, table) -> (ns_url, ew_url)``: the two links of any table of any round
        (the table cards print them as QR codes); round :data:`EVENING`: the table's
        evening links (``/tournaments/ID/evening/TOKEN``)."""
        with self.engine.begin() as conn:
            secret = self._secret(conn, tid)
        base = base_url.rstrip("/")

        def links(round_number: int, table: int) -> tuple[str, str]:
            if round_number == EVENING:
                ns, ew = (f"{table}-{side}-{self._evening_signature(secret, tid, table, side)}"
                          for side in SIDES)
                return (f"{base}/tournaments/{tid}/evening/{ns}",
                        f"{base}/tournaments/{tid}/evening/{ew}")
            ns, ew = (f"{round_number}-{table}-{side}-"
                      f"{self._signature(secret, tid, round_number, table, side)}"
                      for side in SIDES)
            return f"{base}/tournaments/{tid}/table/{ns}", f"{base}/tournaments/{tid}/table/{ew}"
        return links

    def evening_links(self, tid: str, tables: Sequence[int],
                      base_url: str = "") -> list[dict[str, object]]:
        """Each of ``tables`` with its two evening links (``ns``, ``ew``)."""
        build = self.link_builder(tid, base_url)
        return [dict(zip(("table", "ns", "ew"), (n, *build(EVENING, n)), strict=True))
                for n in tables]

    def links(self, tid: str, base_url: str = "") -> list[dict[str, object]]:
        """The current round's tables and their two links (``ns``, ``ew``)."""
        t = self.director.load(tid)
        if t.current is None:
            raise TournamentError(Text("error.no_links"))
        build = self.link_builder(tid, base_url)
        out: list[dict[str, object]] = []
        for table in t.current.tables:
            ns, ew = build(t.current.number, table.number)
            out.append({"table": table.number, "ns": ns, "ew": ew})
        return out

    def open_link(self, tid: str, token: str) -> tuple[Tournament, Seat]:
        """The tournament and the seat a link opens, or :class:`LinkError` saying why not."""
        t = self.director.load(tid)
        parts = token.split("-", 3)  # the signature may hold "-" too
        bad = LinkError("link_bad")
        if len(parts) != 4 or parts[2] not in SIDES or not (parts[0].isdigit()
                                                            and parts[1].isdigit()):
            raise bad
        round_number, table, side = int(parts[0]), int(parts[1]), parts[2]
        with self.engine.begin() as conn:
            secret = self._secret(conn, tid)
        expected = self._signature(secret, tid, round_number, table, side)
        if not hmac.compare_digest(expected.encode(), parts[3].encode()):
            raise bad
        current = t.current
        if current is None or current.number != round_number:
            if current is not None and not t.finished:
                raise LinkError("link_stale", r=round_number, n=current.number)
            raise LinkError("link_over", r=round_number)
        current.table(table)  # a signed table is always in its round
        return t, Seat(round_number, table, "ns" if side == "ns" else "ew")

    def open_evening(self, tid: str, token: str) -> tuple[Tournament, TableSide]:
        """The tournament and the table side an evening link opens, or :class:`LinkError`
        (``link_bad``: forged, another table's or another tournament's).  Which round it
        leads to is the caller's to say (the one in play, if the table plays in it)."""
        t = self.director.load(tid)
        parts = token.split("-", 2)  # the signature may hold "-" too
        if len(parts) != 3 or parts[1] not in SIDES or not (parts[0].isascii()
                                                             and parts[0].isdigit()):
            raise LinkError("link_bad")
        table, side = int(parts[0]), parts[1]
        with self.engine.begin() as conn:
            secret = self._secret(conn, tid)
        expected = self._evening_signature(secret, tid, table, side)
        if not hmac.compare_digest(expected.encode(), parts[2].encode()):
            raise LinkError("link_bad")
        return t, TableSide(table, "ns" if side == "ns" else "ew")

    # --- entries ------------------------------------------------------------------------------

    def entries(self, tid: str, round_number: int) -> dict[tuple[int, Side], Entry]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(TableEntryRow).where(
                TableEntryRow.tournament_id == tid, TableEntryRow.round == round_number)).all()
        return {(r.table, "ns" if r.side == "ns" else "ew"): Entry(
            "ns" if r.side == "ns" else "ew", r.ns_mp, r.ew_mp,
            tuple((int(a), int(b)) for a, b in r.hands), _aware(r.entered_at)) for r in rows}

    def conflicts(self, tid: str, round_number: int, t: Tournament) -> list[tuple[int, Entry,
                                                                                Entry]]:
        """Tables of the round whose pairs entered different scores and have no result."""
        found = self.entries(tid, round_number)
        out = []
        for table in t.round(round_number).tables:
            ns, ew = found.get((table.number, "ns")), found.get((table.number, "ew"))
            if ns and ew and ns.score != ew.score and t.result(round_number,
                                                               table.number) is None:
                out.append((table.number, ns, ew))
        return out

    def submit(self, tid: str, token: str, ns_mp: int, ew_mp: int,
               hands: Sequence[tuple[int, int]] = (),
               timed_out: bool = False) -> tuple[Outcome, Result | None]:
        """One pair's entry; the result is recorded when both pairs' entries agree.
        ``timed_out``: the time-out cut the match short, ``hands`` are those played."""
        t, seat = self.open_link(tid, token)
        where = Text("where.table", round=seat.round, table=seat.table)
        done = t.result(seat.round, seat.table)
        if done is not None:
            raise TournamentError(Text("error.table_done", where=where, a=done.mp[0],
                                       b=done.mp[1], c=done.vp[0], d=done.vp[1]))
        t.record(seat.round, seat.table, ns_mp, ew_mp, hands=hands, source="tables",
                 timed_out=timed_out)  # checks
        hands_list = [list(h) for h in hands]
        with self.engine.begin() as conn:
            key = (TableEntryRow.tournament_id == tid, TableEntryRow.round == seat.round,
                   TableEntryRow.table == seat.table)
            mine = conn.execute(select(TableEntryRow).where(
                *key, TableEntryRow.side == seat.side)).first()
            same = (mine is not None and (mine.ns_mp, mine.ew_mp) == (ns_mp, ew_mp)
                    and [list(h) for h in mine.hands] == hands_list)
            if mine is None:
                conn.execute(insert(TableEntryRow).values(
                    tournament_id=tid, round=seat.round, table=seat.table, side=seat.side,
                    ns_mp=ns_mp, ew_mp=ew_mp, hands=hands_list, entered_at=now()))
            elif not same:
                conn.execute(update(TableEntryRow).where(
                    *key, TableEntryRow.side == seat.side).values(
                    ns_mp=ns_mp, ew_mp=ew_mp, hands=hands_list, entered_at=now()))
            if not same:
                self._log(conn, tid, seat.round, seat.table, seat.side,
                          f"entry {ns_mp} {ew_mp}")
        # Compare only once this entry is committed: two pairs sending at the same moment
        # then both see both entries (one of them records the result, the other finds it).
        entries = self.entries(tid, seat.round)
        other = entries.get((seat.table, "ew" if seat.side == "ns" else "ns"))
        if other is None:
            return ("same" if same else "waiting"), None
        if other.score != (ns_mp, ew_mp):
            if not same:
                ns_entry, ew_entry = ((ns_mp, ew_mp), other.score) if seat.side == "ns" \
                    else (other.score, (ns_mp, ew_mp))
                self.log(tid, seat.round, seat.table, "tables",
                         f"disagree {ns_entry[0]} {ns_entry[1]} {ew_entry[0]} {ew_entry[1]}")
            return "disagree", None
        use = tuple(hands) or other.hands  # fewer than planned only when cut short by time
        try:
            result = self.director.record(tid, seat.round, seat.table, ns_mp, ew_mp,
                                          hands=use, source="tables",
                                          timed_out=len(use) < t.settings.hands)
        except TournamentError:  # the other pair's agreeing entry recorded it a moment ago
            existing = self.director.load(tid).result(seat.round, seat.table)
            if existing is None:
                raise
            return "agreed", existing
        self.log(tid, seat.round, seat.table, "tables",
                 f"agreed {ns_mp} {ew_mp} {result.vp[0]} {result.vp[1]}")
        return "agreed", result

    # --- the clock ----------------------------------------------------------------------------

    def clock(self, tid: str, round_number: int) -> Clock | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(ClockRow).where(
                ClockRow.tournament_id == tid, ClockRow.round == round_number)).first()
        if row is None:
            return None
        return Clock(row.round, row.minutes, _aware(row.started_at), _aware(row.ends_at))

    def start_clock(self, tid: str, minutes: int) -> Clock:
        """Start (or restart) the current round's clock: it ends ``minutes`` from now."""
        t = self.director.load(tid)
        if t.current is None or t.finished:
            raise TournamentError(Text("error.clock_no_round"))
        check_minutes(minutes)
        start = now()
        clock = Clock(t.current.number, minutes, start, start + timedelta(minutes=minutes))
        with self.engine.begin() as conn:
            conn.execute(delete(ClockRow).where(ClockRow.tournament_id == tid,
                                                ClockRow.round == clock.round))
            conn.execute(insert(ClockRow).values(
                tournament_id=tid, round=clock.round, minutes=minutes, started_at=start,
                ends_at=clock.ends_at))
            self._log(conn, tid, clock.round, None, "director", f"clock {minutes}")
        return clock

    def call_time(self, tid: str) -> Clock:
        """The director calls time now (the clock of the current round ends at once)."""
        t = self.director.load(tid)
        current = t.current
        if current is None or t.finished:
            raise TournamentError(Text("error.time_no_round"))
        clock = self.clock(tid, current.number)
        if clock is None:
            raise TournamentError(Text("error.clock_not_started", round=current.number))
        at = now()
        if clock.expired(at):
            raise TournamentError(Text("error.time_up", round=current.number))
        with self.engine.begin() as conn:
            conn.execute(update(ClockRow).where(
                ClockRow.tournament_id == tid, ClockRow.round == current.number).values(
                ends_at=at))
            self._log(conn, tid, current.number, None, "director", "time")
        return Clock(clock.round, clock.minutes, clock.started_at, at)

    # --- the log ------------------------------------------------------------------------------

    def log(self, tid: str, round_number: int | None, table: int | None, who: str,
            what: str) -> None:
        with self.engine.begin() as conn:
            self._log(conn, tid, round_number, table, who, what)

    @staticmethod
    def _log(conn: Connection, tid: str, round_number: int | None, table: int | None,
             who: str, what: str) -> None:
        conn.execute(insert(LogRow).values(tournament_id=tid, round=round_number, table=table,
                                           who=who, what=what, at=now()))

    def history(self, tid: str) -> list[LogEntry]:
        """Every logged change, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(LogRow).where(LogRow.tournament_id == tid)
                                .order_by(LogRow.id.desc())).all()
        return [LogEntry(_aware(r.at), r.round, r.table, r.who, r.what) for r in rows]

    def stamp(self, tid: str) -> str:
        """Changes with every change (a round, a result, a log line): screens reload on it."""
        with self.engine.connect() as conn:
            found = conn.execute(select(LogRow.id).where(LogRow.tournament_id == tid)
                                 .order_by(LogRow.id.desc()).limit(1)).scalar()
            version = conn.execute(select(TournamentRow.version).where(
                TournamentRow.id == tid)).scalar()
        return f"{version or 0}.{found or 0}"
