"""One matchmaking pool across the processes of a cluster: a player who joins on one process
and one who joins on another meet at one table, each told so (with their own seat link) by
the process they talk to, and sit down there; a party invited on one process and accepted
on the other meets two singles.

Real ``burraco serve --redis`` processes on a PostgreSQL database of this module's own and a
Redis key prefix of the test's own; skipped, saying why, without
``BURRACO_TEST_POSTGRES_URL`` and ``BURRACO_TEST_REDIS_URL``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_harness import cluster, postgres_database
from harness import ServerProcess
from players_harness import bearer, register
from pool_harness import accept, all_join, befriend, join, matches, sit, started_view, where


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def test_players_on_two_processes_meet_in_one_pool(tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        ada = register(a, "ClusterAda")
        bob = register(b, "ClusterBob")
        body = {"format": "505", "form": "2", "rated": True}
        start = time.monotonic()
        waiting = httpx.post(f"{a.base}/api/pool", json=body, headers=bearer(ada["token"]))
        assert waiting.status_code == 200, waiting.text
        seen = httpx.get(f"{b.base}/api/pool", headers=bearer(ada["token"])).json()
        assert seen["state"] == "waiting" and seen["waiting"] == 1  # one pool for both
        all_join(b, [(bob["token"], body)])
        mine = matches(a, [ada["token"]])[ada["token"]]
        theirs = matches(b, [bob["token"]])[bob["token"]]
        assert time.monotonic() - start < 10
        assert mine["table"] == theirs["table"] and {mine["seat"], theirs["seat"]} == {0, 1}
        assert mine["url"].startswith(f"{a.base}/play/") and theirs["url"].startswith(
            f"{b.base}/play/")  # each told by the process it talks to
        assert sorted(mine["players"]) == ["ClusterAda", "ClusterBob"]

        async def main() -> list[dict[str, Any]]:
            one = await sit(a, mine, ada["token"])
            two = await sit(b, theirs, bob["token"])
            try:
                return list(await asyncio.gather(started_view(one), started_view(two)))
            finally:
                await one.close()
                await two.close()

        for view in asyncio.run(main()):
            assert view["status"] == "playing" and view["table"]["config"]["rated"]
            assert {s["nickname"] for s in view["seats"]} == {"ClusterAda", "ClusterBob"}
        node: ServerProcess
        for node in (a, b):  # the match is known wherever one asks
            for token, seat in ((ada["token"], mine["seat"]), (bob["token"], theirs["seat"])):
                found = httpx.get(f"{node.base}/api/pool", headers=bearer(token)).json()
                assert found["match"]["table"] == mine["table"]
                assert found["match"]["seat"] == seat


def test_a_party_invited_on_one_process_and_accepted_on_another(tmp_path: Path,
                                                                 db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        ann, bob = register(a, "ClusterPartyAnn"), register(b, "ClusterPartyBob")
        cy, dee = register(a, "ClusterSoloCy"), register(b, "ClusterSoloDee")
        befriend(a, ann, bob)
        body = {"format": "2005", "form": "4", "bots_after": None}
        asked = join(a, ann["token"], {**body, "partner": "ClusterPartyBob"})
        assert asked.status_code == 200 and asked.json()["state"] == "inviting", asked.text
        invited = where(b, bob["token"])  # the invitation is the cluster's
        assert invited["state"] == "invited" and invited["by"] == "ClusterPartyAnn"
        assert accept(b, bob["token"], {"by": "ClusterPartyAnn"}).status_code == 200
        assert where(a, ann["token"])["partner"] == "ClusterPartyBob"
        all_join(a, [(cy["token"], body)])
        all_join(b, [(dee["token"], body)])
        found = {**matches(a, [ann["token"], cy["token"]]),
                 **matches(b, [bob["token"], dee["token"]])}
        assert len({m["table"] for m in found.values()}) == 1
        assert abs(found[ann["token"]]["seat"] - found[bob["token"]]["seat"]) == 2
        assert found[ann["token"]]["url"].startswith(f"{a.base}/play/")
        assert found[bob["token"]]["url"].startswith(f"{b.base}/play/")
