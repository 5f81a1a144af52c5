"""Online tournaments run by a cluster: real ``burraco serve --redis`` processes on a
PostgreSQL database of this module's own and a Redis key prefix of each test's own; skipped,
saying why, without ``BURRACO_TEST_POSTGRES_URL`` and ``BURRACO_TEST_REDIS_URL``.

* A Swiss of eight scripted players, half registered at each process (each player talks to
  one process only), runs by itself to its end: every process reports the same standings,
  each game was played at one table, and each player's seat links name its own process.
* The process driving a Swiss (the ``holder`` of its row) is SIGKILLed while round 1's
  games are being played: the players that talked to it sit down again at the other
  process, the tables it ran (if any: new tables go to the less loaded process) go on
  there, and the other process takes the event over once the dead one's lease has run out
  (:data:`~burraco.community.online_events.LEASE_SECONDS`); the event finishes, every
  game's result recorded once, as its table's match was.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_harness import Cluster, Node, cluster, postgres_database
from events_cluster_harness import Hold, Roamer, Stored, stored_event
from events_harness import Entrant, detail, join, schedule
from players_harness import register

from burraco.community.online_events import LEASE_SECONDS

PLAYERS = 8
ROUNDS = 2


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def _swiss(group: Cluster, stem: str) -> tuple[str, list[Roamer]]:
    """A Swiss of eight: four players registered (and entered) at each process, each to talk
    to that process only."""
    nodes = group.nodes
    homes = [nodes[i % len(nodes)] for i in range(PLAYERS)]
    # the accounts first (a password's hash takes its time): the start then leaves the
    # entrants the time to enter
    tokens = [register(home, f"{stem}{i}")["token"] for i, home in enumerate(homes)]
    event = schedule(nodes[0], tokens[0], name=f"Cluster Swiss {stem}", kind="swiss",
                     form="2", format="hand", rounds=ROUNDS, starts=time.time() + 10,
                     turn_seconds=30, show_seconds=10)
    event_id = event["id"]
    for token, home in zip(tokens, homes, strict=True):
        answer = join(home, token, event_id)
        assert answer.status_code == 200, answer.text
    for node in nodes:  # one event, whichever process is asked
        seen = detail(node, event_id)
        assert seen["phase"] == "open" and seen["entered"] == PLAYERS
    return event_id, [Roamer(nodes, home, token, event_id)
                      for token, home in zip(tokens, homes, strict=True)]


def _finished(node: Node, event_id: str, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        event = detail(node, event_id)
        if event["phase"] == "finished":
            return event
        time.sleep(0.3)
    raise AssertionError(f"event {event_id} not finished: {detail(node, event_id)}")


def _check_played_once(final: dict[str, Any], db: Stored, players: list[Roamer]) -> None:
    """Two rounds of four games, each played at one table of its own, whose recorded match
    is the game's result; each player's games and tables are the event's."""
    games = final["games"]
    assert Counter(g["round"] for g in games) == {r: PLAYERS // 2 for r in
                                                  range(1, ROUNDS + 1)}
    ids = [g["id"] for g in games]
    assert len(set(ids)) == len(ids)
    tables = [g["table"] for g in games]
    assert None not in tables and len(set(tables)) == len(tables)  # every table id distinct
    assert db.tables == {g["id"]: g["table"] for g in games}
    assert db.made == {g["id"]: [g["table"]] for g in games}  # no game made twice
    for g in games:
        result, table = g["result"], g["table"]
        assert result is not None and result["absent"] == [], g
        assert db.status[table] == "finished"
        scores, _ = db.matches[table]
        assert result["points"] == scores[:2], (g, db.matches[table])
    assert len(db.matches) == len(games)
    assert db.results == PLAYERS  # each player's place, once
    meetings = Counter(frozenset((g["sides"][0][0], g["sides"][1][0])) for g in games)
    assert max(meetings.values()) == 1  # no pair met twice
    event_tables = {g["id"]: g["table"] for g in games}
    for player in players:
        assert len(player.games) == ROUNDS and not player.cancelled
        assert player.tables == {gid: event_tables[gid] for gid in player.games}


def _check_standings(final: dict[str, Any]) -> None:
    standings = final["standings"]
    assert len(standings) == PLAYERS
    assert [s["rank"] for s in standings] == list(range(1, PLAYERS + 1))
    assert all(s["games"] == ROUNDS and not s["withdrawn"] for s in standings)
    points = {s["names"][0]: 0.0 for s in standings}
    for g in final["games"]:  # 1 a win, 1/2 a draw
        winner = g["result"]["winner"]
        for side in (0, 1):
            points[g["sides"][side][0]] += 1.0 if winner == side else 0.5 if winner is None \
                else 0.0
    assert {s["names"][0]: s["score"] for s in standings} == points


def _same_everywhere(nodes: list[Node], event_id: str) -> dict[str, Any]:
    seen = [detail(node, event_id) for node in nodes]
    first = seen[0]
    for other in seen[1:]:
        for key in ("phase", "round", "finished", "standings", "games", "entrants"):
            assert other[key] == first[key], key
    return first


def test_a_swiss_on_two_processes_runs_by_itself(tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        event_id, players = _swiss(group, "nodo")

        async def main() -> list[dict[str, Any]]:
            deadline = time.monotonic() + 90
            return list(await asyncio.gather(*(p.run(deadline) for p in players)))

        for seen in asyncio.run(main()):
            assert seen["phase"] == "finished"
        _finished(group.nodes[0], event_id)
        final = _same_everywhere(group.nodes, event_id)
        _check_standings(final)
        db = stored_event(db_url, event_id)
        assert db.phase == "finished" and db.holder in {n.name for n in group.nodes}
        _check_played_once(final, db, players)
        for player in players:  # each told by the process it talks to
            assert player.moved == 0 and player.reconnects == 0
            for _, asked, url in player.links:
                assert asked == player.node.base and url.startswith(f"{asked}/play/")


def test_the_driving_process_killed_mid_round_is_replaced(tmp_path: Path,
                                                          db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        event_id, players = _swiss(group, "crollo")
        killed: list[Node] = []
        took_over: list[float] = []

        def kill_the_driver() -> None:
            """Round 1 being played: every game has its table, nobody has a result and each
            table waits on a move; the event's holder dies."""
            during = detail(group.nodes[0], event_id)
            assert during["phase"] == "running" and during["round"] == 1
            assert len(during["games"]) == PLAYERS // 2
            assert all(g["table"] and g["result"] is None for g in during["games"])
            db = stored_event(db_url, event_id)
            assert set(db.status.values()) == {"playing"}, db.status
            driver = group.node(db.holder)
            owners = Counter(group.owner(t) for t in db.status)
            print(f"driver {driver.name}; round 1's tables by owner: {dict(owners)}")
            driver.kill()
            killed.append(driver)
            moment = time.monotonic()
            lease_until = stored_event(db_url, event_id).lease_until  # nothing renews it now
            survivor = next(n for n in group.nodes if n is not driver)
            while stored_event(db_url, event_id).holder != survivor.name:
                assert time.monotonic() - moment < LEASE_SECONDS + 10, "no takeover"
                time.sleep(0.2)
            took_over.append(time.monotonic() - moment)
            assert time.time() > lease_until  # not while the dead one's lease ran

        async def main() -> list[dict[str, Any]]:
            hold = Hold(round=1)
            for player in players:
                player.hold = hold
            deadline = time.monotonic() + 100
            running = [asyncio.create_task(p.run(deadline)) for p in players]
            waited = time.monotonic()
            while len(hold.held) < PLAYERS // 2:
                assert time.monotonic() - waited < 40, f"round 1 not under way: {hold.held}"
                assert not any(t.done() for t in running), [t.result() for t in running
                                                            if t.done()]
                await asyncio.sleep(0.05)
            kill = asyncio.create_task(asyncio.to_thread(kill_the_driver))
            while not killed and not kill.done():
                await asyncio.sleep(0.01)
            hold.go.set()  # the games go on (at the other process, for the killed one's)
            await kill
            return list(await asyncio.gather(*running))

        for seen in asyncio.run(main()):
            assert seen["phase"] == "finished"
        driver = killed[0]
        survivor = next(n for n in group.nodes if n is not driver)
        print(f"takeover of the event after the kill: {took_over[0]:.1f} s")
        assert took_over[0] <= LEASE_SECONDS + 5
        final = _finished(survivor, event_id)
        _check_standings(final)
        db = stored_event(db_url, event_id)
        assert db.phase == "finished" and db.holder == survivor.name
        _check_played_once(final, db, players)
        lost = [p for p in players if p.links[0][1] == driver.base]
        assert len(lost) == PLAYERS // 2
        for player in players:
            round1, round2 = player.links
            home = driver if player in lost else survivor
            assert round1[1] == home.base and round1[2].startswith(f"{home.base}/play/")
            # round 2 was paired by the survivor: every link is its own
            assert round2[1] == survivor.base and round2[2].startswith(f"{survivor.base}/play/")
            assert player.moved == (1 if player in lost else 0)
        assert all(p.reconnects >= 1 for p in lost)
        assert not any(p.reconnects for p in players if p not in lost)
        # the killed process, back, reports what the other one does
        driver.restart_http()
        driver.start()
        assert httpx.get(f"{driver.base}/api/events/{event_id}").status_code == 200
        _same_everywhere(group.nodes, event_id)


def test_a_no_show_table_is_deleted_by_the_process_that_runs_it(
        tmp_path: Path, db_url: str) -> None:
    """Whichever process drives the event, the table of a game lost by not sitting down is
    deleted where it runs: its seated player is sent back, and no table of the event is
    left waiting (its round's deals would otherwise stay unpublished)."""
    with cluster(tmp_path, db_url, 2) as group:
        nodes = group.nodes
        homes = [nodes[i % 2] for i in range(6)]
        tokens = [register(home, f"assente{i}")["token"] for i, home in enumerate(homes)]
        event = schedule(nodes[0], tokens[0], name="Cluster no-show", kind="swiss", form="2",
                         format="hand", rounds=1, starts=time.time() + 10, turn_seconds=30,
                         show_seconds=10)
        event_id = event["id"]
        for token, home in zip(tokens, homes, strict=True):
            assert join(home, token, event_id).status_code == 200
        absent = {tokens[4], tokens[5]}  # one on each process
        players = [Entrant(home, token, event_id, shows=token not in absent)
                   for token, home in zip(tokens, homes, strict=True)]

        async def main() -> None:
            deadline = time.monotonic() + 90
            await asyncio.gather(*(p.run(deadline) for p in players))

        asyncio.run(main())
        final = _finished(nodes[1], event_id)
        lost = [g for g in final["games"] if g["result"]["absent"]]
        assert len(lost) in (1, 2)  # the two absent ones met each other, or not
        db = stored_event(db_url, event_id)
        for game in lost:
            assert game["table"] not in db.status  # deleted, wherever it ran
        assert all(status == "finished" for status in db.status.values())
        sent_back = [p for p in players if p.cancelled]
        assert len(sent_back) == sum(1 for g in lost if len(g["result"]["absent"]) == 1)
