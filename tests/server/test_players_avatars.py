"""Avatars over real HTTP and WebSockets against a real server process: an account picks one,
and it shows on ``/api/me``, the profile, the leaderboard and the seat it holds at a table
(bots show their level's, guests the guests'); what an account may not pick is refused and
changes nothing; a database from before avatars upgrades, its accounts showing a default."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess, postgres_schema
from players_harness import bearer, register
from sqlalchemy import Engine, text

from burraco.accounts import avatars, queries, store
from burraco.accounts.names import FieldError
from burraco.bots.base import LEVEL_NAMES
from burraco.infra.db import alembic_config, make_engine, migrate


def me(server: ServerProcess, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}/api/me", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def pick(server: ServerProcess, token: str, body: object) -> httpx.Response:
    return httpx.put(f"{server.base}/api/me/avatar", json=body, headers=bearer(token))


def stored_avatar(server: ServerProcess, username: str) -> str | None:
    conn = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    try:
        (avatar,) = conn.execute("SELECT avatar FROM accounts WHERE username_key = ?",
                                 (username.lower(),)).fetchone()
    finally:
        conn.close()
    return avatar  # type: ignore[no-any-return]


def other_than(avatar: str) -> str:
    return next(a for a in avatars.PEOPLE if a != avatar)


# --- the catalogue --------------------------------------------------------------------------

def test_the_catalogue() -> None:
    assert len(avatars.PEOPLE) >= 16 and len(set(avatars.PEOPLE)) == len(avatars.PEOPLE)
    assert set(avatars.BOTS) == set(LEVEL_NAMES)  # one picture per level a table seats
    robots = {*avatars.BOTS.values(), avatars.ENGINE}
    assert len(robots) == len(avatars.BOTS) + 1 and not robots & set(avatars.PEOPLE)
    assert avatars.GUEST not in avatars.PEOPLE and avatars.GUEST not in robots
    assert avatars.of_bot("expert") == "bot-expert" and avatars.of_bot("engine:x") == "bot-engine"
    # the default is a fixed function of the public id, among the pictures people pick
    defaults = {avatars.default_for(f"player-{n}") for n in range(400)}
    assert defaults == set(avatars.PEOPLE[:16])
    assert avatars.default_for("abc") == avatars.default_for("abc")
    assert avatars.shown("abc", None) == avatars.shown("abc", "gone") == avatars.default_for("abc")
    assert avatars.shown("abc", "owl") == "owl"


@pytest.mark.parametrize(("raw", "words"), [
    ("unicorn", "no avatar 'unicorn'"), ("OWL", "no avatar 'OWL'"), ("", "no avatar ''"),
    ("bot-expert", "a bot's avatar"), ("bot-engine", "a bot's avatar"),
    ("guest", "the guests' avatar"), (7, "expected a string"), (None, "expected a string"),
    ("x" * 500, "no avatar 'xxxx"),
])
def test_what_a_person_may_not_pick(raw: object, words: str) -> None:
    with pytest.raises(FieldError) as err:
        avatars.check_avatar(raw)
    assert err.value.field == "avatar" and words in str(err.value)
    assert len(str(err.value)) < 300  # a long input is not echoed whole


# --- over HTTP ------------------------------------------------------------------------------

def test_an_account_picks_an_avatar_and_shows_it_on_me_the_profile_and_the_board(
        server: ServerProcess) -> None:
    body = register(server, "Avi_Board")
    token, pid = body["token"], body["player_id"]
    first = avatars.default_for(pid)
    assert me(server, token)["avatar"] == first
    profile = httpx.get(f"{server.base}/api/players/avi_board").json()
    assert profile["avatar"] == first and stored_avatar(server, "Avi_Board") is None

    chosen = other_than(first)
    answer = pick(server, token, {"avatar": chosen})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"avatar": chosen}
    assert me(server, token)["avatar"] == chosen
    assert httpx.get(f"{server.base}/api/players/Avi_Board").json()["avatar"] == chosen
    assert stored_avatar(server, "Avi_Board") == chosen

    # on the board: a rated result as results.record_match leaves it (rating and week rows)
    conn = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    with conn:
        conn.execute("INSERT INTO ratings (player_id, form, mu, sigma, matches) "
                     "VALUES (?, '2', 1650, 300, 3)", (pid,))
    conn.close()
    board = httpx.get(f"{server.base}/api/leaderboard?players=2&period=all",
                      headers=bearer(token)).json()
    (row,) = [e for e in board["entries"] if e["username"] == "Avi_Board"]
    assert row["avatar"] == chosen and board["me"]["avatar"] == chosen
    again = pick(server, token, {"avatar": "frog"})  # picking again replaces it
    assert again.status_code == 200 and again.json() == {"avatar": "frog"}
    board = httpx.get(f"{server.base}/api/leaderboard?players=2&period=all").json()
    assert [e["avatar"] for e in board["entries"] if e["username"] == "Avi_Board"] == ["frog"]


@pytest.mark.parametrize(("body", "words"), [
    ({"avatar": "unicorn"}, "no avatar 'unicorn'"),
    ({"avatar": "bot-expert"}, "a bot's avatar"),
    ({"avatar": "bot-random"}, "a bot's avatar"),
    ({"avatar": "guest"}, "the guests' avatar"),
    ({"avatar": "Fox"}, "no avatar 'Fox'"),
    ({"avatar": ""}, "no avatar ''"),
    ({"avatar": 3}, "avatar"),
    ({"avatar": None}, "avatar"),
    ({"avatar": ["owl"]}, "avatar"),
    ({}, "avatar"),
    ({"avatar": "owl", "admin": True}, "admin"),
    (["owl"], "body"),
])
def test_bad_avatars_are_refused_naming_what_is_wrong_and_change_nothing(
        server: ServerProcess, body: object, words: str) -> None:
    name = f"Avi_Bad{abs(hash(repr(body))) % 10**6}"
    account = register(server, name)
    token = account["token"]
    kept = other_than(avatars.default_for(account["player_id"]))
    assert pick(server, token, {"avatar": kept}).status_code == 200
    answer = pick(server, token, body)
    assert answer.status_code == 422, answer.text
    refusal = answer.json()
    assert refusal["code"] == "bad_request" and words in refusal["detail"], refusal
    if isinstance(body, dict) and isinstance(body.get("avatar"), str) and len(body) == 1:
        assert refusal["field"] == "avatar"
    assert me(server, token)["avatar"] == kept and stored_avatar(server, name) == kept


def test_only_an_account_picks_an_avatar(server: ServerProcess, guest: str) -> None:
    for headers in ({}, bearer(guest), bearer("a.nobody.nothing")):
        answer = httpx.put(f"{server.base}/api/me/avatar", json={"avatar": "owl"},
                           headers=headers)
        assert answer.status_code == 401, answer.text
        assert answer.json()["code"] in ("login_required", "bad_token")
    unreadable = httpx.put(f"{server.base}/api/me/avatar", content=b"{owl",
                           headers={"content-type": "application/json"})
    assert unreadable.status_code == 400 and unreadable.json()["code"] == "bad_json"


# --- at a table -----------------------------------------------------------------------------

def seat_avatars(seats: list[dict[str, Any]]) -> list[str | None]:
    return [s["avatar"] for s in seats]


async def presence_with(client: Client, wanted: list[str | None]) -> dict[str, Any]:
    return await client.until(lambda f: f.get("t") in ("presence", "sync")
                              and seat_avatars(f["seats"]) == wanted)


def test_each_seat_shows_its_avatar_at_the_table_and_after_a_restart(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'avatars.db'}", tmp_path / "server.log")
    server.start()
    try:
        account = register(server, "Avi_Table")
        token = account["token"]
        assert pick(server, token, {"avatar": "panda"}).status_code == 200
        guest = server.guest("Gina")
        bots = [{"kind": "bot", "level": level} for level in ("random", "basic", "expert")]
        table = server.create_table(
            token, players=6, public=True, bot_delay=10, creator_seat=0,
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, *bots])
        tid = table["table_id"]
        # the creator's seat is held for the account before it comes: it shows its picture
        before = httpx.get(f"{server.base}/api/tables/{tid}").json()["seats"]
        assert seat_avatars(before) == ["panda", None, None, "bot-random", "bot-basic",
                                        "bot-expert"]

        async def play() -> None:
            mine = Client(server, table, 0, guest=token)
            theirs = Client(server, table, 1, guest=guest)
            watcher = Client(server, table, None)
            for client in (mine, theirs, watcher):
                assert (await client.connect())["t"] == "hello_ok"
            wanted = ["panda", "guest", None, "bot-random", "bot-basic", "bot-expert"]
            for client in (mine, theirs, watcher):
                await presence_with(client, wanted)
            # a new pick shows at once at the table where the account sits
            assert pick(server, token, {"avatar": "tiger"}).status_code == 200
            for client in (mine, theirs, watcher):
                await presence_with(client, ["tiger", *wanted[1:]])
            # a refused pick changes nothing there either
            assert pick(server, token, {"avatar": "bot-expert"}).status_code == 422
            for client in (mine, theirs, watcher):
                await client.close()

        asyncio.run(play())
        seats = httpx.get(f"{server.base}/api/tables/{tid}").json()["seats"]
        assert seat_avatars(seats) == ["tiger", "guest", None, "bot-random", "bot-basic",
                                       "bot-expert"]
        lobby = httpx.get(f"{server.base}/api/tables").json()["tables"]
        assert seat_avatars(next(t for t in lobby if t["id"] == tid)["seats"])[:2] == [
            "tiger", "guest"]

        server.stop()  # a table loaded from the database reads its accounts' pictures again
        server = ServerProcess(server.db_url, server.log_path)
        server.start()
        deadline = time.monotonic() + 10  # the table reads them as it starts
        while seat_avatars(httpx.get(f"{server.base}/api/tables/{tid}").json()["seats"])[
                :3] != ["tiger", "guest", None]:
            assert time.monotonic() < deadline, "the restarted table lost the avatars"
            time.sleep(0.1)
    finally:
        server.stop()


# --- the migration --------------------------------------------------------------------------

@pytest.fixture(params=["sqlite", "postgresql"])
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A database as the server left it before avatars (migration 0004), with an account."""
    from alembic import command

    def upgrade_to_0004(engine: Engine) -> None:
        config = alembic_config()
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0004")
            conn.execute(text("INSERT INTO accounts (player_id, username, username_key, "
                              "password_hash) VALUES ('old-player-1', 'Old_Ada', 'old_ada', "
                              "'$argon2id$not-a-real-hash')"))

    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
        upgrade_to_0004(engine)
        yield engine
        engine.dispose()
        return
    with postgres_schema() as url:
        engine = make_engine(url)
        upgrade_to_0004(engine)
        yield engine
        engine.dispose()


def test_an_existing_database_upgrades_and_its_accounts_show_their_default(
        old_database: Engine) -> None:
    migrate(old_database)
    migrate(old_database)  # at head: nothing to do
    default = avatars.default_for("old-player-1")
    with old_database.connect() as conn:
        assert conn.scalar(text("SELECT avatar FROM accounts")) is None
        assert store.avatars_of(conn, ["old-player-1", "a-guest"]) == {"old-player-1": default}
        found = queries.profile(conn, "old_ada")
        assert found is not None and found["avatar"] == default
    with old_database.begin() as conn:
        assert store.set_avatar(conn, "old-player-1", "hedgehog")
        assert not store.set_avatar(conn, "nobody", "hedgehog")
    with old_database.connect() as conn:
        assert store.avatars_of(conn, ["old-player-1"]) == {"old-player-1": "hedgehog"}
        conn.execute(text("INSERT INTO ratings (player_id, form, mu, sigma, matches) "
                          "VALUES ('old-player-1', '4', 1700, 200, 5)"))
        board = queries.leaderboard(conn, "4", "all", 1, "old-player-1")
        assert board["entries"][0]["avatar"] == board["me"]["avatar"] == "hedgehog"
