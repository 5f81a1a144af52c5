"""``burraco bench frames``: what each seat's WebSocket receives during a 4-player hand.

Starts ``burraco serve`` on a fresh SQLite file and plays ``--hands`` hands at one table of
four bot *clients* (one WebSocket per seat), twice: as protocol-1 clients that ask for a
``sync`` after the events of every command (what the browser client did before protocol 2:
one sync per burst of events), and as protocol-2 clients that apply the event deltas and
never ask.  Every frame the server sends each seat is counted, with its UTF-8 bytes, from
the ``hello_ok`` to the frame that starts the hand after the last one measured.

The deals differ between the two runs (the server shuffles), so the figures are per hand,
averaged over ``--hands``; the server process's CPU time per hand is reported beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from burraco.bench.common import http
from burraco.bench.server import _cpu_seconds, _start_server, choose

SEATS = 4


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=3, metavar="N",
                        help="hands measured per protocol (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the bot clients' choices")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


class _Seat:
    """One seat's connection: plays from its legal actions, counts what it receives."""

    def __init__(self, seat: int, protocol: int, rng: random.Random) -> None:
        self.seat = seat
        self.protocol = protocol
        self.rng = rng
        self.frames = 0
        self.bytes = 0
        self.syncs = 0
        self.version = 0
        self.asked = False
        self.acted = -1

    async def play(self, url: str, token: str, guest: str, hands: int) -> None:
        from websockets.asyncio.client import connect

        async with connect(url, max_size=None, compression=None) as ws:
            hello: dict[str, Any] = {"t": "hello", "seat": self.seat, "seat_token": token,
                                     "guest": guest, "legal": True}
            if self.protocol >= 2:
                hello["protocol"] = self.protocol
            await ws.send(json.dumps(hello))
            async for raw in ws:
                text = raw if isinstance(raw, str) else raw.decode()
                self.frames += 1
                self.bytes += len(text.encode())
                message = json.loads(text)
                if "v" in message and "t" not in message:
                    self.version = message["v"]
                    event = message.get("e") or {}
                    if event.get("type") == "HandStarted" and event["number"] > hands:
                        return
                    if self.protocol == 1 and not self.asked:
                        self.asked = True  # one sync answers a whole burst
                        await ws.send('{"t":"sync"}')
                    continue
                kind = message.get("t")
                if kind == "sync":
                    self.version = message["version"]
                    self.asked = False
                    self.syncs += 1
                elif (kind == "legal" and message["version"] == self.version
                        and message["version"] > self.acted):
                    self.acted = message["version"]
                    await ws.send(json.dumps({
                        "t": "act", "id": f"f{self.seat}-{self.version}", "v": self.version,
                        "action": choose(message["actions"], self.rng)}))


async def _table(base: str, protocol: int, hands: int, seed: int) -> list[_Seat]:
    guest = http(base, "POST", "/api/guests", {"nickname": "bench"})["token"]
    table = http(base, "POST", "/api/tables", {
        "players": SEATS, "seats": [{"kind": "human"}] * SEATS, "target": 100_000,
        "grace_seconds": 3600}, guest)
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"
    rng = random.Random(seed)
    seats = [_Seat(seat, protocol, random.Random(rng.random())) for seat in range(SEATS)]
    await asyncio.wait_for(asyncio.gather(*(
        s.play(url, table["seats"][s.seat]["token"], guest, hands) for s in seats)), 900)
    return seats


def bench_frames(*, hands: int, seed: int) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="burraco-bench-frames-")
    proc, base = _start_server(f"sqlite:///{folder}/bench.db", "normal",
                               Path(folder) / "server.log")
    try:
        out: dict[str, Any] = {"hands": hands, "protocols": {}}
        out["server_cpu_per_hand"] = {}
        for protocol in (1, 2):
            cpu = _cpu_seconds(proc.pid)
            seats = asyncio.run(_table(base, protocol, hands, seed))
            after = _cpu_seconds(proc.pid)
            out["protocols"][str(protocol)] = [{
                "seat": s.seat, "frames": round(s.frames / hands, 1),
                "bytes": round(s.bytes / hands), "syncs": round(s.syncs / hands, 1)}
                for s in seats]
            out["server_cpu_per_hand"][str(protocol)] = (
                round((after - cpu) / hands, 3) if cpu is not None and after is not None
                else None)
        return out
    finally:
        proc.terminate()
        proc.wait(30)


def format_report(figures: dict[str, Any]) -> str:
    lines = [f"frames and bytes each seat received per 4-player hand "
             f"(mean of {figures['hands']} hands)",
             f"{'seat':>4}  {'frames v1':>9}  {'frames v2':>9}  {'bytes v1':>9}  "
             f"{'bytes v2':>9}  {'v2/v1 bytes':>11}"]
    old, new = figures["protocols"]["1"], figures["protocols"]["2"]
    for a, b in zip(old, new, strict=True):
        ratio = b["bytes"] / a["bytes"] if a["bytes"] else 0.0
        lines.append(f"{a['seat']:>4}  {a['frames']:>9}  {b['frames']:>9}  {a['bytes']:>9}  "
                     f"{b['bytes']:>9}  {ratio:>11.2f}")
    cpu = figures.get("server_cpu_per_hand", {})
    if cpu.get("1") is not None and cpu.get("2") is not None:
        lines.append(f"server CPU per hand: {cpu['1']} s with protocol 1, {cpu['2']} s with "
                     "protocol 2")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("burraco bench frames: --hands must be at least 1")
        return 2
    figures = bench_frames(hands=args.hands, seed=args.seed)
    print(json.dumps(figures) if args.json else format_report(figures))
    return 0
