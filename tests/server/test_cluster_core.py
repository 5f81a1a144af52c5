"""A cluster behaves as one server: any door, one owner, secrets kept through forwarding.

Real ``burraco serve --redis`` processes on a PostgreSQL database of this module's own
and a Redis key prefix of each test's own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cluster_harness import cluster, postgres_database
from harness import Client, check_secrecy, scripted_choice, stored
from websockets.exceptions import ConnectionClosed


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


async def play_out(client: Client, acks: dict[str, tuple[int, int]], final: int | None = None,
                   timeout: float = 120) -> None:
    """Play the seat (scripted) until the match is over; record every ack."""
    async def loop() -> None:
        while True:
            frame = await client.recv(60)
            kind = frame.get("t")
            if kind == "ack":
                acks[frame["id"]] = (frame["from"], frame["to"])
            elif kind == "reject":
                assert frame["code"] in ("stale_version", "not_your_turn",
                                         "duplicate_message"), frame
            elif (kind == "legal" and frame["version"] == client.version
                    and client.seat is not None):
                await client.send_raw(json.dumps({
                    "t": "act", "id": f"s{client.seat}v{client.version}", "v": client.version,
                    "action": scripted_choice(frame["actions"])}))
            elif kind is None and (frame.get("e") or {}).get("type") == "MatchOver":
                return

    try:
        await asyncio.wait_for(loop(), timeout)
    except ConnectionClosed:
        return


def finished_version(db_url: str, table_id: str) -> int:
    info = stored(db_url, table_id)["info"]
    assert info["status"] == "finished", info
    return int(info["version"])


def check_acks(db_url: str, table_id: str, acks: dict[str, tuple[int, int]],
               seat: int) -> None:
    commands = {(c["seat"], c["cmid"]): (c["first"], c["last"])
                for c in stored(db_url, table_id)["commands"]}
    for cmid, versions in acks.items():
        assert commands.get((seat, cmid)) == versions, (cmid, versions)


def one_hand(**extra: Any) -> dict[str, Any]:
    return {"players": 4, "mode": "smazzate", "smazzate": 1, "bot_delay": 0, **extra}


def test_a_table_created_on_one_process_is_played_through_the_others(
        tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 3) as group:
        a, b, c = group.nodes
        ada, bob = a.guest("Ada"), a.guest("Bob")
        table = a.create_table(ada, **one_hand(seats=[
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "basic"},
            {"kind": "bot", "level": "random"}]))
        table_id = table["table_id"]
        # every process answers about it, whichever runs it
        for node in group.nodes:
            answer = node.http.get(f"/api/tables/{table_id}")
            assert answer.status_code == 200, answer.text
            assert answer.json()["config"]["players"] == 4

        async def main() -> list[Client]:
            seat0 = Client(b, table, 0, guest=ada)  # a player on each of two processes
            seat1 = Client(c, table, 1, guest=bob)
            watcher = Client(a, table, None)  # and a spectator on the third
            for client in (seat0, seat1, watcher):
                hello = await client.connect()
                assert hello["t"] == "hello_ok", hello
            acks0: dict[str, tuple[int, int]] = {}
            acks1: dict[str, tuple[int, int]] = {}
            await asyncio.gather(play_out(seat0, acks0), play_out(seat1, acks1),
                                 play_out(watcher, {}))
            assert acks0 and acks1
            check_acks(db_url, table_id, acks0, 0)
            check_acks(db_url, table_id, acks1, 1)
            for client in (seat0, seat1, watcher):
                await client.close()
            return [seat0, seat1, watcher]

        clients = asyncio.run(main())
        final = finished_version(db_url, table_id)
        for client in clients:
            assert client.version == final, (client.seat, client.version, final)
        # hidden information: what reached each seat, through whichever process, hides
        # every other hand, the stock and the untaken pozzetto
        assert check_secrecy(db_url, table_id, clients) > 50
        owners = {n.name: n.health()["cluster"]["tables_owned"] for n in group.nodes}
        assert sum(owners.values()) <= 1  # one table, one owner (0 once retired)


def test_hellos_are_checked_by_the_owner_through_any_door(tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        ada, mallory = a.guest("Ada"), a.guest("Mallory")
        table = a.create_table(ada, players=2, creator_seat=0)
        owner = group.owner(table["table_id"])
        door = b if owner == a.name else a  # the process that does not run it

        async def main() -> None:
            thief = Client(door, table, 0, guest=mallory)
            refused = await thief.connect()
            assert refused["t"] == "reject" and refused["code"] == "seat_taken", refused
            forger = Client(door, table, 1, guest=mallory, seat_token=table["seats"][0]["token"])
            refused = await forger.connect()
            assert refused["code"] == "seat_token_mismatch", refused
            holder = Client(door, table, 0, guest=ada)
            hello = await holder.connect()
            assert hello["t"] == "hello_ok" and hello["seat"] == 0
            # a quick message through the door reaches a spectator of the owner
            watcher = Client(group.node(owner), table, None)
            assert (await watcher.connect())["t"] == "hello_ok"
            await holder.send_raw('{"t":"quick","msg":"hello"}')
            while (frame := await watcher.recv(30)).get("t") != "quick":
                pass
            assert frame == {"t": "quick", "seat": 0, "msg": "hello"}, frame
            await watcher.close()
            await holder.close()

        asyncio.run(main())
