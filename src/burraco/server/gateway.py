"""The WebSocket gateway: one connection, from its ``hello`` to its last frame.

The gateway reads frames, turns them into protocol messages (rejecting what is
malformed, unknown or too large without bothering the table), checks tokens,
and hands commands to the table's actor.  Nothing after the ``hello`` is read
until the actor has admitted the connection, and nothing at all after it refused
it: commands pipelined behind a refused hello are never handled.  Messages are
counted against the connection's allowance (:mod:`burraco.server.ratelimit`);
the excess is answered ``rate_limited`` and dropped.

Frames to the client go through a per-connection outbox drained by a writer
task, so a slow client never holds up its table: past ``outbox_limit`` waiting
frames it is disconnected (close code 4008) and may reconnect with its last
version.  While half of that waits the gateway reads nothing more from the
connection, so a client's own burst is answered as fast as it reads.

Close codes: 4400 bad hello, 4401 bad or missing token, 4403 seat not yours,
4404 no such table, 4408 no hello in time, 4008 too slow, 1012 server restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from burraco.accounts.identity import GUEST_COOKIE, Guest, TokenError
from burraco.accounts.sessions import SESSION_COOKIE, session_id_of
from burraco.server import rated
from burraco.server.actor import TableActor
from burraco.server.hub import Hub
from burraco.server.metrics import CONNECTIONS
from burraco.server.protocol import (
    PROTOCOL,
    Act,
    Hello,
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
from burraco.server.table_items import ClientCommand, Conn, Join, Leave, Resync

log = logging.getLogger("burraco.server.gateway")


class WsConnection:
    """A client connection: what the actor sends it goes through :meth:`send`."""

    def __init__(self, ws: WebSocket, limit: int) -> None:
        self.ws = ws
        self.limit = limit
        self.seat: int | None = None
        self.guest: Guest | None = None
        self.wants_legal = False
        self.protocol = 1
        self.pending = 0
        """Commands of this connection queued at the table and not yet handled."""
        self._frames: deque[str] = deque()
        self._wake = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()
        self._close: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if self._close is not None:
            return
        if len(self._frames) >= self.limit:
            self.close(4008, "too slow: reconnect with your last version")
            return
        self._frames.append(text)
        self._wake.set()
        if len(self._frames) >= self.limit // 2:
            self._room.clear()

    async def room(self) -> None:
        """Wait while half the outbox is full: the reader answers no faster than it is read.

        Reading the next message waits here, so a burst of messages is answered
        at the pace the client takes the answers (TCP pushes back on it) rather
        than queued until the outbox limit closes a client that does read.
        """
        await self._room.wait()

    def close(self, code: int, reason: str) -> None:
        if self._close is None:
            self._close = (code, reason)
            self._wake.set()

    @property
    def closing(self) -> bool:
        """Closed or being closed: nothing it sends any more reaches a table."""
        return self._close is not None

    async def pump(self) -> None:
        """Send queued frames in order; after a close request, send what is queued and close."""
        frames = self._frames
        send = self.ws.send
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while frames:
                    await send({"type": "websocket.send", "text": frames.popleft()})
                    if len(frames) <= self.limit // 4:
                        self._room.set()
                self._room.set()
                if self._close is not None:
                    await self.ws.close(*self._close)
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._close = self._close or (1006, "gone")
        finally:
            self._room.set()  # a reader waiting for room must not wait for a gone client


async def serve_connection(ws: WebSocket, table_id: str, hub: Hub) -> None:
    settings = hub.settings
    await ws.accept()
    conn = WsConnection(ws, settings.outbox_limit)
    pump = asyncio.create_task(conn.pump())
    actor = None
    session_id: str | None = None
    CONNECTIONS.inc()
    try:
        hello = await _hello(ws, conn, settings.hello_timeout, settings.max_message_bytes)
        if hello is None:
            return
        guest_token = hello.guest or ws.cookies.get(SESSION_COOKIE) or ws.cookies.get(
            GUEST_COOKIE)
        session_id = session_id_of(guest_token)
        if session_id is not None:  # closed at once if the session ends (logout, password)
            hub.players.sockets.add(session_id, conn)
        if hub.cluster is not None:  # the table may run in another process: go through it
            await hub.cluster.serve(ws, conn, table_id, hello, guest_token)
            return
        actor = await hub.actor_for(table_id)
        if actor is None:
            why = hub.broken.get(table_id)
            refuse(conn, "table_not_found", f"no table {table_id!r}" + (
                f" (it could not be recovered: {why})" if why else ""), 4404)
            return
        if not await admit_and_join(hub, actor, conn, hello, guest_token, table_id):
            actor = None
            return
        await _read_loop(ws, conn, actor, settings.max_message_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        CONNECTIONS.dec()  # first: nothing below may skip it
        if session_id is not None:
            hub.players.sockets.remove(session_id, conn)
        if actor is not None:
            actor.submit(Leave(conn))
        conn.close(1000, "bye")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(pump, 5)


async def admit_and_join(hub: Hub, actor: TableActor, conn: Conn, hello: Hello,
                         guest_token: str | None, table_id: str) -> bool:
    """Check a hello's tokens and the table's admission, then join; False if refused.

    Runs where the table is owned: for a connection of this process, or one a
    door process forwards (``burraco.server.cluster``).
    """
    if not _admit(conn, hello, table_id, hub, guest_token, public=actor.config.public):
        return False
    holder = actor.game.holders[conn.seat] if conn.seat is not None and 0 <= conn.seat < len(
        actor.game.holders) else None
    refusal = await rated.admission(  # rated tables: accounts only, one live rated seat each
        hub.players, actor.table_id, actor.config, actor.game.status,
        holder.guest_id if holder else None, conn.guest, conn.seat)
    if refusal is not None:
        refuse(conn, *refusal, 4403)
        return False
    join = Join(conn, hello)
    actor.submit(join)
    # nothing the client pipelined behind its hello is read before the table admits it
    return await join.admitted


def refuse(conn: Conn, code: str, reason: str, close_code: int) -> None:
    conn.send(dumps(reject(code, reason, None, None)))
    conn.close(close_code, code)


async def _hello(ws: WebSocket, conn: WsConnection, timeout: float, limit: int) -> Hello | None:
    try:
        message = await asyncio.wait_for(ws.receive(), timeout)
    except TimeoutError:
        refuse(conn, "hello_required", f"no hello within {timeout:g} s", 4408)
        return None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        parsed = read_client_message(message.get("text", message.get("bytes")), limit=limit)
    except ProtocolError as exc:
        refuse(conn, exc.code, exc.reason, 4400)
        return None
    if not isinstance(parsed, Hello):
        refuse(conn, "hello_required",
                f"the first message must be a hello, not {parsed.t!r}", 4400)
        return None
    return parsed


def _admit(conn: Conn, hello: Hello, table_id: str, hub: Hub, guest_token: str | None, *,
           public: bool) -> bool:
    """Check the hello's tokens and set who the connection is; refuse and close otherwise."""
    signer = hub.tokens
    conn.protocol = min(hello.protocol, PROTOCOL)
    try:
        guest = hub.identify(guest_token) if guest_token else None
    except TokenError as exc:
        refuse(conn, "bad_token", str(exc), 4401)
        return False
    if hello.seat is None:
        if not public:
            try:
                signer.check_watch(hello.watch_token, table_id)
            except TokenError as exc:
                refuse(conn, "watch_token_required",
                        f"this table is private: send its watch token ({exc})", 4401)
                return False
        conn.guest = guest
        return True
    if hello.seat_token is None:
        refuse(conn, "bad_token", f"seat {hello.seat} needs its seat token", 4401)
        return False
    try:
        token_seat = signer.seat_of(hello.seat_token, table_id)
    except TokenError as exc:
        code = "seat_token_mismatch" if "another table" in str(exc) else "bad_token"
        refuse(conn, code, str(exc), 4401)
        return False
    if token_seat != hello.seat:
        refuse(conn, "seat_token_mismatch",
                f"this seat token opens seat {token_seat}, not seat {hello.seat}", 4403)
        return False
    if guest is None:
        refuse(conn, "guest_required", "a seat is held by a guest: send a guest token "
                "(POST /api/guests gives one)", 4401)
        return False
    conn.seat = hello.seat
    conn.guest = guest
    conn.wants_legal = hello.legal
    return True


def submit(actor: Any, conn: Conn, parsed: Sync | Act | Undo | HintAsk | Quick) -> None:
    """Hand a joined connection's message to its table's actor: the socket's own loop and a
    cluster owner's forwarded connections alike."""
    if isinstance(parsed, Quick):
        actor.quick(conn, parsed.msg)
        return
    conn.pending += 1
    if isinstance(parsed, Sync):
        actor.submit(Resync(conn))
    elif not actor.submit(ClientCommand(conn, parsed)):
        conn.pending -= 1
        conn.send(dumps(reject("overloaded", "too many commands are waiting at this "
                               "table; retry", parsed.id, actor.game.version)))


async def _read_loop(ws: WebSocket, conn: WsConnection, actor: Any, limit: int) -> None:
    bucket = TokenBucket()
    while True:
        await conn.room()
        message = await ws.receive()
        if message["type"] == "websocket.disconnect" or conn.closing:
            return
        try:
            parsed = read_client_message(message.get("text", message.get("bytes")), limit=limit)
        except ProtocolError as exc:
            if bucket.take():
                conn.send(dumps(reject(exc.code, exc.reason, exc.cmid, actor.game.version)))
            else:
                _rate_limited(conn, bucket, exc.cmid, actor)
            continue
        if not bucket.take():
            _rate_limited(conn, bucket, getattr(parsed, "id", None), actor)
            continue
        if isinstance(parsed, Ping):
            conn.send('{"t":"pong"}')
        elif isinstance(parsed, Sync | Act | Undo | HintAsk) and conn.pending >= IN_FLIGHT:
            conn.send(dumps(reject(
                "rate_limited", f"{IN_FLIGHT} of this connection's commands are waiting at "
                "the table: this one was dropped; wait for their answers", getattr(
                    parsed, "id", None), actor.game.version)))
        elif isinstance(parsed, Sync | Act | Undo | HintAsk | Quick):
            submit(actor, conn, parsed)
        else:
            conn.send(dumps(reject("already_joined", "this connection has already sent its "
                                   "hello", None, actor.game.version)))


def _rate_limited(conn: WsConnection, bucket: TokenBucket, cmid: str | None,
                  actor: Any) -> None:
    conn.send(dumps(reject(
        "rate_limited", f"more than {bucket.rate:g} messages a second (bursts of "
        f"{bucket.burst:g}): this one was dropped; send again in "
        f"{bucket.retry_after():.2f} s", cmid, actor.game.version)))
