"""The daily duplicate's whole day over real HTTP and WebSockets, at 4 players, on SQLite and
on PostgreSQL: two accounts play the set against bots; until the day closes nobody sees a
result of a deal they have not played (no board, no profile entry, no replay); after the
close (the server restarted with its clock a day on) the decks are revealed and open the
morning's commitments, the tables' replays are published and the matches enter the profiles.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from harness import Client, ServerProcess, postgres_schema, stored
from players_harness import bearer, play_out, register

DAY = 24 * 3600


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def start(server: ServerProcess, shift: float) -> None:
    """Start the server with the daily clock moved by ``shift`` seconds."""
    with environment(BURRACO_DAILY_HANDS="1", BURRACO_DAILY_BOT_DELAY="0",
                     BURRACO_DAILY_CHECK_SECONDS="0.3", BURRACO_DAILY_CLOCK_SHIFT=str(shift)):
        server.start()


def play_set(server: ServerProcess, token: str, table: dict[str, Any]) -> list[int]:
    """Play seat 0 of a daily table to the end; the deck its hand 1 was dealt from."""
    async def main() -> None:
        client = Client(server, table, 0, guest=token)
        assert (await client.connect())["t"] == "hello_ok"
        await play_out(client)
        await client.close()

    asyncio.run(main())
    return list(stored(server.db_url, table["table_id"])["games"][0]["deck"])


def eventually(probe: Callable[[], Any], what: str, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen in {timeout} s: {what}")
        time.sleep(0.2)


def replay(server: ServerProcess, table: dict[str, Any]) -> httpx.Response:
    return httpx.get(f"{server.base}/api/web/tables/{table['table_id']}/hands/1/replay",
                     params={"token": table["seats"][0]["token"]})


def daily_matches(server: ServerProcess, username: str) -> list[dict[str, Any]]:
    profile = httpx.get(f"{server.base}/api/players/{username}").json()
    return [m for m in profile["recent"] if m["form"] == "4"]


def run_day(server: ServerProcess) -> None:
    # the server's daily clock at noon of a day, so no midnight falls within the test
    noon = (time.time() // DAY) * DAY + DAY / 2
    start(server, noon - time.time())
    overview = httpx.get(f"{server.base}/api/daily").json()
    day = overview["day"]
    published = overview["sets"]["4"]["deals"]
    assert not overview["closed"] and len(published) == 1 and "order" not in published[0]

    ada, bob, cid = (register(server, name) for name in ("Four_Ada", "Four_Bob", "Four_Cid"))
    ada_table = httpx.post(f"{server.base}/api/daily/4", headers=bearer(ada["token"]))
    assert ada_table.status_code == 201, ada_table.text
    ada_seats = ada_table.json()
    ada_cards = play_set(server, ada["token"], ada_seats)
    eventually(lambda: stored(server.db_url, ada_seats["table_id"])["info"]["status"] == "finished",
               "Ada's daily table finished")

    # Ada has played the deal; Bob and Cid have not, and see nothing of her result
    for other in (bob, cid):
        board = httpx.get(f"{server.base}/api/daily/4/board", headers=bearer(other["token"]))
        assert board.status_code == 403 and board.json()["code"] == "daily_play_first"
    assert httpx.get(f"{server.base}/api/daily/4/board").status_code == 403
    assert daily_matches(server, "Four_Ada") == []  # the public profile holds it back
    stats = httpx.get(f"{server.base}/api/players/Four_Ada").json()["stats"]
    assert not stats.get("4") or stats["4"]["hands"] == 0, stats
    assert replay(server, ada_seats).status_code == 409  # held, even for Ada's own seat
    stranger = httpx.get(f"{server.base}/api/web/tables/{ada_seats['table_id']}/hands/1/replay")
    assert stranger.status_code in (401, 403, 404, 409), stranger.text
    mine = httpx.get(f"{server.base}/api/daily/4/board", headers=bearer(ada["token"])).json()
    assert [e["username"] for e in mine["entries"]] == ["Four_Ada"]

    bob_seats = httpx.post(f"{server.base}/api/daily/4", headers=bearer(bob["token"])).json()
    bob_cards = play_set(server, bob["token"], bob_seats)
    assert bob_cards == ada_cards  # the same deal at both tables
    board = eventually(lambda: (lambda b: b if len(b["entries"]) == 2 else None)(
        httpx.get(f"{server.base}/api/daily/4/board", headers=bearer(bob["token"])).json()),
        "both results on Bob's board")
    scores = {e["username"]: e["score"] for e in board["entries"]}
    assert scores["Four_Ada"] == -scores["Four_Bob"]
    # Cid enters but has not played yet: he still sees nothing
    cid_seats = httpx.post(f"{server.base}/api/daily/4", headers=bearer(cid["token"])).json()
    assert httpx.get(f"{server.base}/api/daily/4/board",
                     headers=bearer(cid["token"])).status_code == 403

    # the day closes: the same database, the server's clock a day later
    server.stop()
    server.http = httpx.Client(base_url=server.base, timeout=30)
    start(server, noon + DAY - time.time())
    closed = httpx.get(f"{server.base}/api/daily", params={"day": day}).json()
    assert closed["closed"]
    # Cid's set is still in play: its deal stays hidden, and so do the day's results
    assert closed["sets"]["4"]["deals"][0] == {**published[0], "pending": True}
    for headers in ({}, bearer(cid["token"])):
        late = httpx.get(f"{server.base}/api/daily/4/board", params={"day": day},
                         headers=headers)
        assert late.status_code == 403, late.text
    assert httpx.get(f"{server.base}/api/daily/4/month",
                     params={"month": day[:7]}).json()["entries"] == []
    assert play_set(server, cid["token"], cid_seats) == ada_cards
    eventually(lambda: stored(server.db_url, cid_seats["table_id"])["info"]["status"]
               == "finished", "Cid's daily table finished")
    closed = httpx.get(f"{server.base}/api/daily", params={"day": day}).json()
    revealed = closed["sets"]["4"]["deals"]
    for before, after in zip(published, revealed, strict=True):
        assert after["commitment"] == before["commitment"]
        text = f"burraco-deal-v1:{after['salt']}:{','.join(map(str, after['order']))}"
        assert hashlib.sha256(text.encode()).hexdigest() == before["commitment"]
    assert revealed[0]["order"] == ada_cards  # the deck both tables were dealt from
    # the tables publish their held hands, and the matches enter the profiles
    eventually(lambda: replay(server, ada_seats).status_code == 200, "Ada's replay published")
    eventually(lambda: replay(server, bob_seats).status_code == 200, "Bob's replay published")
    ada_match = eventually(lambda: daily_matches(server, "Four_Ada"), "Ada's daily match")
    assert ada_match[0]["table_id"] == ada_seats["table_id"]
    eventually(lambda: daily_matches(server, "Four_Bob"), "Bob's daily match")
    # after the close, the day's board is everyone's, and the month counts the day
    after = httpx.get(f"{server.base}/api/daily/4/board", params={"day": day})
    assert after.status_code == 200 and after.json()["closed"]
    assert len(after.json()["entries"]) == 3
    month = httpx.get(f"{server.base}/api/daily/4/month", params={"month": day[:7]}).json()
    assert {e["username"]: e["days"] for e in month["entries"]} == {
        "Four_Ada": 1, "Four_Bob": 1, "Four_Cid": 1}


def test_a_four_player_day_on_sqlite(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'daily.db'}", tmp_path / "server.log")
    try:
        run_day(server)
    finally:
        server.stop()


def test_a_four_player_day_on_postgresql(tmp_path: Path) -> None:
    with postgres_schema() as url:
        server = ServerProcess(url, tmp_path / "server.log")
        try:
            run_day(server)
        finally:
            server.stop()
