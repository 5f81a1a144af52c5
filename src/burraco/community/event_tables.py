"""The tables of an online event's games: who sits where, how each is made, and what the
database says of each (seats taken, the match's result).

A game's side 0 is its first entrant.  In form ``"2"`` an entrant is one account, at the
seat of its side; in form ``"4"`` a pair: its first account at seat ``side``, its partner
opposite (``side + 2``), as partners always sit.  Each table is made by the game itself
(creator ``ev:<event>:<game>``: nobody's account, so no player can cancel it, and a process
that takes the event over finds a table the previous one made but had not noted yet).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, select

from burraco.accounts.identity import Guest
from burraco.accounts.models import MatchPlayerRow, MatchRow
from burraco.meet.entries import FORMAT_TABLE
from burraco.meet.events import EventSpec, EventState, Game
from burraco.server.storage.models import CommandRow, TableRow
from burraco.server.tables import SeatRequest, TableRequest

CREATOR_PREFIX = "ev:"


def creator_of(event_id: str, game_id: str) -> Guest:
    """The game's table's creator (vouched for by the server, as a pool's match is)."""
    return Guest(f"{CREATOR_PREFIX}{event_id}:{game_id}"[:32], "Tournament", account=True)


def request_for(spec: EventSpec) -> TableRequest:
    """A table of the event: its rules, format and clock, every seat a person's, rated as
    the event, private (nobody from the lobby takes a seat meant for an entrant)."""
    seats = 2 if spec.form == "2" else 4
    return TableRequest(players=seats, seats=[SeatRequest(kind="human")] * seats,
                        rules=spec.rules, public=False, rated=spec.rated,
                        casual=not spec.rated, turn_seconds=spec.turn_seconds,
                        **FORMAT_TABLE[spec.format])


def seats_of(state: EventState, game: Game) -> dict[str, int]:
    """Each account of the game and its seat."""
    out: dict[str, int] = {}
    for side, entrant_id in enumerate(game.sides):
        for k, account in enumerate(state.entrant(entrant_id).accounts):
            out[account] = side + 2 * k
    return out


def deal_group(spec: EventSpec, event_id: str, game: Game) -> str | None:
    """The deal group of a Swiss round's tables (every table of a round plays the same
    deals: duplicate); an arena's games start one by one and deal alone."""
    return f"ev:{event_id}:r{game.round}" if spec.kind == "swiss" else None


@dataclass(frozen=True, slots=True)
class TableFacts:
    status: str | None
    """``waiting``, ``playing``, ``finished``; ``None``: no such table (deleted)."""
    claimed: frozenset[int]
    """Seats someone has taken."""
    made: float = 0.0
    """When the table was made (seconds since 1970)."""
    points: tuple[int, int] | None = None
    """Each side's match points, once the finished match is recorded."""
    winner: int | None = None
    """The side that won as recorded (an abandonment loses for the leaver's side)."""
    recorded: bool = False


def made_at(conn: Connection, table_ids: Collection[str]) -> dict[str, float]:
    """When each of these tables was made (seconds since 1970)."""
    if not table_ids:
        return {}
    return {row.id: seconds(row.created_at) for row in conn.execute(
        select(TableRow.id, TableRow.created_at).where(TableRow.id.in_(list(table_ids))))}


def seconds(at: datetime | None) -> float:
    if at is None:
        return 0.0
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def facts(conn: Connection, table_id: str) -> TableFacts:
    row = conn.execute(select(TableRow.status, TableRow.created_at).where(
        TableRow.id == table_id)).first()
    if row is None:
        return TableFacts(None, frozenset())
    status, made = row.status, seconds(row.created_at)
    claimed = frozenset(conn.scalars(select(CommandRow.seat).where(
        CommandRow.table_id == table_id, CommandRow.kind == "claim")))
    if status != "finished":
        return TableFacts(status, claimed, made)
    match = conn.execute(select(MatchRow.scores, MatchRow.winner).where(
        MatchRow.table_id == table_id)).first()
    if match is None:
        return TableFacts(status, claimed)  # the history has not recorded it yet
    scores = [int(s) for s in match.scores] + [0, 0]
    winner: int | None = match.winner
    results = {row.side: row.result for row in conn.execute(
        select(MatchPlayerRow.side, MatchPlayerRow.result).where(
            MatchPlayerRow.table_id == table_id))}
    if results.get(0) in ("won", "lost", "tie"):  # an abandonment counted in
        winner = {"won": 0, "lost": 1, "tie": None}[results[0]]
    elif results.get(1) in ("won", "lost", "tie"):
        winner = {"won": 1, "lost": 0, "tie": None}[results[1]]
    return TableFacts(status, claimed, made, (scores[0], scores[1]), winner, True)


def absent_sides(state: EventState, game: Game, claimed: frozenset[int]) -> list[str]:
    """The game's entrants not all of whose seats are taken."""
    seats = seats_of(state, game)
    return [entrant_id for entrant_id in game.sides
            if any(seats[a] not in claimed for a in state.entrant(entrant_id).accounts)]


def made_by(conn: Connection, creator: str) -> str | None:
    """The table ``creator`` (a game) made, if any."""
    found = conn.scalar(select(TableRow.id).where(TableRow.creator == creator).limit(1))
    return None if found is None else str(found)
