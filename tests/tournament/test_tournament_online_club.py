"""The club evenings' members linked to an online club, over real HTTP against ``burraco
serve``: the director names the club; its admins see which members have an account and
invite those not in it yet, in one go; a member declines or accepts as any invitation; bad
input is refused, changing nothing."""

from __future__ import annotations

import httpx
from evening_harness import create, ok, refused
from harness import ServerProcess
from players_harness import bearer, register


def _club(server: ServerProcess, token: str, name: str) -> str:
    made = httpx.post(f"{server.base}/api/clubs", headers=bearer(token),
                      json={"name": name, "description": "", "public": False})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_the_members_are_invited_to_the_online_club(server: ServerProcess) -> None:
    founder = register(server, "presidente")["token"]
    tokens = {name: register(server, name)["token"] for name in ("socio1", "socio2", "socio3")}
    for number, (name, username) in enumerate((("Anna Bianchi", "socio1"),
                                               ("Bruno Verdi", "socio2"),
                                               ("Carla Neri", "socio3"),
                                               ("Dario Gialli", None)), 31):
        form = {"number": str(number), "name": name, "category": "Open"}
        if username:
            form["account"] = username
        assert server.http.post("/tournaments/members", data=form).status_code == 200
    club = _club(server, founder, "Circolo Ponte")
    evening = create(server, "Thursday", "mitchell:1")
    # before the director names the club: nothing to see, nothing to invite
    seen = httpx.get(f"{server.base}/api/clubs/{club}/evening-members", headers=bearer(founder))
    assert seen.status_code == 200 and seen.json() == {"linked": False, "members": []}
    early = httpx.post(f"{server.base}/api/clubs/{club}/evening-members/invite",
                       headers=bearer(founder))
    assert early.status_code == 409 and early.json()["code"] == "not_linked"
    refused(server, evening, "online-club", "no online club at the address 'nowhere'",
            club="nowhere")
    assert "Circolo Ponte" in ok(server, evening, "online-club", club=club.upper())
    page = server.http.get(f"/tournaments/{evening}/").text
    assert f"value='{club}'" in page  # the director's page shows the link
    # only the club's admins see the members
    stranger = httpx.get(f"{server.base}/api/clubs/{club}/evening-members",
                         headers=bearer(tokens["socio1"]))
    assert stranger.status_code == 403
    listed = httpx.get(f"{server.base}/api/clubs/{club}/evening-members",
                       headers=bearer(founder)).json()
    assert listed["linked"] and [(m["name"], m["username"], m["role"])
                                 for m in listed["members"]] == [
        ("Anna Bianchi", "socio1", None), ("Bruno Verdi", "socio2", None),
        ("Carla Neri", "socio3", None)]  # Dario has no account: he cannot be invited
    blocked = httpx.put(f"{server.base}/api/me/blocked/presidente",
                        headers=bearer(tokens["socio3"]))
    assert blocked.status_code == 200, blocked.text
    sent = httpx.post(f"{server.base}/api/clubs/{club}/evening-members/invite",
                      headers=bearer(founder))
    assert sent.status_code == 200, sent.text
    assert sent.json()["invited"] == ["socio1", "socio2"]
    assert [s["username"] for s in sent.json()["skipped"]] == ["socio3"]  # a block stands
    joined = httpx.post(f"{server.base}/api/clubs/{club}/join", headers=bearer(tokens["socio1"]))
    assert joined.status_code == 200 and joined.json()["role"] == "member"
    after = httpx.get(f"{server.base}/api/clubs/{club}/evening-members",
                      headers=bearer(founder)).json()
    assert {m["username"]: m["role"] for m in after["members"]} == {
        "socio1": "member", "socio2": "invited", "socio3": None}
    again = httpx.post(f"{server.base}/api/clubs/{club}/evening-members/invite",
                       headers=bearer(founder)).json()
    assert again["invited"] == []  # nobody twice
    # unlinking: the admins see nothing again
    assert "no online club" in ok(server, evening, "online-club", club="")
    assert httpx.get(f"{server.base}/api/clubs/{club}/evening-members",
                     headers=bearer(founder)).json()["linked"] is False
