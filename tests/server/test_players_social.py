"""Friends and blocks over real HTTP against ``burraco serve`` (a real SQLite file).

A follow both ways makes friends; a block ends the follows both ways, and the blocked
player can follow no more; bad input is refused naming the field and changes nothing; a
guest is told to log in; follows are limited per account.  The pool's side of a block
(never paired) is tested with the pool.
"""

from __future__ import annotations

from itertools import count

import httpx
from harness import ServerProcess
from players_harness import bearer, register

from burraco.accounts.social import kept_apart
from burraco.infra.db import make_engine

_n = count(1)


def _account(server: ServerProcess, stem: str) -> tuple[str, dict[str, str]]:
    name = f"{stem}{next(_n)}"
    return name, bearer(register(server, name)["token"])


def _circle(server: ServerProcess, auth: dict[str, str]) -> dict[str, list[str]]:
    answer = httpx.get(f"{server.base}/api/me/friends", headers=auth)
    assert answer.status_code == 200, answer.text
    return {key: [p["username"] for p in people] for key, people in answer.json().items()}


def test_follows_make_friends_and_a_block_ends_them(server: ServerProcess) -> None:
    anna, anna_auth = _account(server, "anna")
    bruno, bruno_auth = _account(server, "bruno")
    put = httpx.put(f"{server.base}/api/me/following/{bruno.upper()}", headers=anna_auth)
    assert put.status_code == 200 and put.json()["username"] == bruno  # any case
    assert _circle(server, anna_auth)["following"] == [bruno]
    assert _circle(server, bruno_auth)["followers"] == [anna]
    assert httpx.put(f"{server.base}/api/me/following/{anna}",
                     headers=bruno_auth).status_code == 200
    assert _circle(server, anna_auth)["friends"] == [bruno]
    assert _circle(server, bruno_auth)["friends"] == [anna]
    again = httpx.put(f"{server.base}/api/me/following/{bruno}", headers=anna_auth)
    assert again.status_code == 200 and _circle(server, anna_auth)["friends"] == [bruno]

    assert httpx.put(f"{server.base}/api/me/blocked/{anna}",
                     headers=bruno_auth).status_code == 200
    for auth in (anna_auth, bruno_auth):
        circle = _circle(server, auth)
        assert circle["friends"] == circle["following"] == circle["followers"] == []
    assert _circle(server, bruno_auth)["blocked"] == [anna]
    refused = httpx.put(f"{server.base}/api/me/following/{bruno}", headers=anna_auth)
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    assert httpx.put(f"{server.base}/api/me/following/{anna}",
                     headers=bruno_auth).status_code == 403  # the blocker neither
    assert httpx.delete(f"{server.base}/api/me/blocked/{anna}",
                        headers=bruno_auth).status_code == 200
    assert httpx.put(f"{server.base}/api/me/following/{bruno}",
                     headers=anna_auth).status_code == 200


def test_the_pool_reads_who_is_kept_apart(server: ServerProcess) -> None:
    carla, carla_auth = _account(server, "carla")
    dario, _ = _account(server, "dario")
    elena, elena_auth = _account(server, "elena")
    httpx.put(f"{server.base}/api/me/blocked/{dario}", headers=carla_auth)
    httpx.put(f"{server.base}/api/me/blocked/{carla}", headers=elena_auth)
    ids = {p["username"]: p["player_id"] for p in (
        httpx.get(f"{server.base}/api/me", headers=auth).json()
        for auth in (carla_auth, elena_auth))}
    engine = make_engine(server.db_url)
    with engine.connect() as conn:
        apart = kept_apart(conn, ids[carla])
    engine.dispose()
    assert len(apart) == 2 and ids[elena] in apart  # dario, whom carla blocked, and elena


def test_bad_input_and_guests_are_refused(server: ServerProcess) -> None:
    name, auth = _account(server, "fabio")
    before = _circle(server, auth)
    for username, words in (("nobody-here", "no player is called"), (name, "that is you"),
                            ("x" * 21, "1 to 20"), ("<b>x", "no player is called")):
        answer = httpx.put(f"{server.base}/api/me/following/{username}", headers=auth)
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "username" and words in answer.json()["detail"]
    assert _circle(server, auth) == before
    guest = httpx.get(f"{server.base}/api/me/friends")
    assert guest.status_code == 401 and guest.json()["code"] == "login_required"


def test_follows_are_limited_per_account(server: ServerProcess) -> None:
    name, auth = _account(server, "gino")
    other, _ = _account(server, "ivo")
    codes = [httpx.put(f"{server.base}/api/me/following/{other}", headers=auth).status_code
             for _ in range(61)]
    assert codes[:60] == [200] * 60 and codes[60] == 429
    assert name
