"""Rated play over real WebSockets: accounts only, ratings moving as OpenSkill says, the
history and statistics of a finished match, abandonment and its wait, no live spectators,
and a guest's history kept when the guest registers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess, postgres_schema
from openskill.models import PlackettLuce
from players_harness import bearer, play_out, register

MODEL = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose rated matches may be one hand long (``--rated-min-target 1``; the
    default, 505, is checked in test_rated_and_analysis_rules.py): quick rated matches."""
    folder: Path = tmp_path_factory.mktemp("rated")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1"])
    process.start()
    yield process
    process.stop()


def profile_when_recorded(server: ServerProcess, name: str, matches: int = 1,
                          timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = httpx.get(f"{server.base}/api/players/{name}").json()
        # a profile is read statement by statement (no snapshot): wait until the match's
        # rating is there too, since the recording may commit between two of its reads
        rated = [m for m in body["recent"] if m["rated"]]
        if len(body["recent"]) >= matches and all(
                m["form"] in body["ratings"] for m in rated):
            return dict(body)
        assert time.monotonic() < deadline, f"{name}'s match was not recorded: {body}"
        time.sleep(0.2)


def create(server: ServerProcess, token: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.base}/api/tables", json=body, headers=bearer(token))


def test_rated_tables_take_accounts_only(server: ServerProcess) -> None:
    guest = server.guest("Visitor")
    refused = create(server, guest, players=2, rated=True)
    assert refused.status_code == 422 and "rated" in refused.json()["detail"]
    ada = register(server, "RatedAda")["token"]
    for body, field in (({"players": 3}, "rated"), ({"casual": True}, "casual"),
                        ({"mode": "smazzate", "smazzate": 2}, "smazzate")):
        bad = create(server, ada, rated=True, **{"players": 2, **body})
        assert bad.status_code == 422 and bad.json()["detail"].startswith(field), bad.text
    table = create(server, ada, players=2, rated=True, creator_seat=0).json()
    assert table["config"]["rated"] is True and table["config"]["casual"] is False

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        seat = Client(server, table, 1, guest=guest)
        first = await seat.connect()
        await seat.close()
        watcher = Client(server, table, None)
        second = await watcher.connect()
        await watcher.close()
        return first, second

    as_guest, as_spectator = asyncio.run(main())
    assert as_guest["t"] == "reject" and as_guest["code"] == "account_required"
    assert as_spectator["t"] == "reject" and as_spectator["code"] == "rated_live"
    for path in (f"/api/tables/{table['table_id']}/hands",
                 f"/api/web/tables/{table['table_id']}/hands/1/replay"):
        live = httpx.get(f"{server.base}{path}")
        assert live.status_code == 403 and live.json()["code"] == "rated_live", path


def test_a_rated_match_moves_both_ratings_as_openskill_says(server: ServerProcess) -> None:
    ada = register(server, "Ada_R")
    bob = register(server, "Bob_R")
    table = create(server, ada["token"], players=2, rated=True, target=1, bot_delay=0,
                   creator_seat=0).json()

    async def main() -> None:
        one = Client(server, table, 0, guest=ada["token"])
        two = Client(server, table, 1, guest=bob["token"])
        for client in (one, two):
            hello = await client.connect()
            assert hello["t"] == "hello_ok", hello
        await asyncio.gather(play_out(one), play_out(two))
        for client in (one, two):
            await client.close()

    asyncio.run(main())
    a = profile_when_recorded(server, "Ada_R")
    b = profile_when_recorded(server, "Bob_R")
    mine, theirs = a["recent"][0], b["recent"][0]
    assert mine["rated"] and mine["table_id"] == table["table_id"]
    assert mine["opponents"][0]["username"] == "Bob_R" and mine["partner"] is None
    assert {mine["result"], theirs["result"]} in ({"won", "lost"}, {"tie"})
    ranks = {"won": 0, "lost": 1, "tie": 0}
    new = MODEL.rate([[MODEL.rating()], [MODEL.rating()]],
                     ranks=[ranks[mine["result"]], ranks[theirs["result"]]])
    assert a["ratings"]["2"]["rating"] == round(new[0][0].mu)
    assert b["ratings"]["2"]["rating"] == round(new[1][0].mu)
    assert a["ratings"]["2"]["deviation"] == round(new[0][0].sigma)
    assert mine["rating_before"] == 1500 and mine["rating_after"] == round(new[0][0].mu)
    # a target of 1 point is usually reached in one hand; a hand that leaves both sides at or
    # below it (or level) brings another
    played = httpx.get(f"{server.base}/api/tables/{table['table_id']}/hands").json()["hands"]
    assert mine["replays"] == [
        f"/replay/{table['table_id']}?hand={n}" for n in range(1, len(played) + 1)]
    assert a["history"]["2"][-1]["rating"] == round(new[0][0].mu)
    stats = a["stats"]["2"]
    assert stats["matches"] == 1 and stats["hands"] == len(played) and stats["won"] == int(
        mine["result"] == "won")
    assert stats["mean_mp"] == round(mine["scores"][mine["side"]] / len(played), 1)
    # the leaderboard, and my rank on it
    board = httpx.get(f"{server.base}/api/leaderboard?players=2&period=week",
                      headers=bearer(ada["token"])).json()
    names = [e["username"] for e in board["entries"]]
    assert {"Ada_R", "Bob_R"} <= set(names)
    assert board["me"]["username"] == "Ada_R"
    assert board["entries"][board["me"]["rank"] - 1]["username"] == "Ada_R"
    # once over, the match may be watched and replayed
    async def watch() -> dict[str, Any]:
        watcher = Client(server, table, None)
        hello = await watcher.connect()
        await watcher.close()
        return hello

    assert asyncio.run(watch())["t"] == "hello_ok"
    hands = httpx.get(f"{server.base}/api/tables/{table['table_id']}/hands")
    assert hands.status_code == 200 and hands.json()["hands"][0]["record"]["moves"]
    replay = httpx.get(f"{server.base}/api/web/tables/{table['table_id']}/hands/1/replay")
    assert replay.status_code == 200


def test_an_abandonment_is_a_loss_for_the_leaver_only_and_brings_a_wait(
        server: ServerProcess) -> None:
    ada = register(server, "Leaver_A")
    bob = register(server, "Partner_B")
    table = create(server, ada["token"], players=4, rated=True, target=1, bot_delay=0,
                   grace_seconds=1, creator_seat=0,
                   seats=[{"kind": "human"}, {"kind": "bot", "level": "basic"},
                          {"kind": "human"}, {"kind": "bot", "level": "basic"}]).json()

    async def main() -> None:
        leaver = Client(server, table, 0, guest=ada["token"])
        assert (await leaver.connect())["t"] == "hello_ok"  # Ada sits down...
        partner = Client(server, table, 2, guest=bob["token"])
        hello = await partner.connect()
        assert hello["t"] == "hello_ok", hello
        await leaver.close()  # ...and leaves: past her grace a stand-in plays for her
        await play_out(partner, timeout=180)
        await partner.close()

    asyncio.run(main())
    a = profile_when_recorded(server, "Leaver_A")
    b = profile_when_recorded(server, "Partner_B")
    assert a["recent"][0]["abandoned"] and a["recent"][0]["result"] == "lost"
    assert b["recent"][0]["result"] == "lost" and not b["recent"][0]["abandoned"]
    assert b["recent"][0]["partner"]["username"] == "Leaver_A"
    assert b["ratings"]["4"]["rating"] == 1500 and b["ratings"]["4"]["deviation"] == 500
    assert a["ratings"]["4"]["rating"] < 1500
    assert a["stats"]["4"]["abandoned"] == 1
    wait = httpx.get(f"{server.base}/api/me", headers=bearer(ada["token"])).json()["wait"]
    assert wait["reason"] == "left" and 4 * 60 < wait["until"] - time.time() <= 5 * 60
    assert httpx.get(f"{server.base}/api/me", headers=bearer(bob["token"])).json()[
        "wait"] is None
    # the wait: no new rated seat, with its reason and end
    refused = create(server, ada["token"], players=2, rated=True, creator_seat=0)
    assert refused.status_code == 422 and "next rated match" in refused.json()["detail"]
    other = create(server, bob["token"], players=2, rated=True, creator_seat=0).json()

    async def sit() -> dict[str, Any]:
        client = Client(server, other, 1, guest=ada["token"])
        first = await client.connect()
        await client.close()
        return first

    first = asyncio.run(sit())
    assert first["t"] == "reject" and first["code"] == "rated_wait"
    assert "UTC" in first["reason"]
    # casual tables stay open to her
    assert create(server, ada["token"], players=2, creator_seat=0).status_code == 201


def test_a_guest_who_registers_keeps_their_history(server: ServerProcess) -> None:
    guest = server.guest("Wanderer")
    table = server.create_table(guest, players=2, mode="smazzate", smazzate=1, bot_delay=0,
                                creator_seat=0,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "basic"}])

    async def main() -> None:
        client = Client(server, table, 0, guest=guest)
        await client.connect()
        await play_out(client)
        await client.close()

    asyncio.run(main())
    time.sleep(0.5)
    guest_id = httpx.get(f"{server.base}/api/me", headers=bearer(guest)).json()["guest_id"]
    account = register(server, "Wanderer", authorization=f"Bearer {guest}")
    assert account["player_id"] == guest_id
    body = profile_when_recorded(server, "Wanderer")
    assert body["recent"][0]["table_id"] == table["table_id"] and not body["recent"][0]["rated"]
    assert body["stats"]["2"]["matches"] == 1
    # a second account cannot take the same guest's history
    again = register(server, "Wanderer2", authorization=f"Bearer {guest}")
    assert again["player_id"] != guest_id


@pytest.mark.parametrize("players", ["2", "4"])
def test_bot_ratings_are_published(server: ServerProcess, players: str) -> None:
    ratings = httpx.get(f"{server.base}/api/ratings/bots").json()["ratings"]
    levels = ratings[players]
    assert levels["random"] < levels["basic"] < levels["advanced"] < levels["expert"]


def test_a_rated_match_and_an_abandonment_on_postgresql(tmp_path: Path) -> None:
    with postgres_schema() as url:
        process = ServerProcess(url, tmp_path / "pg.log", extra=["--rated-min-target", "1"])
        process.start()
        try:
            ada = register(process, "Pg_Ada")
            bob = register(process, "Pg_Bob")
            table = create(process, ada["token"], players=2, rated=True, target=1,
                           bot_delay=0, creator_seat=0).json()

            async def main() -> None:
                one = Client(process, table, 0, guest=ada["token"])
                two = Client(process, table, 1, guest=bob["token"])
                for client in (one, two):
                    assert (await client.connect())["t"] == "hello_ok"
                await asyncio.gather(play_out(one), play_out(two))

            asyncio.run(main())
            a = profile_when_recorded(process, "Pg_Ada")
            b = profile_when_recorded(process, "Pg_Bob")
            assert {a["recent"][0]["result"], b["recent"][0]["result"]} in (
                {"won", "lost"}, {"tie"})
            assert a["ratings"]["2"]["matches"] == 1 and len(a["history"]["2"]) == 2
            # Ada leaves her next rated match at once: a stand-in plays, she is penalised
            left = create(process, ada["token"], players=2, rated=True, target=1,
                          bot_delay=0, grace_seconds=0, creator_seat=0,
                          seats=[{"kind": "human"}, {"kind": "bot", "level": "basic"}]).json()

            async def sit_and_leave() -> None:  # the match starts once she has sat down
                seat = Client(process, left, 0, guest=ada["token"])
                assert (await seat.connect())["t"] == "hello_ok"
                await seat.close()

            asyncio.run(sit_and_leave())
            a = profile_when_recorded(process, "Pg_Ada", matches=2, timeout=120)
            assert a["recent"][0]["table_id"] == left["table_id"]
            assert a["recent"][0]["abandoned"] and a["wait"]["reason"] == "left"
            board = httpx.get(f"{process.base}/api/leaderboard?players=2&period=month",
                              headers=bearer(bob["token"])).json()
            assert board["me"]["username"] == "Pg_Bob" and board["total"] == 2
        finally:
            process.stop()
