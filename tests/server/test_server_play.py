"""Whole hands over real WebSockets against a real server process, with every frame checked.

Secrecy: every frame any seat or spectator receives is checked against the
faces that seat may see at that version (``visible_faces`` on the hand rebuilt
from what the server stored): no frame may carry another seat's card, the stock
or an untaken pozzetto, nor a card id but a sync's own ``hand_ids``.  The deal commitment is checked
against the revealed deck and against the cards each seat was dealt.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
from typing import Any

import pytest
from harness import Client, ServerProcess, check_secrecy, scripted_choice, stored

from burraco.engine.cards import card_str
from burraco.engine.deal import deal_from_order
from burraco.engine.rules import FIBUR

_ids = itertools.count(1)


def event_type(frame: dict[str, Any]) -> str | None:
    shown = frame.get("e")
    return shown.get("type") if isinstance(shown, dict) else None


async def autoplay(client: Client, *, play: bool = True, timeout: float = 120) -> dict[str, int]:
    """Play the scripted seat (or just watch) until the match is over; count what happened.

    A command's events reach the sender before its ack (docs/protocol.md), so when the seat's
    own action ends the match its ack follows MatchOver: wait for every answer before counting.
    """
    counts = {"sent": 0, "acks": 0, "rejects": 0}
    over = False
    while True:
        if over and counts["acks"] + counts["rejects"] == counts["sent"]:
            return counts
        frame = await client.recv(timeout)
        if event_type(frame) == "MatchOver":
            over = True
            continue
        kind = frame.get("t")
        if kind == "ack":
            counts["acks"] += 1
        elif kind == "reject":
            counts["rejects"] += 1
            raise AssertionError(f"unexpected reject {frame}")
        elif play and not over and kind == "legal" and frame["version"] == client.version:
            action = scripted_choice(frame["actions"])
            await client.send_raw(json.dumps({"t": "act", "id": f"a{next(_ids)}",
                                              "v": client.version, "action": action}))
            counts["sent"] += 1


def check_commitments(client: Client, players: int) -> int:
    """Every hand's commitment matches its revealed deck, and the deck deals this seat's cards."""
    started: dict[int, dict[str, Any]] = {}
    checked = 0
    for _, frame in client.frames:
        kind = event_type(frame)
        if kind == "HandStarted":
            started[frame["e"]["number"]] = frame["e"]
        elif kind == "HandEnded":
            shown = frame["e"]
            reveal = shown["reveal"]
            begin = started[shown["number"]]
            text = (f"burraco-deal-v1:{reveal['salt']}:"
                    + ",".join(str(c) for c in reveal["order"]))
            assert hashlib.sha256(text.encode()).hexdigest() == begin["commitment"]
            assert reveal["commitment"] == begin["commitment"]
            assert reveal["players"] == players and reveal["dealer"] == begin["dealer"]
            rules = FIBUR.for_players(players)
            deal = deal_from_order(reveal["order"], players=players, dealer=begin["dealer"],
                                   cut=reveal["cut"], individual=reveal["individual"],
                                   rules=rules)
            if client.seat is not None:
                assert [card_str(c) for c in deal.hands[client.seat]] == begin["cards_text"]
            assert [card_str(c) for c in deal.pile] == begin["pile_text"]
            checked += 1
    return checked


def test_a_whole_four_player_hand_one_scripted_client_three_bots(
        server: ServerProcess, guest: str) -> None:
    table = server.create_table(guest, players=4, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "basic"},
                                       {"kind": "bot", "level": "random"},
                                       {"kind": "bot", "level": "basic"}])

    async def main() -> tuple[Client, Client, dict[str, int]]:
        watcher = Client(server, table, None)
        await watcher.connect()
        player = Client(server, table, 0, guest=guest)
        hello = await player.connect()
        assert hello["t"] == "hello_ok" and hello["seat"] == 0 and hello["nickname"] == "Ada"
        counts, _ = await asyncio.gather(autoplay(player), autoplay(watcher, play=False))
        return player, watcher, counts

    player, watcher, counts = asyncio.run(main())
    assert counts["sent"] > 5 and counts["acks"] == counts["sent"] and counts["rejects"] == 0
    data = stored(server.db_url, table["table_id"])
    assert data["info"]["status"] == "finished"
    assert player.version == watcher.version == data["info"]["version"]
    sources = {c["source"] for c in data["commands"]}
    assert sources == {"server", "client", "bot"}
    bot_moves = [c for c in data["commands"] if c["source"] == "bot"]
    assert {c["seat"] for c in bot_moves} == {1, 2, 3}
    # both joined by a sync at version 1, then saw every version, each as it may
    assert set(player.events) == set(watcher.events) == set(range(2, player.version + 1))
    assert check_commitments(player, 4) == 1 and check_commitments(watcher, 4) == 1
    frames = check_secrecy(server.db_url, table["table_id"], [player, watcher])
    assert frames > 100
    # the hand record is public once the hand is over, with its reveal
    hands = server.http.get(f"/api/tables/{table['table_id']}/hands").json()["hands"]
    assert hands[0]["reveal"]["salt"] and hands[0]["record"]["moves"]


def test_a_two_player_hand_between_two_clients_and_a_spectator(server: ServerProcess) -> None:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, mode="smazzate", smazzate=1, public=False)

    async def main() -> list[Client]:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        watcher = Client(server, table, None, watch_token=table["watch_token"])
        for client in (watcher, one, two):
            await client.connect()
        await asyncio.gather(autoplay(one), autoplay(two), autoplay(watcher, play=False))
        return [one, two, watcher]

    clients = asyncio.run(main())
    assert check_secrecy(server.db_url, table["table_id"], clients) > 100
    assert all(check_commitments(c, 2) == 1 for c in clients)
    kinds = {event_type(f) for c in clients for _, f in c.frames}
    assert {"Drew", "Discarded", "HandOver", "HandEnded", "MatchOver"} <= kinds


@pytest.mark.parametrize("players", [3, 5, 6])
def test_other_player_counts_play_through_the_same_protocol(server: ServerProcess, guest: str,
                                                            players: int) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    table = server.create_table(guest, players=players, mode="smazzate", smazzate=1,
                                bot_delay=0, seats=seats)

    async def main() -> list[Client]:
        player = Client(server, table, 0, guest=guest)
        watcher = Client(server, table, None)
        await watcher.connect()
        await player.connect()
        await asyncio.gather(autoplay(player), autoplay(watcher, play=False))
        return [player, watcher]

    clients = asyncio.run(main())
    assert check_secrecy(server.db_url, table["table_id"], clients) > 50
    assert all(check_commitments(c, players) == 1 for c in clients)
