"""Accounts over real HTTP against a real server process: the contract of docs/protocol.md
("Accounts, ratings and leaderboards"), sessions, password change, throttling, and no
password in clear anywhere."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from harness import ServerProcess, postgres_schema
from players_harness import bearer, register

PASSWORD = "s3cret-Pa55word"


def test_register_gives_a_session_cookie_and_token(server: ServerProcess) -> None:
    response = httpx.post(f"{server.base}/api/accounts",
                          json={"username": "Ada_1", "password": PASSWORD})
    assert response.status_code == 201, response.text
    body = response.json()
    assert set(body) == {"player_id", "username", "token", "recovery_codes"}
    assert body["username"] == "Ada_1" and len(body["recovery_codes"]) == 10
    cookie = response.headers["set-cookie"]
    assert "burraco_session=" in cookie and "httponly" in cookie.lower()
    me = httpx.get(f"{server.base}/api/me", headers=bearer(body["token"])).json()
    assert me["username"] == "Ada_1" and me["player_id"] == body["player_id"]
    assert me["account"] is True and me["wait"] is None
    # the cookie alone works too (the browser's way)
    me2 = httpx.get(f"{server.base}/api/me", cookies={"burraco_session": body["token"]}).json()
    assert me2["username"] == "Ada_1"


def test_usernames_are_unique_regardless_of_case(server: ServerProcess) -> None:
    register(server, "Carla")
    response = httpx.post(f"{server.base}/api/accounts",
                          json={"username": "cARLA", "password": PASSWORD})
    assert response.status_code == 409 and response.json()["code"] == "username_taken"


@pytest.mark.parametrize(("body", "field"), [
    ({"username": "ab", "password": PASSWORD}, "username"),
    ({"username": "a" * 21, "password": PASSWORD}, "username"),
    ({"username": "<b>bold</b>", "password": PASSWORD}, "username"),
    ({"username": "tab\there", "password": PASSWORD}, "username"),
    ({"username": "nul\u0000x", "password": PASSWORD}, "username"),
    ({"username": "Ünïcode", "password": PASSWORD}, "username"),
    ({"username": 12345, "password": PASSWORD}, "username"),
    ({"username": "Valid_1", "password": "short"}, "password"),
    ({"username": "Valid_1", "password": 12345678}, "password"),
    ({"username": "Valid_1", "password": "x" * 2000}, "password"),
    ({"username": "Valid_1"}, "password"),
    ({"password": PASSWORD}, "username"),
])
def test_bad_input_is_422_naming_the_field_and_stores_nothing(
        server: ServerProcess, body: dict[str, object], field: str) -> None:
    response = httpx.post(f"{server.base}/api/accounts", json=body)
    assert response.status_code == 422, response.text
    assert field in response.json()["detail"]
    if isinstance(body.get("username"), str):  # the name is still free
        probe = httpx.post(f"{server.base}/api/sessions",
                           json={"username": body["username"], "password": PASSWORD})
        assert probe.status_code in (401, 429)
    conn = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    names = {row[0] for row in conn.execute("SELECT username_key FROM accounts")}
    conn.close()
    assert "valid_1" not in names and "ab" not in names


def test_extra_fields_and_wrong_json_are_refused(server: ServerProcess) -> None:
    response = httpx.post(f"{server.base}/api/accounts",
                          json={"username": "Extra", "password": PASSWORD, "admin": True})
    assert response.status_code == 422 and "admin" in response.json()["detail"]
    response = httpx.post(f"{server.base}/api/accounts", content=b"{not json",
                          headers={"content-type": "application/json"})
    # every unreadable body is 400 bad_json (docs/protocol.md), not a field error
    assert response.status_code == 400 and response.json()["code"] == "bad_json"


def test_login_and_the_same_401_for_a_wrong_name_or_password(server: ServerProcess) -> None:
    register(server, "Dario", PASSWORD)
    ok = httpx.post(f"{server.base}/api/sessions",
                    json={"username": "dario", "password": PASSWORD})
    assert ok.status_code == 200 and ok.json()["username"] == "Dario"
    assert "httponly" in ok.headers["set-cookie"].lower()
    wrong_pw = httpx.post(f"{server.base}/api/sessions",
                          json={"username": "Dario", "password": "not-the-password"})
    nobody = httpx.post(f"{server.base}/api/sessions",
                        json={"username": "Nobody_here", "password": "not-the-password"})
    assert wrong_pw.status_code == nobody.status_code == 401
    assert wrong_pw.json() == nobody.json()


def test_logout_ends_the_session(server: ServerProcess) -> None:
    token = register(server, "Elena")["token"]
    assert httpx.get(f"{server.base}/api/me", headers=bearer(token)).status_code == 200
    out = httpx.delete(f"{server.base}/api/sessions", headers=bearer(token))
    assert out.status_code == 200
    after = httpx.get(f"{server.base}/api/me", headers=bearer(token))
    assert after.status_code == 401 and after.json()["code"] == "bad_token"


def test_password_change_ends_every_other_session(server: ServerProcess) -> None:
    first = register(server, "Fabio", PASSWORD)["token"]
    second = httpx.post(f"{server.base}/api/sessions",
                        json={"username": "Fabio", "password": PASSWORD}).json()["token"]
    bad = httpx.post(f"{server.base}/api/me/password", headers=bearer(first),
                     json={"current_password": PASSWORD, "new_password": "short"})
    assert bad.status_code == 422 and "new_password" in bad.json()["detail"]
    wrong = httpx.post(f"{server.base}/api/me/password", headers=bearer(first),
                       json={"current_password": "wrong-password", "new_password": "x" * 12})
    assert wrong.status_code == 401
    assert httpx.get(f"{server.base}/api/me", headers=bearer(second)).status_code == 200
    done = httpx.post(f"{server.base}/api/me/password", headers=bearer(first),
                      json={"current_password": PASSWORD, "new_password": "brand new pass"})
    assert done.status_code == 200, done.text
    assert httpx.get(f"{server.base}/api/me", headers=bearer(first)).status_code == 200
    assert httpx.get(f"{server.base}/api/me", headers=bearer(second)).status_code == 401
    old = httpx.post(f"{server.base}/api/sessions",
                     json={"username": "Fabio", "password": PASSWORD})
    new = httpx.post(f"{server.base}/api/sessions",
                     json={"username": "Fabio", "password": "brand new pass"})
    assert old.status_code == 401 and new.status_code == 200


def test_sessions_survive_a_restart(tmp_path: Path) -> None:
    process = ServerProcess(f"sqlite:///{tmp_path / 'b.db'}", tmp_path / "s.log")
    process.start()
    try:
        token = register(process, "Gianni")["token"]
        process.stop()
        process = ServerProcess(process.db_url, process.log_path)
        process.start()
        me = httpx.get(f"{process.base}/api/me", headers=bearer(token))
        assert me.status_code == 200 and me.json()["username"] == "Gianni"
    finally:
        process.stop()


def test_profile_is_404_for_nobody_and_escapes_nothing_it_should_not(
        server: ServerProcess) -> None:
    register(server, "Ilaria")
    found = httpx.get(f"{server.base}/api/players/ilaria")
    assert found.status_code == 200
    body = found.json()
    assert body["username"] == "Ilaria" and body["recent"] == [] and body["ratings"] == {}
    assert "password_hash" not in found.text and "$argon2" not in found.text
    for name in ("Nobody_at_all", "<script>", "x"):
        missing = httpx.get(f"{server.base}/api/players/{name}")
        assert missing.status_code == 404 and missing.json()["code"] == "player_not_found"


@pytest.fixture
def throttled_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{tmp_path / 't.db'}", tmp_path / "t.log")
    process.start()
    yield process
    process.stop()


def test_wrong_passwords_are_throttled_per_username_then_per_address(
        throttled_server: ServerProcess) -> None:
    server = throttled_server
    register(server, "Luca", PASSWORD)
    for _ in range(5):
        r = httpx.post(f"{server.base}/api/sessions",
                       json={"username": "Luca", "password": "guess-guess"})
        assert r.status_code == 401
    locked = httpx.post(f"{server.base}/api/sessions",
                        json={"username": "LUCA", "password": PASSWORD})
    assert locked.status_code == 429 and locked.json()["code"] == "throttled"
    assert 0 < int(locked.headers["retry-after"]) <= 15 * 60
    # an unknown name is throttled alike: the answer says nothing of who exists
    for _ in range(5):
        httpx.post(f"{server.base}/api/sessions",
                   json={"username": "Ghost_1", "password": "guess-guess"})
    ghost = httpx.post(f"{server.base}/api/sessions",
                       json={"username": "Ghost_1", "password": "guess-guess"})
    assert ghost.status_code == 429
    # per address: 20 failures from one address over many names lock it
    for n in range(10):
        httpx.post(f"{server.base}/api/sessions",
                   json={"username": f"Spray_{n}", "password": "guess-guess"})
    register(server, "Marta", PASSWORD)
    blocked = httpx.post(f"{server.base}/api/sessions",
                         json={"username": "Marta", "password": PASSWORD})
    assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) > 0


def test_a_locked_name_still_lets_its_owner_in_from_an_address_that_never_failed(
        throttled_server: ServerProcess) -> None:
    """The audit's finding 12: five wrong passwords from one address lock the name for that
    address, not for the owner elsewhere; a guess from a fresh address counts against it."""
    server = throttled_server
    register(server, "Nora", PASSWORD)
    for _ in range(5):
        httpx.post(f"{server.base}/api/sessions", json={"username": "Nora", "password": "nope"})
    here = httpx.post(f"{server.base}/api/sessions",
                      json={"username": "Nora", "password": PASSWORD})
    assert here.status_code == 429  # the attacker's address stays locked out of the name
    owner = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"))
    with owner, other:
        ok = owner.post(f"{server.base}/api/sessions",
                        json={"username": "Nora", "password": PASSWORD})
        assert ok.status_code == 200, ok.text
        guess = other.post(f"{server.base}/api/sessions",
                           json={"username": "Nora", "password": "still wrong"})
        assert guess.status_code == 401  # one guess from a fresh address...
        again = other.post(f"{server.base}/api/sessions",
                           json={"username": "Nora", "password": PASSWORD})
        assert again.status_code == 429  # ...and that address has failed: locked out too


def test_no_password_in_clear_in_the_database_or_the_logs(tmp_path: Path) -> None:
    secret = "Unmistakable-Pass-9731"
    process = ServerProcess(f"sqlite:///{tmp_path / 'p.db'}", tmp_path / "p.log",
                            extra=["--log-level", "debug"])
    process.start()
    try:
        register(process, "Nadia", secret)
        httpx.post(f"{process.base}/api/sessions", json={"username": "Nadia", "password": secret})
        httpx.post(f"{process.base}/api/sessions",
                   json={"username": "Nadia", "password": secret + "x"})
    finally:
        process.stop()
    for path in tmp_path.iterdir():
        assert secret.encode() not in path.read_bytes(), path.name
    conn = sqlite3.connect(tmp_path / "p.db")
    (stored,) = conn.execute("SELECT password_hash FROM accounts").fetchone()
    tokens = [row[0] for row in conn.execute("SELECT secret_hash FROM sessions")]
    conn.close()
    assert stored.startswith("$argon2id$") and len(tokens) == 2


def test_the_contract_on_postgresql(tmp_path: Path) -> None:
    with postgres_schema() as url:
        process = ServerProcess(url, tmp_path / "pg.log")
        process.start()
        try:
            body = register(process, "Pietro", PASSWORD)
            taken = httpx.post(f"{process.base}/api/accounts",
                               json={"username": "PIETRO", "password": PASSWORD})
            assert taken.status_code == 409
            login = httpx.post(f"{process.base}/api/sessions",
                               json={"username": "pietro", "password": PASSWORD})
            assert login.status_code == 200
            me = httpx.get(f"{process.base}/api/me", headers=bearer(body["token"])).json()
            assert me["username"] == "Pietro"
            assert httpx.get(f"{process.base}/api/players/Pietro").status_code == 200
            board = httpx.get(f"{process.base}/api/leaderboard?players=4&period=week").json()
            assert board["entries"] == []
        finally:
            process.stop()
