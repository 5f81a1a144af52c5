"""In-app notifications over real HTTP against ``burraco serve``: a challenge received, a
challenge accepted, a club invitation and a request to join, a new follower, a table found
by the pool, a friend's invitation to queue as partners; each gone once it is settled."""

from __future__ import annotations

from typing import Any

import httpx
from harness import ServerProcess
from players_harness import bearer, register
from pool_harness import accept, all_join, befriend, join, leave, matches, where


def _items(server: ServerProcess, token: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{server.base}/api/me/notifications", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return list(answer.json()["notifications"])


def _kinds(server: ServerProcess, token: str) -> list[str]:
    return sorted(i["kind"] for i in _items(server, token))


def test_what_waits_for_a_player(server: ServerProcess) -> None:
    base = server.base
    ugo, vera = register(server, "NotifUgo"), register(server, "NotifVera")
    assert _kinds(server, vera["token"]) == []
    httpx.put(f"{base}/api/me/following/NotifVera", headers=bearer(ugo["token"]))
    made = httpx.post(f"{base}/api/challenges", headers=bearer(ugo["token"]),
                      json={"to": "NotifVera", "format": "505"}).json()
    club = httpx.post(f"{base}/api/clubs", headers=bearer(ugo["token"]), json={
        "name": "Circolo Avvisi", "description": "", "public": False}).json()["id"]
    httpx.put(f"{base}/api/clubs/{club}/members/NotifVera", headers=bearer(ugo["token"]))
    items = _items(server, vera["token"])
    assert sorted(i["kind"] for i in items) == ["challenge", "club_invite", "follower"]
    assert len({i["key"] for i in items}) == 3
    challenge = next(i for i in items if i["kind"] == "challenge")
    assert challenge["from"] == "NotifUgo" and challenge["id"] == made["id"]
    # settled: accepted (the challenger is told, with his own seat), joined, followed back
    httpx.post(f"{base}/api/challenges/{made['id']}/accept", headers=bearer(vera["token"]))
    httpx.post(f"{base}/api/clubs/{club}/join", headers=bearer(vera["token"]))
    httpx.put(f"{base}/api/me/following/NotifUgo", headers=bearer(vera["token"]))
    assert _kinds(server, vera["token"]) == []
    told = _items(server, ugo["token"])
    assert [i["kind"] for i in told] == ["challenge_accepted"] and "seat=0" in told[0]["url"]
    # a request to join, for the club's admin
    walt = register(server, "NotifWalt")
    httpx.post(f"{base}/api/clubs/{club}/join", headers=bearer(walt["token"]))
    assert "club_request" in _kinds(server, ugo["token"])


def test_a_guest_is_told_of_the_table_the_pool_found(server: ServerProcess) -> None:
    guests = [httpx.post(f"{server.base}/api/guests", json={"nickname": name}).json()["token"]
              for name in ("Ospite A", "Ospite B")]
    body = {"format": "hand", "form": "2", "rated": False}
    all_join(server, [(token, body) for token in guests])
    found = matches(server, guests)
    for token in guests:
        items = _items(server, token)
        assert [i["kind"] for i in items] == ["pool_match"]
        assert items[0]["table"] == found[token]["table"]
    assert httpx.get(f"{server.base}/api/me/notifications").status_code == 401


def test_a_friend_s_invitation_to_queue_as_partners(server: ServerProcess) -> None:
    ines, otto = register(server, "NotifInes"), register(server, "NotifOtto")
    befriend(server, ines, otto)
    body = {"format": "505", "form": "4", "rated": False, "partner": "notifotto"}
    assert join(server, ines["token"], body).status_code == 200
    items = _items(server, otto["token"])
    assert [i["kind"] for i in items if i["kind"] != "follower"] == ["party_invite"]
    invite = next(i for i in items if i["kind"] == "party_invite")
    state = where(server, otto["token"])
    assert invite["by"] == "NotifInes" and invite["expires"] == state["expires"]
    assert invite["key"] == f"party_invite:NotifInes:{state['since']}"
    assert invite["pool"]["format"] == "505" and invite["pool"]["form"] == "4"
    assert "party_invite" not in _kinds(server, ines["token"])  # the inviter is told nothing
    # declined: gone; invited again and accepted: gone too, both waiting as partners
    assert leave(server, otto["token"]).status_code == 204
    assert "party_invite" not in _kinds(server, otto["token"])
    assert join(server, ines["token"], body).status_code == 200
    again = next(i for i in _items(server, otto["token"]) if i["kind"] == "party_invite")
    assert accept(server, otto["token"], {"by": "NotifInes"}).status_code == 200
    assert "party_invite" not in _kinds(server, otto["token"])
    assert where(server, ines["token"])["partner"] == "NotifOtto"
    assert again["by"] == "NotifInes"
    leave(server, ines["token"])
