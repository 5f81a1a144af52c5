"""Fair play's screening: every table the server pairs keeps a keyed hash of the address
each player asked to play from (the pool, a challenge), never the address itself; two
accounts asking from one address show up as a shared table.  Against ``burraco serve``."""

from __future__ import annotations

import httpx
from harness import ServerProcess
from players_harness import bearer, register
from pool_harness import all_join, matches

from burraco.accounts.screening import shared_tables
from burraco.infra.db import make_engine


def _rows(server: ServerProcess) -> tuple[list[tuple[str, str, str]],
                                         list[tuple[str, str, list[str]]]]:
    engine = make_engine(server.db_url)
    with engine.connect() as conn:
        rows = [(str(r[0]), str(r[1]), str(r[2])) for r in conn.exec_driver_sql(
            "SELECT table_id, player_id, address_hash FROM match_addresses").all()]
        shared = shared_tables(conn)
    engine.dispose()
    assert all("127.0.0.1" not in row[2] for row in rows)  # a hash, not the address
    return rows, shared


def test_pool_and_challenge_tables_keep_their_players_address_hashes(
        server: ServerProcess) -> None:
    ada, bob = register(server, "ScreenAda"), register(server, "ScreenBob")
    body = {"format": "505", "form": "2", "rated": False}
    all_join(server, [(ada["token"], body), (bob["token"], body)])
    found = matches(server, [ada["token"], bob["token"]])
    pool_table = found[ada["token"]]["table"]
    made = httpx.post(f"{server.base}/api/challenges", headers=bearer(ada["token"]),
                      json={"to": "ScreenBob", "format": "hand", "rated": False}).json()
    accepted = httpx.post(f"{server.base}/api/challenges/{made['id']}/accept",
                          headers=bearer(bob["token"])).json()
    rows, shared = _rows(server)
    by_table: dict[str, set[str]] = {}
    for table, _player, hashed in rows:
        by_table.setdefault(table, set()).add(hashed)
        assert len(hashed) == 64
    assert len(by_table[pool_table]) == 1 and len(by_table[accepted["table"]]) == 1
    assert {t for t, _, players in shared if len(players) == 2} >= {pool_table,
                                                                   accepted["table"]}
