"""``burraco bench server``: the game server under load, over real WebSockets on loopback.

The benchmark starts ``burraco serve`` on a fresh SQLite file (or uses ``--url``),
creates N four-player tables whose seats are all played by bot *clients* (one
WebSocket each, asking for their legal actions), and lets them play.  With
``--pace P`` each table makes one action every P seconds (human pace: 2);
without it every table plays as fast as the server answers.

Measured over ``--duration`` seconds after ``--warmup``:

* actions per second: commands acknowledged by the server;
* latency: from sending a command to the moment the last of the table's four
  connections has received the command's last event (p50, p99), i.e. until
  every view of the table shows it; the time to the ack is reported beside it;
* the server process's CPU use (share of one core) over the same window.

The bot clients choose from the legal actions by text (draw, sometimes take
the pile; the longest meld; an attachment; else a random discard), so the
clients cost little and the server's work is what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from burraco.bench.cluster import (
    Node,
    cluster_options,
    fresh_database,
    fresh_redis_prefix,
    kill_owner_trials,
)
from burraco.bench.common import SEATS, http, percentile, rounded


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, required=True, metavar="N",
                        help="tables of 4 bot clients")
    parser.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                        help="one action per table every SECONDS (default 0: full speed)")
    parser.add_argument("--duration", type=float, default=20.0, metavar="S",
                        help="seconds measured (default 20)")
    parser.add_argument("--warmup", type=float, default=5.0, metavar="S",
                        help="seconds played before measuring (default 5)")
    parser.add_argument("--procs", type=int, default=1, metavar="K",
                        help="client processes sharing the tables (default 1)")
    parser.add_argument("--url", default=None,
                        help="use a running server (http://HOST:PORT) instead of starting one")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database of the server started (default: a fresh SQLite file)")
    parser.add_argument("--sqlite-sync", choices=("full", "normal"), default="full")
    parser.add_argument("--cluster", type=int, default=0, metavar="N",
                        help="start N server processes on one PostgreSQL (a fresh database on "
                             "the server of --db) and one Redis (--redis), tables created on "
                             "the first, each table's seats connected to different processes")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="the Redis of --cluster (a key prefix of the bench's own, "
                             "deleted afterwards)")
    parser.add_argument("--lease-seconds", type=float, default=None, metavar="S",
                        help="with --cluster: the servers' table lease time (default: theirs)")
    parser.add_argument("--kill-owner-trials", type=int, default=0, metavar="K",
                        help="with --cluster: SIGKILL a bot table's owner K times after the "
                             "load and report the takeover time (SIGKILL to the next event "
                             "seen on another process)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


# --- the server ---------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_command(port: int, db: str, sync: str, extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "burraco.cli", "serve", "--port", str(port), "--db", db,
            "--sqlite-sync", sync,
            # one guest opens every table at once: the per-address limits are not measured
            "--table-rate", "none", "--guest-rate", "none", "--waiting-tables-per-guest", "0",
            # and plays tables of bots at full speed as a workload, many per guest
            "--bot-tables-per-guest", "0", "--bot-table-rate", "none", "--bot-table-delay", "0",
            *extra]


def _start_server(db: str, sync: str, log: Path,
                  extra: list[str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    return _launch(_serve_command(port, db, sync, extra or []), port, log)


def _launch(command: list[str], port: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``command`` (a server on ``port``) and wait until it answers ``/healthz``."""
    with open(log, "ab") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}); see {log}")
        with contextlib.suppress(OSError):
            http(base, "GET", "/healthz")
            return proc, base
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server did not start in 60 s; see {log}")


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# --- the bot clients ------------------------------------------------------------------------------

def choose(actions: list[str], rng: random.Random) -> str:
    """A cheap text policy over the legal actions."""
    if "draw" in actions:
        return "pickup" if "pickup" in actions and rng.random() < 0.15 else "draw"
    melds = [a for a in actions if a.startswith("meld ")]
    if melds:
        return max(melds, key=len)
    attaches = [a for a in actions if a.startswith("attach ")]
    if attaches and rng.random() < 0.7:
        return attaches[0]
    discards = [a for a in actions if a.startswith("discard ")]
    return rng.choice(discards) if discards else actions[0]


class _Stats:
    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end
        self.acks = 0
        self.rejects: dict[str, int] = {}
        self.latencies: list[float] = []
        self.ack_latencies: list[float] = []
        self.errors: list[str] = []

    def in_window(self, wall: float) -> bool:
        return self.start <= wall < self.end


class _Table:
    """One table's four connections and the bookkeeping of its commands."""

    def __init__(self, info: dict[str, Any], stats: _Stats, pace: float,
                 rng: random.Random) -> None:
        self.info = info
        self.stats = stats
        self.pace = pace
        self.rng = rng
        self.next_at = 0.0
        self.sent: dict[str, tuple[float, float]] = {}  # cmid -> (perf, wall)
        self.waiting: dict[int, tuple[float, float]] = {}  # last version -> (perf, wall)
        self.arrivals: dict[int, list[float]] = {}  # version -> [count, last perf time]
        self.counter = 0

    def arrived(self, version: int, now: float) -> None:
        entry = self.arrivals.setdefault(version, [0, 0.0])
        entry[0] += 1
        entry[1] = now
        if entry[0] == SEATS and version in self.waiting:
            self._done(version, now)

    def acked(self, cmid: str, last: int, now: float) -> None:
        sent = self.sent.pop(cmid, None)
        if sent is None:
            return
        if self.stats.in_window(time.time()):
            self.stats.acks += 1
        if self.stats.in_window(sent[1]):
            self.stats.ack_latencies.append(now - sent[0])
        entry = self.arrivals.get(last)
        if entry is not None and entry[0] == SEATS:
            self._done(last, entry[1], sent)
        else:
            self.waiting[last] = sent

    def _done(self, version: int, seen: float, sent: tuple[float, float] | None = None) -> None:
        sent = sent or self.waiting.pop(version)
        if self.stats.in_window(sent[1]):
            self.stats.latencies.append(seen - sent[0])
        for old in [v for v in self.arrivals if v <= version]:
            del self.arrivals[old]

    async def seat(self, url: str, seat: int, guest: str, stop: asyncio.Event,
                   sockets: list[Any], gate: asyncio.Semaphore, opened: Any) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        token = self.info["seats"][seat]["token"]
        version = 0
        async with gate:
            ws = await connect(url, max_size=None, compression=None, open_timeout=120)
        opened()
        async with ws:
            sockets.append(ws)
            await ws.send(json.dumps({"t": "hello", "seat": seat, "seat_token": token,
                                      "guest": guest, "legal": True}))
            try:
                async for raw in ws:
                    now = time.perf_counter()
                    frame = json.loads(raw)
                    if "v" in frame and "t" not in frame:
                        version = frame["v"]
                        self.arrived(version, now)
                        continue
                    kind = frame.get("t")
                    if kind == "sync":
                        version = frame["version"]
                    elif kind == "ack":
                        self.acked(frame["id"], frame["to"], now)
                    elif kind == "reject":
                        code = frame["code"]
                        self.stats.rejects[code] = self.stats.rejects.get(code, 0) + 1
                        self.sent.pop(frame["id"] or "", None)
                    elif kind == "legal" and frame["version"] == version and not stop.is_set():
                        await self._act(ws, frame, version)
            except ConnectionClosed as exc:
                if not stop.is_set():
                    self.stats.errors.append(f"seat {seat}: connection closed ({exc})")

    async def _act(self, ws: Any, legal: dict[str, Any], version: int) -> None:
        if self.pace > 0:
            now = time.perf_counter()
            wait = self.next_at - now
            self.next_at = max(now, self.next_at) + self.pace
            if wait > 0:
                await asyncio.sleep(wait)
        self.counter += 1
        cmid = f"b{self.counter}"
        self.sent[cmid] = (time.perf_counter(), time.time())
        await ws.send(json.dumps({"t": "act", "id": cmid, "v": version,
                                  "action": choose(legal["actions"], self.rng)}))


async def _clients(tables: list[dict[str, Any]], ws_base: str, guest: str, pace: float,
                   seed: int, ready: Any, window: Any) -> dict[str, Any]:
    """Connect every seat, report ready, learn the window, play, report the figures."""
    stats = _Stats(0.0, 0.0)
    stop = asyncio.Event()
    rng = random.Random(seed)
    gate = asyncio.Semaphore(64)  # handshakes in flight
    opened = 0
    tasks = []
    sockets: list[Any] = []
    all_open = asyncio.Event()
    seats = len(tables) * SEATS

    async def run(table: _Table, seat: int) -> None:
        counted = False

        def mark() -> None:
            nonlocal counted
            if not counted:
                counted = True
                opened_one()

        bases = table.info.get("ws_bases") or [ws_base]  # a cluster: seats on several processes
        url = f"{bases[seat % len(bases)]}/ws/tables/{table.info['table_id']}"
        try:
            await table.seat(url, seat, guest, stop, sockets, gate, mark)
        except Exception as exc:  # a benchmark reports what went wrong and carries on
            stats.errors.append(f"{type(exc).__name__}: {exc}")
        mark()

    def opened_one() -> None:
        nonlocal opened
        opened += 1
        if opened == seats:
            all_open.set()

    for info in tables:
        table = _Table(info, stats, pace, random.Random(rng.random()))
        for seat in range(SEATS):
            tasks.append(asyncio.create_task(run(table, seat)))
        table.next_at = time.perf_counter() + rng.random() * pace if pace > 0 else 0.0
    await all_open.wait()
    # the load generator's own collections would land inside the latencies it measures:
    # what it has built is kept out of them, and it collects nothing until the window ends
    gc.collect()
    gc.freeze()
    gc.disable()
    ready.put(len(stats.errors))
    start, end = await asyncio.to_thread(window.get)
    stats.start, stats.end = start, end
    await asyncio.sleep(max(0.0, start - time.time()))
    cpu_start = time.process_time()
    await asyncio.sleep(max(0.0, end - time.time()))
    cpu = time.process_time() - cpu_start
    stop.set()
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    await asyncio.wait(tasks, timeout=30)
    gc.enable()  # only now: commands sent in the window may still have been on their way
    return {"acks": stats.acks, "latencies": stats.latencies, "cpu": cpu,
            "ack_latencies": stats.ack_latencies, "rejects": stats.rejects,
            "errors": stats.errors[:20], "error_count": len(stats.errors)}


def _client_process(tables: list[dict[str, Any]], ws_base: str, guest: str, pace: float,
                    seed: int, ready: Any, window: Any, out: Any) -> None:
    _raise_fd_limit()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    out.put(asyncio.run(_clients(tables, ws_base, guest, pace, seed, ready, window)))


# --- the benchmark ------------------------------------------------------------------------------

def bench_server(*, tables: int, pace: float, duration: float, warmup: float, procs: int,
                 url: str | None, db: str | None, sync: str, seed: int, cluster: int = 0,
                 redis: str | None = None, kill_trials: int = 0,
                 lease_seconds: float | None = None) -> dict[str, Any]:
    _raise_fd_limit()
    folder = tempfile.mkdtemp(prefix="burraco-bench-")
    prefix = bench_db = ""
    with contextlib.ExitStack() as stack:
        nodes: list[Node] = []
        if cluster:
            if not db or not redis:
                raise RuntimeError("--cluster needs --db postgresql://... (the bench makes a "
                                   "database of its own there) and --redis redis://...")
            bench_db = stack.enter_context(fresh_database(db))
            prefix = stack.enter_context(fresh_redis_prefix(redis))
            nodes = [_node(k, bench_db, sync, cluster_options(redis, prefix, k, lease_seconds),
                           Path(folder)) for k in range(cluster)]
        elif url is None:
            nodes = [_node(0, db or f"sqlite:///{folder}/bench.db", sync, [], Path(folder))]
        stack.callback(_stop_all, nodes)
        for node in nodes:
            node.proc, _ = _launch(node.command, node.port, node.log)
        base = nodes[0].base if nodes else (url or "").rstrip("/")
        parts, connect_errors, server_cpu = _run_load(
            base, [node.ws_base for node in nodes], [node.proc for node in nodes if node.proc],
            tables=tables, pace=pace, duration=duration, warmup=warmup, procs=procs, seed=seed)
        failover = None
        if kill_trials:
            guest = http(base, "POST", "/api/guests", {"nickname": "bench"})["token"]
            failover = kill_owner_trials(nodes, kill_trials, guest,
                                         functools.partial(_restart, nodes), db_url=bench_db,
                                         redis_url=redis or "", prefix=prefix)
    figures = _figures(parts, tables=tables, pace=pace, duration=duration, procs=procs,
                       connect_errors=connect_errors, server_cpu=server_cpu)
    figures["server_procs"] = len(nodes) or None
    if failover is not None:
        figures["failover"] = failover
    return figures


def _node(index: int, db: str, sync: str, extra: list[str], folder: Path) -> Node:
    port = _free_port()
    return Node(_serve_command(port, db, sync, extra), port, folder / f"server-{index}.log")


def _restart(nodes: list[Node], index: int) -> None:
    node = nodes[index]
    if node.proc is not None and node.proc.poll() is None:
        return
    node.proc, _ = _launch(node.command, node.port, node.log)


def _stop_all(nodes: list[Node]) -> None:
    for node in nodes:
        if node.proc is not None and node.proc.poll() is None:
            node.proc.terminate()
    for node in nodes:
        if node.proc is None:
            continue
        try:
            node.proc.wait(20)
        except subprocess.TimeoutExpired:
            node.proc.kill()
            node.proc.wait()


def _run_load(base: str, ws_bases: list[str], server_procs: list[subprocess.Popen[bytes]], *,
              tables: int, pace: float, duration: float, warmup: float, procs: int,
              seed: int) -> tuple[list[dict[str, Any]], int, float | None]:
    """Create the tables on ``base``, play them from ``procs`` client processes.

    With several ``ws_bases`` (a cluster) table k's seat s connects to base k + s, so
    the four seats of a table sit on different processes.  Returns the clients'
    parts, the connection errors and the servers' CPU seconds in the window.
    """
    guest = http(base, "POST", "/api/guests", {"nickname": "bench"})["token"]
    body = {"players": SEATS, "seats": [{"kind": "human"}] * SEATS, "target": 100_000,
            "grace_seconds": 3600}
    with ThreadPoolExecutor(16) as pool:
        created = list(pool.map(lambda _: http(base, "POST", "/api/tables", body, guest),
                                range(tables)))
    if len(ws_bases) > 1:
        for index, info in enumerate(created):
            info["ws_bases"] = [ws_bases[(index + s) % len(ws_bases)] for s in range(SEATS)]
    ws_base = base.replace("http", "ws", 1)
    context = multiprocessing.get_context("spawn")
    results: Any = context.Queue()
    ready: Any = context.Queue()
    windows = [context.Queue() for _ in range(procs)]
    workers = [context.Process(target=_client_process, args=(
        created[k::procs], ws_base, guest, pace, seed + k, ready, windows[k], results))
        for k in range(procs)]
    for worker in workers:
        worker.start()
    connect_errors = sum(ready.get(timeout=600) for _ in workers)
    start = time.time() + warmup
    end = start + duration
    for inbox in windows:
        inbox.put((start, end))
    time.sleep(max(0.0, start - time.time()))
    cpu_start = [_cpu_seconds(proc.pid) for proc in server_procs]
    time.sleep(max(0.0, end - time.time()))
    cpu_end = [_cpu_seconds(proc.pid) for proc in server_procs]
    parts = [results.get(timeout=duration + 120) for _ in workers]
    for worker in workers:
        worker.join(30)
    spent = [b - a for a, b in zip(cpu_start, cpu_end, strict=True)
             if a is not None and b is not None]
    return parts, connect_errors, (sum(spent) if server_procs and spent else None)


def _figures(parts: list[dict[str, Any]], *, tables: int, pace: float, duration: float,
             procs: int, connect_errors: int, server_cpu: float | None) -> dict[str, Any]:
    latencies = [v for p in parts for v in p["latencies"]]
    ack_latencies = [v for p in parts for v in p["ack_latencies"]]
    rejects: dict[str, int] = {}
    for part in parts:
        for code, count in part["rejects"].items():
            rejects[code] = rejects.get(code, 0) + count
    acks = sum(p["acks"] for p in parts)
    return {
        "tables": tables, "connections": tables * SEATS, "pace_s": pace or None,
        "duration_s": duration, "client_procs": procs,
        "actions": acks, "actions_per_s": round(acks / duration, 1),
        "latency_ms": {"p50": rounded(percentile(latencies, 0.5)),
                       "p99": rounded(percentile(latencies, 0.99)),
                       "max": rounded(percentile(latencies, 1.0)), "samples": len(latencies)},
        "ack_ms": {"p50": rounded(percentile(ack_latencies, 0.5)),
                   "p99": rounded(percentile(ack_latencies, 0.99))},
        "server_cpu": round(server_cpu / duration, 2) if server_cpu is not None else None,
        "clients_cpu": round(sum(p["cpu"] for p in parts) / duration, 2),
        "server_cpu_ms_per_action": (round(server_cpu * 1000 / acks, 3)
                                     if server_cpu is not None and acks else None),
        "load_average": round(os.getloadavg()[0], 2),
        "rejects": rejects,
        "errors": sum(p["error_count"] for p in parts),
        "connect_errors": connect_errors,
        "error_samples": [e for p in parts for e in p["errors"]][:5],
        "expected_actions_per_s": round(tables / pace, 1) if pace else None,
        "latency_mean_ms": rounded(statistics.fmean(latencies) * 1000) if latencies else None,
    }


def format_report(figures: dict[str, Any]) -> str:
    pace = f"one action per table every {figures['pace_s']} s" if figures["pace_s"] else \
        "full speed"
    lat, ack = figures["latency_ms"], figures["ack_ms"]
    lines = [
        f"burraco bench server: {figures['tables']} tables, {figures['connections']} "
        f"WebSocket clients, {pace}, {figures['duration_s']:g} s measured",
        f"  actions/s        {figures['actions_per_s']}"
        + (f"  (the pace asks {figures['expected_actions_per_s']})"
           if figures["expected_actions_per_s"] else ""),
        f"  latency to every view   p50 {lat['p50']} ms   p99 {lat['p99']} ms   "
        f"max {lat['max']} ms   ({lat['samples']} commands)",
        f"  latency to the ack      p50 {ack['p50']} ms   p99 {ack['p99']} ms",
        f"  CPU              server {figures['server_cpu']}, clients "
        f"{figures['clients_cpu']} of one core (load average {figures['load_average']}); "
        f"server {figures['server_cpu_ms_per_action']} ms per action",
        f"  rejects {figures['rejects'] or 'none'}, connection errors {figures['errors']}",
    ]
    if (figures.get("server_procs") or 0) > 1:
        lines[0] += f", on {figures['server_procs']} server processes"
    failover = figures.get("failover")
    if failover is not None:
        took = failover["takeover_ms"]
        lines.append(f"  takeover (SIGKILL of the owner to the next event elsewhere)   p50 "
                     f"{took['p50']} ms   p99 {took['p99']} ms   max {took['max']} ms   "
                     f"({failover['measured']} of {failover['trials']} trials)")
        lines.extend(f"    {failure}" for failure in failover["failures"])
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.duration <= 0 or args.pace < 0 or args.procs < 1:
        print("burraco bench server: --tables and --procs must be at least 1, --duration "
              "positive and --pace not negative", file=sys.stderr)
        return 2
    refusal = _check_cluster(args)
    if refusal is not None:
        print(f"burraco bench server: {refusal}", file=sys.stderr)
        return 2
    # SIGTERM ends the bench as an error would: its servers stopped, its database dropped
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        figures = bench_server(tables=args.tables, pace=args.pace, duration=args.duration,
                               warmup=args.warmup, procs=args.procs, url=args.url, db=args.db,
                               sync=args.sqlite_sync, seed=args.seed, cluster=args.cluster,
                               redis=args.redis, kill_trials=args.kill_owner_trials,
                               lease_seconds=args.lease_seconds)
    except (OSError, RuntimeError) as exc:  # URLError is an OSError
        print(f"burraco bench server: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(figures) if args.json else format_report(figures))
    failover = figures.get("failover")
    if failover is not None and failover["failure_count"]:
        return 1
    return 0 if figures["errors"] == 0 and figures["actions"] > 0 else 1


def _check_cluster(args: argparse.Namespace) -> str | None:
    """Why the ``--cluster`` options cannot be used as given, or ``None``."""
    if args.cluster < 0 or args.kill_owner_trials < 0:
        return "--cluster and --kill-owner-trials must not be negative"
    if not args.cluster:
        if args.redis or args.kill_owner_trials or args.lease_seconds is not None:
            return "--redis, --lease-seconds and --kill-owner-trials go with --cluster N"
        return None
    if args.url:
        return "--cluster starts its own servers: leave out --url"
    if not args.db or not args.db.startswith(("postgresql://", "postgres://",
                                               "postgresql+psycopg://")):
        return ("--cluster needs --db postgresql://USER@HOST:PORT/DB: the bench makes a "
                "database of its own on that server, and drops it afterwards")
    if not args.redis:
        return "--cluster needs --redis redis://HOST:PORT/DB (a key prefix of its own)"
    if args.kill_owner_trials and args.cluster < 2:
        return "--kill-owner-trials needs --cluster 2 or more: a survivor takes the table"
    return None
