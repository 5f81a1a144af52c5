"""The evening's results for the federation: a ranking per player, as CSV and as JSON.

FIBur's regulation (Regolamento, its article on tournaments: Art. 4 in the 2015 edition)
asks a club to send the ranking of each tournament to the federation within 10 days, for
the award of points to its card holders.  This module writes it in one documented, stable
format, ``burraco-federation-results/1`` (docs/tournaments.md, "Results for the
federation"): the club, the date, the event's name and level, then for every player of
every pair his card (number and type, where the register or the members' list has one),
his name, his pair's number and name, the line the pair sat in the Mitchell rounds, and
the pair's rank, VP and MP exactly as the standings have them (:func:`.standings.standings`:
penalties taken away, withdrawn pairs marked).

A later version of the format gets a new name (``…/2``); columns are only ever added at
the end of a version's list, never renamed or reordered.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date
from typing import Any

from sqlalchemy import Connection, select

from burraco.tournament.export import csv_text, scale_title
from burraco.tournament.members import Card
from burraco.tournament.model import Tournament
from burraco.tournament.register import Line, Register, load
from burraco.tournament.standings import Standing, line_of, standings
from burraco.tournament.storage import RoundRow, TournamentRow

FORMAT = "burraco-federation-results/1"
COLUMNS = ("format", "club", "date", "event_id", "event", "level", "kind", "final", "rank",
           "tied", "pair", "pair_name", "line", "player", "player_name", "card_number",
           "card_type", "vp", "mp_diff", "mp", "played", "byes", "absent", "penalty_vp",
           "penalty_mp", "withdrawn", "dup")
"""The CSV's columns, in order (docs/tournaments.md says what each holds)."""


def event_day(conn: Connection, tid: str, register: Register) -> date | None:
    """The event's date: the director's, else the day round 1 started, else the day the
    tournament was created (in this machine's time zone)."""
    if register.terms.date is not None:
        return register.terms.date
    started = conn.execute(select(RoundRow.started_at).where(
        RoundRow.tournament_id == tid, RoundRow.number == 1)).scalar()
    if started is None:
        started = conn.execute(select(TournamentRow.created_at).where(
            TournamentRow.id == tid)).scalar()
    if started is None:
        return None
    if started.tzinfo is None:  # SQLite keeps the server's UTC time without its zone
        started = started.replace(tzinfo=UTC)
    return started.astimezone().date()


def _rows(t: Tournament,
          register: Register) -> Iterator[tuple[Standing, int, str, Card | None]]:
    """(standing, player, name, card) of every player, in the standings' order."""
    by_pair: dict[int, list[Line]] = {}
    for line in register.lines:
        by_pair.setdefault(line.pair, []).append(line)
    for s in standings(t):
        for line in by_pair.get(s.pair, []):
            yield s, line.player, line.name, register.card_of(line)


def federation_json(tid: str, t: Tournament, register: Register,
                    day: date | None) -> dict[str, Any]:
    """The ranking as JSON (``"format": "burraco-federation-results/1"``)."""
    s = t.settings
    ranking: list[dict[str, Any]] = []
    for standing, player, name, held in _rows(t, register):
        if not ranking or ranking[-1]["pair"] != standing.pair:
            ranking.append({
                "rank": standing.rank, "tied": standing.tied, "pair": standing.pair,
                "pair_name": standing.name, "line": line_of(t, standing.pair),
                "vp": standing.vp, "mp_diff": standing.mp_diff, "mp": standing.mp,
                "played": standing.played, "byes": standing.byes, "absent": standing.absent,
                "penalty_vp": standing.penalty_vp, "penalty_mp": standing.penalty_mp,
                "withdrawn": standing.withdrawn,
                "dup": round(float(standing.dup), 1) if standing.dup is not None else None,
                "players": []})
        ranking[-1]["players"].append({
            "player": player, "name": name,
            "card_number": held.number if held else None,
            "card_type": (held.type or None) if held else None})
    return {
        "format": FORMAT, "club": register.terms.club,
        "date": day.isoformat() if day else None,
        "event": {"id": tid, "name": s.name, "level": register.terms.level, "kind": s.kind,
                  "schedule": str(s.schedule), "rounds": t.total_rounds,
                  "rounds_played": len(t.rounds), "hands": s.hands,
                  "vp_table": scale_title(s.vp_scale.name),
                  "vp_table_official": s.vp_scale.official,
                  "duplicate": s.duplicate, "ranked_by": list(s.ranking),
                  "final": t.finished, "entrants": len(t.pairs),
                  "players": len(register.lines)},
        "ranking": ranking}


def federation_csv(tid: str, t: Tournament, register: Register, day: date | None) -> str:
    """The ranking as CSV: a row per player, the event's fields repeated on every row."""
    terms = register.terms
    event = (FORMAT, terms.club, day.isoformat() if day else "", tid, t.settings.name,
             terms.level, t.settings.kind, "yes" if t.finished else "")
    rows = []
    for s, player, name, held in _rows(t, register):
        rows.append((*event, s.rank, "yes" if s.tied else "", s.pair, s.name,
                     line_of(t, s.pair) or "", player, name, held.number if held else "",
                     held.type if held else "", s.vp, s.mp_diff, s.mp, s.played, s.byes,
                     s.absent, s.penalty_vp, s.penalty_mp, "yes" if s.withdrawn else "",
                     round(float(s.dup), 1) if s.dup is not None else ""))
    return csv_text(COLUMNS, rows)


def read(conn: Connection, tid: str, t: Tournament) -> tuple[Register, date | None]:
    """What the export needs besides ``t``: the register and the event's date."""
    register = load(conn, tid, t)
    return register, event_day(conn, tid, register)

