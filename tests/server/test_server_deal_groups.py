"""Deal groups (duplicate play) on a real server process, over real WebSockets.

A deal group can be set only from server-side Python (``Hub.create_table(...,
deal_group=)``), never through the HTTP API.  So this module runs the server's
own app (``create_app``, a real SQLite file, uvicorn) from a small launcher that
adds one route for the tests, which calls exactly that Python API.  Every
check waits on events or on the server's answers, with generous timeouts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess, check_secrecy, stored
from sqlalchemy import Engine, delete, select

from burraco.engine.cards import card_str
from burraco.engine.deal import deal_from_order
from burraco.engine.legal import legal_actions
from burraco.infra.db import make_engine
from burraco.server.commit_path import build_unit
from burraco.server.commitment import verify
from burraco.server.game import FINISHED, Game, Step, group_deal
from burraco.server.hub import rebuild
from burraco.server.storage import repository as repo
from burraco.server.storage.models import DealGroupRow, DealGroupTableRow, SnapshotRow
from burraco.server.tables import TableRequest, build_config

LAUNCHER = '''
"""The server's app, plus one route that creates a grouped table (server-side Python)."""
import sys

import uvicorn
from fastapi import Request
from fastapi.responses import JSONResponse

from burraco.app.asgi import create_app
from burraco.infra.config import ServerConfig, normalize_db_url
from burraco.accounts.identity import Guest, new_id
from burraco.server.tables import TableConfigError, TableRequest

port, db = int(sys.argv[1]), sys.argv[2]
app = create_app(ServerConfig(db_url=normalize_db_url(db), port=port, bot_tables_per_guest=0,
                              bot_table_rate="none", bot_table_delay=0.0, account_rate="none"))
hub = app.state.hub


async def grouped(request: Request) -> JSONResponse:
    body = await request.json()
    try:
        created = await hub.create_tables(Guest(new_id(), "Director"),
                                          [TableRequest(**t) for t in body["tables"]],
                                          deal_group=body["group"])
    except TableConfigError as exc:
        return JSONResponse({"code": "bad_request", "detail": str(exc)}, status_code=422)
    return JSONResponse(created, status_code=201)


app.add_api_route("/test-only/grouped-tables", grouped, methods=["POST"])
app.router.routes.insert(0, app.router.routes.pop())  # before the web client's catch-all
uvicorn.run(app, host="127.0.0.1", port=port, lifespan="on", log_level="warning")
'''

ALL_BOTS = [{"kind": "bot", "level": "random"}] * 4
ONE_HUMAN = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
"""Seat 0 is claimed by the test, then dropped: a stand-in plays it (grace 0)."""


class LaunchedServer(ServerProcess):
    """The server app run by :data:`LAUNCHER` instead of ``burraco serve``."""

    def __init__(self, db_url: str, log_path: Path, launcher: Path) -> None:
        super().__init__(db_url, log_path)
        self.launcher = launcher

    def command(self) -> list[str]:
        return [sys.executable, str(self.launcher), str(self.port), self.db_url]

    def restart(self) -> None:
        """SIGKILL, then start again on the same port and database."""
        self.kill()
        self.http.close()
        self.http = httpx.Client(base_url=self.base, timeout=30)
        self.start()

    def grouped_table(self, group: str, *tables: dict[str, Any]) -> httpx.Response:
        return self.http.post("/test-only/grouped-tables",
                              json={"group": group, "tables": list(tables)})

    def grouped(self, group: str, *tables: dict[str, Any]) -> list[dict[str, Any]]:
        """Tables created together in ``group`` (stored before any of them plays)."""
        response = self.grouped_table(group, *tables)
        assert response.status_code == 201, response.text
        return list(response.json())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LaunchedServer]:
    folder = tmp_path_factory.mktemp("deal-groups")
    launcher = folder / "launcher.py"
    launcher.write_text(LAUNCHER)
    process = LaunchedServer(f"sqlite:///{folder / 'groups.db'}", folder / "server.log",
                             launcher)
    process.start()
    yield process
    process.stop()


def table_settings(seats: list[dict[str, Any]], *, smazzate: int, public: bool = True
                   ) -> dict[str, Any]:
    return {"players": 4, "mode": "smazzate", "smazzate": smazzate, "seats": seats,
            "public": public, "casual": False, "bot_delay": 0, "grace_seconds": 0,
            "standin": "random"}


def group_secret(server: ServerProcess, group: str) -> str:
    engine = make_engine(server.db_url)
    try:
        with engine.connect() as conn:
            secret = conn.scalar(select(DealGroupRow.secret).where(DealGroupRow.id == group))
    finally:
        engine.dispose()
    assert isinstance(secret, str) and len(secret) == 64
    return secret


def group_members(server: ServerProcess, group: str) -> set[str]:
    engine = make_engine(server.db_url)
    try:
        with engine.connect() as conn:
            return set(conn.scalars(select(DealGroupTableRow.table_id)
                                    .where(DealGroupTableRow.group_id == group)))
    finally:
        engine.dispose()


def dealt(server: ServerProcess, table_id: str) -> dict[int, dict[str, Any]]:
    """Each hand's dealer and every seat's dealt cards, as the server stored them."""
    return {p["number"]: {"dealer": p["dealer"], "hands": p["hands"], "pile": p["pile"]}
            for _, kind, p in stored(server.db_url, table_id)["events"]
            if kind == "HandStarted"}


def kind_of(frame: dict[str, Any]) -> str | None:
    shown = frame.get("e")
    return shown.get("type") if isinstance(shown, dict) else None


def events_of(client: Client, kind: str) -> list[dict[str, Any]]:
    return [e for e in client.events.values() if e is not None and e["type"] == kind]


def hands_of(server: ServerProcess, table: dict[str, Any]) -> list[dict[str, Any]]:
    response = server.http.get(f"/api/tables/{table['table_id']}/hands",
                               params={"token": table["watch_token"]})
    assert response.status_code == 200, response.text
    return list(response.json()["hands"])


async def until_all_revealed(server: ServerProcess, table: dict[str, Any], client: Client,
                             hands: int, timeout: float = 300) -> list[dict[str, Any]]:
    """Wait (on the spectator's frames) until the table is over and every hand revealed."""
    deadline = time.monotonic() + timeout
    while True:
        rows = hands_of(server, table)
        over = [r for r in rows if r["ended_version"] is not None]
        if len(over) == hands and all(r["reveal"] is not None for r in over):
            return rows
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"table {table['table_id']}: {rows}\n{server.log()}")
        with contextlib.suppress(TimeoutError):  # nothing new: ask the server again
            await client.recv(min(left, 2))


def test_grouped_tables_deal_the_same_hands_and_other_tables_do_not(
        server: LaunchedServer) -> None:
    settings = table_settings(ALL_BOTS, smazzate=2)
    one, two = server.grouped("same-deals", settings, settings)
    alone = server.create_table(server.guest("Ada"), **settings)
    assert group_members(server, "same-deals") == {one["table_id"], two["table_id"]}
    assert "deal_group" not in json.dumps(one) and one["config"] == alone["config"]

    async def main() -> list[list[dict[str, Any]]]:
        watchers = [Client(server, t, None) for t in (one, two, alone)]
        for watcher in watchers:
            await watcher.connect()
        rows = [await until_all_revealed(server, t, w, 2)
                for t, w in zip((one, two, alone), watchers, strict=True)]
        for watcher in watchers:
            await watcher.close()
        return rows

    rows = asyncio.run(main())
    deals = [dealt(server, t["table_id"]) for t in (one, two, alone)]
    assert sorted(deals[0]) == sorted(deals[1]) == [1, 2]
    for number in (1, 2):
        # the same dealer, the same cards for every seat, the same up-card
        assert deals[0][number] == deals[1][number]
        assert deals[0][number]["hands"] != deals[2][number]["hands"]
        reveals = [next(r["reveal"] for r in table if r["number"] == number) for table in rows]
        assert reveals[0]["order"] == reveals[1]["order"] != reveals[2]["order"]
        assert reveals[0]["salt"] != reveals[1]["salt"]  # salts are per table
        for table, reveal, deal in zip(rows, reveals, deals, strict=True):
            row = next(r for r in table if r["number"] == number)
            assert verify(row["commitment"], reveal["order"], reveal["salt"])
            again = deal_from_order(reveal["order"], players=4, dealer=row["dealer"],
                                    cut=reveal["cut"])
            assert [list(h) for h in again.hands] == deal[number]["hands"]
    # the ungrouped table showed each reveal in its HandEnded, as always
    events = stored(server.db_url, alone["table_id"])["events"]
    assert all(p["reveal"] is not None and "reveal_held" not in p
               for _, kind, p in events if kind == "HandEnded")
    assert not any(kind == "DealRevealed" for _, kind, _ in events)
    # the grouped ones held it, then published it with a DealRevealed of their own
    for table in (one, two):
        events = stored(server.db_url, table["table_id"])["events"]
        ended = [p for _, kind, p in events if kind == "HandEnded"]
        assert [p["reveal"] for p in ended] == [None, None]
        assert all(p["reveal_held"] for p in ended)
        assert sorted(p["number"] for _, kind, p in events if kind == "DealRevealed") == [1, 2]
    secret = group_secret(server, "same-deals")
    for table in (one, two):
        assert secret not in json.dumps(stored(server.db_url, table["table_id"])["events"])


def test_a_reveal_waits_for_every_table_of_the_group_and_survives_a_restart(
        server: LaunchedServer) -> None:
    settings = table_settings(ONE_HUMAN, smazzate=1, public=False)
    first, second = server.grouped("held", settings, settings)
    ann, bea = server.guest("Ann"), server.guest("Bea")
    answers: list[str] = []  # every HTTP body a client could read
    clients: list[Client] = []
    at_first: list[Client] = []  # the clients of the first table, for the secrecy check

    def get(path: str, table: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        response = server.http.get(path, params={"token": table["watch_token"]})
        assert response.status_code == expect, response.text
        answers.append(response.text)
        return dict(response.json())

    async def seat_zero(table: dict[str, Any], guest: str) -> list[str]:
        """Claim seat 0 (play starts), note the dealt cards, leave: a stand-in plays on."""
        seat = Client(server, table, 0, guest=guest)
        clients.append(seat)
        await seat.connect()
        started = await seat.until(lambda f: kind_of(f) == "HandStarted")
        await seat.close()
        return list(started["e"]["cards_text"])

    async def before_restart() -> list[str]:
        watcher = Client(server, first, None, watch_token=first["watch_token"])
        clients.append(watcher)
        await watcher.connect()
        cards = await seat_zero(first, ann)
        at_first.extend(clients)
        await watcher.until(lambda f: kind_of(f) == "MatchOver", timeout=300)
        # the first table is over; the second has not even started: hand 1 is held
        ended = events_of(watcher, "HandEnded")
        assert len(ended) == 1 and ended[0]["reveal"] is None and ended[0]["reveal_held"]
        assert not events_of(watcher, "DealRevealed")
        late = Client(server, first, None, watch_token=first["watch_token"])
        clients.append(late)
        await late.connect()
        await late.until(lambda f: f.get("t") == "sync")
        assert late.last_sync is not None and late.last_sync["status"] == "finished"
        assert late.last_sync["hand"]["revealed"] == []  # nobody's last cards either
        for client in (watcher, late):
            await client.close()
        return cards

    cards_first = asyncio.run(before_restart())
    assert second["table_id"] not in json.dumps(answers)

    def check_held() -> None:
        [hand] = get(f"/api/tables/{first['table_id']}/hands", first)["hands"]
        assert hand["held"] and hand["result"] is not None
        assert hand["reveal"] is None and hand["record"] is None
        refused = get(f"/api/web/tables/{first['table_id']}/hands/1/replay", first, 409)
        assert refused["code"] == "deal_held"

    check_held()
    server.restart()  # a crash: grouped tables come back, the reveal still held
    check_held()

    async def after_restart() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        watchers = [Client(server, t, None, watch_token=t["watch_token"])
                    for t in (first, second)]
        clients.extend(watchers)
        at_first.append(watchers[0])
        for watcher in watchers:
            await watcher.connect()
        cards = await seat_zero(second, bea)
        shown = []
        for watcher in watchers:
            frame = await watcher.until(lambda f: kind_of(f) == "DealRevealed", timeout=300)
            shown.append(frame["e"])
        ended = events_of(watchers[1], "HandEnded")
        assert len(ended) == 1 and ended[0]["reveal"] is None
        for watcher in watchers:
            await watcher.close()
        return cards, shown[0], shown[1]

    cards_second, revealed_first, revealed_second = asyncio.run(after_restart())
    # dealt after the restart from the group's stored secret: the same cards at seat 0
    assert cards_second == cards_first
    assert revealed_first["number"] == revealed_second["number"] == 1
    assert revealed_first["reveal"]["order"] == revealed_second["reveal"]["order"]
    for table, shown in ((first, revealed_first), (second, revealed_second)):
        reveal = shown["reveal"]
        [hand] = get(f"/api/tables/{table['table_id']}/hands", table)["hands"]
        assert "held" not in hand and hand["reveal"]["order"] == reveal["order"]
        assert verify(hand["commitment"], reveal["order"], reveal["salt"])
        again = deal_from_order(reveal["order"], players=4, dealer=reveal["dealer"],
                                cut=reveal["cut"])
        assert [card_str(c) for c in again.hands[0]] == cards_first
        replay = get(f"/api/web/tables/{table['table_id']}/hands/1/replay", table)
        assert replay["reveal"]["order"] == reveal["order"]
        get(f"/api/tables/{table['table_id']}", table)
    # nothing a client received, and no event stored, holds the group's secret
    secret = group_secret(server, "held")
    for client in clients:
        for _, frame in client.frames:
            assert secret not in json.dumps(frame)
    assert all(secret not in text for text in answers)
    for table in (first, second):
        assert secret not in json.dumps(stored(server.db_url, table["table_id"]))
    assert check_secrecy(server.db_url, first["table_id"], at_first) > 0
    # the group has shown a deal: it takes no new table
    closed = server.grouped_table("held", settings)
    assert closed.status_code == 422 and "revealed a deal already" in closed.text


def test_the_http_api_cannot_put_a_table_in_a_deal_group(server: LaunchedServer) -> None:
    token = server.guest("Eve")
    [victim] = server.grouped("private-deals", table_settings(ONE_HUMAN, smazzate=1,
                                                              public=False))
    headers = {"authorization": f"Bearer {token}"}
    for body in ({"deal_group": "private-deals"}, {"deal_group": None},
                 {"players": 4, "mode": "smazzate", "smazzate": 1,
                  "deal_group": "private-deals", "public": False}):
        response = server.http.post("/api/tables", json=body, headers=headers)
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "bad_request"
        assert "deal_group" in response.json()["detail"]
    assert group_members(server, "private-deals") == {victim["table_id"]}
    # what the create-table form offers does not mention groups either
    options = server.http.get("/api/web/options").json()
    assert "deal_group" not in {field["name"] for field in options["table"]}
    # and a group refuses tables that would be dealt differently
    for other in ({**table_settings(ONE_HUMAN, smazzate=1), "players": 2,
                   "seats": ONE_HUMAN[:2]},
                  {**table_settings(ONE_HUMAN, smazzate=1), "rules": "home"}):
        response = server.grouped_table("private-deals", other)
        assert response.status_code == 422 and "deal_group" in response.text
    response = server.grouped_table("three", {**table_settings(ONE_HUMAN, smazzate=1),
                                              "players": 3, "seats": ONE_HUMAN[:3]})
    assert response.status_code == 422 and "individual" in response.text


# --- the storage of groups, on SQLite and PostgreSQL ------------------------------------------



def test_held_reveals_are_stored_released_and_replayed_by_recovery(engine: Engine) -> None:
    """Two grouped tables played step by step and stored as the actor stores them."""
    config = build_config(TableRequest(players=4, mode="smazzate", smazzate=2,
                                       seats=ALL_BOTS, bot_delay=0))
    settings = {"players": 4, "rules": config.rules, "options": {}}
    with engine.begin() as conn:
        secret, _, closed = repo.deal_group(conn, "g", settings)
    assert not closed
    deal = group_deal(bytes.fromhex(secret))
    games: dict[str, Game] = {}

    def store(table: str, step: Step, command: dict[str, Any], **new: Any) -> None:
        before = games[table].version if table in games else 0
        unit = build_unit(table, before, step, command=command, **new)
        with engine.begin() as conn:
            repo.apply_unit(conn, unit)
        games[table] = step.game

    for table in ("a", "b"):
        step = Game.new(config, grouped=True).open(deal)
        store(table, step, {"seat": -1, "cmid": "open", "kind": "open", "body": {},
                            "source": "server"},
              new_table={"creator": None, "config": config.to_dict(), "public": False},
              deal_group="g")

    def play(table: str, hands: int) -> None:
        moves = 0
        while games[table].status != FINISHED and len(games[table].match.hands) < hands:
            game = games[table]
            assert game.hand is not None and game.turn is not None
            actions = legal_actions(game.hand)
            action = actions[moves % len(actions)]
            moves += 1
            store(table, game.act(game.turn, action, deal),
                  {"seat": game.turn, "cmid": f"m{game.version}", "kind": "act",
                   "body": {"action": str(action)}, "source": "bot"})

    def release() -> list[tuple[str, int]]:
        with engine.begin() as conn:
            out = repo.group_releases(conn, "g")
        for table, number, reveal in out:
            store(table, games[table].reveal(number, reveal),
                  {"seat": -1, "cmid": f"reveal-{number}", "kind": "reveal",
                   "body": {"number": number, "reveal": reveal}, "source": "server"})
        return [(table, number) for table, number, _ in out]

    def rebuilt(table: str) -> Game:
        with engine.connect() as conn:
            load = repo.load_table(conn, table)
        assert load is not None
        return rebuild(load)

    play("a", 2)
    assert games["a"].status == FINISHED and games["a"].held == (1, 2)
    assert release() == []  # b has not played hand 1 yet
    assert rebuilt("a").held == (1, 2)
    with engine.connect() as conn:
        assert repo.groups_with_held(conn) == ["g"]
        assert [h.get("held") for h in repo.hand_rows(conn, "a")] == [True, True]
    play("b", 1)
    assert release() == [("a", 1), ("b", 1)]
    assert games["a"].held == (2,) and games["b"].held == ()
    assert rebuilt("a").held == (2,) and rebuilt("b").version == games["b"].version
    with engine.connect() as conn:
        rows = repo.hand_rows(conn, "a")
        assert rows[0]["reveal"] is not None and rows[1]["reveal"] is None
        b_rows = repo.hand_rows(conn, "b")
        assert b_rows[0]["reveal"]["order"] == rows[0]["reveal"]["order"]
    # the group has shown a deal: a new table may not join it
    late = Game.new(config, grouped=True).open(deal)
    with pytest.raises(repo.GroupClosedError):
        store("c", late, {"seat": -1, "cmid": "open", "kind": "open", "body": {},
                          "source": "server"},
              new_table={"creator": None, "config": config.to_dict(), "public": False},
              deal_group="g")
    play("b", 2)
    assert release() == [("a", 2), ("b", 2)]
    with engine.connect() as conn:
        assert repo.groups_with_held(conn) == []
    # recovery lands on the same games, from the snapshots and from the first command
    for table in ("a", "b"):
        for drop_snapshots in (False, True):
            if drop_snapshots:
                with engine.begin() as conn:
                    conn.execute(delete(SnapshotRow).where(SnapshotRow.table_id == table))
            with engine.connect() as conn:
                load = repo.load_table(conn, table)
            assert load is not None and load.deal_group == "g" and load.group_secret == secret
            again = rebuild(load)
            assert again.grouped and again.held == games[table].held == ()
            assert again.version == games[table].version
            assert again.match == games[table].match
