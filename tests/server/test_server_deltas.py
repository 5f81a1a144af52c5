"""Protocol 2's event deltas (docs/protocol.md §15), over real WebSockets to a real server.

Four players play whole hands (draws, pickups, melds, attachments, undos, discards): three
speak protocol 2, one protocol 1, and two spectators watch (one of each).  Every protocol-2
connection applies each frame's delta and asks for a ``sync`` after it: the sync must say
exactly what the deltas built.  Every frame is checked for hidden cards, and the protocol-1
connections must receive exactly the frames the server sent before versions existed.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
from pathlib import Path
from typing import Any

from deltas_client import apply_delta, from_sync
from harness import ServerProcess, check_secrecy, stored
from websockets.asyncio.client import connect

from burraco.server.projection import frame as encode_frame
from burraco.server.projection import project
from burraco.server.protocol import check_server_message

MAX_CHECKS_WAITING = 4
"""Checking syncs a connection leaves unanswered at once: far below the server's in-flight
limit (docs/protocol.md, "Limits"), so that a loaded machine never drops one of them."""
FIXTURE = Path(__file__).parents[2] / "web" / "test" / "fixtures" / "deltas.json"


class Player:
    """One connection: plays its seat (when it has one) and keeps what it was sent."""

    def __init__(self, server: ServerProcess, table: dict[str, Any], seat: int | None,
                 guest: str, protocol: int | None, rng: random.Random) -> None:
        self.url = server.ws_url(table["table_id"])
        self.seat = seat
        self.token = table["seats"][seat]["token"] if seat is not None else None
        self.guest = guest
        self.protocol = protocol
        self.rng = rng
        self.texts: list[str] = []
        self.frames: list[tuple[int, dict[str, Any]]] = []  # (version, frame): for secrecy
        self.version = 0
        self.state: dict[str, Any] | None = None
        self.at: dict[int, dict[str, Any]] = {}
        """The delta-built state after each frame that carried a delta, by version."""
        self.compared = 0
        self.undos = 0
        self.acted = -1  # a checking sync is followed by the legal actions again: act once
        self.recorded: list[dict[str, Any]] = []
        """What a browser would be sent (the checking syncs left out), for the web fixture."""
        self.checks: dict[int, dict[str, Any]] = {}
        self.sent: dict[str, dict[str, Any]] = {}
        """This seat's commands by id, to send again one the server dropped as too many."""

    async def run(self, hands: int) -> None:
        async with connect(self.url, max_size=None) as ws:
            hello: dict[str, Any] = {"t": "hello", "seat": self.seat, "legal": True}
            if self.seat is not None:
                hello |= {"seat_token": self.token, "guest": self.guest}
            if self.protocol is not None:
                hello["protocol"] = self.protocol
            await ws.send(json.dumps(hello))
            asked = 0  # checking syncs asked for and not yet answered
            while True:
                text = await asyncio.wait_for(ws.recv(), 60)
                assert isinstance(text, str)
                message = json.loads(text)
                check_server_message(message)
                self.texts.append(text)
                if message.get("t") == "sync" and asked:
                    asked -= 1
                    self._compare(message)
                elif message.get("t") == "reject":
                    assert message["code"] == "rate_limited", message
                    if message.get("id") is None:  # a checking sync dropped: check the next
                        asked -= 1
                    else:  # a move dropped on a loaded machine: send it again
                        await asyncio.sleep(0.05)
                        await ws.send(json.dumps(self.sent[message["id"]]))
                else:
                    self.recorded.append(message)
                if "v" in message and "t" not in message:
                    assert message["v"] == self.version + 1
                    self.version = message["v"]
                    if self.protocol == 2:
                        assert self.state is not None
                        if "d" in message:
                            self.state = apply_delta(self.state, message["d"])
                            self.at[self.version] = copy.deepcopy(self.state)
                            if asked < MAX_CHECKS_WAITING:
                                await ws.send(json.dumps({"t": "sync"}))
                                asked += 1
                    event = message.get("e") or {}
                    if (event.get("type") == "HandStarted" and event["number"] > hands
                            and not asked):
                        return
                elif message.get("t") == "sync":
                    self.version = message["version"]
                    if self.state is None:
                        self.state = from_sync(message)
                elif (message.get("t") == "legal" and message["version"] == self.version
                        and message["version"] > self.acted):
                    self.acted = message["version"]
                    await self._play(ws, message)
                self.frames.append((self.version, message))
                if self.state is not None and self._done(hands) and not asked:
                    return

    def _done(self, hands: int) -> bool:
        hand = self.state["hand"] if self.state else None
        return bool(self.state and (self.state["status"] == "finished"
                                    or (hand and hand["number"] > hands)))

    def _compare(self, sync: dict[str, Any]) -> None:
        version = sync["version"]
        assert version in self.at, f"a sync at {version}, a version no delta ended at"
        assert self.at[version] == from_sync(sync), (
            f"seat {self.seat} at version {version}: the deltas built another state")
        self.checks[version] = from_sync(sync)
        self.compared += 1

    async def _play(self, ws: Any, legal: dict[str, Any]) -> None:
        actions: list[str] = legal["actions"]
        rng = self.rng
        if legal["undo"] and self.undos < 2 and rng.random() < 0.3:
            self.undos += 1
            await self._send(ws, {"t": "undo", "id": f"u{self.seat}-{legal['version']}",
                                  "v": legal["version"]})
            return
        if "draw" in actions:
            choice = "pickup" if "pickup" in actions and rng.random() < 0.35 else "draw"
        else:
            melds = [a for a in actions if a.startswith("meld ")]
            attaches = [a for a in actions if a.startswith("attach ")]
            discards = [a for a in actions if a.startswith("discard ")]
            if melds and rng.random() < 0.8:
                choice = max(melds, key=len)
            elif attaches and rng.random() < 0.8:
                choice = rng.choice(attaches)
            else:
                choice = rng.choice(discards or actions)
        await self._send(ws, {"t": "act", "id": f"c{self.seat}-{legal['version']}",
                              "v": legal["version"], "action": choice})

    async def _send(self, ws: Any, command: dict[str, Any]) -> None:
        self.sent[command["id"]] = command
        await ws.send(json.dumps(command))


async def _play_table(server: ServerProcess, seed: int, hands: int
                      ) -> tuple[dict[str, Any], list[Player]]:
    tokens = [server.guest(f"P{seat}") for seat in range(4)]
    table = server.create_table(tokens[0], players=4, public=True, bot_delay=0)
    rng = random.Random(seed)
    protocols = [2, 2, 2, None]
    players = [Player(server, table, seat, tokens[seat], protocols[seat],
                      random.Random(rng.random())) for seat in range(4)]
    watchers = [Player(server, table, None, tokens[0], protocol, rng) for protocol in (2, None)]
    tasks = [asyncio.create_task(w.run(hands)) for w in watchers]
    await asyncio.sleep(0)  # the watchers see the table open
    tasks += [asyncio.create_task(p.run(hands)) for p in players]
    await asyncio.wait_for(asyncio.gather(*tasks), 600)
    return table, [*players, *watchers]


def test_deltas_rebuild_every_sync_and_show_nothing_hidden(server: ServerProcess) -> None:
    table, clients = asyncio.run(_play_table(server, seed=7, hands=2))
    delta_clients = [c for c in clients if c.protocol == 2]
    for client in delta_clients:
        assert client.compared > 50, f"seat {client.seat}: only {client.compared} checks"
    kinds = {e["type"] for c in delta_clients for _, f in c.frames if (e := f.get("e"))}
    assert {"Melded", "Attached", "PickedUp", "Undone", "HandEnded"} <= kinds, kinds
    patched = {k for c in delta_clients for _, f in c.frames for k in f.get("d", {}).get("h", {})}
    assert {"melds_set", "pile_add", "moves_add", "hand", "table_score"} <= patched, patched

    class Seen:  # check_secrecy reads .seat and .frames
        def __init__(self, client: Player) -> None:
            self.seat = client.seat
            self.frames = client.frames

    assert check_secrecy(server.db_url, table["table_id"], [Seen(c) for c in clients]) > 500  # type: ignore[list-item]

    if os.environ.get("BURRACO_UPDATE_FIXTURES"):
        seat0 = clients[0]
        checks: dict[str, Any] = {}  # a lighter file: every 6th version, and each new hand
        number = None
        for version, check in sorted(seat0.checks.items()):
            hand_no = check["hand"]["number"] if check["hand"] else None
            if version % 6 == 0 or hand_no != number:
                checks[str(version)] = check
            number = hand_no
        FIXTURE.write_text(json.dumps({"messages": seat0.recorded, "checks": checks},
                                      separators=(",", ":")) + "\n")


def test_an_old_client_gets_the_frames_it_always_got(server: ServerProcess) -> None:
    table, clients = asyncio.run(_play_table(server, seed=11, hands=1))
    events = {v: (kind, payload) for v, kind, payload in
              stored(server.db_url, table["table_id"])["events"]}
    for client in clients:
        if client.protocol is not None:
            continue
        hello_ok = json.loads(client.texts[0])
        assert "protocol" not in hello_ok
        frames = [json.loads(t) for t in client.texts]
        event_texts = [t for t, f in zip(client.texts, frames, strict=True)
                       if "v" in f and "t" not in f]
        assert event_texts, "no events"
        for text in event_texts:
            version = json.loads(text)["v"]
            kind, payload = events[version]
            assert text == encode_frame(version, project(kind, payload, client.seat))
        syncs = [f for f in frames if f.get("t") == "sync"]
        assert syncs and all(s["hand"] is None or "table_score" not in s["hand"] for s in syncs)
    newer = [c for c in clients if c.protocol == 2]
    assert all(json.loads(c.texts[0])["protocol"] == 2 for c in newer)
