"""Online rounds: web tables on a real ``burraco serve``, results flowing back when they end."""

from __future__ import annotations

import time

import pytest
from harness import ServerProcess

from burraco.tournament.online import line_totals

pytestmark = pytest.mark.xdist_group("e2e")


def test_line_totals_skip_hands_dealt_again() -> None:
    def hand(ns: int, ew: int, redeal: bool = False) -> dict[str, object]:
        return {"result": {"redeal": redeal, "sides": [
            {"seats": [0, 2], "total": ns}, {"seats": [1, 3], "total": ew}]}}

    assert line_totals([hand(300, -40), hand(0, 0, True), hand(-100, 450), {"result": None}]) \
        == [(300, -40), (-100, 450)]


def test_an_online_round_played_by_bots_reports_its_results(server: ServerProcess) -> None:
    http = server.http
    form = {"name": "Online night", "schedule": "mitchell:1", "hands": "1",
            "vp_table": "test one-hand:30,90,150,210,300,400,500,650,800,1000"}
    assert http.post("/tournaments/", data=form).status_code == 303
    base = "/tournaments/online-night"
    assert http.post(f"{base}/pairs", data={"pairs": "A\nB\nC\nD"}).status_code == 303
    page = http.post(f"{base}/online", data={"bots": "1"})
    assert page.status_code == 422 and "no round has started" in page.text
    assert http.post(f"{base}/rounds").status_code == 303
    page = http.post(f"{base}/online", data={"bots": "9"})
    assert page.status_code == 422 and "no pair 9" in page.text
    answer = http.post(f"{base}/online", data={"bots": "1,2,3,4", "level": "random",
                                               "bot_delay": "0"})
    assert answer.status_code == 303, answer.text
    director = http.get(f"{base}/").text
    assert director.count("data-online=") == 2
    players = http.get(f"{base}/standings").text
    assert "watch" in players and "token=" not in players.split("id='online'")[1].split(
        "watch")[0]
    deadline = time.monotonic() + 120
    results: list[dict[str, object]] = []
    while time.monotonic() < deadline:
        results = http.get("/api/tournaments/online-night").json()["results"]
        if len(results) == 2:
            break
        time.sleep(0.5)
    assert len(results) == 2, server.log()
    assert {r["source"] for r in results} == {"online"}
    for r in results:
        assert sum(r["vp"]) == 20  # type: ignore[arg-type]
        assert len(r["hands"]) == 1  # type: ignore[arg-type]
    again = http.post(f"{base}/online", data={})
    assert again.status_code == 422 and "already has a result or a web table" in again.text
