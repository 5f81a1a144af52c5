"""A held seat stays its holder's: nothing a refused connection pipelines is ever handled.

protocol.md §4: once claimed, "the seat needs that seat token *and* that guest".
Mallory has seat 0's token (a shared invite link) but not Alice's guest token.
She writes, in one TCP send, a hello for seat 0 with her own guest token and,
right behind it, commands at the table's current version: a draw, an undo, a
sync (which would show seat 0's hand), a ping.  The hello is refused; none of
what follows it may be handled, answered or shown.
"""

from __future__ import annotations

import asyncio
from typing import Any

from harness import Client, ServerProcess, stored
from rawws import RawSocket, text

TRIALS = 24


def pipelined_takeover(server: ServerProcess, table: dict[str, Any], guest: str, version: int,
                       trial: int) -> tuple[list[dict[str, Any]], int | None]:
    raw = RawSocket(server.port, f"/ws/tables/{table['table_id']}")
    try:
        raw.send(b"".join([
            text({"t": "hello", "seat": 0, "seat_token": table["seats"][0]["token"],
                  "guest": guest, "legal": True}),
            text({"t": "act", "id": f"m{trial}a", "v": version, "action": "draw"}),
            text({"t": "act", "id": f"m{trial}b", "v": version, "action": "pickup", "seat": 0}),
            text({"t": "sync"}),
            text({"t": "ping"}),
            text({"t": "undo", "id": f"m{trial}c", "v": version}),
            text({"t": "act", "id": f"m{trial}d", "v": version + 1, "action": "discard 7H"}),
        ]))
        got = raw.collect()
        return got.messages, got.close_code
    finally:
        raw.close()


def test_a_refused_hello_lets_nothing_pipelined_behind_it_through(
        server: ServerProcess) -> None:
    alice, bob, mallory = server.guest("Alice"), server.guest("Bob"), server.guest("Mallory")
    table = server.create_table(alice, players=2)

    async def main() -> None:
        clients = [Client(server, table, 0, guest=alice), Client(server, table, 1, guest=bob)]
        for client in clients:
            assert (await client.connect())["t"] == "hello_ok"
        await clients[0].my_turn()
        version = clients[0].version
        seen_before = len(clients[0].frames)
        moved, answered = [], []
        for trial in range(TRIALS):
            messages, close_code = await asyncio.to_thread(
                pipelined_takeover, server, table, mallory, version, trial)
            now = server.http.get(f"/api/tables/{table['table_id']}").json()["version"]
            if now != version:
                moved.append((trial, now))
                version = now
            if close_code != 4403 or [m.get("code") for m in messages] != ["seat_taken"]:
                answered.append((trial, close_code, messages))
        assert not moved, f"Mallory moved the table in trials {moved}"
        assert not answered, f"more than the refusal was answered: {answered[:3]}"
        # Alice saw no new version, and the table is where it was
        await clients[0].send_raw('{"t":"ping"}')
        await clients[0].until(lambda f: f.get("t") == "pong")
        assert not [f for _, f in clients[0].frames[seen_before:] if "v" in f]
        assert clients[0].version == version
        info = server.http.get(f"/api/tables/{table['table_id']}").json()
        assert info["version"] == version
        # and Alice herself can still play her seat
        assert (await clients[0].act("draw"))["t"] == "ack"
        for client in clients:
            await client.close()

    asyncio.run(main())
    commands = stored(server.db_url, table["table_id"])["commands"]
    assert [c["cmid"] for c in commands if c["source"] == "client" and c["kind"] != "claim"] \
        == [next(c["cmid"] for c in commands if c["kind"] == "act")]
    assert not [c for c in commands if c["cmid"].startswith("m")]
