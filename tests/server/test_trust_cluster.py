"""Trust and safety across a cluster: two ``burraco serve`` processes on one PostgreSQL and
Redis.  A ban given on one process stops the account on the other at once (its session, its
WebSocket, its log-in); a report filed on one is in the queue read on the other; the log-in
throttle and the reports' daily limit count across both processes, not per process."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cluster_harness import cluster, postgres_database
from players_harness import register
from test_sessions_end_everywhere import closed_code, login, me, seated, soon
from test_trust import PASSWORD, get, grant, post


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


def test_a_ban_on_one_process_stops_the_account_on_the_other_at_once(
        tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        register(a, "Mod_k")
        assert grant(a, "Mod_k").returncode == 0
        mod = login(a.base, "Mod_k")
        reporter = register(b, "Rep_k")["token"]
        target = register(b, "Bad_k")["token"]
        table = b.create_table(target, players=2, seats=[
            {"kind": "human"}, {"kind": "bot", "level": "basic"}])
        made = post(b, "/api/reports", reporter, {
            "username": "Bad_k", "reason": "cheating", "context": "table",
            "table_id": table["table_id"], "text": "always knows my cards"})
        assert made.status_code == 201, made.text
        queue = get(a, "/api/mod/reports", mod).json()["reports"]
        assert [r["target"]["username"] for r in queue] == ["Bad_k"]
        assert queue[0]["table_id"] == table["table_id"]

        async def main() -> None:
            on_b = await seated(b, table, target)
            banned = await asyncio.to_thread(post, a, "/api/mod/actions", mod, {
                "username": "Bad_k", "action": "ban", "reason": "collusion, confirmed",
                "report_id": made.json()["report_id"]})
            assert banned.status_code == 200, banned.text
            assert await closed_code(on_b) is not None  # the socket on B
            assert await asyncio.to_thread(soon, lambda: me(b.base, target) == 401)

        asyncio.run(main())
        for node in (a, b):
            refused = httpx.post(f"{node.base}/api/sessions",
                                 json={"username": "Bad_k", "password": PASSWORD})
            assert refused.status_code == 403 and refused.json()["until"] is None
        assert get(b, "/api/mod/reports", mod).json()["reports"] == []


def test_the_login_throttle_and_the_report_limit_hold_across_processes(
        tmp_path: Path, db_url: str) -> None:
    with cluster(tmp_path, db_url, 2) as group:
        a, b = group.nodes
        register(a, "Nina_k")
        for node in (a, b, a, b, a):  # five wrong passwords, spread over both processes
            wrong = httpx.post(f"{node.base}/api/sessions",
                               json={"username": "Nina_k", "password": "not the one"})
            assert wrong.status_code == 401
        for node in (a, b):
            locked = httpx.post(f"{node.base}/api/sessions",
                                json={"username": "Nina_k", "password": PASSWORD})
            assert locked.status_code == 429, (node.base, locked.text)
        # ten reports a day per account, counted by both processes together
        reporter = register(b, "Rep_l")["token"]
        for n in range(3):
            register(a, f"Target_l{n}")
        codes = [post((a, b)[n % 2], "/api/reports", reporter, {
            "username": f"Target_l{n % 3}", "reason": "other", "context": "profile"}
        ).status_code for n in range(11)]
        assert codes == [201] * 10 + [429], codes
        assert me(a.base, reporter) == 200
