"""What the server plays by itself cannot be stopped by a client (protocol.md §8).

The turn clock and stand-ins store their commands with ids of the server's own
namespace, which no client id can take: a client that draws with the id the
server's next command would have used (``clock-<V+2>``, ``standin-<V+2>``)
no longer makes that command fail.  And when a command of the server does fail
to be stored, the clock and the stand-in try again: the table never stays stuck.
Run on SQLite, and on PostgreSQL when ``BURRACO_TEST_POSTGRES_URL`` is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess, postgres_schema, scripted_choice, stored
from sqlalchemy import text as sql

from burraco.engine.actions import parse_action
from burraco.engine.legal import legal_actions
from burraco.infra.db import make_engine
from burraco.server.commit_path import build_unit
from burraco.server.game import PLAYING, fresh_deal
from burraco.server.hub import rebuild
from burraco.server.storage import repository as repo
from burraco.server.storage.repository import RECENT_CMIDS


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_server(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp(f"ids-{request.param}")
    with contextlib.ExitStack() as stack:
        url = (f"sqlite:///{folder / 'burraco.db'}" if request.param == "sqlite"
               else stack.enter_context(postgres_schema()))
        process = ServerProcess(url, folder / "server.log")
        process.start()
        yield process
        process.stop()


def event_type(frame: dict[str, Any]) -> str | None:
    return (frame.get("e") or {}).get("type")


async def two_players(server: ServerProcess, **options: Any) -> tuple[dict[str, Any],
                                                                     list[Client]]:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, **options)
    clients = [Client(server, table, 0, guest=ada), Client(server, table, 1, guest=bob)]
    for client in clients:
        assert (await client.connect())["t"] == "hello_ok"
    await clients[0].my_turn()
    return table, clients


def test_a_client_cannot_take_the_turn_clocks_next_id(db_server: ServerProcess) -> None:
    async def main() -> dict[str, Any]:
        table, (one, two) = await two_players(db_server, turn_seconds=1)
        v = one.version
        answer = await one.act("draw", cmid=f"clock-{v + 2}")
        assert answer["t"] == "ack", answer
        # the clock runs out: the server discards for seat 0, and seat 1 is on the clock
        gone = await two.until(lambda f: event_type(f) == "Discarded", timeout=10)
        assert gone["e"]["seat"] == 0
        await two.until(lambda f: f.get("t") == "clock" and f["seat"] == 1, timeout=5)
        return table

    table = asyncio.run(main())
    commands = stored(db_server.db_url, table["table_id"])["commands"]
    assert [c["body"]["action"].split()[0] for c in commands if c["source"] == "clock"][:1] \
        == ["discard"]


def test_a_client_cannot_take_the_stand_ins_next_id(db_server: ServerProcess) -> None:
    async def main() -> None:
        _, (one, two) = await two_players(db_server, grace_seconds=1, standin="random",
                                          bot_delay=0)
        v = one.version
        assert (await one.act("draw", cmid=f"standin-{v + 2}"))["t"] == "ack"
        await one.close()  # drops: after 1 s a stand-in plays seat 0 and must discard
        gone = await two.until(lambda f: event_type(f) == "Discarded", timeout=10)
        assert gone["e"]["seat"] == 0
        await two.my_turn(timeout=5)

    asyncio.run(main())


def refuse_clock_commands(db_url: str, refuse: bool) -> None:
    """Make the database itself refuse (or take again) the turn clock's commands."""
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "sqlite":
                conn.execute(sql("DROP TRIGGER IF EXISTS refuse_clock"))
                if refuse:
                    conn.execute(sql("CREATE TRIGGER refuse_clock BEFORE INSERT ON commands "
                                     "WHEN NEW.source = 'clock' BEGIN "
                                     "SELECT RAISE(ABORT, 'clock refused by the test'); END"))
            else:
                conn.execute(sql("ALTER TABLE commands DROP CONSTRAINT IF EXISTS refuse_clock"))
                if refuse:
                    conn.execute(sql("ALTER TABLE commands ADD CONSTRAINT refuse_clock "
                                     "CHECK (source <> 'clock') NOT VALID"))
    finally:
        engine.dispose()


def test_the_clock_tries_again_after_its_command_failed_to_be_stored(
        db_server: ServerProcess) -> None:
    async def main() -> None:
        _, (_, two) = await two_players(db_server, turn_seconds=1)
        await asyncio.to_thread(refuse_clock_commands, db_server.db_url, True)
        try:
            await asyncio.sleep(2.5)  # the clock ran out, and its draw was refused
        finally:
            await asyncio.to_thread(refuse_clock_commands, db_server.db_url, False)
        assert not [f for _, f in two.frames if event_type(f) == "Drew"]
        gone = await two.until(lambda f: event_type(f) == "Discarded", timeout=10)
        assert gone["e"]["seat"] == 0

    asyncio.run(main())
    assert "storing versions" in db_server.log()


def test_client_ids_in_the_servers_namespace_are_refused(db_server: ServerProcess) -> None:
    async def main() -> None:
        _, (one, _) = await two_players(db_server)
        v = one.version
        for cmid in ("server:clock-9", "server:x"):
            answer = await one.command({"t": "act", "id": cmid, "v": v, "action": "draw"})
            assert answer["code"] == "bad_message" and "server:" in answer["reason"], answer
        await one.send_raw(json.dumps({"t": "sync"}))
        assert (await one.until(lambda f: f.get("t") == "sync"))["version"] == v

    asyncio.run(main())


def test_a_nul_in_a_client_id_is_refused_before_any_database_sees_it(
        db_server: ServerProcess) -> None:
    """PostgreSQL cannot store a NUL; no database is asked: the id is refused as a message."""
    async def main() -> None:
        _, (one, _) = await two_players(db_server)
        v = one.version
        await one.send_raw(json.dumps({"t": "act", "id": "nul\x00id", "v": v,
                                       "action": "draw"}))
        answer = await one.until(lambda f: f.get("t") == "reject")
        assert answer["code"] == "bad_message" and answer["id"] is None, answer
        assert (await one.act("draw", cmid="nul-free"))["t"] == "ack"

    asyncio.run(main())


def refuse_client_commands(db_url: str, refuse: bool) -> None:
    """Make the database itself refuse (or take again) the clients' commands."""
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "sqlite":
                conn.execute(sql("DROP TRIGGER IF EXISTS refuse_client"))
                if refuse:
                    conn.execute(sql("CREATE TRIGGER refuse_client BEFORE INSERT ON commands "
                                     "WHEN NEW.source = 'client' BEGIN "
                                     "SELECT RAISE(ABORT, 'client refused by the test'); END"))
            else:
                conn.execute(sql("ALTER TABLE commands DROP CONSTRAINT IF EXISTS "
                                 "refuse_client"))
                if refuse:
                    conn.execute(sql("ALTER TABLE commands ADD CONSTRAINT refuse_client "
                                     "CHECK (source <> 'client') NOT VALID"))
    finally:
        engine.dispose()


def test_a_storage_error_never_shows_the_databases_words(db_server: ServerProcess) -> None:
    async def main() -> None:
        _, (one, _) = await two_players(db_server)
        v = one.version
        await asyncio.to_thread(refuse_client_commands, db_server.db_url, True)
        try:
            answer = await one.act("draw", cmid="refused-1")
        finally:
            await asyncio.to_thread(refuse_client_commands, db_server.db_url, False)
        assert answer["code"] == "storage_error", answer
        words = answer["reason"].lower()
        for secret in ("insert", "commands", "refused-1", "refuse_client", "sql", "[parameters"):
            assert secret not in words, answer
        assert answer["version"] == v
        assert (await one.act("draw", cmid="refused-1"))["t"] == "ack"  # nothing was kept

    asyncio.run(main())
    assert "storing versions" in db_server.log()


def test_an_id_too_old_for_the_tables_memory_is_still_a_duplicate(tmp_path: Path) -> None:
    """After more client commands than a table keeps ids of, an old id is found in the database.

    The table is played through the real server up to an acked command, then a
    further 4,200 client commands are stored as the actor stores them (the engine
    plays them), and the server recovers the table: the first id is no longer in
    the table's memory, and sending it again is answered ``duplicate_message``.
    """
    url = f"sqlite:///{tmp_path / 'burraco.db'}"
    server = ServerProcess(url, tmp_path / "server.log", extra=["--sqlite-sync", "normal"])
    server.start()
    try:
        ada, bob = server.guest("Ada"), server.guest("Bob")
        table = server.create_table(ada, players=2, target=100_000)

        async def first() -> dict[str, Any]:
            _, (one, two) = await two_players_at(server, table, ada, bob)
            answer = await one.act("draw", cmid="the-first")
            await one.close()
            await two.close()
            return answer

        acked = asyncio.run(first())
        assert acked["t"] == "ack"
        server.stop()
        played = play_stored_commands(url, table["table_id"], RECENT_CMIDS + 104)
        assert played > RECENT_CMIDS
        server = ServerProcess(url, tmp_path / "server.log", extra=["--sqlite-sync", "normal"])
        server.port = int(table["ws"].rsplit(":", 1)[1].split("/", 1)[0])
        server.http = httpx.Client(base_url=server.base, timeout=30)
        server.start()

        async def again() -> dict[str, Any]:
            one = Client(server, table, 0, guest=ada)
            await one.connect()
            return await one.command({"t": "act", "id": "the-first", "v": one.version,
                                      "action": "draw"})

        answer = asyncio.run(again())
        assert answer["code"] == "duplicate_message", answer
        assert answer["applied"] == {"from": acked["from"], "to": acked["to"]}
    finally:
        server.stop()


async def two_players_at(server: ServerProcess, table: dict[str, Any], *guests: str
                         ) -> tuple[dict[str, Any], list[Client]]:
    clients = [Client(server, table, seat, guest=g) for seat, g in enumerate(guests)]
    for client in clients:
        assert (await client.connect())["t"] == "hello_ok"
    await clients[0].my_turn()
    return table, clients


def play_stored_commands(db_url: str, table_id: str, count: int) -> int:
    """Store ``count`` client commands as the actor would (the scripted player plays them)."""
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            load = repo.load_table(conn, table_id)
            assert load is not None
            game = rebuild(load)
            units = []
            for number in range(count):
                if game.status != PLAYING or game.hand is None or game.turn is None:
                    break
                choice = scripted_choice([str(a) for a in legal_actions(game.hand)])
                step = game.act(game.turn, parse_action(choice), fresh_deal)
                units.append(build_unit(table_id, game.version, step, command={
                    "seat": game.turn, "cmid": f"x{number}", "kind": "act",
                    "body": {"action": choice}, "source": "client"}))
                game = step.game
            for chunk in range(0, len(units), 500):  # in order, as the writer's group commit
                repo.apply_units(conn, units[chunk:chunk + 500])
        return len(units)
    finally:
        engine.dispose()
