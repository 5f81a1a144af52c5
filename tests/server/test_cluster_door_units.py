"""A door's view of what its client has seen (``DoorSession.frame``), in process.

Found by the redis-lost cluster test (about one run in three): the door sent a join, it timed
out while Redis was away, the door sent it again, and both arrived; the second ``hello_ok``
reset the door's version to the hello's, so the owner's replay of events the client had seen
went out again ("got version 17 after 42").
"""

from __future__ import annotations

import json

from burraco.server.cluster.remote import DoorSession


class Conn:
    def send(self, text: str) -> None:
        pass

    def close(self, code: int, reason: str) -> None:
        pass


def event(v: int) -> str:
    return json.dumps({"v": v, "e": {"type": "Drew", "seat": 1, "card_text": None}})


def hello_ok(version: int) -> str:
    return json.dumps({"t": "hello_ok", "table": "t", "seat": None, "version": version,
                       "catch_up": "replay", "protocol": 1})


def test_a_second_answer_to_one_join_sends_nothing_seen_again() -> None:
    session = DoorSession(Conn(), "t", {"t": "hello", "v": 16}, None)
    assert session.frame(hello_ok(42)) is not None  # the client's answer
    for v in range(17, 43):
        assert session.frame(event(v)) == event(v)
    assert session.frame(hello_ok(42)) is None  # the same join answered twice
    for v in range(17, 43):  # its replay: all seen already
        assert session.frame(event(v)) is None
    assert session.frame(event(43)) == event(43)


def test_a_first_answer_still_reaches_the_client() -> None:
    session = DoorSession(Conn(), "t", {"t": "hello", "v": 5}, None)
    assert session.frame(hello_ok(7)) == hello_ok(7)
    assert session.frame(event(6)) == event(6)
    assert session.frame(event(8)) == "gap"  # 7 was lost on the way: a sync is asked
