"""A club's room over real HTTP against ``burraco serve`` (docs/protocol.md §14.4): the
members here now (online, at a table, in a pool), the club's own tournaments; a club by
invitation's room is its members' only."""

from __future__ import annotations

import time

import httpx
from events_harness import schedule
from harness import ServerProcess
from players_harness import bearer, register


def _club(server: ServerProcess, token: str, name: str, public: bool) -> str:
    made = httpx.post(f"{server.base}/api/clubs", headers=bearer(token),
                      json={"name": name, "description": "", "public": public})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_the_room_shows_who_is_here_and_the_clubs_tournaments(server: ServerProcess) -> None:
    boss = register(server, "stanza_capo")["token"]
    member = register(server, "stanza_socio")["token"]
    stranger = register(server, "stanza_altro")["token"]
    club = _club(server, boss, "Stanza Chiusa", public=False)
    assert httpx.put(f"{server.base}/api/clubs/{club}/members/stanza_socio",
                     headers=bearer(boss)).status_code == 200
    # invited is not in: the room is the members'
    for token in (member, stranger, None):
        seen = httpx.get(f"{server.base}/api/clubs/{club}/room",
                         headers=bearer(token) if token else {})
        assert seen.status_code == 404, seen.text
    assert httpx.post(f"{server.base}/api/clubs/{club}/join",
                      headers=bearer(member)).status_code == 200
    # the member waits in a pool; the founder looks at the room (and is seen)
    waiting = httpx.post(f"{server.base}/api/pool", headers=bearer(member),
                         json={"format": "505", "form": "4", "rated": False,
                               "bots_after": None})
    assert waiting.status_code == 200, waiting.text
    club_event = schedule(server, boss, name="Serata online", kind="swiss", form="2",
                          rounds=2, starts=time.time() + 3600, club=club)
    open_event = schedule(server, boss, name="Per tutti", kind="swiss", form="2", rounds=2,
                          starts=time.time() + 3600)
    room = httpx.get(f"{server.base}/api/clubs/{club}/room", headers=bearer(boss)).json()
    here = {m["username"]: m for m in room["members"]}
    assert set(here) == {"stanza_capo", "stanza_socio"}
    assert here["stanza_socio"]["pool"] == "505/4/casual" and here["stanza_socio"]["online"]
    assert here["stanza_capo"]["online"] and here["stanza_capo"]["table"] is None
    assert [e["id"] for e in room["events"]] == [club_event["id"]]  # the club's only
    assert open_event["id"] not in [e["id"] for e in room["events"]]
    httpx.delete(f"{server.base}/api/pool", headers=bearer(member))
    # the club's event is not shown to a stranger, anywhere
    listed = httpx.get(f"{server.base}/api/events", headers=bearer(stranger)).json()["events"]
    assert club_event["id"] not in [e["id"] for e in listed]
    assert httpx.get(f"{server.base}/api/events/{club_event['id']}",
                     headers=bearer(stranger)).status_code == 404


def test_a_public_clubs_room_is_anyones(server: ServerProcess) -> None:
    boss = register(server, "piazza_capo")["token"]
    club = _club(server, boss, "Piazza Aperta", public=True)
    seen = httpx.get(f"{server.base}/api/clubs/{club}/room")
    assert seen.status_code == 200
    assert [m["username"] for m in seen.json()["members"]] == ["piazza_capo"]
    assert httpx.get(f"{server.base}/api/clubs/nowhere-at-all/room").status_code == 404
