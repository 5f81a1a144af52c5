"""Online tournaments run by themselves against ``burraco serve`` (real HTTP, WebSockets and a
SQLite file): a Swiss of 16 scripted players and an arena of 12, each from its scheduled start
to its final standings, with a player who never sits down and one who withdraws.

The rules of the events are the project's (docs/tournaments-online.md): a Swiss pairs by
score then rating with no rematch where avoidable and gives a bye a win; a no-show loses its
game and a second miss withdraws it; an arena pairs whoever waits and scores 2 a win, 4 a
win on a streak.  RULES.md §11.5 gives the club's bye (14 VP), which a ``vp3`` Swiss uses.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from itertools import count
from typing import Any

import httpx
from events_harness import Entrant, detail, join, schedule
from harness import ServerProcess
from players_harness import bearer, register
from sqlalchemy import select

from burraco.infra.db import make_engine
from burraco.server.storage.models import DealGroupTableRow, GameRow

_n = count(1)


def _accounts(server: ServerProcess, stem: str, n: int) -> list[tuple[str, str]]:
    out = []
    for _ in range(n):
        name = f"{stem}{next(_n)}"
        out.append((name, register(server, name)["token"]))
    return out


async def _run_all(entrants: list[Entrant], seconds: float) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    return list(await asyncio.gather(*(e.run(deadline) for e in entrants)))


def _finished(server: ServerProcess, event_id: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        event = detail(server, event_id)
        if event["phase"] == "finished":
            return event
        time.sleep(0.3)
    raise AssertionError(f"event {event_id} not finished: {detail(server, event_id)}")


def test_a_swiss_of_sixteen_runs_by_itself(server: ServerProcess) -> None:
    people = _accounts(server, "svizzera", 16)
    event = schedule(server, people[0][1], name="Thursday Swiss", kind="swiss", form="2",
                     format="hand", rounds=3, starts=time.time() + 10, turn_seconds=30,
                     show_seconds=10)
    event_id = event["id"]
    assert event["phase"] == "open" and event["entered"] == 0
    for _, token in people:
        assert join(server, token, event_id).status_code == 200
    again = join(server, people[3][1], event_id)
    assert again.status_code == 422 and again.json()["field"] == "account"
    assert detail(server, event_id)["entered"] == 16
    absent = people[5][1]  # never sits down: two missed rounds withdraw it
    quitter = people[9][1]  # plays one round, then withdraws
    entrants = [Entrant(server, token, event_id, shows=token != absent,
                        withdraw_after=1 if token == quitter else None)
                for _, token in people]
    asyncio.run(_run_all(entrants, 240))
    final = _finished(server, event_id)
    standings = final["standings"]
    assert len(standings) == 16
    by_name = {s["names"][0]: s for s in standings}
    absent_name = next(n for n, t in people if t == absent)
    quitter_name = next(n for n, t in people if t == quitter)
    assert by_name[absent_name]["withdrawn"] and by_name[absent_name]["score"] == 0
    assert by_name[quitter_name]["withdrawn"] and by_name[quitter_name]["games"] == 1
    # three rounds; no pair met twice; the withdrawn played no further round
    games = final["games"]
    assert max(g["round"] for g in games) == 3
    meetings = Counter(tuple(sorted((g["sides"][0][0], g["sides"][1][0]))) for g in games)
    assert max(meetings.values()) == 1
    later = [g for g in games if g["round"] >= 2]
    assert not any(quitter_name in (g["sides"][0][0], g["sides"][1][0]) for g in later)
    absent_games = [g for g in games if absent_name in (g["sides"][0][0], g["sides"][1][0])]
    assert len(absent_games) == 2 and all(g["result"]["absent"] for g in absent_games)
    # round 2: 15 in (the quitter out), seven games and a bye; round 3: 14 (the absent one
    # withdrawn by its second miss), seven games
    assert Counter(g["round"] for g in games) == {1: 8, 2: 7, 3: 7}
    assert [s["byes"] for s in standings].count(1) == 1 and sum(s["byes"] for s in standings) == 1
    # the scores are the games' results: 1 a win, ½ a draw; a bye scores a win
    points: Counter[str] = Counter({s["names"][0]: 1.0 * s["byes"] for s in standings})
    for g in games:
        r = g["result"]
        for side in (0, 1):
            name = g["sides"][side][0]
            points[name] += 1.0 if r["winner"] == side else 0.5 if r["winner"] is None \
                and not r["absent"] else 0.0
    assert {s["names"][0]: s["score"] for s in standings} == {
        n: points[n] for n, _ in people}
    assert [s["rank"] for s in standings] == list(range(1, 17))
    scores = [s["score"] for s in standings]
    assert scores == sorted(scores, reverse=True)
    # duplicate: every played table of a round dealt the same first hand, another each round
    engine = make_engine(server.db_url)
    with engine.connect() as conn:
        played = {g["table"]: g["round"] for g in games if not g["result"]["absent"]}
        decks = {t: json.dumps(deck) for t, deck in conn.execute(
            select(GameRow.table_id, GameRow.deck).where(
                GameRow.table_id.in_(list(played)), GameRow.number == 1))}
        groups = dict(conn.execute(select(DealGroupTableRow.table_id, DealGroupTableRow.group_id)
                                   .where(DealGroupTableRow.table_id.in_(list(played)))).all())
    engine.dispose()
    assert set(decks) == set(played) == set(groups)
    for rnd in (1, 2, 3):
        tables_of = [t for t, r in played.items() if r == rnd]
        assert len({decks[t] for t in tables_of}) == 1 and len({groups[t] for t in tables_of}) == 1
    assert len(set(decks.values())) == 3
    # the winner's profile has the event and a gold badge
    profile = httpx.get(f"{server.base}/api/players/{standings[0]['names'][0]}").json()
    assert profile["events"][0]["event"] == event_id and profile["events"][0]["rank"] == 1
    assert profile["badges"]["gold"] == 1


def test_an_arena_of_twelve_runs_by_itself(server: ServerProcess) -> None:
    people = _accounts(server, "arena", 12)
    event = schedule(server, people[0][1], name="Bullet arena", kind="arena", form="2",
                     format="hand", minutes=1, starts=time.time() + 10, turn_seconds=30,
                     show_seconds=10)
    event_id = event["id"]
    for _, token in people:
        assert join(server, token, event_id).status_code == 200
    absent, quitter = people[2][1], people[7][1]
    entrants = [Entrant(server, token, event_id, shows=token != absent,
                        withdraw_after=2 if token == quitter else None)
                for _, token in people]
    asyncio.run(_run_all(entrants, 240))
    final = _finished(server, event_id)
    assert final["phase"] == "finished" and final["ends"] is not None
    games = final["games"]
    assert all(g["result"] is not None for g in games)
    assert all(g["id"].startswith("a") for g in games)
    started = {g["id"]: g for g in games}
    assert len(started) == len(games)
    by_name = {s["names"][0]: s for s in final["standings"]}
    absent_name = next(n for n, t in people if t == absent)
    quitter_name = next(n for n, t in people if t == quitter)
    assert by_name[absent_name]["withdrawn"] and by_name[absent_name]["wins"] == 0
    assert by_name[quitter_name]["withdrawn"] and by_name[quitter_name]["games"] == 2
    # most players played several games in the minute; nobody was at two tables at once
    assert sum(1 for s in final["standings"] if s["games"] >= 2) >= 8
    for s in final["standings"]:
        assert s["score"] >= 2 * s["wins"] and s["score"] <= 4 * s["wins"] + s["draws"]


def test_bad_events_are_refused_naming_the_field(server: ServerProcess) -> None:
    (name, token), (other, other_token) = _accounts(server, "errato", 2)
    soon = time.time() + 600
    cases: list[tuple[dict[str, Any], str]] = [
        ({"name": "<b>x</b>", "kind": "swiss", "form": "2", "rounds": 3, "starts": soon}, "name"),
        ({"name": "X", "kind": "ladder", "form": "2", "rounds": 3, "starts": soon}, "kind"),
        ({"name": "X", "kind": "swiss", "form": "3", "rounds": 3, "starts": soon}, "form"),
        ({"name": "X", "kind": "swiss", "form": "2", "rounds": 40, "starts": soon}, "rounds"),
        ({"name": "X", "kind": "swiss", "form": "2", "rounds": 3, "starts": "tonight"},
         "starts"),
        ({"name": "X", "kind": "swiss", "form": "2", "rounds": 3, "starts": time.time() - 5},
         "starts"),
        ({"name": "X", "kind": "arena", "form": "2", "minutes": 30, "rounds": 3,
          "starts": soon}, "rounds"),
        ({"name": "X", "kind": "arena", "form": "2", "minutes": 30, "starts": soon,
          "turn_seconds": "fast"}, "turn_seconds"),
        ({"name": "X", "kind": "arena", "form": "2", "minutes": 30, "starts": soon,
          "format": "9999"}, "format"),
        ({"name": "X", "kind": "arena", "form": "2", "minutes": 30, "starts": soon,
          "club": "nowhere"}, "club"),
        ({"name": "X", "kind": "arena", "form": "2", "minutes": 30, "starts": soon,
          "format": "hand", "rated": True}, "format"),  # one deal's luck moves no rating
    ]
    before = httpx.get(f"{server.base}/api/events").json()["events"]
    for body, field in cases:
        answer = httpx.post(f"{server.base}/api/events", headers=bearer(token), json=body)
        assert answer.status_code in (403, 422), (body, answer.text)
        assert answer.json()["field"] == field, (body, answer.text)
    extra = httpx.post(f"{server.base}/api/events", headers=bearer(token),
                       json={"name": "X", "kind": "swiss", "form": "2", "rounds": 3,
                             "starts": soon, "colour": "red"})
    assert extra.status_code == 422
    assert httpx.get(f"{server.base}/api/events").json()["events"] == before
    guest = server.guest("Ospite")
    as_guest = httpx.post(f"{server.base}/api/events", headers=bearer(guest),
                          json={"name": "X", "kind": "swiss", "form": "2", "rounds": 3,
                                "starts": soon})
    assert as_guest.status_code == 403 and as_guest.json()["code"] == "account_required"
    # a pairs event is entered with a friend; anyone else is refused, naming the partner
    pairs = schedule(server, token, name="Pairs", kind="swiss", form="4", rounds=2,
                     starts=soon)
    alone = join(server, token, pairs["id"])
    assert alone.status_code == 422 and alone.json()["field"] == "partner"
    stranger = join(server, token, pairs["id"], partner=other)
    assert stranger.status_code == 422 and stranger.json()["field"] == "partner"
    for me, them in ((token, other), (other_token, name)):
        assert httpx.put(f"{server.base}/api/me/following/{them}",
                         headers=bearer(me)).status_code == 200
    assert join(server, token, pairs["id"], partner=other).status_code == 200
    entered = detail(server, pairs["id"], other_token)
    assert entered["entered"] == 1 and entered["me"]["entrant"] is not None
    left = httpx.delete(f"{server.base}/api/events/{pairs['id']}/join",
                        headers=bearer(other_token))
    assert left.status_code == 200 and left.json()["entered"] == 0


