"""The daily duplicate over real HTTP and WebSockets: the day's commitments, one entry per
account, the same cards for everyone, results hidden until one has played, reveals held
until the day closes."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess, stored
from players_harness import bearer, play_out, register

from burraco.community import daily
from burraco.server.commitment import commit


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("daily")
    saved = {k: os.environ.get(k) for k in ("BURRACO_DAILY_HANDS", "BURRACO_DAILY_BOT_DELAY")}
    os.environ.update(BURRACO_DAILY_HANDS="1", BURRACO_DAILY_BOT_DELAY="0")
    process = ServerProcess(f"sqlite:///{folder / 'daily.db'}", folder / "server.log")
    try:
        process.start()
        yield process
    finally:
        process.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def play_set(server: ServerProcess, token: str, table: dict[str, Any]) -> list[int]:
    """Play seat 0 of a daily table to the end; the deck its hand 1 was dealt from."""
    async def main() -> None:
        client = Client(server, table, 0, guest=token)
        assert (await client.connect())["t"] == "hello_ok"
        await play_out(client)
        await client.close()

    asyncio.run(main())
    return list(stored(server.db_url, table["table_id"])["games"][0]["deck"])


def test_a_day_played_by_two_accounts(server: ServerProcess) -> None:
    overview = httpx.get(f"{server.base}/api/daily").json()
    assert overview["day"] == daily.today() and not overview["closed"]
    deals = overview["sets"]["2"]["deals"]
    assert len(deals) == 1 and len(deals[0]["commitment"]) == 64 and "order" not in deals[0]
    assert overview["sets"]["4"]["deals"][0]["commitment"] != deals[0]["commitment"]
    guest = server.guest("Guesty")
    refused = httpx.post(f"{server.base}/api/daily/2", headers=bearer(guest))
    assert refused.status_code == 401

    ada, bob = register(server, "Daily_Ada"), register(server, "Daily_Bob")
    table = httpx.post(f"{server.base}/api/daily/2", headers=bearer(ada["token"]))
    assert table.status_code == 201, table.text
    created = table.json()
    again = httpx.post(f"{server.base}/api/daily/2", headers=bearer(ada["token"]))
    assert again.status_code == 409 and again.json()["table_id"] == created["table_id"]
    mine = httpx.get(f"{server.base}/api/daily", headers=bearer(ada["token"])).json()
    assert mine["sets"]["2"]["my_table"] == created["table_id"]
    assert mine["sets"]["2"]["my_seat_token"] == created["seats"][0]["token"]
    # the same commitments all day
    assert mine["sets"]["2"]["deals"] == deals

    early = httpx.get(f"{server.base}/api/daily/2/board", headers=bearer(bob["token"]))
    assert early.status_code == 403 and early.json()["code"] == "daily_play_first"
    ada_cards = play_set(server, ada["token"], created)
    # the hand is over at Ada's table but its replay is held: others may still play it
    seat_token = created["seats"][0]["token"]
    held = httpx.get(f"{server.base}/api/web/tables/{created['table_id']}/hands/1/replay",
                     params={"token": seat_token})
    assert held.status_code == 409 and held.json()["code"] == "deal_held"
    board = httpx.get(f"{server.base}/api/daily/2/board", headers=bearer(ada["token"])).json()
    assert [e["username"] for e in board["entries"]] == ["Daily_Ada"]
    assert board["mine"][0]["field"] == 0 and board["mine"][0]["score"] == 0
    still = httpx.get(f"{server.base}/api/daily/2/board", headers=bearer(bob["token"]))
    assert still.status_code == 403

    bob_table = httpx.post(f"{server.base}/api/daily/2", headers=bearer(bob["token"])).json()
    bob_cards = play_set(server, bob["token"], bob_table)
    assert bob_cards == ada_cards  # duplicate: the same deal at every table
    deadline = time.monotonic() + 10
    while True:
        board = httpx.get(f"{server.base}/api/daily/2/board",
                          headers=bearer(bob["token"])).json()
        if len(board["entries"]) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    scores = {e["username"]: e["score"] for e in board["entries"]}
    assert set(scores) == {"Daily_Ada", "Daily_Bob"}
    assert scores["Daily_Ada"] == -scores["Daily_Bob"]
    assert board["mine"][0]["field"] == 1
    # the month counts closed days only
    month = httpx.get(f"{server.base}/api/daily/2/month",
                      params={"month": daily.today()[:7]}).json()
    assert month["entries"] == []
    bad = httpx.get(f"{server.base}/api/daily/2/month", params={"month": "May"})
    assert bad.status_code == 422


def test_the_reveal_at_day_close_opens_the_commitments() -> None:
    secret = "ab" * 32
    hidden = daily.commitments(secret, "2", reveal=False)
    shown = daily.commitments(secret, "2", reveal=True)
    for before, after in zip(hidden, shown, strict=True):
        assert before["commitment"] == after["commitment"]
        assert commit(after["order"], after["salt"]) == after["commitment"]
    day = "2026-03-04"
    assert not daily.may_release(f"daily:{day}:2", daily.closes_at(day) - 1)
    assert daily.may_release(f"daily:{day}:2", daily.closes_at(day))
    assert daily.may_release("some-tournament-round", 0)


def test_a_day_no_calendar_has_is_refused_with_its_field(server: ServerProcess) -> None:
    """``2026-13-45`` and year 0 pass the pattern: they get 422 naming ``day``, not a 500."""
    for day in ("2026-13-45", "0000-01-01", "9999-12-31"):
        for path in ("/api/daily", "/api/daily/2/board"):
            r = server.http.get(path, params={"day": day})
            assert r.status_code == 422, (path, day, r.text)
            assert r.json()["code"] == "bad_request" and r.json()["field"] == "day"


def test_the_overview_says_when_ones_set_is_over(server: ServerProcess) -> None:
    """``my_status`` follows the entry's table: a set played through is not to be continued."""
    cleo = register(server, "Daily_Cleo")
    before = httpx.get(f"{server.base}/api/daily", headers=bearer(cleo["token"])).json()
    assert before["sets"]["2"]["my_table"] is None and before["sets"]["2"]["my_status"] is None
    table = httpx.post(f"{server.base}/api/daily/4", headers=bearer(cleo["token"])).json()
    entered = httpx.get(f"{server.base}/api/daily", headers=bearer(cleo["token"])).json()
    assert entered["sets"]["4"]["my_table"] == table["table_id"]
    assert entered["sets"]["4"]["my_status"] in ("waiting", "playing")
    play_set(server, cleo["token"], table)
    after = httpx.get(f"{server.base}/api/daily", headers=bearer(cleo["token"])).json()
    assert after["sets"]["4"]["my_status"] == "finished"
    assert after["sets"]["2"]["my_status"] is None
    # a visitor's overview has no entry of its own
    anyone = httpx.get(f"{server.base}/api/daily").json()
    assert anyone["sets"]["4"]["my_table"] is None and anyone["sets"]["4"]["my_status"] is None
