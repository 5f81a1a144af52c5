"""Challenges over real HTTP and WebSockets against ``burraco serve`` (a real SQLite file).

One account challenges another to a table of chosen rules; the other accepts and both sit
down at one table, each through their own seat link; a challenge declined, one withdrawn,
one past its time; a block makes a challenge impossible either way; bad input is refused
naming the field and stores nothing; guests may not challenge.
"""

from __future__ import annotations

import asyncio
import json
from itertools import count
from typing import Any

import httpx
from harness import ServerProcess
from players_harness import bearer, register
from pool_harness import sit, started_view, table_of

from burraco.infra.db import make_engine

_n = count(1)


def _account(server: ServerProcess, stem: str) -> tuple[str, str]:
    name = f"{stem}{next(_n)}"
    return name, register(server, name)["token"]


def _post(server: ServerProcess, token: str | None, path: str,
          body: dict[str, Any] | None = None) -> httpx.Response:
    headers = bearer(token) if token else {}
    return httpx.post(f"{server.base}{path}", headers=headers, json=body)


def _list(server: ServerProcess, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}/api/challenges", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_challenge_accepted_seats_both_players(server: ServerProcess) -> None:
    anna, anna_token = _account(server, "sfida")
    bruno, bruno_token = _account(server, "sfidato")
    made = _post(server, anna_token, "/api/challenges",
                 {"to": bruno.upper(), "format": "505", "rated": True})
    assert made.status_code == 201, made.text
    challenge = made.json()["id"]
    incoming = _list(server, bruno_token)["incoming"]
    assert [(c["id"], c["from"], c["state"]) for c in incoming] == [(challenge, anna, "open")]
    twice = _post(server, anna_token, "/api/challenges", {"to": bruno, "format": "505",
                                                          "rated": True})
    assert twice.status_code == 409 and twice.json()["code"] == "already_challenged"
    stolen = _post(server, anna_token, f"/api/challenges/{challenge}/accept")
    assert stolen.status_code == 404  # only the challenged player accepts
    accepted = _post(server, bruno_token, f"/api/challenges/{challenge}/accept")
    assert accepted.status_code == 200, accepted.text
    theirs = accepted.json()
    mine = next(c for c in _list(server, anna_token)["outgoing"] if c["id"] == challenge)
    assert mine["state"] == "accepted" and mine["table"] == theirs["table"]
    assert (mine["seat"], theirs["seat"]) == (0, 1) and mine["token"] != theirs["token"]
    assert theirs["token"] not in json.dumps(_list(server, anna_token))
    config = table_of(server, mine)["config"]
    assert config["rated"] and config["target"] == 505 and config["players"] == 2
    again = _post(server, bruno_token, f"/api/challenges/{challenge}/accept")
    assert again.status_code == 409 and again.json()["code"] == "accepted"

    async def main() -> list[dict[str, Any]]:
        one = await sit(server, mine, anna_token)
        two = await sit(server, theirs, bruno_token)
        try:
            return list(await asyncio.gather(started_view(one), started_view(two)))
        finally:
            await one.close()
            await two.close()

    for view in asyncio.run(main()):
        names = {s["seat"]: s["nickname"] for s in view["seats"]}
        assert names == {0: anna, 1: bruno}


def test_declined_withdrawn_and_expired_challenges(server: ServerProcess) -> None:
    _carla, carla_token = _account(server, "carla")
    dario, dario_token = _account(server, "dario")
    one = _post(server, carla_token, "/api/challenges",
                {"to": dario, "format": "hand", "rated": False}).json()["id"]
    assert _post(server, dario_token, f"/api/challenges/{one}/decline").json()["state"] == \
        "declined"
    two = _post(server, carla_token, "/api/challenges",
                {"to": dario, "format": "vp3", "rated": False}).json()["id"]
    withdrawn = httpx.delete(f"{server.base}/api/challenges/{two}", headers=bearer(carla_token))
    assert withdrawn.json()["state"] == "withdrawn"
    late = _post(server, dario_token, f"/api/challenges/{two}/accept")
    assert late.status_code == 409 and late.json()["code"] == "withdrawn"
    three = _post(server, carla_token, "/api/challenges",
                  {"to": dario, "format": "1005", "rated": False}).json()["id"]
    engine = make_engine(server.db_url)
    with engine.begin() as conn:  # its five minutes are over
        conn.exec_driver_sql("UPDATE challenges SET expires = 0 WHERE challenge_id = ?",
                             (three,))
    engine.dispose()
    expired = _post(server, dario_token, f"/api/challenges/{three}/accept")
    assert expired.status_code == 409 and expired.json()["code"] == "expired"
    states = {c["id"]: c["state"] for c in _list(server, dario_token)["incoming"]}
    assert states == {one: "declined", two: "withdrawn", three: "expired"}


def test_blocks_bad_input_and_guests(server: ServerProcess) -> None:
    elena, elena_token = _account(server, "elena")
    fabio, fabio_token = _account(server, "fabio")
    httpx.put(f"{server.base}/api/me/blocked/{elena}", headers=bearer(fabio_token))
    for token, other in ((elena_token, fabio), (fabio_token, elena)):
        refused = _post(server, token, "/api/challenges",
                        {"to": other, "format": "505", "rated": False})
        assert refused.status_code == 403 and refused.json()["code"] == "not_possible"
    for body, field in (({"to": "nobody-at-all", "format": "505"}, "to"),
                        ({"to": elena, "format": "505"}, "to"),
                        ({"to": fabio, "format": "999"}, "format"),
                        ({"to": fabio, "format": "505", "rated": "yes"}, "rated"),
                        ({"to": ["x"], "format": "505"}, "to")):
        answer = _post(server, elena_token, "/api/challenges", body)
        assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
    assert _list(server, elena_token) == {"incoming": [], "outgoing": []}
    guest = httpx.post(f"{server.base}/api/guests", json={"nickname": "Ospite"}).json()
    as_guest = _post(server, guest["token"], "/api/challenges",
                     {"to": elena, "format": "505"})
    assert as_guest.status_code == 403 and as_guest.json()["code"] == "account_required"
    assert _post(server, None, "/api/challenges", {"to": elena}).status_code == 401
