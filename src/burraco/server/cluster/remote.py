"""Connections whose door and owner may be different processes.

The *door* is the process a client's WebSocket reached; the *owner* runs the
table.  The door keeps a :class:`DoorSession` per connection and forwards what
the client sends; the owner keeps a :class:`RemoteConn`, which the table's
actor sees as any connection (so the seat checks, admission and the per-seat
projection all run where they always ran, on the owner), and whose frames go
back to the door.  Door and owner may be the same process: then nothing
crosses Redis.

A door remembers the last version its client got and the commands not yet
answered.  When the owner changes (its lease expired, was handed over, or the
table was rebuilt) the door joins the new owner with that version, hides the
second ``hello_ok``, and sends the unanswered commands again with their ids:
the client sees at most a ``sync``, never a version twice or a gap, and a
command that was stored is answered ``duplicate_message`` with its versions.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from burraco.accounts.identity import Guest

Send = Callable[[str, dict[str, Any]], None]


class RemoteConn:
    """The owner's side of a forwarded connection (the actor's ``Conn``)."""

    def __init__(self, cid: str, door: str, table_id: str, token: str, send: Send) -> None:
        self.cid = cid
        self.door = door
        self.table_id = table_id
        self.token = token
        self.seat: int | None = None
        self.guest: Guest | None = None
        self.wants_legal = False
        self.protocol = 1
        """The protocol version served (set from the hello on admission, as for a socket)."""
        self.pending = 0
        self.admitted = False
        self.backlog: list[str] = []
        """Commands that arrived before the join was answered (handled in order after it)."""
        self._send = send
        self.closed = False

    def send(self, text: str) -> None:
        if not self.closed:
            self._send(self.door, {"k": "f", "c": self.cid, "o": self.token, "x": text})

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self._send(self.door, {"k": "x", "c": self.cid, "o": self.token, "code": code,
                                   "reason": reason})


class DoorSession:
    """The door's side of one client connection: what it forwards and what it has seen."""

    def __init__(self, conn: Any, table_id: str, hello: dict[str, Any],
                 guest_token: str | None) -> None:
        self.cid = secrets.token_hex(8)
        self.conn = conn
        self.table_id = table_id
        self.hello = hello
        self.guest_token = guest_token
        self.owner: str | None = None
        """The lease token of the owner this session joined (``None``: none yet)."""
        self.version: int | None = None
        self.pending: dict[str, str] = {}
        """Commands sent and not yet answered: client id -> message text."""
        self.hide_hello = False
        self.joined: Any = None
        """A future resolved with the first join's answer."""
        self.closed = False
        self.rejoining = False
        self.started = False
        """Admitted once: from then on a change of owner is a rejoin, hidden from the client."""

    def join_message(self) -> dict[str, Any]:
        hello = dict(self.hello)
        if self.hide_hello:
            hello["v"] = self.version
        return {"k": "j", "c": self.cid, "t": self.table_id, "h": hello, "g": self.guest_token,
                "o": self.owner}

    def command(self, cmid: str | None, text: str) -> None:
        if cmid is not None:
            self.pending[cmid] = text

    def frame(self, text: str) -> str | None:
        """What of an owner's frame reaches the client (``None``: nothing); may ask a sync."""
        data = json.loads(text)
        kind = data.get("t")
        if kind is None and "v" in data:  # an event
            v = data["v"]
            if self.version is not None and v <= self.version:
                return None  # seen already (from the owner before)
            if self.version is not None and v != self.version + 1:
                return "gap"
            self.version = v
            return text
        if kind == "hello_ok":
            # hidden: a rejoin's answer, or a second answer to one join the door sent twice
            # (the first timed out while Redis was away, then both arrived): the client has
            # its hello_ok already, and what it has seen must not be sent again (the version
            # stays, so the replayed events it saw are dropped below)
            if self.hide_hello or self.version is not None:
                self.hide_hello = False
                # a rejoin's replayed events carry no deltas (docs/protocol.md §15): a client
                # that applies deltas needs a sync after them when the owner had moved on
                if self.hello.get("protocol", 1) >= 2 and data.get("version") != self.version:
                    return "gap"
                return None
            if data.get("catch_up") != "sync":
                self.version = self.hello.get("v") or 0
            return text
        if kind == "sync":
            self.version = data["version"]
        elif kind in ("ack", "reject") and data.get("id") is not None:
            self.pending.pop(data["id"], None)
        return text
