"""Fuzzing the WebSocket protocol against a real server: nothing a client sends moves a table
it may not move, and every answer is a documented one.

Hypothesis draws client messages from the message schema (every type, every
field, right and wrong types, ids with any characters, actions of any text,
extra fields, numbers past the parser's limits, deep nesting) and raw frames
(binary, fragmented, with control frames between the fragments, oversized,
invalid framing), and hellos with commands pipelined behind them in one TCP
write.  They are sent by the seat on turn (at the table's version only commands
other than the draw it owes, which the engine must refuse), by a seat not on turn,
by a spectator and by strangers.
Every frame back must be a documented server message, every ``reject`` code
must be in :data:`ERROR_CODES`, no ``ack`` may come, and at the end the table's
version and the seats' views are exactly what they were.

The number of messages fuzzed is printed (``-s``) for the record.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from harness import ServerProcess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rawws import BINARY, CLOSE, CONTINUATION, PING, TEXT, RawSocket, frame, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from burraco.engine.actions import ActionParseError, Draw, Pickup, parse_action
from burraco.server.protocol import CLIENT_TYPES, ERROR_CODES, check_server_message

ANSWERS = ("reject", "pong", "sync")


def fuzz(examples: int) -> Any:
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


COUNTS: Counter[str] = Counter()


class Table:
    """A two-seat table in play, a connection for each seat and one for a spectator."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        ada, bob = server.guest("Ada"), server.guest("Bob")
        self.guests = (ada, bob)
        self.stranger = server.guest("Mallory")
        self.info = server.create_table(ada, players=2)
        self.id = self.info["table_id"]
        self.conns: dict[str, ClientConnection] = {}
        for name, seat, guest in (("bob", 1, bob), ("ada", 0, ada), ("watcher", None, None)):
            self.conns[name] = self.join(seat, guest)
        self.version = self.http_version()
        for ws in self.conns.values():  # the claims, the deal, presence: before any fuzzing
            ws.send('{"t":"ping"}')
            while json.loads(ws.recv(10)).get("t") != "pong":
                pass
        self.views = {name: self.sync(name) for name in self.conns}

    def join(self, seat: int | None, guest: str | None) -> ClientConnection:
        # no keepalive: between its messages a connection is not read for seconds
        ws = connect(self.server.ws_url(self.id), max_size=None, ping_interval=None,
                     max_queue=None, legacy=True)
        hello: dict[str, Any] = {"t": "hello", "seat": seat, "legal": True}
        if seat is not None:
            hello.update(seat_token=self.info["seats"][seat]["token"], guest=guest)
        ws.send(json.dumps(hello))
        assert json.loads(ws.recv(10))["t"] == "hello_ok"
        return ws

    def http_version(self) -> int:
        # wait until both claims and the deal are in: seat 0 is on turn at version 4
        for _ in range(100):
            info = self.server.http.get(f"/api/tables/{self.id}").json()
            if info["status"] == "playing" and info["version"] >= 4:
                return int(info["version"])
            time.sleep(0.05)
        raise AssertionError(f"the table did not start: {info}")

    def sync(self, name: str) -> dict[str, Any]:
        answer = self.ask(name, '{"t":"sync"}')
        assert answer["t"] == "sync", answer
        return {"version": answer["version"], "hand": answer["hand"], "match": answer["match"]}

    def ask(self, name: str, message: str | bytes) -> dict[str, Any]:
        """Send one message and return its answer (a reject, a pong or a sync)."""
        ws = self.conns[name]
        for _ in range(50):
            ws.send(message)
            COUNTS["messages"] += 1
            answer = self.answer(ws)
            if answer.get("code") != "rate_limited":
                return answer
            time.sleep(0.2)  # over the connection's rate: documented; wait and send it again
        raise AssertionError("rate limited for 10 s")

    @staticmethod
    def answer(ws: ClientConnection) -> dict[str, Any]:
        while True:
            data = json.loads(ws.recv(10))
            check_server_message(data)
            assert data.get("t") != "ack" and "v" not in data, f"the table moved: {data}"
            if data.get("t") in ANSWERS:
                if data["t"] == "reject":
                    assert data["code"] in ERROR_CODES, data
                    COUNTS[data["code"]] += 1
                return dict(data)

    def unchanged(self) -> None:
        assert self.http_version() == self.version
        for name in self.conns:
            assert self.sync(name) == self.views[name], name


@pytest.fixture(scope="module")
def table(server: ServerProcess) -> Iterator[Table]:
    COUNTS.clear()
    fuzzed = Table(server)
    yield fuzzed
    fuzzed.unchanged()
    for ws in fuzzed.conns.values():
        ws.close()
    print(f"\nWebSocket fuzz: {COUNTS['messages']} messages and {COUNTS['raw']} raw writes "
          f"({COUNTS['pipelined']} pipelined after a refused hello); answers "
          f"{dict(sorted((k, v) for k, v in COUNTS.items() if k in ERROR_CODES))}")


# --- strategies ---------------------------------------------------------------------------------

json_leaf = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
             | st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
ids = st.text(max_size=70) | st.sampled_from(["server:clock-9", "clock-7", "standin-6", "a\x00"])
actions = st.sampled_from([
    "draw", "pickup", "discard 7H", "discard JK", "meld 5H 6H 7H", "meld 2C 2D 2S",
    "attach 1 8H", "attach 99 2C", "time", "undo", "", " draw", "DRAW", "discard",
]) | st.text(max_size=220)


def versions(current: int) -> st.SearchStrategy[Any]:
    """Any ``v`` but the table's version (a command at it could legally apply)."""
    return (st.integers().filter(lambda v: v != current) | json_value
            | st.sampled_from([current - 1, current + 1, -1, 2**63, str(current),
                               float(current), True]))


def messages(current: int) -> st.SearchStrategy[dict[str, Any]]:
    kinds = st.sampled_from([*CLIENT_TYPES, "reject", "ack", "", "ACT", "hello "]) | json_value
    optional = {"id": ids | json_value, "v": versions(current), "action": actions | json_value,
                "seat": st.sampled_from([0, 1, 2, -1, None, "0", 10**30]) | json_value,
                "legal": json_value, "seat_token": st.text(max_size=30) | json_value,
                "guest": st.text(max_size=30), "watch_token": json_value, "x": json_value}
    return st.fixed_dictionaries({"t": kinds}, optional=optional)


def takes_a_card(action: str) -> bool:
    """Whether ``action`` reads as the draw or pickup the seat on turn may play now."""
    try:
        return isinstance(parse_action(action), Draw | Pickup)
    except ActionParseError:
        return False


def commands(current: int, *, at_version: bool,
             acts: st.SearchStrategy[str] = actions) -> st.SearchStrategy[dict[str, Any]]:
    """Well-formed acts and undos, so that the table's own checks are fuzzed too."""
    good_ids = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")),
                       min_size=1, max_size=64).filter(lambda i: i.isprintable()
                                                       and not i.startswith("server:"))
    v = st.just(current) if at_version else st.integers(0, 10**6).filter(
        lambda n: n != current)
    seat = st.sampled_from([0, 1, 5, -3])
    act = st.fixed_dictionaries({"t": st.just("act"), "id": good_ids, "v": v,
                                 "action": acts}, optional={"seat": seat})
    undo = st.fixed_dictionaries({"t": st.just("undo"), "id": good_ids, "v": v},
                                 optional={"seat": seat})
    return act | undo


def encoded(current: int) -> st.SearchStrategy[str | bytes]:
    """A frame's payload: JSON from the schema, or text the parser must refuse."""
    huge = st.integers(4301, 6000).map(lambda n: "9" * n)
    deep = st.integers(900, 8000).map(lambda n: "[" * n + "]" * n)
    return st.one_of(
        messages(current).map(json.dumps),
        commands(current, at_version=False).map(json.dumps),
        st.tuples(messages(current), huge).map(
            lambda mh: json.dumps(mh[0])[:-1] + f', "n": {mh[1]}}}'),
        st.tuples(messages(current), deep).map(
            lambda md: json.dumps(md[0])[:-1] + f', "d": {md[1]}}}'),
        st.text(max_size=200),
        st.binary(max_size=200),
        st.integers(16_385, 40_000).map(lambda n: json.dumps({"t": "ping", "pad": "x" * n})),
        json_value.map(json.dumps),
    )


# --- the tests ----------------------------------------------------------------------------------

@fuzz(400)
@given(data=st.data())
def test_fuzzed_messages_from_every_kind_of_connection(table: Table, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["ada", "bob", "watcher"]))
    payloads = encoded(table.version)
    if name != "ada":  # not on turn: even a command at the table's version must not apply
        payloads |= commands(table.version, at_version=True).map(json.dumps)
    else:  # on turn, before her draw (§3.1): at the version, anything but a draw is refused
        payloads |= commands(table.version, at_version=True, acts=actions.filter(
            lambda a: not takes_a_card(a))).map(json.dumps)
    for payload in data.draw(st.lists(payloads, min_size=1, max_size=6)):
        answer = table.ask(name, payload)
        assert answer["t"] in ANSWERS
        if answer["t"] == "sync":
            assert {"version": answer["version"], "hand": answer["hand"],
                    "match": answer["match"]} == table.views[name]


def raw_writes(current: int) -> st.SearchStrategy[tuple[str, list[bytes], int]]:
    """(kind, frames to write at once, how many answers they call for)."""
    payload = st.one_of(messages(current).map(json.dumps), st.text(max_size=100))

    def fragmented(draw: Any) -> tuple[str, list[bytes], int]:
        body = draw(payload).encode()
        cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=5)))
        parts = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
        frames, opcode = [], TEXT
        for i, part in enumerate(parts):
            frames.append(frame(part, opcode, fin=i == len(parts) - 1))
            opcode = CONTINUATION
            if draw(st.booleans()):
                frames.append(frame(b"between", PING))  # control frames may interleave
        return "fragmented", frames, 1

    def burst(draw: Any) -> tuple[str, list[bytes], int]:
        bodies = draw(st.lists(payload, min_size=2, max_size=12))
        return "burst", [text(b) for b in bodies], len(bodies)

    def binary(draw: Any) -> tuple[str, list[bytes], int]:
        return "binary", [frame(draw(st.binary(max_size=300)), BINARY)], 1

    return st.one_of(st.composite(fragmented)(), st.composite(burst)(),
                     st.composite(binary)())


def write_raw(table: Table, seat: int, frames: list[bytes], answers: int) -> None:
    raw = RawSocket(table.server.port, f"/ws/tables/{table.id}")
    try:
        raw.send(text({"t": "hello", "seat": seat, "seat_token": table.info["seats"][seat]
                       ["token"], "guest": table.guests[seat], "v": table.version}))
        raw.send(b"".join(frames))
        COUNTS["raw"] += 1
        COUNTS["messages"] += answers
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + 15
        while sum(m.get("t") in ANSWERS for m in got) < answers:
            received = raw.read_frame(deadline - time.monotonic())
            assert received is not None, f"no answer in 15 s: {got}"
            opcode, body = received
            assert opcode != CLOSE, (body, got)
            if opcode == TEXT:
                got.append(json.loads(body))
        for message in got:
            check_server_message(message)
            assert message.get("t") != "ack" and "v" not in message, message
            if message.get("t") == "reject":
                assert message["code"] in ERROR_CODES, message
                COUNTS[message["code"]] += 1
    finally:
        raw.close()


@fuzz(80)
@given(data=st.data())
def test_fuzzed_raw_frames(table: Table, data: st.DataObject) -> None:
    _, frames, answers = data.draw(raw_writes(table.version))
    write_raw(table, data.draw(st.sampled_from([0, 1])), frames, answers)


@fuzz(50)
@given(data=st.data())
def test_fuzzed_commands_pipelined_after_a_refused_hello(table: Table,
                                                         data: st.DataObject) -> None:
    seat = data.draw(st.sampled_from([0, 1]))
    stranger = table.stranger if data.draw(st.booleans()) else None
    hello: dict[str, Any] = {"t": "hello", "seat": seat, "seat_token":
                             table.info["seats"][seat]["token"]}
    hello.update(data.draw(st.sampled_from([
        {"guest": stranger} if stranger else {"guest": "g.forged.QQ.x"},
        {"guest": table.guests[seat], "seat": 1 - seat},
        {"guest": table.guests[seat], "seat_token": table.info["seats"][1 - seat]["token"]},
        {"guest": table.guests[seat], "seat": 5},
        {},
    ])))
    behind = data.draw(st.lists(st.one_of(
        st.builds(lambda a: {"t": "act", "id": "p", "v": table.version, "action": a}, actions),
        messages(table.version)), min_size=1, max_size=8))
    raw = RawSocket(table.server.port, f"/ws/tables/{table.id}")
    try:
        raw.send(b"".join([text(hello), *(text(m) for m in behind)]))
        got = raw.collect(timeout=10)
    finally:
        raw.close()
    COUNTS["pipelined"] += 1
    COUNTS["messages"] += 1 + len(behind)
    assert got.closed and got.close_code is not None and got.close_code >= 4400, got
    assert len(got.messages) == 1 and got.messages[0]["t"] == "reject", got.messages
    assert got.messages[0]["code"] in ERROR_CODES
    COUNTS[got.messages[0]["code"]] += 1


def test_frames_past_the_websocket_limit_close_the_connection_only(table: Table) -> None:
    """Over the WebSocket layer's 1 MiB a frame closes its connection (1009), nothing else."""
    ws = table.join(1, table.guests[1])
    ws.send(json.dumps({"t": "ping", "pad": "x" * (1024 * 1024 + 10)}))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    COUNTS["messages"] += 1
    raw = RawSocket(table.server.port, f"/ws/tables/{table.id}")
    try:  # a continuation with no message to continue breaks the framing: closed (1002)
        raw.send(text({"t": "hello"}) + frame(b"orphan", CONTINUATION))
        got = raw.collect(timeout=10)
        assert got.closed, got
    finally:
        raw.close()
    COUNTS["raw"] += 1
    table.unchanged()
