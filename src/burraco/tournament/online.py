"""Playing a round online: one game-server table per tournament table, results collected back.

:func:`open_round` creates, through the game server's hub, private tables of 4
seats in ``smazzate`` mode for every table of the round that has neither a
result nor a web table yet (:mod:`.web_tables`): one per pairs or individual
table, NS line at seats 0 and 2, EW at 1 and 3; two per team match, the home
team NS at the first and EW at the second.  Bots (of the director's chosen
level) take the seats of the entrants the director marks as missing.  The seat
invitations are stored with the link.

In a duplicate event the round's web tables form one *deal group* of the game
server (:func:`deal_group_id`): every table is dealt the same cards in hand 1,
hand 2, …, NS seats alike, and no table learns a deck (reveal, record, replay)
before every table of the round has played that hand.  The group is given
through the hub's Python call only; no client can join it or choose it.

:func:`collect` reads the finished web tables (the server's stored hand
results, nothing else) and enters each match's line totals as the table's
result (source ``online``; a team match once both its tables are over, with the
two tables as rooms): the VP follow from the tournament's own table, and
in a duplicate event the duplicate scores from the results of the round.
:func:`watch` runs ``collect`` every few seconds while web tables are playing,
so results flow in when the matches end.  Only the game server's public
functions are called.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from burraco.accounts.identity import Guest, new_id
from burraco.server.hub import Hub
from burraco.server.storage import repository as repo
from burraco.server.tables import SeatRequest, TableRequest
from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text
from burraco.tournament.model import Tournament
from burraco.tournament.service import Director
from burraco.tournament.web_tables import WebTable, match_score, web_tables

log = logging.getLogger("burraco.tournament.online")
POLL_SECONDS = 2.0


def deal_group_id(tid: str, round_number: int) -> str:
    """The game server's deal group of a duplicate round: one per tournament and round."""
    group = f"tournament:{tid}:round:{round_number}"
    if len(group) <= 200:
        return group
    return f"tournament:{hashlib.sha256(tid.encode()).hexdigest()}:round:{round_number}"


def table_request(t: Tournament, web: WebTable, *, bots: dict[int, str],
                  bot_delay: float = 0.8) -> Any:
    """The game-server table seating ``web.seats``; bots for the entrants in ``bots``."""

    seats = []
    for entrant in web.seats:
        level = bots.get(entrant)
        seats.append(SeatRequest(kind="bot", level=level) if level
                     else SeatRequest(kind="human"))
    scale = t.settings.vp_scale
    options = {} if scale.official else {
        "vp_tables": [[t.settings.hands, list(scale.bounds)]]}
    return TableRequest(players=4, rules="fibur", options=options, mode="smazzate",
                        smazzate=t.settings.hands, seats=seats, public=False, casual=False,
                        bot_delay=bot_delay)


async def open_round(hub: Hub, director: Director, tid: str, *, bots: dict[int, str],
                     bot_delay: float = 0.8) -> list[int]:
    """Create the web tables of the current round; returns the table numbers opened."""

    t = await asyncio.to_thread(director.load, tid)
    current = t.current
    if current is None:
        raise TournamentError(Text("error.online_no_round"))
    for pair in bots:
        t.pair(pair)
    group = deal_group_id(tid, current.number) if t.settings.duplicate else None
    linked = await asyncio.to_thread(director.online_tables, tid, current.number)
    todo = [table for table in current.tables
            if table.number not in linked and t.result(current.number, table.number) is None]
    if not todo:
        raise TournamentError(Text("error.online_done", round=current.number))
    creator = Guest(new_id(), "Tournament director")
    planned = [(table.number, web) for table in todo
               for web in web_tables(t.settings.kind, table)]
    requests = [table_request(t, web, bots=bots, bot_delay=bot_delay) for _, web in planned]
    # all at once: a duplicate round's tables are stored before any deals a card
    every = await hub.create_tables(creator, requests, deal_group=group)
    for (number, web), created in zip(planned, every, strict=True):
        seats = {"seats": created["seats"], "watch": created["watch"]}
        await asyncio.to_thread(director.link_online, tid, current.number, number,
                                created["table_id"], seats, web.room)
    return [table.number for table in todo]


def line_totals(hands: Sequence[dict[str, Any]]) -> list[tuple[int, int]]:
    """(NS, EW) of every hand a finished web table scored (hands dealt again are skipped)."""
    out = []
    for hand in hands:
        result = hand.get("result")
        if not result or result.get("redeal"):
            continue
        sides = result["sides"]
        ns = next(s["total"] for s in sides if 0 in s["seats"])
        ew = next(s["total"] for s in sides if 1 in s["seats"])
        out.append((int(ns), int(ew)))
    return out


def collect(director: Director, engine: Any, tid: str) -> list[int]:
    """Enter the results of the current round's finished web tables; returns those entered."""

    t = director.load(tid)
    current = t.current
    if current is None:
        return []
    entered = []
    for number, links in director.online_tables(tid, current.number).items():
        if t.result(current.number, number) is not None:
            continue
        seating = {web.room: web for web in web_tables(t.settings.kind,
                                                         current.table(number))}
        played: list[tuple[WebTable, list[tuple[int, int]]]] = []
        for link in links:
            with engine.connect() as conn:
                info = repo.table_info(conn, link["server_table"])
                if info is None or info["status"] != "finished":
                    break
                hands = line_totals(repo.hand_rows(conn, link["server_table"]))
            if len(hands) != t.settings.hands:
                log.warning("web table %s finished with %d hands, expected %d",
                            link["server_table"], len(hands), t.settings.hands)
                break
            played.append((seating[link["room"]], hands))
        if len(played) != len(seating):
            continue
        ns, ew, smazzate, rooms = match_score(played)
        try:
            director.record(tid, current.number, number, ns, ew, hands=smazzate, rooms=rooms,
                            source="online")
        except TournamentError as exc:  # e.g. the director entered it meanwhile
            log.warning("tournament %s table %d: %s", tid, number, exc)
            continue
        entered.append(number)
    return entered


async def watch(director: Director, engine: Any, tid: str, *,
                every: float = POLL_SECONDS) -> None:
    """Collect results until no web table of the current round is waiting for one."""
    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(collect, director, engine, tid)
            t = await asyncio.to_thread(director.load, tid)
            current = t.current
            if current is None:
                return
            links = await asyncio.to_thread(director.online_tables, tid, current.number)
            if all(t.result(current.number, n) is not None for n in links):
                return
        except Exception:  # a watcher must never take the server down
            log.exception("collecting online results of tournament %s", tid)
            return
