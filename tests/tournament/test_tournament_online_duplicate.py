"""A duplicate round played online: one deal group per round on a real ``burraco serve``."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Any

import pytest
from harness import ServerProcess, stored
from sqlalchemy import select

from burraco.infra.db import make_engine
from burraco.server.commitment import verify
from burraco.server.storage.models import DealGroupRow, DealGroupTableRow
from burraco.tournament.online import deal_group_id

pytestmark = pytest.mark.xdist_group("e2e")
TID = "carte-uguali-online"


def group_of(server: ServerProcess, group: str) -> tuple[str, list[str]]:
    """The group's secret and its tables, read from the server's database."""
    engine = make_engine(server.db_url)
    try:
        with engine.connect() as conn:
            secret = conn.scalar(select(DealGroupRow.secret).where(DealGroupRow.id == group))
            tables = list(conn.scalars(select(DealGroupTableRow.table_id)
                                       .where(DealGroupTableRow.group_id == group)))
    finally:
        engine.dispose()
    assert isinstance(secret, str)
    return secret, tables


def wait_for(what: str, check: Any, server: ServerProcess, timeout: float = 600) -> Any:
    """Ask the server until ``check()`` answers something true (generous: bots play it all)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = check()
        if answer:
            return answer
        time.sleep(0.5)
    raise AssertionError(f"{what}: not after {timeout} s\n{server.log()}")


def test_a_duplicate_round_is_played_online_on_the_same_deals(server: ServerProcess) -> None:
    http = server.http
    form = {"name": "Carte uguali online", "schedule": "mitchell:1", "hands": "2",
            "duplicate": "1", "vp_table": "test two-hand:30,90,150,210,300,400,500,650,800,1000"}
    assert http.post("/tournaments/", data=form).status_code == 303
    base = f"/tournaments/{TID}"
    pairs = "\n".join(f"Pair {n}" for n in range(1, 7))
    assert http.post(f"{base}/pairs", data={"pairs": pairs}).status_code == 303
    assert http.post(f"{base}/rounds").status_code == 303
    answer = http.post(f"{base}/online", data={"bots": "1,2,3,4,5,6", "level": "random",
                                               "bot_delay": "0"})
    assert answer.status_code == 303, answer.text
    secret, tables = group_of(server, deal_group_id(TID, 1))
    assert len(tables) == 3

    def results() -> list[dict[str, Any]] | None:
        found = http.get(f"/api/tournaments/{TID}").json()["results"]
        return list(found) if len(found) == 3 else None

    entered = wait_for("three results", results, server)
    assert {r["source"] for r in entered} == {"online"}
    assert all(len(r["hands"]) == 2 and sum(r["vp"]) == 20 for r in entered)

    # the duplicate scores: each NS line against the average of the other tables
    diffs = {r["table"]: r["mp"][0] - r["mp"][1] for r in entered}
    expected: dict[int, Fraction] = {}
    for r in entered:
        others = [d for table, d in diffs.items() if table != r["table"]]
        score = diffs[r["table"]] - Fraction(sum(others), len(others))
        expected[r["ns"]], expected[r["ew"]] = score, -score
    standings = http.get(f"/api/tournaments/{TID}").json()["standings"]
    assert {s["pair"]: s["dup"] for s in standings} == {
        pair: round(float(score), 1) for pair, score in expected.items()}

    # every table was dealt the same cards, hand by hand, and shows them once all played
    def revealed() -> list[list[dict[str, Any]]] | None:
        data = [stored(server.db_url, table) for table in tables]
        if all(d["info"]["status"] == "finished" and len(d["games"]) == 2
               and not any(g["reveal_held"] for g in d["games"]) for d in data):
            return [d["events"] for d in data]
        return None

    events = wait_for("every reveal published", revealed, server)
    for number in (1, 2):
        started = [next(p for _, kind, p in table if kind == "HandStarted"
                        and p["number"] == number) for table in events]
        assert all(s["hands"] == started[0]["hands"] for s in started)
        assert all(s["dealer"] == started[0]["dealer"] for s in started)
        shown = [next(p["reveal"] for _, kind, p in table if kind == "DealRevealed"
                      and p["number"] == number) for table in events]
        assert all(verify(s["commitment"], r["order"], r["salt"])
                   for s, r in zip(started, shown, strict=True))
        assert len({tuple(r["order"]) for r in shown}) == 1
    for table in events:
        assert secret not in json.dumps(table)
    # the round's group has shown its deals: the round cannot be reopened into it
    again = http.post(f"{base}/online", data={})
    assert again.status_code == 422 and "already has a result or a web table" in again.text
