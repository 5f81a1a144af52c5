"""Dropped players, stand-in bots, reconnection by version and the turn clock, over WebSockets."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from harness import Client, ServerProcess, check_secrecy, stored


def event_type(frame: dict[str, Any]) -> str | None:
    shown = frame.get("e")
    return shown.get("type") if isinstance(shown, dict) else None


async def play_turn(client: Client) -> None:
    """Draw and discard the last card offered."""
    while True:
        legal = await client.my_turn()
        action = "draw" if "draw" in legal["actions"] else next(
            a for a in reversed(legal["actions"]) if a.startswith("discard "))
        assert (await client.act(action))["t"] == "ack"
        if action.startswith("discard"):
            return


def test_a_dropped_player_keeps_the_seat_then_a_bot_plays_until_he_returns(
        server: ServerProcess) -> None:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, grace_seconds=1, standin="random", bot_delay=0)

    async def main() -> list[Client]:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        await one.connect()
        await two.connect()
        await one.my_turn()
        await two.close()
        # the others are told the countdown ...
        countdown = await one.until(lambda f: f.get("t") == "presence"
                                    and f["seats"][1]["grace_deadline_ms"] is not None)
        seat = countdown["seats"][1]
        assert seat["online"] is False and seat["grace_seconds"] == 1
        assert 0 < seat["grace_deadline_ms"] / 1000 - time.time() <= 1.5
        # ... then that a stand-in plays the seat
        standin = await one.until(lambda f: f.get("t") == "presence"
                                  and f["seats"][1]["standin"] == "random", timeout=10)
        assert standin["seats"][1]["grace_deadline_ms"] is None
        # seat 0 plays its turn; the stand-in plays seat 1's
        await play_turn(one)
        await one.until(lambda f: event_type(f) == "Discarded" and f["e"]["seat"] == 1,
                        timeout=10)
        # the player comes back with his last version and receives what he missed
        missed_from = two.version
        back = Client(server, table, 1, guest=bob)
        hello = await back.connect(v=missed_from)
        assert hello["catch_up"] == "replay"
        await back.until(lambda f: f.get("t") == "presence")
        assert set(back.events) == set(range(missed_from + 1, back.version + 1))
        returned = await one.until(lambda f: f.get("t") == "presence"
                                   and f["seats"][1]["online"] is True)
        assert returned["seats"][1]["standin"] is None
        # and plays again himself: the stand-in no longer moves for him
        await play_turn(one)
        legal = await back.my_turn(timeout=10)
        assert (await back.act("draw" if "draw" in legal["actions"] else
                               legal["actions"][-1]))["t"] == "ack"
        return [one, two, back]

    clients = asyncio.run(main())
    assert check_secrecy(server.db_url, table["table_id"], clients) > 0
    commands = stored(server.db_url, table["table_id"])["commands"]
    assert any(c["source"] == "standin" and c["seat"] == 1 for c in commands)
    assert commands[-1]["source"] == "client" and commands[-1]["seat"] == 1


def test_reconnecting_from_far_behind_gets_a_full_resync(server: ServerProcess) -> None:
    ada = server.guest("Ada")
    table = server.create_table(ada, players=2, creator_seat=0, bot_delay=0,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])

    async def main() -> None:
        client = Client(server, table, 0, guest=ada)
        hello = await client.connect(v=0)
        assert hello["catch_up"] == "replay"  # every event is still in memory
        await client.my_turn()
        await client.close()
        late = Client(server, table, 0, guest=ada)
        assert (await late.connect(v=10**6))["catch_up"] == "sync"  # unknown future: resync
        sync = late.last_sync or await late.until(lambda f: f.get("t") == "sync")
        assert sync["seat"] == 0 and len(sync["hand"]["hand"]) == 11
        assert sync["seats"][0]["nickname"] == "Ada"
        same = Client(server, table, 0, guest=ada)
        assert (await same.connect(v=late.version))["catch_up"] == "none"

    asyncio.run(main())


def test_the_turn_clock_draws_and_discards_for_a_player_out_of_time(
        server: ServerProcess) -> None:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, turn_seconds=1)

    async def main() -> None:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        await one.connect()
        await two.connect()
        ticking = await two.until(lambda f: f.get("t") == "clock" and f["seat"] == 0)
        assert ticking["seconds"] == 1 and ticking["deadline_ms"] / 1000 > time.time() - 0.5
        # the time-out is said before the moves made for the player (a line in every log)
        notice = await two.until(lambda f: event_type(f) == "TimedOut", timeout=10)
        assert notice["e"] == {"type": "TimedOut", "seat": 0}
        drew = await two.until(lambda f: event_type(f) == "Drew", timeout=10)
        assert drew["v"] == notice["v"] + 1
        assert drew["e"]["seat"] == 0 and drew["e"]["card_text"] is None  # hidden from seat 1
        gone = await two.until(lambda f: event_type(f) == "Discarded", timeout=10)
        assert gone["e"]["seat"] == 0
        # now seat 1 is on the clock
        await two.until(lambda f: f.get("t") == "clock" and f["seat"] == 1)

    asyncio.run(main())
    commands = stored(server.db_url, table["table_id"])["commands"]
    timed = [c for c in commands if c["source"] == "clock"]
    assert [c["body"]["action"].split()[0] for c in timed[:2]] == ["draw", "discard"]
    # the notice is part of the stored command: a restart rebuilds the same versions
    assert [c["kind"] for c in timed[:2]] == ["timeout", "act"]
    version = max(c["last"] for c in commands)
    server.kill()  # no shutdown code: the table comes back from what was stored
    server.start()

    async def after_restart() -> None:
        two = Client(server, table, 1, guest=bob)
        assert (await two.connect())["t"] == "hello_ok"
        synced = await two.until(lambda f: f.get("t") == "sync")
        assert synced["version"] >= version  # rebuilt from the stored commands, the notice included
        await two.close()

    asyncio.run(after_restart())
