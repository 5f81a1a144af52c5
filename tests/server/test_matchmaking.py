"""The matchmaking pool over real HTTP and WebSockets ("Play now, with people";
docs/protocol.md, "Matchmaking"): two accounts meeting at one rated table and sitting down,
many players paired at once (each exactly once, only within their windows), bots for a casual
player who waits and never for a rated one, and bad input refused naming its field.

A real ``burraco serve`` on a SQLite file; the accounts' ratings are written into its
database as a finished rated match would.  The pairing across two processes of a cluster:
``test_matchmaking_cluster.py``; the widening windows under a simulated clock, and the
idempotent seating: ``test_matchmaking_units.py``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from players_harness import register
from pool_harness import (
    all_join,
    join,
    leave,
    matches,
    set_ratings,
    sit,
    started_view,
    table_of,
    where,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("pool")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()
    assert "Traceback" not in process.log_path.read_text(errors="replace")


def test_two_accounts_meet_at_one_rated_table_and_sit_down(server: ServerProcess) -> None:
    ada = register(server, "PoolAda")
    bob = register(server, "PoolBob")
    body = {"format": "505", "form": "2", "rated": True}
    all_join(server, [(ada["token"], body), (bob["token"], body)])
    found = matches(server, [ada["token"], bob["token"]])
    mine, theirs = found[ada["token"]], found[bob["token"]]
    assert mine["table"] == theirs["table"] and mine["id"] == theirs["id"]
    assert {mine["seat"], theirs["seat"]} == {0, 1}
    assert mine["rated"] and mine["pool"]["name"] == "505/2/rated" and mine["bots"] == []
    assert sorted(mine["players"]) == ["PoolAda", "PoolBob"]
    assert mine["token"] != theirs["token"]  # each is told their own seat, never the other's
    assert theirs["token"] not in json.dumps(mine)
    table = table_of(server, mine)
    config = table["config"]
    assert config["rated"] and not config["casual"] and not config["public"]
    assert config["players"] == 2 and config["mode"] == "free" and config["target"] == 505
    assert [s["kind"] for s in config["seats"]] == ["human", "human"]

    async def main() -> list[dict[str, Any]]:
        one = await sit(server, mine, ada["token"])
        two = await sit(server, theirs, bob["token"])
        try:
            return list(await asyncio.gather(started_view(one), started_view(two)))
        finally:
            await one.close()
            await two.close()

    for view in asyncio.run(main()):
        assert view["status"] == "playing" and view["table"]["config"]["rated"]
        names = {s["seat"]: s["nickname"] for s in view["seats"]}
        assert names == {mine["seat"]: "PoolAda", theirs["seat"]: "PoolBob"}
    # a rated match of the pool still to be played: no second rated join, a casual one is fine
    again = join(server, ada["token"], body)
    assert again.status_code == 409 and again.json()["code"] == "one_seat", again.text
    casual = join(server, ada["token"], {"format": "hand", "form": "2"})
    assert casual.status_code == 200, casual.text
    assert leave(server, ada["token"]).status_code == 204


def test_many_players_at_once_each_seated_once_within_their_windows(
        server: ServerProcess) -> None:
    """Eight in form 2 whose ratings come in four pairs, each pair more than 100 apart from
    the others (so each may meet only its pair at once); four in form 4 within 100."""
    two = [1300, 1340, 1500, 1560, 1700, 1720, 1900, 1990]
    four = [1450, 1480, 1520, 1545]
    wanted = [(f"Two{i}", "2", r) for i, r in enumerate(two)] + [
        (f"Four{i}", "4", r) for i, r in enumerate(four)]
    with ThreadPoolExecutor(len(wanted)) as threads:  # each registration hashes a password
        made = list(threads.map(lambda w: register(server, w[0]), wanted))
    people = {name: (body, form, r) for (name, form, r), body in zip(wanted, made, strict=True)}
    set_ratings(server, {p["player_id"]: (form, float(r)) for p, form, r in people.values()})
    token_of = {name: p["token"] for name, (p, _, _) in people.items()}
    rating_of = {name: r for name, (_, _, r) in people.items()}
    all_join(server, [(p["token"], {"format": "vp3", "form": form, "rated": form == "2"})
                      for p, form, _ in people.values()])
    found = matches(server, list(token_of.values()))
    by_name = {name: found[token] for name, token in token_of.items()}
    tables: dict[str, list[tuple[int, str]]] = {}
    for name, match in by_name.items():
        tables.setdefault(match["table"], []).append((match["seat"], name))
    assert len(tables) == 5, tables
    for table, seated in tables.items():
        seats = sorted(seat for seat, _ in seated)
        assert seats == list(range(len(seats))), (table, seated)  # nobody twice, no seat twice
        names = [name for _, name in sorted(seated)]
        match = by_name[names[0]]
        assert match["players"] == names and match["bots"] == []
        if len(names) == 2:
            gap = abs(rating_of[names[0]] - rating_of[names[1]])
            assert gap <= 100, (names, gap)  # within the window of a player who just came
            assert match["rated"] and table_of(server, match)["config"]["rated"]
        else:
            assert sorted(names) == [f"Four{i}" for i in range(4)]
            teams = {name: by_name[name]["team"] for name in names}
            # the best balanced sides: 1450 with 1545 against 1480 with 1520
            assert teams["Four0"] == teams["Four3"] != teams["Four1"] == teams["Four2"]
            assert not match["rated"] and table_of(server, match)["config"]["players"] == 4
    pairs = sorted(sorted(name for _, name in seated) for seated in tables.values()
                   if len(seated) == 2)
    assert pairs == [["Two0", "Two1"], ["Two2", "Two3"], ["Two4", "Two5"], ["Two6", "Two7"]]


def test_bots_for_a_casual_player_who_waits_never_for_a_rated_one(
        server: ServerProcess) -> None:
    guest = server.guest("Patient")
    rated = register(server, "LonelyRated")["token"]
    start = time.monotonic()
    casual = join(server, guest, {"format": "hand", "form": "2", "rated": False,
                                  "bots_after": 10})
    assert casual.status_code == 200 and casual.json()["bots_after"] == 10
    alone = join(server, rated, {"format": "2005", "form": "2", "rated": True})
    assert alone.status_code == 200 and alone.json()["bots_after"] is None
    waiting = where(server, guest)
    assert waiting["state"] == "waiting" and waiting["pool"]["name"] == "hand/2/casual"
    assert waiting["waiting"] == 1 and waiting["window"] == [1400.0, 1600.0]
    match = matches(server, [guest], timeout=20)[guest]
    waited = time.monotonic() - start
    assert 9.5 <= waited <= 15, waited
    assert match["bots"] == ["basic"] and match["players"] == ["Patient"] and match["seat"] == 0
    config = table_of(server, match)["config"]
    assert [s["kind"] for s in config["seats"]] == ["human", "bot"] and config["casual"]
    assert config["mode"] == "smazzate" and config["smazzate"] == 1 and not config["rated"]
    time.sleep(1.2)  # a pairing more, past the casual player's bots: still alone
    still = where(server, rated)
    assert still["state"] == "waiting" and still["waited"] >= 10, still
    assert leave(server, rated).status_code == 204
    assert where(server, rated) == {"state": "none"}


BAD = [
    ({"format": "999", "form": "2"}, "format"),
    ({"format": "<script>alert(1)</script>", "form": "2"}, "format"),
    ({"format": "x" * 50_000, "form": "2"}, "format"),
    ({"format": 505, "form": "2"}, "format"),
    ({"form": "2"}, "format"),
    ({"format": "505", "form": "3"}, "form"),
    ({"format": "505", "form": 2}, "form"),
    ({"format": "505"}, "form"),
    ({"format": "505", "form": "2", "rated": "true"}, "rated"),
    ({"format": "505", "form": "2", "rated": 1}, "rated"),
    ({"format": "505", "form": "2", "rated": None}, "rated"),
    ({"format": "505", "form": "2", "rated": True, "bots_after": 30}, "bots_after"),
    ({"format": "505", "form": "2", "bots_after": 5}, "bots_after"),
    ({"format": "505", "form": "2", "bots_after": 10 ** 400}, "bots_after"),
    ({"format": "505", "form": "2", "bots_after": 1e308}, "bots_after"),
    ({"format": "505", "form": "2", "bots_after": True}, "bots_after"),
    ({"format": "505", "form": "2", "bots_after": "30"}, "bots_after"),
    ({"format": "505", "form": "2", "party": ["someone"]}, "party"),
    ({"format": "hand", "form": "2", "rated": True}, "format"),  # a rated hand: too short
    ([1, 2], "body"),
    ("505", "body"),
]


def test_bad_input_is_refused_naming_the_field_and_stores_nothing(
        server: ServerProcess) -> None:
    ada = register(server, "PoolBad")["token"]
    for body, field in BAD:
        answer = join(server, ada, body)
        assert answer.status_code == 422, (body, answer.text)
        error = answer.json()
        assert error["code"] == "bad_field" and error["field"] == field, (body, error)
        assert len(error["detail"]) < 300, error  # a huge value is shown cut short
        assert where(server, ada) == {"state": "none"}, body
    nan = join(server, ada, b'{"format": "505", "form": "2", "bots_after": NaN}')
    assert nan.status_code == 422 and nan.json()["field"] == "bots_after", nan.text
    assert join(server, ada, b'{"format": ').json()["code"] == "bad_json"
    # who may join what
    assert join(server, None, {"format": "505", "form": "2"}).status_code == 401
    assert join(server, "g.forged.token.x", {"format": "505", "form": "2"}).status_code == 401
    guest = server.guest("Casual")
    refused = join(server, guest, {"format": "505", "form": "2", "rated": True})
    assert refused.status_code == 403 and refused.json()["code"] == "account_required"
    assert where(server, guest) == {"state": "none"}
    # one pool at a time; leaving is at once, and leaving nothing is no error
    first = join(server, ada, {"format": "1005", "form": "4"})
    assert first.status_code == 200
    answer = first.json()
    assert answer["pool"] == {"name": "1005/4/casual", "format": "1005", "form": "4",
                              "rated": False}
    assert answer["window"] == [1400.0, 1600.0] and answer["bots_after"] == 45
    twice = join(server, ada, {"format": "505", "form": "2"})
    assert twice.status_code == 409 and twice.json()["code"] == "already_queued"
    assert leave(server, ada).status_code == 204
    assert where(server, ada) == {"state": "none"}
    assert leave(server, ada).status_code == 204
    # joins are counted per person: twenty a minute
    for _ in range(18):  # the join above was the first; the refused 409 the second
        assert join(server, ada, {"format": "2005", "form": "4"}).status_code == 200
        assert leave(server, ada).status_code == 204
    limited = join(server, ada, {"format": "2005", "form": "4"})
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert 1 <= int(limited.headers["retry-after"]) <= 61
    assert where(server, ada) == {"state": "none"}
    # another person is not limited by it
    assert join(server, guest, {"format": "2005", "form": "4"}).status_code == 200
    assert leave(server, guest).status_code == 204
