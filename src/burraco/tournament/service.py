"""The director's operations on stored tournaments: load, apply one change, write it back.

Every change runs the pure operation of :mod:`.model` on the stored tournament,
then writes only what changed, guarded by the tournament's version: if another
process changed the tournament meanwhile (a second director's terminal, the web
page, an online table finishing) the change is retried on the fresh state.  A
rejected change raises :class:`TournamentError` and writes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, delete, func, insert, select, update

from burraco.infra.config import normalize_db_url
from burraco.infra.db import make_engine
from burraco.tournament.changes import (
    Evening,
    late_register,
    remove_pair,
    set_category,
    undo_round,
)
from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text
from burraco.tournament.members import link_accounts, resolve_entries
from burraco.tournament.model import Pair, Result, Round, Settings, Source, Tournament
from burraco.tournament.register import link_members, renumber_pairs
from burraco.tournament.seating import Table
from burraco.tournament.storage import (
    ClockRow,
    OnlineRow,
    PairAccountRow,
    PairRow,
    ResultRow,
    RoundRow,
    TableEntryRow,
    TournamentRow,
    migrate,
)

T = TypeVar("T")
Also = Callable[[Connection, Tournament, Tournament], None]
RETRIES = 5
RESERVED_IDS = frozenset({"members", "login"})
"""Paths under /tournaments/ and /api/tournaments/ that are not tournaments."""


class ConflictError(RuntimeError):
    """The tournament kept changing under us (more than ``RETRIES`` times in a row)."""


@dataclass(frozen=True, slots=True)
class Summary:
    id: str
    name: str
    pairs: int
    status: str
    schedule: str
    entrants: str = "pairs"
    """What ``pairs`` counts: ``pairs``, ``players`` or ``teams``."""


LETTERS = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
                         "þ": "th", "ı": "i"})
"""Latin letters that are not a letter plus accents, spelt out."""


def slug(name: str) -> str:
    """A new tournament's id from its name: accented letters without their accents.

    Only new tournaments are named so: a stored id never changes (links and files use it).

    >>> slug("Torneo del giovedì"), slug("Città di Forlì — È qui!"), slug("Straße Ærø")
    ('torneo-del-giovedi', 'citta-di-forli-e-qui', 'strasse-aero')
    >>> slug("阿 ✓")
    'tournament'
    """
    plain = unicodedata.normalize("NFKD", name.casefold().translate(LETTERS))
    text = "".join(c for c in plain if not unicodedata.combining(c))
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return text[:40].strip("-") or "tournament"


def _renumber_accounts(conn: Connection, tid: str, mapping: dict[int, int | None]) -> None:
    """The accounts linked to pairs, after a pair was removed (old number → new or None)."""
    for old, new in sorted(mapping.items()):
        where = (PairAccountRow.tournament_id == tid, PairAccountRow.pair == old)
        if new is None:
            conn.execute(delete(PairAccountRow).where(*where))
        elif new != old:
            conn.execute(update(PairAccountRow).where(*where).values(pair=new))


class Director:
    """Stored tournaments of one database."""

    def __init__(self, engine: Engine, *, create_tables: bool = True) -> None:
        self.engine = engine
        if create_tables:
            migrate(engine)

    @classmethod
    def open(cls, url: str) -> Director:
        """Open (and migrate) the database at ``url`` (``sqlite:///PATH`` or PostgreSQL)."""
        return cls(make_engine(normalize_db_url(url)))

    def close(self) -> None:
        self.engine.dispose()

    # --- reading ------------------------------------------------------------------------------

    def load(self, tournament_id: str) -> Tournament:
        with self.engine.connect() as conn:
            return self._load(conn, tournament_id)[0]

    def summaries(self) -> list[Summary]:
        """Every tournament, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(TournamentRow.id).order_by(
                TournamentRow.created_at.desc(), TournamentRow.id.desc())).scalars().all()
            out = []
            for tid in rows:
                t = self._load(conn, tid)[0]
                out.append(Summary(tid, t.settings.name, len(t.pairs), t.status,
                                   str(t.settings.schedule), f"{t.settings.entrant}s"))
            return out

    def latest(self) -> str:
        """The most recently created tournament (what commands use without --tournament)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(TournamentRow.id).order_by(
                TournamentRow.created_at.desc(), TournamentRow.id.desc()).limit(1)).scalar()
        if found is None:
            raise TournamentError(Text("error.no_tournament_yet"))
        return found

    def online_tables(self, tournament_id: str,
                      round_number: int) -> dict[int, list[dict[str, Any]]]:
        """Table number → its web tables ``{"room", "server_table", "seats"}``, by room."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(OnlineRow).where(
                OnlineRow.tournament_id == tournament_id,
                OnlineRow.round == round_number).order_by(OnlineRow.table, OnlineRow.room)).all()
        out: dict[int, list[dict[str, Any]]] = {}
        for r in rows:
            out.setdefault(r.table, []).append(
                {"room": r.room, "server_table": r.server_table, "seats": r.seats})
        return out

    # --- changing -----------------------------------------------------------------------------

    def create(self, settings: Settings, tournament_id: str | None = None) -> str:
        """Store a new tournament; its id is ``tournament_id`` or made from its name."""
        with self.engine.begin() as conn:
            if tournament_id is not None:
                if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", tournament_id):
                    raise TournamentError(Text("error.bad_id", tid=repr(tournament_id)))
                if self._exists(conn, tournament_id) or tournament_id in RESERVED_IDS:
                    raise TournamentError(Text("error.id_taken", tid=repr(tournament_id)))
                tid = tournament_id
            else:
                base = slug(settings.name)
                tid, n = base, 1
                while self._exists(conn, tid) or tid in RESERVED_IDS:
                    n += 1
                    tid = f"{base}-{n}"
            conn.execute(insert(TournamentRow).values(
                id=tid, name=settings.name, settings=settings.to_dict(), version=0))
        return tid

    def register(self, tournament_id: str, name: str, players: Sequence[str] = ()) -> Pair:
        def change(t: Tournament) -> tuple[Tournament, Pair]:
            return t.register(name, players)
        return self._change(tournament_id, change)

    def register_all(self, tournament_id: str,
                     entries: Sequence[tuple[str, Sequence[str]]]) -> list[Pair]:
        """Register several pairs at once: all of them, or (one bad entry) none.

        A player written ``@username`` (or ``Name @username``) names a player account,
        ``#NUMBER`` a club member (:mod:`.members`): the pair is linked to the accounts
        and takes the members' category.
        """

        with self.engine.connect() as conn:
            resolved = resolve_entries(conn, entries)

        def change(t: Tournament) -> tuple[Tournament, list[Pair]]:
            added = []
            for one in resolved:
                t, pair = t.register(one.name, one.players)
                if one.category:
                    t = set_category(t, pair.number, one.category)
                added.append(pair)
            return t, added
        pairs = self._change(tournament_id, change)
        with self.engine.begin() as conn:
            for pair, one in zip(pairs, resolved, strict=True):
                link_accounts(conn, tournament_id, pair.number, one.accounts)
                link_members(conn, tournament_id, pair.number, one.members)
        return pairs

    def evening(self, tournament_id: str, fn: Callable[[Tournament], Tournament]) -> Tournament:
        """Apply one of the evening's changes (:mod:`.changes`) and store it."""
        def change(t: Tournament) -> tuple[Tournament, Tournament]:
            after = fn(t)
            return after, after
        return self._change(tournament_id, change)

    def late_register(self, tournament_id: str, name: str, players: Sequence[str],
                      mode: str) -> Pair:
        """Register a pair after round 1 was drawn (:func:`.changes.late_register`)."""
        def change(t: Tournament) -> tuple[Tournament, Pair]:
            return late_register(t, name, tuple(players), mode)
        return self._change(tournament_id, change)

    def remove_pair(self, tournament_id: str, pair: int) -> Pair:
        """Take a pair off the register before round 1; the later pairs move up a number
        (with their linked accounts and register rows)."""
        def change(t: Tournament) -> tuple[Tournament, Pair]:
            return remove_pair(t, pair), t.pair(pair)

        def also(conn: Connection, before: Tournament, after: Tournament) -> None:
            mapping = {p.number: (None if p.number == pair else
                                  p.number - 1 if p.number > pair else p.number)
                       for p in before.pairs}
            _renumber_accounts(conn, tournament_id, mapping)
            renumber_pairs(conn, tournament_id, mapping)
        return self._change(tournament_id, change, also)

    def undo_round(self, tournament_id: str) -> Round:
        """Take back the last round drawn, when nobody has entered a result for it (not even
        one pair's phone entry) and it is not played online; its clock goes with it."""
        def change(t: Tournament) -> tuple[Tournament, Round]:
            last = t.current
            return undo_round(t), last  # type: ignore[return-value]

        def also(conn: Connection, before: Tournament, after: Tournament) -> None:
            number = len(before.rounds)
            entries = conn.execute(select(TableEntryRow.table).where(
                TableEntryRow.tournament_id == tournament_id,
                TableEntryRow.round == number)).scalars().all()
            if entries:
                raise TournamentError(Text("error.undo_entries", round=number, tables=", ".join(
                    str(n) for n in sorted(set(entries)))))
            online = conn.execute(select(OnlineRow.table).where(
                OnlineRow.tournament_id == tournament_id, OnlineRow.round == number)).first()
            if online is not None:
                raise TournamentError(Text("error.undo_online", round=number))
            conn.execute(delete(ClockRow).where(ClockRow.tournament_id == tournament_id,
                                                ClockRow.round == number))
        return self._change(tournament_id, change, also)

    def start_round(self, tournament_id: str) -> Round:
        def change(t: Tournament) -> tuple[Tournament, Round]:
            after = t.start_round()
            assert after.current is not None
            return after, after.current
        return self._change(tournament_id, change)

    def record(self, tournament_id: str, round_number: int, table: int, ns_mp: int,
               ew_mp: int, *, vp: tuple[int, int] | None = None, ns: int | None = None,
               ew: int | None = None, hands: Sequence[tuple[int, int]] = (),
               correct: bool = False, source: Source = "director",
               rooms: Sequence[tuple[int, int]] = (), timed_out: bool = False,
               arbitral: tuple[int, int] | None = None) -> Result:
        def change(t: Tournament) -> tuple[Tournament, Result]:
            after = t.record(round_number, table, ns_mp, ew_mp, vp=vp, ns=ns, ew=ew,
                             hands=hands, correct=correct, source=source, rooms=rooms,
                             timed_out=timed_out, arbitral=arbitral)
            result = after.result(round_number, table)
            assert result is not None
            return after, result
        return self._change(tournament_id, change)

    def link_online(self, tournament_id: str, round_number: int, table: int, server_table: str,
                    seats: dict[str, Any], room: int = 0) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(OnlineRow).values(
                tournament_id=tournament_id, round=round_number, table=table, room=room,
                server_table=server_table, seats=seats))

    def save(self, t: Tournament, tournament_id: str | None = None) -> str:
        """Store a whole tournament built elsewhere (e.g. a simulation)."""
        tid = self.create(t.settings, tournament_id)
        with self.engine.begin() as conn:
            self._write(conn, tid, Tournament(t.settings), t)
        return tid

    # --- the machinery ------------------------------------------------------------------------

    def _change(self, tournament_id: str, fn: Callable[[Tournament], tuple[Tournament, T]],
                also: Also | None = None) -> T:
        """Apply ``fn`` to the stored tournament and write the difference; ``also`` (optional)
        checks and changes the tournament's other rows in the same transaction."""
        for _ in range(RETRIES):
            with self.engine.begin() as conn:
                before, version = self._load(conn, tournament_id)
                after, answer = fn(before)
                if also is not None:
                    also(conn, before, after)
                bumped = conn.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == tournament_id, TournamentRow.version == version)
                    .values(version=version + 1, updated_at=func.now()))
                if bumped.rowcount != 1:
                    conn.rollback()
                    continue
                self._write(conn, tournament_id, before, after)
                return answer
        raise ConflictError(f"tournament {tournament_id!r} changed {RETRIES} times while we "
                            "tried to update it; try again")

    @staticmethod
    def _exists(conn: Connection, tid: str) -> bool:
        return conn.execute(select(TournamentRow.id).where(TournamentRow.id == tid)).first() \
            is not None

    def _load(self, conn: Connection, tid: str) -> tuple[Tournament, int]:
        row = conn.execute(select(TournamentRow).where(TournamentRow.id == tid)).first()
        if row is None:
            known = conn.execute(select(TournamentRow.id).order_by(
                TournamentRow.created_at.desc()).limit(5)).scalars().all()
            if not known:
                raise TournamentError(Text("error.no_tournament_none", tid=repr(tid)))
            raise TournamentError(Text("error.no_tournament", tid=repr(tid),
                                       known=", ".join(known)))
        settings = Settings.from_dict(row.settings)
        pairs = tuple(
            Pair(p.number, p.name, tuple(p.players)) for p in conn.execute(
                select(PairRow).where(PairRow.tournament_id == tid).order_by(PairRow.number)))
        rounds = tuple(
            Round(r.number, r.movement, tuple(Table(*t) for t in r.tables), tuple(r.byes))
            for r in conn.execute(select(RoundRow).where(RoundRow.tournament_id == tid)
                                  .order_by(RoundRow.number)))
        seats = {(played.number, table.number): table
                 for played in rounds for table in played.tables}
        results = tuple(
            Result(r.round, r.table, r.ns, r.ew, (r.mp_ns, r.mp_ew), (r.vp_ns, r.vp_ew),
                   tuple((int(a), int(b)) for a, b in r.hands), r.source,
                   tuple((int(a), int(b)) for a, b in r.rooms or ()),
                   seats[r.round, r.table].ns_partner, seats[r.round, r.table].ew_partner)
            for r in conn.execute(select(ResultRow).where(ResultRow.tournament_id == tid)
                                  .order_by(ResultRow.round, ResultRow.table)))
        evening = Evening.from_dict(row.evening)
        return Tournament(settings, pairs, rounds, results, evening), row.version

    @staticmethod
    def _write(conn: Connection, tid: str, before: Tournament, after: Tournament) -> None:
        if after.evening != before.evening:
            conn.execute(update(TournamentRow).where(TournamentRow.id == tid).values(
                evening=after.evening.to_dict()))
        kept = {p.number: p for p in after.pairs}
        for p in before.pairs:
            now = kept.get(p.number)
            if now is None:  # a pair removed before round 1: the last number goes
                conn.execute(delete(PairRow).where(PairRow.tournament_id == tid,
                                                   PairRow.number == p.number))
            elif now != p:  # renamed, or moved up a number
                conn.execute(update(PairRow).where(
                    PairRow.tournament_id == tid, PairRow.number == p.number,
                ).values(name=now.name, players=list(now.players)))
        for p in after.pairs[len(before.pairs):]:
            conn.execute(insert(PairRow).values(tournament_id=tid, number=p.number, name=p.name,
                                                players=list(p.players)))
        for played in before.rounds[len(after.rounds):]:  # a round taken back
            conn.execute(delete(RoundRow).where(RoundRow.tournament_id == tid,
                                                RoundRow.number == played.number))
        for played in after.rounds[len(before.rounds):]:
            conn.execute(insert(RoundRow).values(
                tournament_id=tid, number=played.number, movement=played.movement,
                tables=[t.to_list() for t in played.tables], byes=list(played.byes)))
        old = {(r.round, r.table): r for r in before.results}
        for r in after.results:
            values = dict(ns=r.ns, ew=r.ew, mp_ns=r.mp[0], mp_ew=r.mp[1], vp_ns=r.vp[0],
                          vp_ew=r.vp[1], hands=[list(h) for h in r.hands], source=r.source,
                          rooms=[list(room) for room in r.rooms] or None)
            previous = old.get((r.round, r.table))
            if previous is None:
                conn.execute(insert(ResultRow).values(
                    tournament_id=tid, round=r.round, table=r.table, corrections=0, **values))
            elif previous != r:
                conn.execute(update(ResultRow).where(
                    ResultRow.tournament_id == tid, ResultRow.round == r.round,
                    ResultRow.table == r.table,
                ).values(corrections=ResultRow.corrections + 1, entered_at=func.now(), **values))
