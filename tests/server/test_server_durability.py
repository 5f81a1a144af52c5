"""Crash recovery: the server is SIGKILLed in the middle of hands and restarted, many times.

Clients play at full speed (and bots play at their seats) while the server
process is killed at a random moment.  After each restart:

* every acknowledged command is in the database with the versions it was
  acknowledged with: no acknowledged action is lost;
* every event any client saw is stored, and what the client saw is exactly
  what the stored event shows that seat: history never forks;
* every table is live again (none failed to rebuild), clients reconnect with
  their last version and receive what they missed, and play goes on.

Runs on SQLite; on PostgreSQL too when ``BURRACO_TEST_POSTGRES_URL`` is set.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from harness import (
    Client,
    ServerProcess,
    check_secrecy,
    postgres_schema,
    scripted_choice,
    stored,
)
from websockets.exceptions import ConnectionClosed

from burraco.server.projection import project

_ids = itertools.count(1)


async def autoplay(client: Client, acks: dict[tuple[str, int, str], tuple[int, int]],
                   table_id: str) -> None:
    """Play the seat until the connection dies, recording every ack."""
    try:
        while True:
            frame = await client.recv(30)
            kind = frame.get("t")
            if kind == "ack":
                acks[(table_id, client.seat or 0, frame["id"])] = (frame["from"], frame["to"])
            elif kind == "reject":
                assert frame["code"] in ("stale_version", "not_your_turn"), frame
            elif kind == "legal" and frame["version"] == client.version:
                await client.send_raw(json.dumps({
                    "t": "act", "id": f"k{next(_ids)}", "v": client.version,
                    "action": scripted_choice(frame["actions"])}))
    except ConnectionClosed:
        return


def check_against_storage(db_url: str, tables: dict[str, list[Client]],
                          acks: dict[tuple[str, int, str], tuple[int, int]]) -> int:
    """Acked commands are stored; every event seen is stored and was shown as stored."""
    checked = 0
    for table_id, clients in tables.items():
        data = stored(db_url, table_id)
        commands = {(c["seat"], c["cmid"]): (c["first"], c["last"]) for c in data["commands"]}
        for (tid, seat, cmid), versions in acks.items():
            if tid == table_id:
                assert commands.get((seat, cmid)) == versions, (table_id, seat, cmid)
                checked += 1
        events = {v: (kind, payload) for v, kind, payload in data["events"]}
        for client in clients:
            assert client.version <= data["info"]["version"]
            for version, shown in client.events.items():
                kind, payload = events[version]
                assert project(kind, payload, client.seat) == shown, (table_id, version)
    return checked


def run_kill_loop(server: ServerProcess, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    ada, bob = server.guest("Ada"), server.guest("Bob")
    long = {"target": 100_000}  # no table may finish during the test
    solo = server.create_table(ada, players=4, bot_delay=0, creator_seat=0, **long, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"},
        {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "basic"}])
    duel = server.create_table(ada, players=2, creator_seat=0, casual=False, **long)
    bots = server.create_table(ada, players=4, bot_delay=0, **long, seats=[
        {"kind": "bot", "level": "random"}] * 4)
    clients = {
        solo["table_id"]: [Client(server, solo, 0, guest=ada)],
        duel["table_id"]: [Client(server, duel, 0, guest=ada), Client(server, duel, 1,
                                                                     guest=bob)],
        bots["table_id"]: [Client(server, bots, None)],
    }
    acks: dict[tuple[str, int, str], tuple[int, int]] = {}
    versions_at_kill: dict[str, int] = {}
    catch_ups: list[str] = []

    async def round_(first: bool) -> None:
        tasks = []
        for table_id, group in clients.items():
            for client in group:
                hello = await client.connect(None if first else client.version)
                assert hello["t"] == "hello_ok", hello
                catch_ups.append(hello["catch_up"])
                tasks.append(asyncio.create_task(autoplay(client, acks, table_id)))
        await asyncio.sleep(rng.uniform(0.3, 1.2))
        server.kill()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)

    for kill in range(kills):
        asyncio.run(round_(kill == 0))
        server.start()
        health = server.http.get("/healthz").json()
        assert health["broken"] == 0 and health["tables"] >= 3, health
        check_against_storage(server.db_url, clients, acks)
        for table_id in clients:
            version = stored(server.db_url, table_id)["info"]["version"]
            if table_id in versions_at_kill:
                assert version > versions_at_kill[table_id], f"table {table_id} stood still"
            versions_at_kill[table_id] = version
    assert len(acks) > 20
    assert "replay" in catch_ups  # clients resumed by version, not only by resync
    # a last round after the final restart: everything resumes once more
    asyncio.run(round_(False))
    server.start()
    assert check_against_storage(server.db_url, clients, acks) == len(acks)
    # client message ids survive restarts: an acked command sent again is not applied twice
    (table_id, seat, cmid), (first, last) = next(
        (key, versions) for key, versions in acks.items() if key[0] == duel["table_id"])

    async def resend() -> dict[str, Any]:
        client = clients[table_id][seat]
        await client.connect(client.version)
        return await client.command({"t": "act", "id": cmid, "v": client.version,
                                     "action": "draw"})

    answer = asyncio.run(resend())
    assert answer["code"] == "duplicate_message"
    assert answer["applied"] == {"from": first, "to": last}
    # and across every crash and catch-up no frame showed a seat anything hidden from it
    for table_id, group in clients.items():
        assert check_secrecy(server.db_url, table_id, group) > 0


def test_sigkill_in_the_middle_of_hands_loses_no_acknowledged_action(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'burraco.db'}", tmp_path / "server.log")
    server.start()
    try:
        run_kill_loop(server, kills=10, seed=1)
    finally:
        server.stop()


def test_sigkill_and_restart_on_postgresql(tmp_path: Path) -> None:
    with postgres_schema() as url:
        server = ServerProcess(url, tmp_path / "server.log")
        server.start()
        try:
            run_kill_loop(server, kills=4, seed=2)
        finally:
            server.stop()


@pytest.mark.parametrize("sync", ["normal"])
def test_sqlite_normal_sync_also_survives_process_kills(tmp_path: Path, sync: str) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'burraco.db'}", tmp_path / "server.log",
                           extra=["--sqlite-sync", sync])
    server.start()
    try:
        run_kill_loop(server, kills=3, seed=3)
    finally:
        server.stop()
