"""Team and individual rounds played online, by bots, on a real ``burraco serve``.

A team match is two web tables with the teams' lines crossed (§11.4) and is entered once
both are over, as the sum of the two; an individual table seats four players of whom each
is credited with his line's score.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from harness import ServerProcess

pytestmark = pytest.mark.xdist_group("e2e")
ONE_HAND = "test one-hand:30,90,150,210,300,400,500,650,800,1000"


def results_of(server: ServerProcess, tid: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 300
    found: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        found = server.http.get(f"/api/tournaments/{tid}").json()["results"]
        if len(found) == count:
            return found
        time.sleep(0.5)
    raise AssertionError(f"{len(found)} of {count} results after 300 s\n{server.log()}")


def test_a_team_round_online_adds_up_both_tables(server: ServerProcess) -> None:
    http = server.http
    form = {"name": "Coppa online", "kind": "teams", "schedule": "mitchell:1", "hands": "1",
            "vp_table": ONE_HAND}
    assert http.post("/tournaments/", data=form).status_code == 303
    base = "/tournaments/coppa-online"
    teams = "\n".join(f"Team {n}: A{n} / B{n} / C{n} / D{n}" for n in range(1, 5))
    assert http.post(f"{base}/pairs", data={"pairs": teams}).status_code == 303
    assert http.post(f"{base}/rounds").status_code == 303
    answer = http.post(f"{base}/online", data={"bots": "1,2,3,4", "level": "random",
                                               "bot_delay": "0"})
    assert answer.status_code == 303, answer.text
    director = http.get(f"{base}/").text
    assert director.count("data-online=") == 4, "two web tables per match"
    assert "match 1, table 2" in director
    results = results_of(server, "coppa-online", 2)
    for r in results:
        assert r["source"] == "online" and len(r["rooms"]) == 2
        assert r["mp"] == [sum(room[0] for room in r["rooms"]),
                           sum(room[1] for room in r["rooms"])]
        assert sum(r["vp"]) == 20


def test_an_individual_round_online_credits_both_partners(server: ServerProcess) -> None:
    http = server.http
    form = {"name": "Individuale online", "kind": "individual", "schedule": "random:1",
            "hands": "1", "vp_table": ONE_HAND, "duplicate": "1"}
    assert http.post("/tournaments/", data=form).status_code == 303
    base = "/tournaments/individuale-online"
    players = "\n".join(f"Player {n}" for n in range(1, 9))
    assert http.post(f"{base}/pairs", data={"pairs": players}).status_code == 303
    assert http.post(f"{base}/rounds").status_code == 303
    tables = http.get("/api/tournaments/individuale-online").json()["round"]["tables"]
    assert all(len(t["ns"]) == len(t["ew"]) == 2 for t in tables)
    answer = http.post(f"{base}/online", data={"bots": ",".join(map(str, range(1, 9))),
                                               "level": "random", "bot_delay": "0"})
    assert answer.status_code == 303, answer.text
    assert "player" in http.get(f"{base}/").text.split("id='online'")[1]
    results = results_of(server, "individuale-online", 2)
    standings = {s["pair"]: s for s in
                 http.get("/api/tournaments/individuale-online").json()["standings"]}
    for r in results:
        table = next(t for t in tables if t["table"] == r["table"])
        for side, line in ((0, table["ns"]), (1, table["ew"])):
            assert {standings[p]["vp"] for p in line} == {r["vp"][side]}


def test_players_cannot_watch_other_tables_of_a_duplicate_round_still_playing() -> None:
    """Same cards at every table: a watch link would show a player what is coming."""
    from burraco.tournament.model import Settings, Tournament
    from burraco.tournament.schedule import Schedule
    from burraco.tournament.web import online_html

    t = Tournament(Settings("Dup", schedule=Schedule.parse("mitchell:1"), duplicate=True))
    for name in "ABCD":
        t, _ = t.register(name)
    t = t.start_round()
    links = {n: [{"room": 0, "server_table": f"web{n}", "seats": {
        "watch": f"/watch/web{n}", "seats": [{"seat": s, "invite": f"/join/web{n}/{s}"}
                                             for s in range(4)]}}] for n in (1, 2)}
    assert "/watch/web1" not in online_html(t, links, invites=False)
    director = online_html(t, links, invites=True)
    assert "/watch/web1" in director and "/join/web2/3" in director
    t = t.record(1, 1, 900, 300).record(1, 2, 400, 400)
    assert "/watch/web1" in online_html(t, links, invites=False)
