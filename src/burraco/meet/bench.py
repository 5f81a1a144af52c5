"""The pools' benchmark: how fast a crowd that queued at once is paired and seated.

``players`` accounts (ratings around 1500, spread 250) queue at one moment in four pools
(``505`` two-player rated and casual, ``hand`` in fours casual, ``vp3`` in fours rated; one
form-4 entry in ten is a party of two).  Then rounds follow until everybody is seated: in
each, every process calls ``pair`` with the simulated clock ``TICK`` seconds further on
(so the windows widen and casual entries reach their bots), and acknowledges each match
it is delivered, as a server would once its table exists.  With one process the pool is
a :class:`~burraco.meet.store.MemoryPool`; with two, each process has its own
:class:`~burraco.meet.store.RedisPool` on one shared prefix, the two join half the crowd
each and pair in the same rounds (the worst case: both compute the same matches and race
to take them).

Reported: matches (tables) made per second of the pairing phase and per CPU second of the
pairing processes (and with Redis's own CPU added), joins per second, and each player's
time from its join to the ack of its match, in real milliseconds and in simulated seconds
of waiting.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import random
import statistics
import time
import uuid
from multiprocessing.synchronize import Barrier
from typing import Any

from redis import Redis as SyncRedis
from redis.asyncio import Redis

from burraco.meet.entries import Entry, new_entry
from burraco.meet.store import MemoryPool, PoolStore, RedisPool

POOLS = (("505", "2", True), ("505", "2", False), ("hand", "4", False), ("vp3", "4", True))
TICK = 5.0
"""Simulated seconds between two rounds of pairing."""
START = 1_000_000.0
"""The simulated moment the crowd queues."""
OPEN = 60.0
"""Simulated seconds after which every window is open: a round that seats nobody after
that leaves the rest waiting for good (a rated four short of players)."""


def crowd(players: int, seed: int = 1) -> list[Entry]:
    """The benchmark's entries: ``players`` accounts, the same for a seed."""
    rng = random.Random(seed)
    entries: list[Entry] = []
    count = 0
    while count < players:
        pool = POOLS[len(entries) % len(POOLS)]
        size = 2 if pool[1] == "4" and rng.random() < 0.1 and count + 2 <= players else 1
        party = [(f"p{count + k:05}", rng.gauss(1500, 250)) for k in range(size)]
        entries.append(new_entry(pool, party, since=START))
        count += size
    return entries


async def _join(pool: PoolStore, entries: list[Entry], joined: dict[str, float]) -> None:
    for entry in entries:
        await pool.join(entry)
        at = time.time()
        for account in entry.accounts:
            joined[account] = at


async def _waiting(pool: PoolStore) -> int:
    return sum(len(entry.party) for entry in await pool.waiting())


async def _round(pool: PoolStore, now: float, seated: dict[str, tuple[float, float]],
                 tables: list[int]) -> None:
    for delivery in await pool.pair(now):
        if await pool.ack(delivery, f"table-{delivery.match.id}", now):
            at = time.time()
            tables[0] += 1
            tables[1] += bool(delivery.match.bots)
            for account in delivery.match.accounts:
                seated[account] = (at, delivery.match.wait_of(account))


async def _memory(entries: list[Entry]) -> dict[str, Any]:
    pool = MemoryPool()
    joined: dict[str, float] = {}
    seated: dict[str, tuple[float, float]] = {}
    tables = [0, 0]
    cpu, wall = time.process_time(), time.perf_counter()
    await _join(pool, entries, joined)
    join_wall = time.perf_counter() - wall
    cpu, wall = time.process_time(), time.perf_counter()
    rounds, left = 0, -1
    while True:
        await _round(pool, START + TICK * rounds, seated, tables)
        rounds += 1
        before, left = left, await _waiting(pool)
        if _finished(rounds, before, left):
            break
    return {"joined": joined, "seated": seated, "tables": tables[0], "bot_tables": tables[1],
            "rounds": rounds, "left": left, "join_wall": join_wall,
            "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def _finished(rounds: int, before: int, left: int) -> bool:
    """Nobody left, or nobody seated in a round after every window opened."""
    return left == 0 or (TICK * (rounds - 1) > OPEN and left == before)


def _worker(url: str, prefix: str, entries: list[Entry], barrier: Barrier,
            out: Any) -> None:
    """One process of the Redis benchmark (run in a process of its own)."""
    out.put(asyncio.run(_redis_worker(url, prefix, entries, barrier)))


async def _redis_worker(url: str, prefix: str, entries: list[Entry],
                        barrier: Barrier) -> dict[str, Any]:
    client = Redis.from_url(url)
    pool = RedisPool(client, prefix)
    joined: dict[str, float] = {}
    seated: dict[str, tuple[float, float]] = {}
    tables = [0, 0]
    try:
        barrier.wait()
        wall = time.perf_counter()
        await _join(pool, entries, joined)
        join_wall = time.perf_counter() - wall
        barrier.wait()
        cpu, wall = time.process_time(), time.perf_counter()
        rounds, left = 0, -1
        while True:
            await _round(pool, START + TICK * rounds, seated, tables)
            rounds += 1
            barrier.wait()  # both have paired this round; nobody changes the pool now
            before, left = left, await _waiting(pool)
            done = not await pool.pending() and _finished(rounds, before, left)
            barrier.wait()
            if done:
                break
        return {"joined": joined, "seated": seated, "tables": tables[0],
                "bot_tables": tables[1], "rounds": rounds, "left": left,
                "join_wall": join_wall,
                "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}
    finally:
        await client.aclose()


def _redis_cpu(client: SyncRedis) -> float:
    info: dict[str, Any] = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _redis(entries: list[Entry], processes: int, url: str) -> dict[str, Any]:
    prefix = f"burraco-bench-meet-{uuid.uuid4().hex[:10]}"
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes)
    out = context.Queue()
    client = SyncRedis.from_url(url)
    workers = [context.Process(target=_worker, args=(url, prefix, entries[i::processes],
                                                     barrier, out))
               for i in range(processes)]
    try:
        redis_cpu = _redis_cpu(client)
        for worker in workers:
            worker.start()
        parts = [out.get(timeout=600) for _ in workers]
        redis_cpu = _redis_cpu(client) - redis_cpu
        for worker in workers:
            worker.join(30)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()
    joined = {k: v for part in parts for k, v in part["joined"].items()}
    seated: dict[str, tuple[float, float]] = {}
    for part in parts:
        for account, value in part["seated"].items():
            if account in seated:
                raise AssertionError(f"{account} was seated twice")
            seated[account] = value
    return {"joined": joined, "seated": seated,
            "tables": sum(p["tables"] for p in parts),
            "bot_tables": sum(p["bot_tables"] for p in parts),
            "rounds": max(p["rounds"] for p in parts), "left": parts[0]["left"],
            "join_wall": max(p["join_wall"] for p in parts),
            "wall": max(p["wall"] for p in parts), "cpu": sum(p["cpu"] for p in parts),
            "redis_cpu": redis_cpu}


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": math.nan, "p95": math.nan, "max": math.nan}
    ordered = sorted(values)
    return {"p50": statistics.median(ordered),
            "p95": ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)],
            "max": ordered[-1]}


def bench_pool(players: int = 1000, processes: int = 1, *, redis_url: str | None = None,
               seed: int = 1) -> dict[str, Any]:
    """Queue ``players`` at once and pair them until all are seated: in one process's
    memory (``processes=1``) or through Redis at ``redis_url`` from ``processes``
    processes (2: a cluster's pair).  Returns the figures (see the module's docstring)."""
    if processes < 1:
        raise ValueError("processes is 1 or more")
    entries = crowd(players, seed)
    if processes == 1 and redis_url is None:
        raw = asyncio.run(_memory(entries))
        store = "memory"
    else:
        if not redis_url:
            raise ValueError("several processes share their pools through Redis: "
                             "give redis_url")
        raw = _redis(entries, processes, redis_url)
        store = "redis"
    joined, seated = raw["joined"], raw["seated"]
    if len(seated) + raw["left"] != len(joined):
        raise AssertionError("players were lost: neither seated nor waiting")
    latency = [1000 * (seated[a][0] - joined[a]) for a in seated]
    cpu = raw["cpu"]
    redis_cpu = raw.get("redis_cpu")
    result = {
        "players": players, "processes": processes, "store": store, "cpus": os.cpu_count(),
        "tables": raw["tables"], "bot_tables": raw["bot_tables"], "rounds": raw["rounds"],
        "left": raw["left"],
        "pair_wall_s": raw["wall"], "pair_cpu_s": cpu,
        "tables_per_s": raw["tables"] / raw["wall"] if raw["wall"] else math.inf,
        "tables_per_cpu_s": raw["tables"] / cpu if cpu else math.inf,
        "joins_per_s": len(entries) / raw["join_wall"] if raw["join_wall"] else math.inf,
        "latency_ms": _spread(latency),
        "wait_s": _spread([seated[a][1] for a in seated]),
    }
    if redis_cpu is not None:
        result["redis_cpu_s"] = redis_cpu
        result["tables_per_cpu_s_with_redis"] = raw["tables"] / (cpu + redis_cpu)
    return result


def describe(result: dict[str, Any]) -> str:
    """The figures as a few lines of text."""
    latency, wait = result["latency_ms"], result["wait_s"]
    lines = [
        f"{result['players']} players, {result['processes']} process(es), "
        f"{result['store']} pools: {result['tables']} tables ({result['bot_tables']} with "
        f"bots) in {result['rounds']} rounds, {result['left']} left waiting",
        f"pairing: {result['tables_per_s']:.0f} tables/s, "
        f"{result['tables_per_cpu_s']:.0f} tables per CPU second "
        f"({result['pair_cpu_s']:.3f} CPU s in {result['pair_wall_s']:.3f} s)",
        f"joins: {result['joins_per_s']:.0f}/s",
        f"join to seated: p50 {latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms, "
        f"max {latency['max']:.1f} ms; simulated wait p50 {wait['p50']:.0f} s, "
        f"p95 {wait['p95']:.0f} s, max {wait['max']:.0f} s",
    ]
    if "redis_cpu_s" in result:
        lines.append(f"Redis: {result['redis_cpu_s']:.3f} CPU s; "
                     f"{result['tables_per_cpu_s_with_redis']:.0f} tables per CPU second "
                     "counting Redis's")
    return "\n".join(lines)
