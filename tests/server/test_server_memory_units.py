"""What a table keeps in memory, in process: nothing of a connection gone, ids compactly,
views for deltas only while someone takes them (tests/server/test_server_resources.py
measures a real server)."""

from __future__ import annotations

import asyncio
import gc
import random
import tracemalloc
import weakref
from collections import OrderedDict
from pathlib import Path

from burraco.accounts.identity import Guest
from burraco.engine.legal import legal_actions
from burraco.infra.config import ServerConfig
from burraco.infra.db import make_engine
from burraco.server.actor import TableActor
from burraco.server.commit_path import RecentIds
from burraco.server.deltas import DeltaMaker
from burraco.server.game import Game, fresh_deal
from burraco.server.protocol import Hello
from burraco.server.storage.writer import Writer
from burraco.server.table_items import Join, Leave
from burraco.server.tables import SeatRequest, TableRequest, build_config


class FakeConn:
    def __init__(self, protocol: int = 1) -> None:
        self.seat: int | None = None
        self.guest: Guest | None = None
        self.wants_legal = False
        self.protocol = protocol
        self.pending = 0
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int, reason: str) -> None:
        pass


def test_a_table_left_alone_keeps_nothing_of_the_connection_that_left(tmp_path: Path) -> None:
    """The actor's loop held its last item while waiting for the next: a table its clients
    left kept the last one's connection (with a real socket, its request scope and buffers)."""
    url = f"sqlite:///{tmp_path / 'unused.db'}"
    config = build_config(TableRequest(players=2, seats=[SeatRequest(kind="human")] * 2))

    async def scenario() -> None:
        actor = TableActor("t", Game.new(config), writer=Writer(make_engine(url)),
                           settings=ServerConfig(db_url=url))
        actor.start()
        conn = FakeConn(protocol=2)
        join = Join(conn, Hello(t="hello", protocol=2))
        actor.submit(join)
        assert await join.admitted and conn.sent
        actor.submit(Leave(conn))
        for _ in range(100):
            await asyncio.sleep(0)
        assert not actor.subs and actor._queue.empty()
        gone = weakref.ref(conn)
        del conn, join
        gc.collect()
        assert gone() is None, "the table still holds the connection that left"
        await actor.stop()

    asyncio.run(scenario())


def test_recent_ids_keep_the_latest_in_order_as_an_ordered_dict_would() -> None:
    rng = random.Random(5)
    for _ in range(200):
        size = rng.randint(1, 12)
        stored = {(rng.randint(0, 3), f"c:{k}"): (3 * k + 1, 3 * k + rng.randint(1, 3))
                  for k in range(rng.randint(0, 20))}
        ids = RecentIds(dict(stored), size)
        model = OrderedDict(sorted(stored.items(), key=lambda item: item[1])[-size:])
        forgot = len(stored) > size
        version = 100
        for _ in range(40):
            key = (rng.randint(0, 3), rng.choice(["a", "b:1", "1:b", f"n{rng.randint(0, 30)}"]))
            if key not in model and rng.random() < 0.6:
                versions = (version, version + rng.randint(0, 4))
                version += 10
                ids.add(key, versions)
                model[key] = versions
                if len(model) > size:
                    model.popitem(last=False)
                    forgot = True
            for probe in [*model, key, (9, "x")]:
                assert ids.get(probe) == model.get(probe)
            assert len(ids) == len(model) and ids.forgot == forgot


def test_recent_ids_cost_little_memory_each() -> None:
    """A live table may keep 4,096 ids: a tuple key, a tuple of versions and an OrderedDict
    took about 260 bytes each beside the id's own string (now about 120 with it)."""
    count = 4096
    texts = [f"b{k}" for k in range(count)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        ids = RecentIds({}, count)
        for k, text in enumerate(texts):
            ids.add((k % 4, text), (100_000 + 3 * k, 100_002 + 3 * k))
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(ids) == count
    assert used / count <= 160, f"{used / count:.0f} bytes per command id"


def test_views_for_deltas_are_kept_only_for_the_seats_that_take_them() -> None:
    config = build_config(TableRequest(players=2, mode="smazzate", smazzate=1))
    game = Game.new(config).open(fresh_deal).game
    game = game.claim(0, "a", "Ada", fresh_deal).game
    game = game.claim(1, "b", "Bob", fresh_deal).game
    maker = DeltaMaker()
    rng = random.Random(2)
    rounds: list[set[int | None]] = [{0, 1, None}, {0, 1, None}, {1}, {1, None}, set(), {0, None}]
    for seats in rounds:
        assert game.hand is not None and game.turn is not None
        step = game.act(game.turn, rng.choice(legal_actions(game.hand)), fresh_deal)
        maker.for_step(game, step, seats)
        assert set(maker._last) == seats
        game = step.game
    maker.keep({None, 1})  # seat 0's connection left: its view goes
    assert set(maker._last) == {None}
