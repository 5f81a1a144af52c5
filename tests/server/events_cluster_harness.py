"""Scripted entrants of an online tournament on a cluster: each talks to one process (its
HTTP and its tables' WebSockets) and, when that process dies, goes on at another, as a
player's page would: it asks the event again there and sits down again at its table,
catching up from the last version it saw.

A :class:`Hold` stops the scripted moves of a round's games part of the way through a hand
(each table waits on the player to move), so that a test may do something while every game
of the round is being played, then lets them go on.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from itertools import count
from typing import Any

import httpx
from cluster_harness import Node
from harness import Client, scripted_choice
from harness import alive as running
from players_harness import bearer, event_type
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed, WebSocketException

from burraco.accounts.models import MatchRow, OnlineEventResultRow, OnlineEventRow
from burraco.community.event_tables import CREATOR_PREFIX
from burraco.infra.db import make_engine
from burraco.server.storage.models import TableRow
from burraco.server.waiting import CANCELLED

_ids = count(1)
PASSING_REJECTS = ("stale_version", "not_your_turn", "duplicate_message", "storage_error")
"""What a move sent while its table changes process may be answered with."""


@dataclass
class Hold:
    """Round ``round``'s players stop before their first move at version ``at`` or later,
    until :attr:`go` is set."""

    round: int = 1
    at: int = 6
    go: asyncio.Event = field(default_factory=asyncio.Event)
    held: set[str] = field(default_factory=set)
    """The games whose player to move is stopped."""


def alive(node: Node) -> bool:
    """Whether the process runs (read from /proc: ``Popen.poll`` says "running" while another
    thread waits for it to end)."""
    return node.proc is not None and node.proc.returncode is None and running(node.proc.pid)


class Roamer:
    """One scripted account of an event, talking to ``home`` while it lives: it sits down
    at each game it is given and plays it out, until the event is over."""

    def __init__(self, nodes: list[Node], home: Node, token: str, event_id: str, *,
                 hold: Hold | None = None) -> None:
        self.nodes, self.node, self.token, self.event_id = nodes, home, token, event_id
        self.hold = hold
        self.games: list[str] = []
        self.tables: dict[str, str] = {}
        """Each game it was given: its table."""
        self.links: list[tuple[str, str, str]] = []
        """(game, the process asked, the seat link it answered)."""
        self.moved = 0
        """Times it went on at another process (its own died)."""
        self.reconnects = 0
        """Times it sat down again at a table (its connection's process died)."""
        self.rejects: list[dict[str, Any]] = []
        self.cancelled: list[str] = []

    def _move(self) -> None:
        """Go on at another process if this one died."""
        if alive(self.node):
            return
        self.node = next(n for n in self.nodes if alive(n))
        self.moved += 1

    async def run(self, deadline: float) -> dict[str, Any]:
        """The event as this entrant last saw it (finished, or it is out)."""
        async with httpx.AsyncClient(timeout=30) as http:
            while time.monotonic() < deadline:
                asked = self.node
                try:
                    got = await http.get(f"{asked.base}/api/events/{self.event_id}",
                                         headers=bearer(self.token))
                except httpx.TransportError:
                    self._move()
                    await asyncio.sleep(0.25)
                    continue
                assert got.status_code == 200, got.text
                event = dict(got.json())
                me = event["me"]
                if event["phase"] in ("finished", "cancelled") or (me and me["withdrawn"]):
                    return event
                game = me["game"] if me else None
                if game and game["url"] and game["id"] not in self.tables:
                    self.games.append(game["id"])
                    self.tables[game["id"]] = game["table"]
                    self.links.append((game["id"], asked.base, game["url"]))
                    await self.play(game)
                    continue
                await asyncio.sleep(0.25)
        raise AssertionError(f"event {self.event_id} not over in time")

    async def play(self, game: dict[str, Any]) -> None:
        client = Client(self.node, {"table_id": game["table"]}, game["seat"],
                        guest=self.token, seat_token=game["token"])
        await self._sit(client, game["table"], again=False)
        try:
            while True:
                try:
                    await self._turns(client, game)
                    return
                except (WebSocketException, OSError) as exc:
                    if isinstance(exc, ConnectionClosed) and exc.rcvd is not None \
                            and exc.rcvd.code == CANCELLED:  # a no-show opposite
                        self.cancelled.append(game["id"])
                        return
                    await self._sit(client, game["table"], again=True)
        finally:
            await client.close()

    async def _turns(self, client: Client, game: dict[str, Any]) -> None:
        """Play the seat until the match is over."""
        while True:
            frame = await client.recv(60)
            if event_type(frame) == "MatchOver":
                return
            if frame.get("t") == "reject":
                assert frame["code"] in PASSING_REJECTS, frame
                self.rejects.append(frame)
                continue
            if frame.get("t") == "legal" and frame["version"] == client.version:
                hold = self.hold
                if hold is not None and game["round"] == hold.round and not hold.go.is_set() \
                        and client.version >= hold.at:
                    hold.held.add(game["id"])
                    await hold.go.wait()
                    hold.held.discard(game["id"])
                await client.send_raw(json.dumps({
                    "t": "act", "id": f"r{next(_ids)}", "v": client.version,
                    "action": scripted_choice(frame["actions"])}))

    async def _sit(self, client: Client, table_id: str, *, again: bool) -> None:
        """Sit down; ``again``: its connection's process died, so at another process, from
        the last version seen."""
        deadline = time.monotonic() + 30
        while True:
            self._move()
            client.url = self.node.ws_url(table_id)
            try:
                hello = await client.connect(client.version if again else None)
                if hello["t"] == "hello_ok":
                    self.reconnects += again
                    return
            except (WebSocketException, OSError, TimeoutError):
                pass
            assert time.monotonic() < deadline, f"not at table {table_id} in 30 s"
            await asyncio.sleep(0.2)


# --- what the database says ---------------------------------------------------------------

@dataclass(frozen=True)
class Stored:
    holder: str | None
    lease_until: float
    phase: str
    tables: dict[str, str]
    """The event's row: each game's table."""
    made: dict[str, list[str]]
    """Each game's tables as made (by their creator ``ev:<event>:<game>``)."""
    status: dict[str, str]
    """Each table's status."""
    matches: dict[str, tuple[list[int], int | None]]
    """Each recorded match: (scores, winner) by table."""
    results: int
    """Rows of the event's final places."""


def stored_event(db_url: str, event_id: str) -> Stored:
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(select(OnlineEventRow).where(
                OnlineEventRow.event_id == event_id)).one()
            prefix = f"{CREATOR_PREFIX}{event_id}:"
            made: dict[str, list[str]] = {}
            status: dict[str, str] = {}
            for table_id, creator, state in conn.execute(select(
                    TableRow.id, TableRow.creator, TableRow.status).where(
                    TableRow.creator.like(f"{prefix}%"))):
                made.setdefault(str(creator)[len(prefix):], []).append(table_id)
                status[table_id] = state
            matches = {m.table_id: ([int(s) for s in m.scores], m.winner)
                       for m in conn.execute(select(MatchRow).where(
                           MatchRow.table_id.in_(list(status))))}
            results = len(conn.execute(select(OnlineEventResultRow.player_id).where(
                OnlineEventResultRow.event_id == event_id)).all())
            return Stored(row.holder, row.lease_until, row.phase, dict(row.tables), made,
                          status, matches, results)
    finally:
        engine.dispose()
