"""Messages between processes over Redis pub/sub: one channel per process.

Why pub/sub (docs/decisions.md, "Cluster fan-out"): what travels is live
traffic whose truth is in the database.  A message lost while Redis is away is
never needed again: a door whose owner changed, or whose connection missed a
version, joins again by version and is caught up from the database-backed
table.  Streams would add storage and trimming for nothing.

A publish that fails (Redis away, or a pooled connection that died with the Redis
before it) is tried again, in order, for up to ``RETRY_FOR`` seconds before the
messages waiting are dropped: a command lost on its way to a table's owner would
otherwise leave its player waiting for an answer that nothing sends again.

Order matters (a table's frames to one connection): every message leaves
through one sender task over one Redis connection, and Redis keeps the order
of one publisher's messages on one channel.  A message to this process itself
is delivered at once, without Redis.

:meth:`Bus.broadcast` tells every process at once (one channel they all listen
to): sessions that ended, so that none of them keeps one open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis

log = logging.getLogger("burraco.server.cluster.bus")
RETRY_FOR = 10.0
"""Seconds a batch that could not be published is tried again before it is dropped."""
Handler = Callable[[str, dict[str, Any]], None]
"""Called with (sending process, message) for every message to this process, in order."""


class Bus:
    def __init__(self, redis: Redis, prefix: str, node_id: str, handler: Handler, *,
                 on_reconnect: Callable[[], None]) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node_id = node_id
        self.handler = handler
        self.on_reconnect = on_reconnect
        self._out: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.connected = asyncio.Event()

    def channel(self, node_id: str) -> str:
        return f"{self.prefix}:to:{node_id}"

    @property
    def everyone(self) -> str:
        """The channel every process listens to."""
        return f"{self.prefix}:to-all"

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._listen(), name="bus-listen"),
                       asyncio.create_task(self._send_loop(), name="bus-send")]

    async def stop(self) -> None:
        await self.flush()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (a little) until what was sent has left."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not self._out.empty() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)

    async def broadcast(self, message: dict[str, Any]) -> bool:
        """Deliver ``message`` to this process now and publish it to every other one (tried
        again for up to ``RETRY_FOR`` seconds); False if it could not be published."""
        self.handler(self.node_id, message)
        text = json.dumps({"from": self.node_id, "m": [message]})
        loop = asyncio.get_running_loop()
        give_up = loop.time() + RETRY_FOR
        pause = 0.05
        while True:
            try:
                await self.redis.publish(self.everyone, text)
                return True
            except Exception as exc:
                if loop.time() >= give_up:
                    log.warning("cluster bus: a message to every process was lost: %s", exc)
                    return False
                await asyncio.sleep(pause)
                pause = min(1.0, pause * 2)

    def send(self, node_id: str, message: dict[str, Any]) -> None:
        if node_id == self.node_id:
            self.handler(node_id, message)
        else:
            self._out.put_nowait((node_id, message))

    async def _send_loop(self) -> None:
        while True:
            first = await self._out.get()
            batch = [first]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            by_node: dict[str, list[dict[str, Any]]] = {}
            for node_id, message in batch:
                by_node.setdefault(node_id, []).append(message)
            payloads = [(self.channel(node_id), json.dumps({"from": self.node_id, "m": messages}))
                        for node_id, messages in by_node.items()]
            await self._publish(payloads, len(batch))

    async def _publish(self, payloads: list[tuple[str, str]], count: int) -> None:
        """Publish one batch, trying again while Redis is away; after ``RETRY_FOR`` seconds
        drop it and whatever queued behind it (doors catch up by version and join again)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + RETRY_FOR
        pause = 0.05
        while True:
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in payloads:
                        pipe.publish(channel, text)
                    await pipe.execute()
                return
            except Exception as exc:
                if loop.time() >= give_up:
                    dropped = count + self._out.qsize()
                    while not self._out.empty():
                        self._out.get_nowait()
                    log.warning("cluster bus: %d messages lost: %s", dropped, exc)
                    return
                log.info("cluster bus: publishing again after %s", exc)
                await asyncio.sleep(pause)
                pause = min(1.0, pause * 2)

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.node_id), self.everyone)
                self.connected.set()
                if not first:
                    self.on_reconnect()
                first = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    data = json.loads(message["data"])
                    sender = data["from"]
                    if sender == self.node_id and message["channel"] in (
                            self.everyone, self.everyone.encode()):
                        continue  # a broadcast of this process: delivered when it was sent
                    for item in data["m"]:
                        try:
                            self.handler(sender, item)
                        except Exception:
                            log.exception("cluster bus: failed handling %r", item)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.connected.clear()
                log.warning("cluster bus: subscription lost (%s); retrying", exc)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
