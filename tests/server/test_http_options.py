"""Rules options beyond what the engine plays are refused when a table is created (422 naming
the field), for every player count, over real HTTP against a real ``burraco serve``.

A table created with ``packs: 4`` used to deal and then fail at its first move (an ``ack``
and an ``internal_error`` for one command); ``packs: 100000`` held the event loop; an
``options.target`` of 10^9 passed the cap of the ``target`` field.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from harness import ServerProcess

from burraco.server.rules_bounds import MAX_PACKS, SCORE_CAP

PACK_FIELDS = {2: "packs", 3: "three_player_packs", 4: "packs", 5: "five_six_player_packs",
               6: "five_six_player_packs"}


def post_table(server: ServerProcess, guest: str, body: dict[str, Any]) -> httpx.Response:
    return server.http.post("/api/tables", json=body,
                            headers={"authorization": f"Bearer {guest}"})


def refused(response: httpx.Response, field: str) -> str:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["code"] == "bad_request", body
    assert body["detail"].startswith(f"{field}:"), body
    return str(body["detail"])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pack_counts_beyond_the_engine_are_refused(server: ServerProcess, guest: str,
                                                   players: int) -> None:
    """RULES.md §1.1, §13: every pack option, at every player count, within the engine's."""
    for field in ("packs", "three_player_packs", "five_six_player_packs"):
        for value in (MAX_PACKS + 1, 0, -1, 100_000, 10**18):
            started = time.monotonic()
            detail = refused(post_table(server, guest, {"players": players,
                                                        "options": {field: value}}),
                             f"options.{field}")
            assert str(MAX_PACKS) in detail
            assert time.monotonic() - started < 2, "the check must not build the deck"
    assert server.http.get("/healthz", timeout=2).status_code == 200


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_most_packs_the_engine_has_play(server: ServerProcess, guest: str,
                                            players: int) -> None:
    """At the largest accepted pack count an all-bot table moves: the bound is the engine's."""
    body = {"players": players, "options": {PACK_FIELDS[players]: MAX_PACKS},
            "seats": [{"kind": "bot"}] * players, "bot_delay": 0, "target": 50}
    response = post_table(server, guest, body)
    assert response.status_code == 201, response.text
    table_id = response.json()["table_id"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        info = server.http.get(f"/api/tables/{table_id}").json()
        if info["version"] >= 20:
            break
        time.sleep(0.2)
    assert info["version"] >= 20, info
    assert server.http.get("/healthz").json()["broken"] == 0


BAD_OPTIONS: list[tuple[str, Any]] = [
    ("hand_size", 0), ("hand_size", -1), ("hand_size", 60), ("hand_size", 10**9),
    ("pozzetto_size", 0), ("big_pozzetto_size", -3), ("pozzetto_size", 10**6),
    ("target", 10**9), ("target", 0), ("three_player_target", SCORE_CAP + 1),
    ("five_player_target", -5), ("individual_from", 10**12),
    ("five_player_individual_from", -1), ("closing_bonus", 10**9), ("pozzetto_penalty", -100),
    ("stall_rounds", -1), ("stall_rounds", 10**9),
    ("bonuses", [["clean", 200]] * 20), ("bonuses", [["golden", 500]]),
    ("bonuses", [["clean", 10**9]]), ("closing_alternatives", ["royal", "royal"]),
    ("closing_alternatives", ["x" * 100]), ("set_ranks", [0]), ("set_ranks", [14]),
    ("set_ranks", []), ("set_ranks", [1, 1]), ("tie_break_suits", "HHHH"),
    ("tie_break_suits", "x" * 1000), ("vp_tables", [[3, [1, 2]]]),
    ("vp_tables", [[0, [5 * i for i in range(1, 11)]]]),
    ("vp_tables", [[3, [10**9 + 5 * i for i in range(10)]]]),
]


@pytest.mark.parametrize(("name", "value"), BAD_OPTIONS)
def test_options_out_of_bounds_are_refused(server: ServerProcess, guest: str, name: str,
                                           value: Any) -> None:
    for players in (2, 3, 4, 5, 6):
        refused(post_table(server, guest, {"players": players, "options": {name: value}}),
                f"options.{name}")


def test_a_hand_too_large_for_the_packs_names_the_option(server: ServerProcess,
                                                         guest: str) -> None:
    detail = refused(post_table(server, guest, {"players": 6, "options": {"hand_size": 40}}),
                     "options.hand_size")
    assert "packs hold" in detail
    refused(post_table(server, guest, {"players": 4, "options": {"packs": 1}}), "options.packs")


def test_options_within_bounds_are_kept(server: ServerProcess, guest: str) -> None:
    options = {"hand_size": 13, "target": SCORE_CAP, "bonuses": [["clean", 250], ["dirty", 80]],
               "set_ranks": [1, 3], "tie_break_suits": "SCDH", "stall_rounds": 0}
    response = post_table(server, guest, {"players": 4, "options": options})
    assert response.status_code == 201, response.text
    assert response.json()["config"]["options"] == options


def test_every_integer_option_has_bounds_and_both_ends_are_enforced(server: ServerProcess,
                                                                   guest: str) -> None:
    """``/api/web/options`` gives each int option's bounds; one past either end is refused."""
    options = server.http.get("/api/web/options").json()["options"]
    ints = [o for o in options if o["kind"] == "int"]
    assert ints and all("min" in o and "max" in o for o in ints), ints
    for option in ints:
        for value in (option["min"] - 1, option["max"] + 1):
            refused(post_table(server, guest, {"players": 4, "options": {option["name"]: value}}),
                    f"options.{option['name']}")
