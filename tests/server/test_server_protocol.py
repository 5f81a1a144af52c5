"""Bad input over real WebSockets: every one answered by a clear reject, the game unchanged.

Each test talks to a real ``burraco serve`` process.  After a battery of bad
messages the table's version and the seat's view are compared with what they
were before, through the protocol (``sync``) and through the HTTP API.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from harness import Client, ServerProcess, scripted_choice, stored
from websockets.exceptions import ConnectionClosed


def two_humans(server: ServerProcess, **options: Any) -> tuple[dict[str, Any], str, str]:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, **options)
    return table, ada, bob


async def seated(server: ServerProcess, table: dict[str, Any], *guests: str) -> list[Client]:
    clients = [Client(server, table, seat, guest=g) for seat, g in enumerate(guests)]
    for client in clients:
        hello = await client.connect()
        assert hello["t"] == "hello_ok", hello
    # wait until both seats are held and the hand has started for everyone
    for client in clients:
        await client.until(lambda f: (f.get("e") or {}).get("type") == "HandStarted"
                           or (f.get("t") == "sync" and f["hand"] is not None))
    await clients[0].my_turn()
    return clients


async def state_of(client: Client) -> dict[str, Any]:
    await client.send_raw('{"t":"sync"}')
    sync = await client.until(lambda f: f.get("t") == "sync")
    return {"version": sync["version"], "hand": sync["hand"]}


def test_every_bad_message_is_rejected_with_a_code_and_changes_nothing(
        server: ServerProcess) -> None:
    table, ada, bob = two_humans(server)

    async def main() -> None:
        one, two = await seated(server, table, ada, bob)
        before = await state_of(one)
        v = one.version
        bad: list[tuple[str | bytes, str, str | None]] = [
            ("{not json", "bad_json", None),
            ("[1, 2]", "bad_message", None),
            ('{"t": "dance"}', "unknown_type", None),
            ('{"t": "act", "id": "m1"}', "bad_message", "m1"),
            (json.dumps({"t": "act", "id": "m2", "v": str(v), "action": "draw"}),
             "bad_message", "m2"),
            (json.dumps({"t": "act", "id": "m3", "v": v, "action": "draw", "extra": 1}),
             "bad_message", "m3"),
            (json.dumps({"t": "act", "id": "m4", "v": v, "action": "draw",
                         "pad": "x" * 20_000}), "too_large", None),
            (b'{"t": "ping"}', "binary_frame", None),
            (json.dumps({"t": "act", "id": "m5", "v": v, "action": "fly away"}),
             "bad_action", "m5"),
            (json.dumps({"t": "act", "id": "m6", "v": v, "action": "discard 7H"}),
             "illegal_action", "m6"),
            (json.dumps({"t": "act", "id": "m7", "v": v, "action": "time"}),
             "forbidden_action", "m7"),
            (json.dumps({"t": "act", "id": "m8", "v": v - 1, "action": "draw"}),
             "stale_version", "m8"),
            (json.dumps({"t": "act", "id": "m9", "v": v + 5, "action": "draw"}),
             "stale_version", "m9"),
            (json.dumps({"t": "act", "id": "m10", "v": v, "action": "draw", "seat": 1}),
             "not_your_seat", "m10"),
            (json.dumps({"t": "undo", "id": "m11", "v": v}), "nothing_to_undo", "m11"),
            (json.dumps({"t": "hello", "seat": 0}), "already_joined", None),
        ]
        for message, code, cmid in bad:
            await one.send_raw(message)
            answer = await one.until(lambda f: f.get("t") == "reject")
            assert answer["code"] == code, (message, answer)
            assert answer["id"] == cmid
            assert answer["reason"] and answer["version"] == v
        # the engine's reason is passed on
        await one.send_raw(json.dumps({"t": "act", "id": "m12", "v": v, "action": "meld 5H 6H"}))
        answer = await one.until(lambda f: f.get("t") == "reject")
        assert answer["code"] == "illegal_action" and "§3.1" in answer["reason"]
        # out of turn: seat 1 may not draw while seat 0 is on turn
        answer = await two.act("draw")
        assert answer["code"] == "not_your_turn" and "seat 0" in answer["reason"]
        assert await state_of(one) == before
        assert server.http.get(f"/api/tables/{table['table_id']}").json()["version"] == v
        # a good command, then the same client message id again
        assert (await one.act("draw", cmid="once"))["t"] == "ack"
        after = await state_of(one)
        again = await one.act("draw", cmid="once", v=after["version"])
        assert again["code"] == "duplicate_message"
        assert again["applied"] == {"from": v + 1, "to": v + 1}
        assert await state_of(one) == after
        commands = stored(server.db_url, table["table_id"])["commands"]
        assert [c["cmid"] for c in commands if c["source"] == "client" and c["kind"] == "act"] \
            == ["once"]

    asyncio.run(main())


async def refused(server: ServerProcess, table: dict[str, Any], hello: dict[str, Any] | str,
                  code: str) -> dict[str, Any]:
    """Open a connection, send ``hello``, expect a reject with ``code`` and the close."""
    client = Client(server, table, None)
    client.ws = None
    from websockets.asyncio.client import connect

    async with connect(client.url) as ws:
        await ws.send(hello if isinstance(hello, str) else json.dumps(hello))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert answer["t"] == "reject" and answer["code"] == code, answer
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code is not None and ws.close_code >= 4000
    return dict(answer)


def test_nobody_can_act_for_another_seat(server: ServerProcess) -> None:
    table, ada, bob = two_humans(server)
    other, _, _ = two_humans(server)
    eve = server.guest("Eve")
    token0, token1 = table["seats"][0]["token"], table["seats"][1]["token"]

    async def main() -> None:
        await seated(server, table, ada, bob)
        cases = [
            ({"t": "hello", "seat": 1, "seat_token": token0, "guest": eve},
             "seat_token_mismatch"),
            ({"t": "hello", "seat": 0, "seat_token": other["seats"][0]["token"], "guest": eve},
             "seat_token_mismatch"),
            ({"t": "hello", "seat": 0, "seat_token": token0[:-3] + "abc", "guest": ada},
             "bad_token"),
            ({"t": "hello", "seat": 0, "seat_token": token0, "guest": eve}, "seat_taken"),
            ({"t": "hello", "seat": 1, "seat_token": token1}, "guest_required"),
            ({"t": "hello", "seat": 0, "guest": ada}, "bad_token"),
            ({"t": "hello", "seat": 0, "seat_token": token0, "guest": "g.forged.QQ.x"},
             "bad_token"),
            ({"t": "act", "id": "x", "v": 1, "action": "draw"}, "hello_required"),
            ({"t": "hello", "seat": 7, "seat_token": token0, "guest": ada},
             "seat_token_mismatch"),
        ]
        for hello, code in cases:
            await refused(server, table, hello, code)
        missing = dict(table, table_id="nosuchtable")
        await refused(server, missing, {"t": "hello"}, "table_not_found")
        # a spectator sees but cannot act; a private table needs its watch token
        watcher = Client(server, table, None)
        await watcher.connect()
        answer = await watcher.command({"t": "act", "id": "w1", "v": watcher.version,
                                        "action": "draw"})
        assert answer["code"] == "spectator"
        private, _, _ = two_humans(server, public=False)
        await refused(server, private, {"t": "hello"}, "watch_token_required")

    asyncio.run(main())
    # open, two claims, the deal: nothing else
    assert stored(server.db_url, table["table_id"])["info"]["version"] == 4


def test_undo_at_a_casual_table_and_not_at_a_tournament_table(server: ServerProcess) -> None:
    async def play_until_meld(clients: list[Client]) -> Client:
        """Scripted turns until the seat on turn holds a meld after its draw."""
        turn, at_least = 0, 0
        for _ in range(400):
            client = clients[turn]
            actions = (await client.my_turn(at_least=at_least))["actions"]
            if any(a.startswith("meld ") for a in actions):
                return client
            action = scripted_choice(actions)
            ack = await client.act(action)
            assert ack["t"] == "ack", ack
            at_least = ack["to"]
            if action.startswith("discard "):
                turn = 1 - turn
        raise AssertionError("no meld in 400 actions")

    async def main(casual: bool) -> None:
        table, ada, bob = two_humans(server, casual=casual)
        clients = await seated(server, table, ada, bob)
        client = await play_until_meld(clients)
        before = await state_of(client)
        meld = max((a for a in client.legal["actions"] if a.startswith("meld ")), key=len)
        assert (await client.act(meld))["t"] == "ack"
        legal = await client.my_turn()
        assert legal["undo"] is casual
        answer = await client.command({"t": "undo", "id": f"u{casual}", "v": client.version})
        if not casual:
            assert answer["code"] == "undo_not_allowed"
            return
        assert answer["t"] == "ack"
        undone = client.events[answer["to"]]
        assert undone is not None and undone["type"] == "Undone" and undone["action"] == meld
        after = await state_of(client)
        assert sorted(after["hand"]["hand_ids"]) == sorted(before["hand"]["hand_ids"])
        assert after["hand"]["melds"] == before["hand"]["melds"]
        other = next(c for c in clients if c is not client)
        seen = await other.until(lambda f: (f.get("e") or {}).get("type") == "Undone")
        assert "hand" not in seen["e"] and "action" not in seen["e"]
        # nothing more to undo: the draw itself stays
        again = await client.command({"t": "undo", "id": "u2", "v": client.version})
        assert again["code"] == "nothing_to_undo"

    asyncio.run(main(True))
    asyncio.run(main(False))


def test_http_api_refuses_bad_requests_with_the_field_named(server: ServerProcess) -> None:
    http = server.http
    token = server.guest("Cy")
    auth = {"authorization": f"Bearer {token}"}
    assert http.post("/api/guests", json={"nickname": "  "}).json()["code"] == "bad_request"
    assert http.post("/api/guests", json={}).status_code == 422
    assert http.get("/api/me", headers=auth).json()["nickname"] == "Cy"
    cookie = {"cookie": f"burraco_guest={token}"}
    assert http.get("/api/me", headers=cookie).json()["nickname"] == "Cy"
    assert http.get("/api/me").json()["code"] == "guest_required"
    assert http.get("/api/me", headers={"authorization": "Bearer x.y"}).json()["code"] \
        == "bad_token"
    cases = [
        ({"rules": "nope"}, "rules"),
        ({"options": {"target": "x"}}, "options.target"),
        ({"options": {"colour": 1}}, "options.colour"),
        ({"players": 2, "seats": [{"kind": "human"}]}, "seats"),
        ({"seats": [{"kind": "bot", "level": "genius"}] * 4}, "seats.0.level"),
        ({"mode": "smazzate"}, "smazzate"),
        ({"turn_seconds": 0}, "turn_seconds"),
        ({"creator_seat": 1, "players": 2,
          "seats": [{"kind": "human"}, {"kind": "bot"}]}, "creator_seat"),
        ({"surprise": True}, "surprise"),
    ]
    for body, field in cases:
        response = http.post("/api/tables", json=body, headers=auth)
        assert response.status_code == 422, (body, response.text)
        assert field in response.json()["detail"], (body, response.text)
    assert http.post("/api/tables", json={}).status_code == 401
    assert http.get("/api/tables/nosuch").status_code == 404
    private = server.create_table(token, players=2, public=False)
    assert http.get(f"/api/tables/{private['table_id']}").status_code == 403
    assert http.get(f"/api/tables/{private['table_id']}",
                    params={"token": private["watch_token"]}).status_code == 200
    listed = [t["id"] for t in http.get("/api/tables").json()["tables"]]
    assert private["table_id"] not in listed
