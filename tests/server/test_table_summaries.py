"""The lobby's list of tables (``GET /api/tables``) over real HTTP and WebSockets: a finished
table says who played it, when it ended and its final score, even once the server has let it
go from memory; a table still being played (a rated one above all) says none of that."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess
from players_harness import bearer, play_out, register

END_FIELDS = ("finished_at", "scores", "winner", "names")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Rated matches of one hand; a finished table leaves memory as soon as nobody watches."""
    folder: Path = tmp_path_factory.mktemp("summaries")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1", "--finished-table-seconds", "0"])
    process.start()
    yield process
    process.stop()


def rated_table(server: ServerProcess, token: str) -> dict[str, Any]:
    answer = httpx.post(f"{server.base}/api/tables", headers=bearer(token), json={
        "players": 2, "rated": True, "creator_seat": 0, "public": True, "target": 1,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}], "bot_delay": 0})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def listed(server: ServerProcess, table_id: str) -> dict[str, Any]:
    rows = httpx.get(f"{server.base}/api/tables").json()["tables"]
    return dict(next(row for row in rows if row["id"] == table_id))


def test_a_finished_table_says_who_played_when_it_ended_and_its_score(
        server: ServerProcess) -> None:
    ada = register(server, "Summary_Ada")
    table = rated_table(server, ada["token"])
    started = time.time()

    async def main() -> None:
        client = Client(server, table, 0, guest=ada["token"])
        assert (await client.connect())["t"] == "hello_ok"
        await play_out(client)
        await client.close()

    asyncio.run(main())
    deadline = time.monotonic() + 20
    while True:  # the table leaves memory once its last connection has gone
        row = listed(server, table["table_id"])
        if row["status"] == "finished" and row["seats"] is None:
            break
        assert time.monotonic() < deadline, row
        time.sleep(0.1)
    assert row["names"] == ["Summary_Ada", None]
    assert started - 5 <= row["finished_at"] <= time.time() + 5, row["finished_at"]
    whole = httpx.get(f"{server.base}/api/tables/{table['table_id']}").json()
    assert row["scores"] == whole["match"]["scores"] and len(row["scores"]) == 2
    assert row["winner"] == whole["match"]["winner"]
    assert whole["finished_at"] == row["finished_at"]
    # nobody's id, only the names the table showed
    assert ada["player_id"] not in json.dumps(row)


def test_a_table_still_being_played_tells_nothing_of_its_end(server: ServerProcess) -> None:
    bob = register(server, "Summary_Bob")
    table = rated_table(server, bob["token"])
    waiting = listed(server, table["table_id"])
    assert waiting["status"] == "waiting"
    assert not any(field in waiting for field in END_FIELDS), waiting

    async def main() -> dict[str, Any]:
        client = Client(server, table, 0, guest=bob["token"])
        assert (await client.connect())["t"] == "hello_ok"
        while True:  # the match has started: the bot has moved or Bob may
            frame = await client.recv(30)
            if frame.get("t") == "legal" or client.version > 2:
                break
        row = listed(server, table["table_id"])
        await client.close()
        return row

    playing = asyncio.run(main())
    assert playing["status"] == "playing", playing
    assert not any(field in playing for field in END_FIELDS), playing
    own = httpx.get(f"{server.base}/api/tables/{table['table_id']}")
    assert own.status_code == 200 and "finished_at" not in own.json()
    # nor the scores of its hands so far: a live rated match's course is for its players
    assert "match" not in own.json(), own.json()
