"""Leaving, over real HTTP and WebSockets against a real ``burraco serve`` on SQLite: an
account deleted keeps the other players' histories, ratings, boards and clubs consistent,
leaves no row naming it (every table of the database is searched for its username and its
id), ends its sessions at once and holds its name for 30 days; its export, taken before,
has every table's rows about it; a refused deletion changes nothing.  The search and the
rewrite themselves (``infra.scrub``) on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import BURRACO, Client, ServerProcess
from players_harness import bearer, play_out, register
from sqlalchemy import Engine, insert, select, update
from websockets.exceptions import ConnectionClosed

from burraco.accounts import store
from burraco.accounts.erasure import ANONYMOUS, HOLD_DAYS, KEPT, erase, shown
from burraco.accounts.models import ClubRow, MatchPlayerRow, MatchRow
from burraco.accounts.trust_models import NameHoldRow
from burraco.app.me_routes import GAME_TABLES
from burraco.infra.db import make_engine
from burraco.infra.scrub import Replacement, reflected, rows_naming, scrub
from burraco.server.storage.models import EventRow, GuestRow, TableRow
from burraco.tournament import storage as tournament_storage
from burraco.tournament.storage import MemberRow, PairAccountRow, TournamentRow

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Rated matches of one hand (``--rated-min-target 1``)."""
    folder: Path = tmp_path_factory.mktemp("leaving")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1"])
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def db(server: ServerProcess) -> Iterator[Engine]:
    engine = make_engine(server.db_url)
    yield engine
    engine.dispose()


def naming(db: Engine, *needles: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table naming one of ``needles``."""
    with db.connect() as conn:
        return rows_naming(conn, reflected(conn), needles)


def call(server: ServerProcess, method: str, path: str, token: str | None = None,
         **kwargs: Any) -> httpx.Response:
    headers = bearer(token) if token else {}
    return httpx.request(method, f"{server.base}{path}", headers=headers, **kwargs)


def leave(server: ServerProcess, token: str | None, body: Any = None, **kwargs: Any
          ) -> httpx.Response:
    if body is not None:
        kwargs["json"] = body
    return call(server, "DELETE", "/api/me", token, **kwargs)


def sheet(sheet_id: str) -> dict[str, Any]:
    side = {"melds": 215, "burraco": {"clean": 1}, "closed": True, "took": True,
            "played": True, "unplayed": 0, "hand": 0}
    return {"version": 1, "id": sheet_id, "created": "2026-12-01T20:00:00.000Z",
            "names": ["Leaver", "Bea", "Cleo", "Dino"], "preset": "fibur", "mode": "free",
            "target": 2005, "smazzate": 3, "firstDealer": 3,
            "hands": [{"solo": -1, "sides": [side, {**side, "closed": False}]}]}


def recorded(server: ServerProcess, name: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = dict(httpx.get(f"{server.base}/api/players/{name}").json())
        if body["recent"] and "2" in body["ratings"]:
            return body
        assert time.monotonic() < deadline, f"{name}'s match was not recorded: {body}"
        time.sleep(0.2)


def play_rated(server: ServerProcess, one: str, two: str) -> str:
    table = call(server, "POST", "/api/tables", one, json={
        "players": 2, "rated": True, "target": 1, "bot_delay": 0, "creator_seat": 0}).json()

    async def main() -> None:
        seats = [Client(server, table, 0, guest=one), Client(server, table, 1, guest=two)]
        for client in seats:
            hello = await client.connect()
            assert hello["t"] == "hello_ok", hello
        await asyncio.gather(*(play_out(c) for c in seats))
        for client in seats:
            await client.close()

    asyncio.run(main())
    return str(table["table_id"])


def as_json(rows: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)


def check_export(export: dict[str, Any], before: dict[str, list[dict[str, Any]]],
                 secrets: list[str]) -> None:
    """The export has every table's rows naming the person: the others' rows whole (less
    the secrets), the game tables as the tables sat at and their finished hands."""
    tables = export["tables"]
    text = json.dumps(export)
    for secret in secrets:
        assert secret not in text
    assert not {"password_hash", "secret_hash", "code_hash"} & {
        key for rows in tables.values() for row in rows for key in row}
    played = {t["id"] for t in tables["tables"]}
    for name, rows in before.items():
        if name in GAME_TABLES:
            assert {r.get("table_id") or r.get("id") for r in rows} <= played, name
        else:
            assert as_json(tables[name]) == as_json([shown(r) for r in rows]), name
    assert set(tables) - set(before) <= {"tables", "games"}
    assert tables["games"] and all(g["record"] for g in tables["games"])
    assert export["notes"] and any("hidden cards" in note for note in export["notes"])


def test_deleting_an_account(server: ServerProcess, db: Engine) -> None:
    wanderer = server.guest("Wanderer")  # the guest's id, and its nickname, carry over
    leaver = register(server, "Leaver1", PASSWORD, authorization=f"Bearer {wanderer}")
    stayer = register(server, "Stayer1", PASSWORD)
    third = register(server, "Third1", PASSWORD)
    pid, token = leaver["player_id"], leaver["token"]
    table_id = play_rated(server, token, stayer["token"])
    theirs = recorded(server, "Stayer1")
    for path, who in (("/api/me/following/Stayer1", token), ("/api/me/following/Leaver1",
                                                            stayer["token"])):
        assert call(server, "PUT", path, who).status_code == 200
    assert call(server, "PUT", "/api/me/blocked/Leaver1", third["token"]).status_code == 200
    for name in ("Leavers Club", "Lonely Club"):
        made = call(server, "POST", "/api/clubs", token, json={
            "name": name, "description": "Leaver1 founded it", "public": True})
        assert made.status_code == 201, made.text
    assert call(server, "POST", "/api/clubs/leavers-club/join", third["token"]).status_code == 200
    assert call(server, "POST", "/api/clubs/leavers-club/join", stayer["token"]).status_code == 200
    challenged = call(server, "POST", "/api/challenges", stayer["token"],
                      json={"to": "Leaver1", "format": "505", "rated": False})
    assert challenged.status_code == 201, challenged.text
    kept = call(server, "PUT", "/api/me/scorepad/leave1", token,
                json={"updated": int(time.time() * 1000), "sheet": sheet("leave1")})
    assert kept.status_code == 201, kept.text
    board = call(server, "GET", "/api/leaderboard?players=2", stayer["token"]).json()
    assert "Leaver1" in [e["username"] for e in board["entries"]]
    for name in ("Third1", "Leaver1"):  # moderators: the log will name the leaver both ways
        granted = subprocess.run([BURRACO, "admin", "grant", "--db", server.db_url, "--user",
                                  name, "--role", "moderator", "--reason", "keeps order"],
                                 capture_output=True, text=True, timeout=60)
        assert granted.returncode == 0, granted.stderr
    reported = call(server, "POST", "/api/reports", stayer["token"], json={
        "username": "Leaver1", "reason": "abuse", "context": "profile",
        "text": "Leaver1 was rude; ask leaver1 why"})
    assert reported.status_code == 201, reported.text
    for who, body in ((third["token"], {"username": "Leaver1", "action": "warn",
                                        "reason": "Leaver1 must mind the words",
                                        "report_id": reported.json()["report_id"]}),
                      (token, {"username": "Stayer1", "action": "warn",
                               "reason": "a warning from Leaver1"})):
        acted = call(server, "POST", "/api/mod/actions", who, json=body)
        assert acted.status_code == 200, acted.text

    before = naming(db, pid)
    assert {"accounts", "sessions", "recovery_codes", "matches", "match_players", "ratings",
            "follows", "blocks", "clubs", "club_members", "challenges", "scorepad_sheets",
            "guests", "commands", "tables", "roles", "reports", "sanctions"} <= set(before)
    exported = call(server, "GET", "/api/me/export", token)
    assert exported.status_code == 200, exported.text
    assert exported.headers["content-disposition"] == \
        'attachment; filename="burraco-export.json"'
    body = exported.json()
    assert body["account"]["username"] == "Leaver1" and body["account"]["player_id"] == pid
    secrets = [v for rows in (before["accounts"], before["sessions"], before["recovery_codes"])
               for row in rows for k, v in row.items() if k.endswith("_hash")]
    assert len(secrets) >= 12
    check_export(body, before, secrets)
    assert call(server, "GET", "/api/me/export").status_code == 401

    # refusals change nothing
    for response, status, field in (
            (leave(server, None, {"password": PASSWORD}), 401, None),
            (leave(server, token, {"password": "wrong horse"}), 401, None),
            (leave(server, token, {"password": PASSWORD, "now": True}), 422, "now"),
            (leave(server, token, {"pasword": PASSWORD}), 422, "password"),
            (leave(server, token, {"password": 12345678}), 422, "password"),
            (leave(server, token), 422, "password"),
            (leave(server, token, content=b"{password"), 400, None)):
        assert response.status_code == status, response.text
        if field is not None:
            assert response.json()["field"] == field and field in response.json()["detail"]
    assert leave(server, None, {"password": PASSWORD}).json()["code"] == "login_required"
    assert leave(server, token, {"password": "wrong horse"}).json()["code"] == \
        "bad_credentials"
    assert as_json([r for rows in naming(db, pid).values() for r in rows]) == as_json(
        [r for rows in before.values() for r in rows])
    assert call(server, "GET", "/api/me", token).status_code == 200

    async def deleted_while_watching() -> int | None:
        watcher = Client(server, {"table_id": table_id, "seats": []}, None, guest=token)
        hello = await watcher.connect()
        assert hello["t"] == "hello_ok", hello
        await watcher.until(lambda f: f.get("t") == "sync")
        gone = await asyncio.to_thread(leave, server, token, {"password": PASSWORD})
        assert gone.status_code == 200 and gone.json() == {"deleted": True}, gone.text
        assert 'burraco_session=""' in gone.headers["set-cookie"]
        try:
            while True:
                await watcher.recv(5)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None

    assert asyncio.run(deleted_while_watching()) == 4401
    assert call(server, "GET", "/api/me", token).status_code == 401

    # nothing names the person any more, but the held name
    left = naming(db, pid, "Leaver1", "Wanderer")
    assert set(left) <= KEPT and "Leaver1" not in json.dumps(left), left
    with db.connect() as conn:
        until = conn.scalar(select(NameHoldRow.until).where(
            NameHoldRow.username_key == "leaver1"))
        seats = conn.scalar(select(MatchRow.seats).where(MatchRow.table_id == table_id))
        results = {r.seat: r.player_id for r in conn.execute(select(MatchPlayerRow).where(
            MatchPlayerRow.table_id == table_id))}
        guest = conn.execute(select(GuestRow).where(GuestRow.nickname == ANONYMOUS)).first()
        taken = list(conn.scalars(select(EventRow.payload).where(
            EventRow.table_id == table_id, EventRow.kind == "SeatTaken")))
        clubs = set(conn.scalars(select(ClubRow.club_id)))
    assert until is not None and abs(until - (time.time() + HOLD_DAYS * 86400)) < 120
    gone_seat = next(s for s in seats if s["player_id"] != stayer["player_id"])
    assert gone_seat["name"] == ANONYMOUS and gone_seat["player_id"].startswith("x")
    assert results[gone_seat["seat"]] == gone_seat["player_id"]  # one anonymous id
    assert guest is not None and guest.id == gone_seat["player_id"]
    assert {p["nickname"] for p in taken} == {ANONYMOUS, "Stayer1"}

    # the moderation log keeps both actions and the report, anonymised
    log = call(server, "GET", "/api/mod/log", third["token"])
    closed = call(server, "GET", "/api/mod/reports?status=closed", third["token"])
    assert log.status_code == 200 and closed.status_code == 200, (log.text, closed.text)
    assert "Leaver1" not in log.text + closed.text and pid not in log.text + closed.text
    assert {a["reason"] for a in log.json()["actions"]} >= {
        f"{ANONYMOUS} must mind the words", f"a warning from {ANONYMOUS}"}
    report = closed.json()["reports"][0]
    assert report["target"]["username"] == ANONYMOUS
    assert report["text"] == f"{ANONYMOUS} was rude; ask {ANONYMOUS} why"

    # the other players' histories, ratings, boards, friends, clubs and challenges
    after = recorded(server, "Stayer1")
    assert after["ratings"] == theirs["ratings"] and after["history"] == theirs["history"]
    assert after["stats"] == theirs["stats"]
    match = after["recent"][0]
    assert match["table_id"] == table_id and match["result"] == theirs["recent"][0]["result"]
    assert match["opponents"][0]["name"] == ANONYMOUS and match["opponents"][0]["username"] is None
    for period in ("all", "week", "month"):
        page = call(server, "GET", f"/api/leaderboard?players=2&period={period}",
                    stayer["token"]).json()
        names = [e["username"] for e in page["entries"]]
        assert "Leaver1" not in names and None not in names and page["total"] == len(names)
        assert [e["rank"] for e in page["entries"]] == list(range(1, len(names) + 1))
        assert page["entries"][page["me"]["rank"] - 1]["username"] == "Stayer1"
    circle = call(server, "GET", "/api/me/friends", stayer["token"]).json()
    assert not any(circle.values())
    assert not call(server, "GET", "/api/me/friends", third["token"]).json()["blocked"]
    assert not any(call(server, "GET", "/api/challenges", stayer["token"]).json().values())
    club = call(server, "GET", "/api/clubs/leavers-club", stayer["token"]).json()
    # the longest-standing member founds it now; the club nobody else was in is closed
    assert {m["username"]: m["role"] for m in club["members_list"]} == {
        "Third1": "founder", "Stayer1": "member"}
    assert "leavers-club" in clubs and "lonely-club" not in clubs
    assert club["description"] == f"{ANONYMOUS} founded it"

    # the name is held 30 days, then free
    for name in ("Leaver1", "LEAVER1"):
        again = httpx.post(f"{server.base}/api/accounts",
                           json={"username": name, "password": PASSWORD})
        assert again.status_code == 409 and again.json()["code"] == "username_taken"
    with db.begin() as conn:
        conn.execute(update(NameHoldRow).where(NameHoldRow.username_key == "leaver1")
                     .values(until=time.time() - 1))
    fresh = register(server, "Leaver1", PASSWORD)
    assert fresh["player_id"] != pid
    assert not naming(db, "leaver1").get("name_holds")


def test_wrong_passwords_are_throttled_and_exports_limited(server: ServerProcess,
                                                          db: Engine) -> None:
    """A deletion's password counts against the log-in's throttle: past five wrong ones the
    name is refused for a while (429, even the right password), and nothing is deleted;
    exports are limited per account."""
    account = register(server, "Careful1", PASSWORD)
    token = account["token"]
    for _ in range(5):
        wrong = leave(server, token, {"password": "not my horse"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    for password in ("not my horse", PASSWORD):
        locked = leave(server, token, {"password": password})
        assert locked.status_code == 429 and locked.json()["code"] == "throttled"
        assert int(locked.headers["retry-after"]) > 0
    assert call(server, "GET", "/api/me", token).status_code == 200
    assert "accounts" in naming(db, account["player_id"])
    for _ in range(10):
        assert call(server, "GET", "/api/me/export", token).status_code == 200
    limited = call(server, "GET", "/api/me/export", token)
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert int(limited.headers["retry-after"]) > 0


def test_a_seat_at_a_table_in_play_holds_the_deletion_back(server: ServerProcess,
                                                          db: Engine) -> None:
    """A table still being played would write the seat's results after the deletion: while
    the account holds one, the deletion is refused (409, naming it) and nothing changes;
    once the match is over it goes through."""
    account = register(server, "Seated1", PASSWORD)
    token = account["token"]
    table = server.create_table(token, players=2, bot_delay=0, creator_seat=0, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "random"}])

    async def sit_and(play: bool) -> None:
        client = Client(server, table, 0, guest=token)
        assert (await client.connect())["t"] == "hello_ok"
        if play:
            await play_out(client)
        await client.close()

    asyncio.run(sit_and(False))
    held = leave(server, token, {"password": PASSWORD})
    assert held.status_code == 409 and held.json()["code"] == "at_table", held.text
    assert held.json()["tables"] == [table["table_id"]]
    assert call(server, "GET", "/api/me", token).status_code == 200
    asyncio.run(sit_and(True))
    gone = leave(server, token, {"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    assert not naming(db, account["player_id"])


def test_erasure_reaches_the_club_evenings_tables(engine: Engine) -> None:
    """The tables of another schema history in the same database (the club evenings') are
    searched and rewritten too: the link to the account goes, the director's words stay."""
    tournament_storage.migrate(engine)
    with engine.begin() as conn:
        store.create_account(conn, "evening1pid", "Evening1", "hash", "s1", "secret")
        conn.execute(insert(TournamentRow).values(id="club-night", name="Club night",
                                                  settings={}, version=0))
        conn.execute(insert(PairAccountRow).values(tournament_id="club-night", pair=1,
                                                   player_id="evening1pid",
                                                   username="Evening1"))
        conn.execute(insert(MemberRow).values(number="42", name="Ada Rossi",
                                              category="A", player_id="evening1pid"))
    with engine.begin() as conn:
        assert erase(conn, "evening1pid", "Evening1", time.time()) == ["s1"]
    with engine.connect() as conn:
        left = rows_naming(conn, reflected(conn), ["evening1pid", "Evening1"])
        assert set(left) <= KEPT, left
        link = conn.execute(select(PairAccountRow)).one()
        member = conn.execute(select(MemberRow)).one()
        assert link.username == ANONYMOUS and link.player_id == member.player_id != "evening1pid"
        assert member.name == "Ada Rossi"
        assert conn.scalar(select(NameHoldRow.username_key)) == "evening1"


def test_scrub_replaces_only_where_the_values_stand(engine: Engine) -> None:
    """Exact strings, JSON values and keys, names beside the id or under name keys; never a
    value that merely contains the needle, nor a word equal to the name elsewhere."""
    pid, other = "p1d_%x", "p1d_%xy"  # LIKE's wildcards in the needle, and a longer id
    with engine.begin() as conn:
        conn.execute(insert(TableRow).values(
            id="t1", creator=pid, status="open", public=True, version=0,
            config={"seats": [{"kind": "open"}], pid: {"mate": other}, "note": f"{pid}!"}))
        conn.execute(insert(TableRow).values(
            id="t2", creator=other, status="open", public=False, version=0,
            config={"holders": [[other, "Open"]], "by": "open"}))
        conn.execute(insert(EventRow).values(table_id="t2", version=1, kind="SeatTaken",
                                             payload={"seat": 0, "nickname": "open"}))
        conn.execute(insert(MatchRow).values(
            table_id="t1", form="2", rated=False, finished_at=1.0, hands=1, winner=0,
            scores=[1, 0], seats=[{"seat": 0, "player_id": pid, "name": "Ada"},
                                  {"seat": 1, "player_id": other, "name": "Bob"}]))
        conn.execute(insert(GuestRow).values(id=pid, nickname="Ada"))
        metadata = reflected(conn)
        found = rows_naming(conn, metadata, [pid])
        assert {name: len(rows) for name, rows in found.items()} == {
            "guests": 1, "matches": 1, "tables": 1}
        replacement = Replacement(pid, "anon", "gone", names=frozenset({"open"}),
                                  aliases=frozenset({"Ada"}),
                                  name_keys=frozenset({"name", "nickname"}),
                                  name_columns=frozenset({"nickname"}))
        assert scrub(conn, metadata, replacement) == 4
        assert rows_naming(conn, metadata, [pid]) == {}
        tables = {r.id: (r.creator, r.config, r.status) for r in conn.execute(select(TableRow))}
        assert tables["t1"] == ("anon", {"seats": [{"kind": "open"}], "anon": {"mate": other},
                                         "note": f"{pid}!"}, "open")
        assert tables["t2"] == (other, {"holders": [[other, "Open"]], "by": "open"}, "open")
        assert conn.scalar(select(EventRow.payload)) == {"seat": 0, "nickname": "gone"}
        assert conn.scalar(select(MatchRow.seats)) == [
            {"seat": 0, "player_id": "anon", "name": "gone"},
            {"seat": 1, "player_id": other, "name": "Bob"}]
        assert conn.execute(select(GuestRow.id, GuestRow.nickname)).one() == ("anon", "gone")
