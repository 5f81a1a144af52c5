"""The cluster's bus across a Redis restart: a message sent once Redis is back arrives.

A Redis of the test's own (``own_redis``), never the shared one: it is stopped and started
again on the same port.  The pool's connections from before then point at a dead server;
the first publish on one of them fails ("Connection closed by server"), and the bus must
publish again rather than drop the message (a command lost on its way to a table's owner
would leave its player waiting for an answer that nothing sends again).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from pathlib import Path
from typing import Any

from cluster_harness import kill_redis_on, own_redis, start_redis, stop_redis
from redis.asyncio import Redis

from burraco.server.cluster.bus import Bus


def test_a_message_sent_after_redis_came_back_is_delivered(tmp_path: Path) -> None:
    received: list[tuple[str, dict[str, Any]]] = []
    restarted: list[Any] = []
    binary = shutil.which("redis-server")
    assert binary is not None

    with own_redis(tmp_path) as (url, port):
        async def main() -> None:
            sender_redis = Redis.from_url(url, socket_timeout=2)
            listener_redis = Redis.from_url(url, socket_timeout=2)
            sender = Bus(sender_redis, "t", "a", lambda _s, _m: None, on_reconnect=lambda: None)
            listener = Bus(listener_redis, "t", "b", lambda s, m: received.append((s, m)),
                           on_reconnect=lambda: None)
            sender.start()
            listener.start()
            try:
                await asyncio.wait_for(listener.connected.wait(), 10)
                # warm the sender's pool: several connections, all idle afterwards
                await asyncio.gather(*(sender_redis.ping() for _ in range(4)))
                sender.send("b", {"k": "c", "n": 1})
                await wait_for(lambda: len(received) == 1)

                await asyncio.to_thread(kill_redis_on, port)
                restarted.append(await asyncio.to_thread(start_redis, binary, port, tmp_path))
                listener.connected.clear()
                await asyncio.wait_for(listener.connected.wait(), 20)  # subscribed again
                await asyncio.sleep(0.5)
                sender.send("b", {"k": "c", "n": 2})
                sender.send("b", {"k": "c", "n": 3})
                await wait_for(lambda: len(received) == 3, timeout=15)
                assert [m["n"] for _s, m in received] == [1, 2, 3]  # in order, none twice
                assert all(s == "a" for s, _m in received)
            finally:
                await sender.stop()
                await listener.stop()
                for client in (sender_redis, listener_redis):
                    with contextlib.suppress(Exception):
                        await client.aclose()

        try:
            asyncio.run(main())
        finally:
            for proc in restarted:
                stop_redis(proc)


async def wait_for(condition: Any, timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not delivered"
        await asyncio.sleep(0.02)
