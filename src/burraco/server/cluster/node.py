"""One process of the cluster: its leases, its doors, and what it tells the others.

Loops (all in the server's event loop):

* **renew** (a third of the lease time): renews every held lease in one round
  trip and heartbeats the registry; a lease found lost, or not renewed for a
  whole lease time (Redis away), makes the process step down from the table at
  once (it stops the actor and tells the doors to move).
* **watch** (a quarter of the lease time): for the tables this process is a
  door of, reads who owns them; a door whose owner changed or vanished joins
  again, taking the table itself when nobody holds it (that is the takeover).
* **scan** (every second): live tables of the database that nobody owns (no
  client connected anywhere: bots alone) go to the least loaded processes.

A table is loaded exactly as a restart loads it (``Hub._load``), after its
lease is taken; the database's version compare-and-set refuses a commit from
an owner that lost its lease without knowing (the actor then steps down).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError
from starlette.websockets import WebSocket

from burraco.server import metrics
from burraco.server.cluster.bus import Bus
from burraco.server.cluster.clocks import ClockWriter
from burraco.server.cluster.door import read_loop
from burraco.server.cluster.lease import Leases, node_of
from burraco.server.cluster.nodes import Nodes, least_loaded
from burraco.server.cluster.owners import OwnerBook
from burraco.server.cluster.remote import DoorSession, RemoteConn
from burraco.server.gateway import WsConnection, admit_and_join, refuse, submit
from burraco.server.hub import Hub
from burraco.server.protocol import (
    Act,
    Hello,
    HintAsk,
    Quick,
    Sync,
    Undo,
    read_client_message,
)
from burraco.server.storage import repository as repo
from burraco.server.table_items import Leave, Reveal

log = logging.getLogger("burraco.server.cluster")
JOIN_TIMEOUT = 15.0
"""Seconds a door waits for an owner to answer a join before trying again."""
REDIS_CONNECTIONS = 16
"""Redis connections of one process (one held by the bus's subscription), besides the
one of its lease renewals and heartbeats.

Every loop reads or writes many tables in one round trip (MGET, pipelines), a
door's owner questions share one MGET, and commands to a table owned here
touch no Redis at all: a handful of connections is what the work needs.  A
bounded pool keeps a burst of clients from opening a Redis connection each
(and the Redis server from refusing clients); a caller waits for a free one
at most a fraction of the lease time."""


class Cluster:
    def __init__(self, hub: Hub) -> None:
        settings = hub.settings
        self.hub = hub
        self.node_id = settings.node_id or secrets.token_hex(4)
        self.prefix = settings.redis_prefix
        self.lease_ms = int(settings.lease_seconds * 1000)
        pool = BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=REDIS_CONNECTIONS,
            client_name=f"{self.prefix}:{self.node_id}",  # CLIENT LIST tells whose it is
            timeout=max(0.5, settings.lease_seconds / 4),
            socket_timeout=max(1.0, settings.lease_seconds / 2), socket_connect_timeout=1.0)
        self.redis = Redis(connection_pool=pool)
        self.renewer = Redis(connection_pool=BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=1, timeout=max(0.5, settings.lease_seconds / 4),
            socket_timeout=max(1.0, settings.lease_seconds / 2), socket_connect_timeout=1.0,
            client_name=f"{self.prefix}:{self.node_id}"))
        """The renewals' and heartbeats' own connection (never queued behind other work)."""
        self.leases = Leases(self.redis, self.prefix, self.node_id, self.lease_ms,
                             renewer=self.renewer)
        self.nodes = Nodes(self.redis, self.prefix, self.node_id, self.lease_ms,
                           beater=self.renewer)
        self.owners = OwnerBook(self.leases.owners, max_age=settings.lease_seconds / 2)
        """Who owns the tables this process is a door of (cached, read in batches)."""
        self.clock_writer = ClockWriter(self.redis, self.prefix, self.lease_ms)
        self.bus = Bus(self.redis, self.prefix, self.node_id, self._on_message,
                       on_reconnect=self._on_bus_reconnect)
        hub.players.announce_ended = self._announce_sessions_ended
        self.owned: dict[str, str] = {}
        """Tables this process holds the lease of: table -> lease token."""
        self.remote: dict[str, RemoteConn] = {}
        """Connections forwarded to the tables owned here, by connection id."""
        self.sessions: dict[str, DoorSession] = {}
        """Connections of this process (as a door), by connection id."""
        self.last_renewal = time.monotonic()
        self.lease_ok = True
        self.cut_off = False
        """Redis has not answered for a lease time: this process serves nothing that needs
        it (``/healthz`` and such requests answer 503, WebSockets are closed with 1012) until
        a renewal goes through again."""
        self.draining = False
        self._taking: dict[str, asyncio.Future[str | None]] = {}
        self._stepping: set[str] = set()
        self._unowned_seen: set[str] = set()
        self._renewals = 0
        self.clocks: dict[str, tuple[object, float]] = {}
        """Turn deadlines read from Redis for tables being taken (the previous owner's)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[Any]] = set()

    # --- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        self.bus.start()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.bus.connected.wait(), 10)
        with contextlib.suppress(Exception):
            await self.nodes.beat(0)
        period = self.lease_ms / 1000
        self._tasks = [
            asyncio.create_task(self._every(period / 3, self._renew), name="cluster-renew"),
            asyncio.create_task(self._every(max(0.1, period / 4), self._watch),
                                name="cluster-watch"),
            asyncio.create_task(self._every(1.0, self._scan), name="cluster-scan"),
        ]
        log.warning("cluster node %s up (lease %d ms, prefix %s)", self.node_id,
                    self.lease_ms, self.prefix)

    async def drain(self) -> None:
        """SIGTERM: close this door's connections (1012), hand every table over, leave."""
        self.draining = True
        for task in self._tasks:
            task.cancel()
        for session in list(self.sessions.values()):
            session.conn.close(1012, "server restarting: reconnect")
        with contextlib.suppress(Exception):
            await self.nodes.leave()
        try:
            live = await self.nodes.live()
        except Exception:
            live = {}
        live.pop(self.node_id, None)
        for table_id in list(self.owned):
            target = least_loaded(live)
            await self.step_down(table_id, hand_to=target)
            if target is not None:
                live[target] += 1
        with contextlib.suppress(Exception):
            await self.clock_writer.flush()
        await self.bus.stop()
        await self.redis.aclose()
        await self.renewer.aclose()

    async def _every(self, seconds: float, job: Any) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster %s: %s failed: %s", self.node_id, job.__name__, exc)

    def _cut_off(self, why: str) -> None:
        """Redis is out of reach: no table can be owned nor reached from here, so the clients
        connected here are told to reconnect (1012), to a process that can serve them."""
        if not self.cut_off:
            log.error("cluster %s: Redis out of reach for a lease time (%s): closing %d "
                      "connections, answering 503", self.node_id, why, len(self.sessions))
        self.cut_off = True
        for session in list(self.sessions.values()):
            session.conn.close(1012, "this server lost its cluster link: reconnect")

    @property
    def retry_after(self) -> int:
        """Seconds after which a refused client may try again (a lease time, at least 1)."""
        return max(1, round(self.lease_ms / 1000))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def health(self) -> dict[str, Any]:
        return {"node": self.node_id, "tables_owned": len(self.owned),
                "lease": "ok" if self.lease_ok else "lost", "redis": not self.cut_off,
                "last_renewal_ms": int((time.monotonic() - self.last_renewal) * 1000),
                "doors": len(self.sessions), "forwarded_in": len(self.remote),
                "draining": self.draining}

    # --- owning -----------------------------------------------------------------------------------

    async def _renew(self) -> None:
        held = dict(self.owned)
        for table_id in [t for t in held if t not in self.hub.actors
                         and t not in self._taking]:
            # retired (finished and unwatched, or expired): let the lease go
            token = self.owned.pop(table_id, None)
            held.pop(table_id, None)
            if token is not None:
                with contextlib.suppress(Exception):
                    await self.leases.release(table_id, token)
        try:
            kept = await self.leases.renew(held)
            await self.nodes.beat(len(self.owned))
        except Exception as exc:
            if time.monotonic() - self.last_renewal > self.lease_ms / 1000 * 0.9:
                if self.owned:
                    log.error("cluster %s: leases not renewed for a lease time (%s): stepping "
                              "down from %d tables", self.node_id, exc, len(self.owned))
                self.lease_ok = False
                for table_id in list(self.owned):
                    await self.step_down(table_id)
                self._cut_off(str(exc))
            raise
        self.last_renewal = time.monotonic()
        self.lease_ok = True
        if self.cut_off:
            self.cut_off = False
            log.warning("cluster %s: Redis answers again: serving", self.node_id)
        metrics.LEASE_RENEWALS.inc(len(kept))
        self._renewals += 1
        if self._renewals % 6 == 0 and self.remote:  # about every two lease times
            await self._forget_dead_doors()
        for table_id in set(held) - kept:
            if self.owned.get(table_id) == held[table_id]:
                metrics.LEASE_LOST.inc()
                log.error("cluster %s: lease of table %s lost", self.node_id, table_id)
                await self.step_down(table_id)

    async def _forget_dead_doors(self) -> None:
        """Connections forwarded by a process that died are gone: their seats go offline."""
        live = await self.nodes.live()
        for cid, rc in list(self.remote.items()):
            if rc.door not in live and rc.door != self.node_id:
                del self.remote[cid]
                rc.closed = True
                actor = self.hub.actors.get(rc.table_id)
                if actor is not None:
                    actor.submit(Leave(rc))

    async def take(self, table_id: str, token: str | None = None, *,
                   takeover: bool = False) -> str | None:
        """Own ``table_id`` (taking its lease unless ``token`` was handed to us); the token.

        ``None`` when another process holds it, or the table does not exist.
        """
        if table_id in self.owned and table_id in self.hub.actors:
            return self.owned[table_id]
        pending = self._taking.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._taking[table_id] = future
        try:
            result = await self._take(table_id, token, takeover)
            future.set_result(result)
            return result
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the caller raises it
            raise
        finally:
            del self._taking[table_id]

    async def _take(self, table_id: str, token: str | None, takeover: bool) -> str | None:
        if self.draining:
            return None
        if token is None:
            token = await self.leases.acquire(table_id)
            if token is None:
                return None
        self.owned[table_id] = token
        with contextlib.suppress(Exception):
            raw = await self.redis.get(self._clock_key(table_id))
            if raw:
                key, deadline = json.loads(raw)
                self.clocks[table_id] = (tuple(key) if key is not None else None, deadline)
        actor = await self.hub.actor_for(table_id)
        self.clocks.pop(table_id, None)
        if actor is None:
            self.owned.pop(table_id, None)
            with contextlib.suppress(Exception):
                await self.leases.release(table_id, token)
            return None
        if takeover:
            metrics.TAKEOVERS.inc()
        self.owners.note(table_id, token)
        metrics.TABLES_OWNED.set(len(self.owned))
        return token

    def _clock_key(self, table_id: str) -> str:
        return self.clock_writer.key(table_id)

    def remember_clock(self, table_id: str, key: object, deadline: float | None) -> None:
        """Keep a table's turn deadline where the next owner finds it (clocks resume)."""
        self.clock_writer.remember(table_id, key, deadline)

    def stale(self, table_id: str) -> None:
        """The database refused a commit: another owner moved the table on; step down."""
        metrics.LEASE_LOST.inc()
        self._spawn(self.step_down(table_id))

    def own_new(self, table_id: str) -> str:
        """A table just created here: its lease (a fresh id, so nobody else holds it)."""
        token = self.leases.new_token()
        self.owned[table_id] = token
        self.owners.note(table_id, token)
        self._spawn(self.redis.set(self.leases.key(table_id), token, px=self.lease_ms))
        metrics.TABLES_OWNED.set(len(self.owned))
        return token

    async def claim_new(self, table_id: str) -> str:
        token = self.leases.new_token()
        await self.redis.set(self.leases.key(table_id), token, px=self.lease_ms)
        self.owned[table_id] = token
        self.owners.note(table_id, token)
        metrics.TABLES_OWNED.set(len(self.owned))
        return token

    async def balance_new(self, table_ids: list[str]) -> None:
        """Hand newly created tables to less loaded processes (the least loaded first)."""
        live = await self.nodes.live()
        live[self.node_id] = len(self.owned)
        for table_id in table_ids:
            target = least_loaded(live)
            if target is None or target == self.node_id or live[target] >= live[self.node_id]:
                continue
            await self.step_down(table_id, hand_to=target)
            live[target] += 1
            live[self.node_id] -= 1

    async def step_down(self, table_id: str, *, hand_to: str | None = None) -> None:
        """Stop running ``table_id`` here; tell its doors; hand or release its lease."""
        if table_id in self._stepping:
            return
        self._stepping.add(table_id)
        try:
            token = self.owned.pop(table_id, None)
            actor = self.hub.actors.pop(table_id, None)
            if actor is not None:
                await actor.stop()  # the command being handled is stored (or not) first
            doors = set()
            for cid, rc in list(self.remote.items()):
                if rc.table_id == table_id:
                    rc.closed = True
                    del self.remote[cid]
                    doors.add(rc.door)
            new = None
            if token is not None:
                try:
                    if hand_to is not None:
                        new = await self.leases.hand_over(table_id, token, hand_to)
                    else:
                        await self.leases.release(table_id, token)
                except Exception as exc:
                    log.warning("cluster %s: lease of %s not released: %s", self.node_id,
                                table_id, exc)
            self.owners.note(table_id, new)
            if new is not None and hand_to is not None:
                self.bus.send(hand_to, {"k": "adopt", "t": table_id, "o": new})
            for door in doors:
                self.bus.send(door, {"k": "m", "t": table_id})
            metrics.TABLES_OWNED.set(len(self.owned))
        finally:
            self._stepping.discard(table_id)

    async def _scan(self) -> None:
        """Live tables nobody owns go to the least loaded processes (bots must go on)."""
        if self.draining:
            return
        ids = await self.hub.read(repo.live_table_ids)
        owners = await self.owners.read_many(ids)
        free = sorted(t for t, token in owners.items() if token is None)
        if not free:
            self._unowned_seen = set()
            return
        live = await self.nodes.live()
        live[self.node_id] = len(self.owned)
        mine = []
        for table_id in free:
            target = least_loaded(live)
            assert target is not None
            live[target] += 1
            # ours by the shared plan, or left free since the last scan by the one it fell to
            if target == self.node_id or table_id in self._unowned_seen:
                mine.append(table_id)
        self._unowned_seen = set(free)
        for table_id in mine:
            await self.take(table_id, takeover=True)

    # --- messages -------------------------------------------------------------------------------

    def _on_message(self, sender: str, message: dict[str, Any]) -> None:
        kind = message["k"]
        if kind == "f":
            session = self.sessions.get(message["c"])
            if session is not None and session.owner == message["o"]:
                self._to_client(session, message["x"])
        elif kind == "c":
            rc = self.remote.get(message["c"])
            if rc is not None:
                if rc.admitted:
                    self._submit(rc, message["x"])
                else:
                    rc.backlog.append(message["x"])
        elif kind == "j":
            self._spawn(self._remote_join(sender, message))
        elif kind == "l":
            rc = self.remote.pop(message["c"], None)
            if rc is not None:
                rc.closed = True
                actor = self.hub.actors.get(rc.table_id)
                if actor is not None:
                    actor.submit(Leave(rc))
        elif kind == "x":
            session = self.sessions.get(message["c"])
            if session is not None and session.owner == message["o"]:
                session.closed = True
                session.conn.close(message["code"], message["reason"])
        elif kind == "a":
            session = self.sessions.get(message["c"])
            if (session is not None and session.owner == message["o"]
                    and session.joined is not None and not session.joined.done()):
                session.joined.set_result(bool(message["ok"]))
        elif kind == "m":
            self.owners.forget(message["t"])
            for session in [s for s in self.sessions.values() if s.table_id == message["t"]]:
                if session.started:
                    self._spawn(self._rejoin(session))
                elif session.joined is not None and not session.joined.done():
                    session.joined.set_result(None)  # not joined yet: route it again
        elif kind == "adopt":
            self.owners.note(message["t"], message["o"])
            self._spawn(self.take(message["t"], message["o"]))
        elif kind == "rv":
            actor = self.hub.actors.get(message["t"])
            if actor is not None:
                actor.submit(Reveal(message["n"], message["r"]))
        elif kind == "se":
            self.hub.players.ended(list(message["s"]))
        else:
            log.error("cluster %s: unknown message %r from %s", self.node_id, kind, sender)

    def _on_bus_reconnect(self) -> None:
        """Messages may have been lost while Redis was away: every door joins again, and
        sessions that ended meanwhile are found ended (the cache is emptied, open sockets'
        sessions checked again)."""
        self.owners.forget()
        for session in list(self.sessions.values()):
            self._spawn(self._rejoin(session, force=True))
        self._spawn(self.hub.players.recheck())

    async def _announce_sessions_ended(self, session_ids: list[str]) -> None:
        await self.bus.broadcast({"k": "se", "s": session_ids})

    def _submit(self, rc: RemoteConn, text: str) -> None:

        actor = self.hub.actors.get(rc.table_id)
        if actor is None:
            return
        parsed = read_client_message(text, limit=1 << 30)  # the door checked its size
        if isinstance(parsed, Sync | Act | Undo | HintAsk | Quick):
            submit(actor, rc, parsed)

    async def _remote_join(self, door: str, message: dict[str, Any]) -> None:

        table_id, cid, token = message["t"], message["c"], message["o"]
        ours = self.owned.get(table_id) == token and table_id in self.hub.actors
        if not ours and (await self.owners.fresh(table_id) != token
                         or await self.take(table_id, token) != token):
            self.bus.send(door, {"k": "m", "t": table_id})  # not ours: look again
            return
        actor = self.hub.actors[table_id]
        rc = RemoteConn(cid, door, table_id, token, self.bus.send)
        old = self.remote.pop(cid, None)
        if old is not None:  # the same connection joining again
            old.closed = True
            actor.submit(Leave(old))
        self.remote[cid] = rc
        hello = Hello.model_validate(message["h"])
        ok = await admit_and_join(self.hub, actor, rc, hello, message["g"], table_id)
        self.bus.send(door, {"k": "a", "c": cid, "o": token, "ok": ok})
        if not ok:
            self.remote.pop(cid, None)
            return
        rc.admitted = True
        for text in rc.backlog:
            self._submit(rc, text)
        rc.backlog.clear()

    # --- doors ----------------------------------------------------------------------------------

    def _to_client(self, session: DoorSession, text: str) -> None:
        out = session.frame(text)
        if out == "gap":
            self._forward(session, '{"t":"sync"}')  # a version was lost on the way
        elif out is not None:
            session.conn.send(out)

    def _forward(self, session: DoorSession, text: str) -> None:
        owner = node_of(session.owner)
        if owner is not None:
            self.bus.send(owner, {"k": "c", "c": session.cid, "x": text})

    async def route(self, table_id: str) -> str | None:
        """The token of the table's owner, taking the table when nobody owns it.

        A table owned here is answered without Redis (the renew loop steps down
        at once from a lease it lost); another's owner comes from the door's
        cache or one MGET shared with every question asked at the same time.
        """
        mine = self.owned.get(table_id)
        if mine is not None and table_id in self.hub.actors and table_id not in self._stepping:
            return mine
        token = await self.owners.owner(table_id)
        if token is not None:
            return token
        token = await self.take(table_id, takeover=True)
        if token is None and not self.draining:
            # the lease was free when read, then another process took it first (two doors
            # taking over a dead owner's table at once): the table is the winner's, not lost
            token = await self.owners.fresh(table_id)
        return token

    async def _watch(self) -> None:
        tables = {s.table_id for s in self.sessions.values()}
        if not tables:
            return
        owners = await self.owners.read_many(tables)
        for session in list(self.sessions.values()):
            if session.started and owners.get(session.table_id) != session.owner:
                self._spawn(self._rejoin(session))

    async def _rejoin(self, session: DoorSession, *, force: bool = False) -> None:
        if session.closed or session.rejoining or not session.started:
            return
        session.rejoining = True
        try:
            try:
                token = await self.route(session.table_id)
            except (RedisError, OSError) as exc:  # Redis away: the watch or the bus retries
                log.info("cluster %s: rejoin of %s waits for Redis (%s)", self.node_id,
                         session.table_id, exc)
                return
            if token is None or (token == session.owner and not force):
                if token is None and not self.hub.broken.get(session.table_id):
                    return  # nobody can run it right now (Redis away?): the watch retries
                if token is None:
                    session.conn.close(1011, "table lost")
                return
            old = node_of(session.owner)
            if old is not None and session.owner != token:
                self.bus.send(old, {"k": "l", "c": session.cid})
            session.owner = token
            session.hide_hello = True
            session.joined = asyncio.get_running_loop().create_future()
            owner = node_of(token)
            assert owner is not None
            self.bus.send(owner, session.join_message())
            for text in session.pending.values():  # unanswered: send again, same ids
                self.bus.send(owner, {"k": "c", "c": session.cid, "x": text})
            joined = session.joined
        finally:
            session.rejoining = False
        try:  # the join may be lost on the way (Redis coming back): then join again
            await asyncio.wait_for(asyncio.shield(joined), JOIN_TIMEOUT / 3)
        except TimeoutError:
            if session.owner == token and not session.closed:
                session.owner = None  # the next watch joins again

    async def serve(self, ws: WebSocket, conn: WsConnection, table_id: str, hello: Hello,
                    guest_token: str | None) -> None:
        """A client connection of this process, to a table owned here or elsewhere."""

        if self.cut_off:
            conn.close(1012, "this server lost its cluster link: reconnect")
            return
        session = DoorSession(conn, table_id, hello.model_dump(exclude_none=True), guest_token)
        self.sessions[session.cid] = session
        try:
            for _ in range(20):
                token = await self.route(table_id) if len(table_id) <= 32 else None
                if token is None:
                    why = self.hub.broken.get(table_id)
                    refuse(conn, "table_not_found", f"no table {table_id!r}" + (
                        f" (it could not be recovered: {why})" if why else ""), 4404)
                    return
                session.owner = token
                session.joined = asyncio.get_running_loop().create_future()
                owner = node_of(token)
                assert owner is not None
                self.bus.send(owner, session.join_message())
                try:
                    ok = await self._join_answer(session, token)
                except TimeoutError:
                    self.bus.send(owner, {"k": "l", "c": session.cid})
                    self.owners.forget(table_id)
                    continue
                if ok is None:  # the owner changed meanwhile
                    self.bus.send(owner, {"k": "l", "c": session.cid})
                    self.owners.forget(table_id)
                    await asyncio.sleep(0.1)
                    continue
                if not ok:
                    return
                session.started = True
                break
            else:
                refuse(conn, "overloaded", "the table's owner did not answer; retry", 1013)
                return
            await read_loop(ws, session, limit=self.hub.settings.max_message_bytes,
                            node_id=self.node_id, forward=self._forward)
        finally:
            session.closed = True
            self.sessions.pop(session.cid, None)
            owner = node_of(session.owner)
            if owner is not None:
                self.bus.send(owner, {"k": "l", "c": session.cid})

    async def _join_answer(self, session: DoorSession, token: str) -> bool | None:
        """The owner's answer to a join, or TimeoutError when none will come.

        The lease is read again every third of a lease while waiting: a join sent to an
        owner that has just died (its lease not yet expired when the door routed) is given
        up as soon as the lease moves or lapses, not after the whole ``JOIN_TIMEOUT``, so a
        client that reconnects during a takeover is in as soon as the new owner is.
        """
        assert session.joined is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + JOIN_TIMEOUT
        step = max(0.2, self.lease_ms / 3000)
        while True:
            try:
                answer: bool | None = await asyncio.wait_for(
                    asyncio.shield(session.joined), min(step, max(0.0, deadline - loop.time())))
                return answer
            except TimeoutError:
                if loop.time() >= deadline:
                    raise
            try:
                now = await self.owners.fresh(session.table_id)
            except Exception:  # Redis away: the owner may still answer
                continue
            if now != token:
                raise TimeoutError(f"the lease of {session.table_id} moved from {token}")


    def reveal(self, table_id: str, number: int, reveal: dict[str, Any]) -> None:
        """Have the owner of ``table_id`` (wherever it runs) publish a held reveal."""
        self._spawn(self._reveal(table_id, number, reveal))

    async def _reveal(self, table_id: str, number: int, reveal: dict[str, Any]) -> None:
        token = await self.route(table_id)
        owner = node_of(token)
        if owner is not None:
            self.bus.send(owner, {"k": "rv", "t": table_id, "n": number, "r": reveal})
