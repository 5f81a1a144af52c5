"""The WebSocket side's limits (protocol.md, "Limits"): each answered by its documented code.

A number past Python's digit limit, nesting past the parser's depth, an id with
control characters or of absurd length: each is answered by a ``reject``
(``bad_json`` / ``bad_message``), the connection stays open and the table does
not move.  A burst of commands is answered ``rate_limited`` past the
connection's allowance, and a client that reads is never closed for its own
burst.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from harness import Client, ServerProcess, stored
from rawws import RawSocket, text


async def seated_pair(server: ServerProcess) -> tuple[dict[str, Any], Client, Client]:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2)
    one, two = Client(server, table, 0, guest=ada), Client(server, table, 1, guest=bob)
    for client in (one, two):
        assert (await client.connect())["t"] == "hello_ok"
    await one.my_turn()
    return table, one, two


async def still_there(client: Client) -> int:
    """The connection answers, and the version it has (through a fresh ``sync``)."""
    await client.send_raw('{"t":"ping"}')
    await client.until(lambda f: f.get("t") == "pong")
    await client.send_raw('{"t":"sync"}')
    return int((await client.until(lambda f: f.get("t") == "sync"))["version"])


def test_numbers_and_nesting_the_parser_refuses_are_rejected_not_dropped(
        server: ServerProcess) -> None:
    asyncio.run(_numbers_and_nesting(server))


async def _numbers_and_nesting(server: ServerProcess) -> None:
    _, one, _ = await seated_pair(server)
    v = one.version
    cases: list[tuple[str, str]] = [
        ('{"t": "act", "id": "n1", "v": ' + "9" * 5000 + ', "action": "draw"}', "bad_json"),
        ('{"t": "act", "id": "n2", "v": -' + "1" * 4301 + ', "action": "draw"}', "bad_json"),
        ('{"t": "act", "id": "n3", "v": 1e999, "action": "draw"}', "bad_message"),
        ('{"t": "act", "id": "n4", "v": ' + str(v) + ', "action": "draw", "x": '
         + "[" * 5000 + "]" * 5000 + "}", "bad_json"),
        ('{"t": "hello", "v": ' + "7" * 4400 + "}", "bad_json"),
        ('{"t": "act", "id": "n5", "v": NaN, "action": "draw"}', "bad_message"),
        ('{"t": "act", "id": "n6", "v": ' + str(v) + ', "action": "draw", "seat": '
         + "1" * 4400 + "}", "bad_json"),
    ]
    for message, code in cases:
        await one.send_raw(message)
        answer = await one.until(lambda f: f.get("t") == "reject", timeout=10)
        assert answer["code"] == code, (message[:80], answer)
        assert answer["version"] == v
    assert await still_there(one) == v


def test_client_ids_with_control_characters_or_absurd_lengths_are_refused(
        server: ServerProcess) -> None:
    async def main() -> dict[str, Any]:
        table, one, _ = await seated_pair(server)
        v = one.version
        bad_ids = ["a\x00b", "line\nbreak", "tab\t", "\x7f", "bidi\u202e", "\ud800",
                   "x" * 65, "y" * 5000, "", "server:clock-7", "\u2028"]
        for cmid in bad_ids:
            await one.send_raw(json.dumps({"t": "act", "id": cmid, "v": v, "action": "draw"}))
            answer = await one.until(lambda f: f.get("t") == "reject", timeout=10)
            assert answer["code"] == "bad_message", (cmid[:20], answer)
            assert "id" in answer["reason"]
            # the id is echoed back only when it is one a client could use
            assert answer["id"] in (None, cmid) and (answer["id"] is None
                                                     or cmid.isprintable())
        assert await still_there(one) == v
        # ids of every printable kind are fine
        assert (await one.act("draw", cmid="Ünïcødé ✓ 42 · ok"))["t"] == "ack"
        return table

    table = asyncio.run(main())
    cmids = [c["cmid"] for c in stored(server.db_url, table["table_id"])["commands"]
             if c["source"] == "client" and c["kind"] == "act"]
    assert cmids == ["Ünïcødé ✓ 42 · ok"]


def burst(server: ServerProcess, table: dict[str, Any], guest: str, count: int,
          version: int) -> tuple[list[dict[str, Any]], int | None, float]:
    """Send ``count`` commands in one write while reading everything: what came back."""
    raw = RawSocket(server.port, f"/ws/tables/{table['table_id']}")
    try:
        raw.send(text({"t": "hello", "seat": 1, "seat_token": table["seats"][1]["token"],
                       "guest": guest, "v": version}))
        start = time.monotonic()
        frames = b"".join(text({"t": "act", "id": f"b{i}", "v": version, "action": "draw"})
                          for i in range(count))
        raw.send(frames)
        got = raw.collect(until_close=False, quiet=3, timeout=60)
        return got.messages, got.close_code if got.closed else None, time.monotonic() - start
    finally:
        raw.close()


def test_a_burst_is_rate_limited_and_a_reading_client_is_never_closed_for_it(
        server: ServerProcess) -> None:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2)

    async def main() -> tuple[list[dict[str, Any]], int | None, int]:
        one, two = Client(server, table, 0, guest=ada), Client(server, table, 1, guest=bob)
        for client in (one, two):
            assert (await client.connect())["t"] == "hello_ok"
        await one.my_turn()
        await two.close()
        v = one.version
        messages, closed, _ = await asyncio.to_thread(burst, server, table, bob, 5000, v)
        return messages, closed, v

    messages, closed, v = asyncio.run(main())
    assert closed is None, f"closed with {closed} after {len(messages)} frames"
    answers = [m for m in messages if m.get("t") == "reject"]
    codes = {m["code"] for m in answers}
    assert codes <= {"not_your_turn", "rate_limited"}, codes
    assert "rate_limited" in codes
    # every command was answered, exactly once
    assert sorted(int(m["id"][1:]) for m in answers) == list(range(5000))
    assert server.http.get(f"/api/tables/{table['table_id']}").json()["version"] == v


def test_invalid_utf8_frames_cost_no_traceback_in_the_log(tmp_path: Any) -> None:
    """The audit's finding 12: each text frame of invalid UTF-8 logged a traceback (40 frames,
    40 tracebacks: log amplification).  It is the client's fault: at most one line each."""
    from rawws import frame

    server = ServerProcess(f"sqlite:///{tmp_path / 'u.db'}", tmp_path / "u.log",
                           extra=["--log-level", "info"])
    server.start()
    try:
        table = server.create_table(server.guest("Ada"), players=2)
        for _ in range(40):
            raw = RawSocket(server.port, f"/ws/tables/{table['table_id']}")
            raw.send(frame(b'{"t":"hello","seat":null,"x":"\xff\xfe"}'))
            raw.read_frame(2)  # the server closes it
            raw.close()
        assert server.http.get("/healthz").status_code == 200
    finally:
        server.stop()
    log = (tmp_path / "u.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-2000:]
    assert log.count("Invalid UTF-8") <= 40
