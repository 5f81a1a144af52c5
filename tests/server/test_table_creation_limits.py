"""Every way of creating a table counts against the same limits, and tables of bots only are
bounded (the audit's findings 9 and 11), with the server's default limits.

Over real HTTP against a real ``burraco serve`` with its default settings (the rest of the
suite lifts the limits on tables of bots only, which it uses as a workload).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess
from players_harness import bearer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{tmp_path / 'limits.db'}", tmp_path / "limits.log",
                            defaults=True, extra=["--table-rate", "8/minute"])
    process.start()
    yield process
    process.stop()


BOTS = {"players": 2, "seats": [{"kind": "bot", "level": "random"}] * 2}


def post(server: ServerProcess, path: str, token: str, body: Any = None,
         content: bytes | None = None) -> httpx.Response:
    return httpx.post(f"{server.base}{path}", headers=bearer(token), json=body,
                      content=content)


def test_the_guided_hand_counts_against_the_tables_limit(server: ServerProcess) -> None:
    """Finding 9: one guest created 45 guided hands in a row; now the ninth of a minute from
    one address is refused as any table is, and a body it cannot take is refused."""
    guest = server.guest("Newcomer")
    weird = post(server, "/api/tutorial", guest, {"players": 6})
    assert weird.status_code == 422 and "no options" in weird.json()["detail"]
    broken = post(server, "/api/tutorial", guest, content=b"{not json")
    assert broken.status_code == 400 and broken.json()["code"] == "bad_json"
    made = [post(server, "/api/tutorial", guest) for _ in range(5)]
    made.append(post(server, "/api/tutorial", guest, {}))
    assert [r.status_code for r in made] == [201] * 6
    assert made[0].json()["steps"]
    table = post(server, "/api/tables", guest, {"players": 2})
    assert table.status_code == 201  # the seventh and eighth creations of the minute
    assert post(server, "/api/tutorial", guest).status_code == 201
    refused = post(server, "/api/tutorial", guest)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) > 0
    assert post(server, "/api/tables", guest, {"players": 2}).status_code == 429


def test_tables_of_bots_only_are_bounded_per_guest_and_paced(server: ServerProcess) -> None:
    """Finding 11: ten tables of bots only made 1,126 events a second; now a guest has at
    most two unfinished, and they move at most every half second."""
    guest = server.guest("Watcher")
    fast = post(server, "/api/tables", guest, {**BOTS, "bot_delay": 0})
    assert fast.status_code == 422 and fast.json()["detail"].startswith("bot_delay")
    first = post(server, "/api/tables", guest, {**BOTS, "bot_delay": 0.5})
    second = post(server, "/api/tables", guest, BOTS)  # the default delay is slower still
    assert first.status_code == 201 and second.status_code == 201, second.text
    third = post(server, "/api/tables", guest, {**BOTS, "bot_delay": 1})
    assert third.status_code == 429 and third.json()["code"] == "too_many_bot_tables"
    other = server.guest("Another")
    assert post(server, "/api/tables", other, BOTS).status_code == 201
    # a table with a person at it is not a table of bots only
    mixed = post(server, "/api/tables", guest, {"players": 2, "creator_seat": 0, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "basic"}]})
    assert mixed.status_code == 201


def test_tables_of_bots_only_are_bounded_per_address(tmp_path: Path) -> None:
    """Finding 11: a new guest per table does not get round the bound: the address's rate
    of tables of bots only holds (here 2 an hour)."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'rate.db'}", tmp_path / "rate.log",
                            defaults=True, extra=["--bot-table-rate", "2/hour"])
    process.start()
    try:
        answers = [post(process, "/api/tables", process.guest(f"G{n}"), BOTS)
                   for n in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 429]
        assert answers[2].json()["code"] == "rate_limited"
        assert "tables of bots only" in answers[2].json()["detail"]
        with_person = post(process, "/api/tables", process.guest("G9"), {"players": 2})
        assert with_person.status_code == 201
    finally:
        process.stop()


def test_registrations_are_rate_limited_per_address(server: ServerProcess) -> None:
    """Each registration costs an Argon2 hash: ten an hour per address by default."""
    answers = [httpx.post(f"{server.base}/api/accounts",
                          json={"username": f"Reg_{n}", "password": "correct horse"})
               for n in range(11)]
    assert [a.status_code for a in answers] == [201] * 10 + [429]
    assert answers[-1].json()["code"] == "rate_limited"
    assert int(answers[-1].headers["retry-after"]) > 0
    assert httpx.get(f"{server.base}/api/players/Reg_10").status_code == 404
