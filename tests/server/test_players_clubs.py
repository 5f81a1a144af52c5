"""Online clubs over real HTTP against ``burraco serve`` (a real SQLite file).

A club founded, a member invited and accepting, a request accepted, an admin appointed, a
member removed; a club by invitation hides its members from outsiders; its leaderboard
ranks its members' ratings; bad input is refused naming the field and changes nothing.
"""

from __future__ import annotations

from itertools import count
from typing import Any

import httpx
from harness import ServerProcess
from players_harness import bearer, register

from burraco.infra.db import make_engine

_n = count(1)


def _account(server: ServerProcess, stem: str) -> tuple[str, dict[str, str]]:
    name = f"{stem}{next(_n)}"
    return name, bearer(register(server, name)["token"])


def _club(server: ServerProcess, club: str, auth: dict[str, str] | None = None) -> Any:
    answer = httpx.get(f"{server.base}/api/clubs/{club}", headers=auth or {})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_club_by_invitation_from_founding_to_its_leaderboard(server: ServerProcess) -> None:
    base = server.base
    founder, f_auth = _account(server, "fondatore")
    made = httpx.post(f"{base}/api/clubs", headers=f_auth, json={
        "name": "Circolo Più Burraco", "description": "Il giovedì sera", "public": False})
    assert made.status_code == 201, made.text
    club = made.json()["id"]
    assert club == "circolo-piu-burraco"
    anna, a_auth = _account(server, "anna")
    bruno, b_auth = _account(server, "bruno")
    outsider, o_auth = _account(server, "estraneo")
    # an outsider sees the club, not its members
    seen = _club(server, club, o_auth)
    assert seen["members"] == 1 and "members_list" not in seen and seen["role"] is None
    # invited, then accepting
    assert httpx.put(f"{base}/api/clubs/{club}/members/{anna}",
                     headers=f_auth).json()["role"] == "invited"
    assert httpx.post(f"{base}/api/clubs/{club}/join", headers=a_auth).json()["role"] == "member"
    # asking, then accepted by an admin
    assert httpx.post(f"{base}/api/clubs/{club}/join", headers=b_auth).json()["role"] == "asked"
    assert _club(server, club, f_auth)["pending"][0]["username"] == bruno
    refused = httpx.post(f"{base}/api/clubs/{club}/members/{bruno}/accept", headers=a_auth)
    assert refused.status_code == 403 and refused.json()["code"] == "not_admin"
    assert httpx.put(f"{base}/api/clubs/{club}/admins/{anna}", headers=f_auth,
                     json={"admin": True}).json()["role"] == "admin"
    assert httpx.post(f"{base}/api/clubs/{club}/members/{bruno}/accept",
                      headers=a_auth).json()["role"] == "member"
    members = _club(server, club, b_auth)["members_list"]
    assert [(m["username"], m["role"]) for m in members] == [
        (founder, "founder"), (anna, "admin"), (bruno, "member")]
    # the leaderboard: the members' ratings, best first
    ids = {httpx.get(f"{base}/api/me", headers=auth).json()["username"]:
           httpx.get(f"{base}/api/me", headers=auth).json()["player_id"]
           for auth in (f_auth, a_auth, b_auth, o_auth)}
    engine = make_engine(server.db_url)
    with engine.begin() as conn:
        for name, mu in ((anna, 1720.0), (bruno, 1480.0), (outsider, 1900.0)):
            conn.exec_driver_sql(
                "INSERT INTO ratings (player_id, form, mu, sigma, matches) VALUES (?, '2', ?, "
                "200, 12)", (ids[name], mu))
    engine.dispose()
    board = _club(server, club, b_auth)["leaderboard"]["2"]
    assert [(r["username"], r["rating"]) for r in board] == [(anna, 1720), (bruno, 1480)]
    # removing: an admin removes a member, never the founder; the founder cannot leave
    assert httpx.delete(f"{base}/api/clubs/{club}/members/{founder}",
                        headers=a_auth).status_code == 403
    assert httpx.delete(f"{base}/api/clubs/{club}/members/{bruno}",
                        headers=a_auth).status_code == 200
    assert "members_list" not in _club(server, club, b_auth)  # no longer a member
    assert httpx.delete(f"{base}/api/clubs/{club}/membership",
                        headers=f_auth).json()["code"] == "founder"
    listed = httpx.get(f"{base}/api/clubs", headers=o_auth).json()["clubs"]
    assert club not in [c["id"] for c in listed]  # by invitation: not listed to outsiders
    mine = httpx.get(f"{base}/api/clubs", headers=a_auth).json()["clubs"]
    assert [(c["id"], c["role"]) for c in mine if c["id"] == club] == [(club, "admin")]


def test_a_public_club_takes_anyone_and_guests_may_look(server: ServerProcess) -> None:
    _, f_auth = _account(server, "pubblico")
    club = httpx.post(f"{server.base}/api/clubs", headers=f_auth, json={
        "name": "Burraco per tutti", "description": "", "public": True}).json()["id"]
    name, auth = _account(server, "chiunque")
    assert httpx.post(f"{server.base}/api/clubs/{club}/join",
                      headers=auth).json()["role"] == "member"
    guest = httpx.get(f"{server.base}/api/clubs/{club}").json()
    assert name in [m["username"] for m in guest["members_list"]]
    assert httpx.post(f"{server.base}/api/clubs/{club}/join").status_code == 401


def test_bad_clubs_are_refused_and_change_nothing(server: ServerProcess) -> None:
    _, auth = _account(server, "sbagli")
    before = httpx.get(f"{server.base}/api/clubs", headers=auth).json()
    for body, field in (({"name": "<b>x</b>", "description": "", "public": True}, "name"),
                        ({"name": "ab", "description": "", "public": True}, "name"),
                        ({"name": "Buon nome", "description": "x" * 501, "public": True},
                         "description"),
                        ({"name": "Buon nome", "description": "", "public": "yes"}, "public"),
                        ({"name": 7, "description": "", "public": True}, "name")):
        answer = httpx.post(f"{server.base}/api/clubs", headers=auth, json=body)
        assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
    made = httpx.post(f"{server.base}/api/clubs", headers=auth, json={
        "name": "Unico", "description": "", "public": True})
    assert made.status_code == 201
    twin = httpx.post(f"{server.base}/api/clubs", headers=auth, json={
        "name": "UNICO", "description": "", "public": True})
    assert twin.status_code == 409 and twin.json()["field"] == "name"
    missing = httpx.get(f"{server.base}/api/clubs/no-such-club")
    assert missing.status_code == 404
    after = httpx.get(f"{server.base}/api/clubs", headers=auth).json()
    assert len(after["clubs"]) == len(before["clubs"]) + 1
