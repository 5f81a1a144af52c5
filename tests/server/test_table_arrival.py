"""A match waits for everyone to sit down; a creator may cancel a table nobody joined; an
account holds one live rated seat (docs/protocol.md, "Tables"; docs/decisions.md, "A match
waits for its players").

Found by hand: a player created a rated table, closed the "your table is ready" dialog
instead of going to it, and an opponent who joined started the match; a stand-in played the
absent creator's side, which was recorded as an abandonment and cost a rating and a wait.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess, stored
from players_harness import bearer, register


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("arrival")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1"])
    process.start()
    yield process
    process.stop()


def create(server: ServerProcess, token: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.base}/api/tables", json=body, headers=bearer(token))


def status(server: ServerProcess, table_id: str) -> str:
    return str(httpx.get(f"{server.base}/api/tables/{table_id}").json()["status"])


def test_a_rated_match_waits_for_its_creator_to_sit_down(server: ServerProcess) -> None:
    ada = register(server, "Arrive_Ada")["token"]
    bob = register(server, "Arrive_Bob")["token"]
    table = create(server, ada, players=2, rated=True, target=1, grace_seconds=1,
                   creator_seat=0).json()
    table_id = table["table_id"]

    async def opponent_alone() -> None:
        two = Client(server, table, 1, guest=bob)
        assert (await two.connect())["t"] == "hello_ok"
        await asyncio.sleep(3)  # longer than the grace a stand-in would wait
        assert status(server, table_id) == "waiting"
        one = Client(server, table, 0, guest=ada)
        assert (await one.connect())["t"] == "hello_ok"
        deadline = time.monotonic() + 10
        while status(server, table_id) != "playing":
            assert time.monotonic() < deadline, "the match did not start once both sat"
            await asyncio.sleep(0.1)
        for client in (one, two):
            await client.close()

    asyncio.run(opponent_alone())
    kinds = [c["kind"] for c in stored(server.db_url, table_id)["commands"]]
    assert kinds[:4] == ["open", "claim", "claim", "arrive"], kinds
    assert all(c["source"] != "standin" for c in stored(server.db_url, table_id)["commands"])


def test_a_casual_table_waits_too_and_a_restart_keeps_it_waiting(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'burraco.db'}"
    first = ServerProcess(url, tmp_path / "server.log")
    first.start()
    try:
        ada = first.guest("Ada")
        table = first.create_table(ada, players=2, creator_seat=0,
                                   seats=[{"kind": "human"}, {"kind": "bot"}])
        assert status(first, table["table_id"]) == "waiting"  # Ada has not come yet
    finally:
        first.stop()
    process = ServerProcess(url, tmp_path / "server.log")
    process.start()  # recovered from the stored commands: still waiting for Ada
    try:
        assert status(process, table["table_id"]) == "waiting"

        async def arrive() -> None:
            one = Client(process, table, 0, guest=ada)
            assert (await one.connect())["t"] == "hello_ok"
            deadline = time.monotonic() + 10
            while status(process, table["table_id"]) != "playing":
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
            await one.close()

        asyncio.run(arrive())
    finally:
        process.stop()


def test_a_creator_cancels_a_table_nobody_else_joined(server: ServerProcess) -> None:
    cleo = register(server, "Cancel_Cleo")["token"]
    dan = register(server, "Cancel_Dan")["token"]
    alone = create(server, cleo, players=2, rated=True, target=1, creator_seat=0).json()
    refused = httpx.delete(f"{server.base}/api/tables/{alone['table_id']}", headers=bearer(dan))
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    gone = httpx.delete(f"{server.base}/api/tables/{alone['table_id']}", headers=bearer(cleo))
    assert gone.status_code == 200 and gone.json()["cancelled"] is True, gone.text
    assert httpx.get(f"{server.base}/api/tables/{alone['table_id']}").status_code == 404
    again = httpx.delete(f"{server.base}/api/tables/{alone['table_id']}", headers=bearer(cleo))
    assert again.status_code == 404

    joined = create(server, cleo, players=2, rated=True, target=1, creator_seat=0).json()

    async def dan_sits() -> None:
        two = Client(server, joined, 1, guest=dan)
        assert (await two.connect())["t"] == "hello_ok"
        await two.close()

    asyncio.run(dan_sits())
    kept = httpx.delete(f"{server.base}/api/tables/{joined['table_id']}", headers=bearer(cleo))
    assert kept.status_code == 409 and kept.json()["code"] == "others_joined"
    assert status(server, joined["table_id"]) == "waiting"


def test_an_account_holds_one_live_rated_seat(server: ServerProcess) -> None:
    eve = register(server, "OneSeat_Eve")["token"]
    fay = register(server, "OneSeat_Fay")["token"]
    first = create(server, eve, players=2, rated=True, target=1, creator_seat=0)
    assert first.status_code == 201
    second = create(server, eve, players=2, rated=True, target=1, creator_seat=0)
    assert second.status_code == 422, second.text
    assert first.json()["table_id"] in second.json()["detail"]
    other = create(server, fay, players=2, rated=True, target=1, creator_seat=0).json()

    async def eve_sits_elsewhere() -> dict[str, Any]:
        seat = Client(server, other, 1, guest=eve)
        answer = await seat.connect()
        await seat.close()
        return answer

    answer = asyncio.run(eve_sits_elsewhere())
    assert answer["t"] == "reject" and answer["code"] == "one_seat", answer
    # once the first is cancelled, Eve may sit elsewhere
    gone = httpx.delete(f"{server.base}/api/tables/{first.json()['table_id']}",
                        headers=bearer(eve))
    assert gone.status_code == 200
    assert asyncio.run(eve_sits_elsewhere())["t"] == "hello_ok"
