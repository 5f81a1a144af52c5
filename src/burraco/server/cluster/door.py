"""A door's reading of its client: each message checked and rate-limited as the gateway
does, then forwarded to the table's owner (which may be this process)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.websockets import WebSocket

from burraco.server import metrics
from burraco.server.cluster.lease import node_of
from burraco.server.cluster.remote import DoorSession
from burraco.server.protocol import (
    Act,
    HintAsk,
    Ping,
    ProtocolError,
    Quick,
    Sync,
    Undo,
    dumps,
    read_client_message,
    reject,
)
from burraco.server.ratelimit import IN_FLIGHT, TokenBucket


async def read_loop(ws: WebSocket, session: DoorSession, *, limit: int, node_id: str,
                    forward: Callable[[DoorSession, str], None]) -> None:
    """Read ``session``'s client until it goes; each command is forwarded by ``forward``."""
    conn = session.conn
    bucket = TokenBucket()
    while True:
        await conn.room()
        message = await ws.receive()
        if message["type"] == "websocket.disconnect" or conn.closing:
            return
        text = message.get("text", message.get("bytes"))
        version = session.version
        try:
            parsed = read_client_message(text, limit=limit)
        except ProtocolError as exc:
            if bucket.take():
                conn.send(dumps(reject(exc.code, exc.reason, exc.cmid, version)))
            else:
                conn.send(dumps(reject("rate_limited", "too many messages: this one was "
                                       "dropped", exc.cmid, version)))
            continue
        if not bucket.take():
            conn.send(dumps(reject(
                "rate_limited", f"more than {bucket.rate:g} messages a second: this one "
                f"was dropped; send again in {bucket.retry_after():.2f} s",
                getattr(parsed, "id", None), version)))
            continue
        if isinstance(parsed, Ping):
            conn.send('{"t":"pong"}')
        elif isinstance(parsed, Sync | Act | Undo | HintAsk) and len(session.pending) >= IN_FLIGHT:
            conn.send(dumps(reject(
                "rate_limited", f"{IN_FLIGHT} of this connection's commands are waiting "
                "at the table: this one was dropped; wait for their answers",
                getattr(parsed, "id", None), version)))
        elif isinstance(parsed, Sync | Act | Undo | HintAsk | Quick):
            if isinstance(text, bytes):
                text = text.decode()
            if isinstance(parsed, Act | Undo | HintAsk):
                session.command(parsed.id, text)
                if node_of(session.owner) != node_id:
                    metrics.FORWARDED.inc()
            forward(session, text)
        else:
            conn.send(dumps(reject("already_joined", "this connection has already sent "
                                   "its hello", None, version)))
