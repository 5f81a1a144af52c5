"""Hints at casual tables ("what would the expert do"), over real WebSockets.

A hint is the expert's choice from the asking seat's own view, given only for that seat's
turn, only at casual tables, once per position; the others learn that a hint was taken (a
count), never what it said, since a hint names cards of the hand.  Hints are counted for the
match (``MatchOver.hints``), written into the hand's record, and survive a restart.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from harness import Client, ServerProcess, stored

_ids = itertools.count(1)


def event_type(frame: dict[str, Any]) -> str | None:
    shown = frame.get("e")
    return shown.get("type") if isinstance(shown, dict) else None


async def ask(client: Client) -> dict[str, Any]:
    return await client.command({"t": "hint", "id": f"h{next(_ids)}", "v": client.version},
                                timeout=60)


def two_people(server: ServerProcess, *, casual: bool) -> tuple[str, str, dict[str, Any]]:
    """Ada and Bob, and a one-hand table of two where Ada sits at seat 0."""
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, mode="smazzate", smazzate=1, casual=casual,
                                creator_seat=0, seats=[{"kind": "human"}, {"kind": "human"}])
    return ada, bob, table


def test_a_hint_is_the_experts_move_for_the_asker_alone_and_is_counted(
        server: ServerProcess) -> None:
    ada, bob, table = two_people(server, casual=True)

    async def main() -> None:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        await one.connect()
        await two.connect()
        # whoever is on turn asks; the other may not ask for the other's turn
        started = await one.until(lambda f: event_type(f) == "HandStarted")
        mover, other = (one, two) if started["e"]["turn"] == 0 else (two, one)
        legal = await mover.my_turn()
        while other.version < mover.version:  # the other has read the deal too
            await other.recv()
        refused = await ask(other)
        assert refused["t"] == "reject" and refused["code"] == "not_your_turn"
        answer = await ask(mover)
        assert answer["t"] == "ack", answer
        # the event comes before the ack: it is among the frames read
        mine = next(e for e in mover.events.values() if e and e.get("type") == "HintGiven")
        action = mine["action"]
        assert action in legal["actions"] and mine["count"] == 1
        theirs = await other.until(lambda f: event_type(f) == "HintGiven")
        assert theirs["e"] == {"type": "HintGiven", "seat": mover.seat, "count": 1}
        # once per position: asking again names the hint given
        again = await ask(mover)
        assert again["t"] == "reject" and again["code"] == "hint_given"
        assert action in again["reason"]
        # the hinted move is played like any move
        assert (await mover.act(action))["t"] == "ack"
        await one.close()
        await two.close()

    asyncio.run(main())
    commands = stored(server.db_url, table["table_id"])["commands"]
    hints = [c for c in commands if c["kind"] == "hint"]
    assert len(hints) == 1 and hints[0]["source"] == "client"
    # recovery replays the hint command: a restart rebuilds the same table
    version = max(c["last"] for c in commands)
    server.kill()
    server.start()

    async def after() -> None:
        again = Client(server, table, 0, guest=ada)
        assert (await again.connect())["t"] == "hello_ok"
        synced = await again.until(lambda f: f.get("t") == "sync")
        assert synced["version"] >= version
        await again.close()

    asyncio.run(after())


def test_no_hint_at_a_table_that_is_not_casual(server: ServerProcess) -> None:
    ada, bob, table = two_people(server, casual=False)

    async def main() -> None:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        await one.connect()
        await two.connect()
        for client in (one, two):
            answer = await ask(client)
            assert answer["t"] == "reject" and answer["code"] == "hint_not_allowed", answer
        await one.close()
        await two.close()

    asyncio.run(main())
    commands = stored(server.db_url, table["table_id"])["commands"]
    assert not [c for c in commands if c["kind"] == "hint"]


def test_hints_are_in_the_record_and_the_match_result(server: ServerProcess) -> None:
    ada = server.guest("Ada")
    bot = {"kind": "bot", "level": "random"}
    table = server.create_table(ada, players=2, mode="smazzate", smazzate=1, casual=True,
                                creator_seat=0, seats=[{"kind": "human"}, bot], bot_delay=0)

    async def main() -> dict[str, Any]:
        one = Client(server, table, 0, guest=ada)
        await one.connect()
        asked = 0
        while True:
            # the match's end may come before the ack of the last move: look among the events
            over = [e for e in one.events.values() if e and e.get("type") == "MatchOver"]
            if over:
                await one.close()
                return over[0]
            frame = await one.until(lambda f: f.get("t") == "legal"
                                    or event_type(f) == "MatchOver", timeout=60)
            if frame.get("t") != "legal" or frame["version"] != one.version \
                    or not frame["actions"]:
                continue
            if asked < 2:  # two hints, then the player plays simply
                assert (await ask(one))["t"] == "ack"
                given = one.events[one.version]
                assert given is not None and given["type"] == "HintGiven"
                asked += 1
                action = given["action"]
            else:
                action = "draw" if "draw" in frame["actions"] else next(
                    a for a in reversed(frame["actions"]) if a.startswith("discard "))
            assert (await one.act(action))["t"] == "ack"

    over = asyncio.run(main())
    assert over["hints"] == [2, 0]
    hands = server.http.get(f"/api/tables/{table['table_id']}/hands").json()["hands"]
    record = hands[0]["record"]
    assert [h["seat"] for h in record["hints"]] == [0, 0]
    assert record["hints"][0]["move"] < record["hints"][1]["move"]
