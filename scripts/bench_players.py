#!/usr/bin/env python3
"""Time the profile and leaderboard endpoints on a large database.

    .venv/bin/python scripts/bench_players.py [--players 10000] [--matches 100000]
                                              [--requests 300] [--db PATH]

Fills a fresh SQLite file (migrated like the server's) with accounts and
finished rated matches spread over a year (2 and 4 players, with their
history, statistics and ratings rows, as ``results.record_match`` writes them),
starts ``burraco serve`` on it, and times real HTTP requests from one client:
profiles of random players, all-time, monthly and weekly boards at random pages
with "my rank".  Prints p50 / p99 / max per endpoint in milliseconds, and the
server's CPU time per request (from /proc: meaningful on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert, select

from burraco.accounts import passwords
from burraco.accounts.identity import new_id
from burraco.accounts.models import (
    AccountRow,
    BoardPeriodRow,
    MatchPlayerRow,
    MatchRow,
    PlayerStatRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
)
from burraco.accounts.sessions import new_token
from burraco.community.results import periods_of
from burraco.infra.db import make_engine, migrate

YEAR = 365 * 24 * 3600.0


def fill(url: str, players: int, matches: int, seed: int) -> tuple[list[str], str]:
    """Fill the database; returns the usernames and one player's session token."""
    rng = random.Random(seed)
    engine = make_engine(url, sqlite_sync="normal")
    migrate(engine)
    hashed = passwords.hash_password("bench-password")
    ids = [new_id() for _ in range(players)]
    names = [f"player_{i}" for i in range(players)]
    now = time.time()
    mu: dict[tuple[str, str], float] = {}
    counts: dict[tuple[str, str], int] = {}
    match_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    for m in range(matches):
        form = "2" if m % 3 else "4"
        n = int(form)
        table = f"t{m:08d}"
        at = now - YEAR * (matches - m) / matches
        seated = rng.sample(ids, n)
        winner = rng.randrange(2)
        seats = [{"seat": s, "side": s % 2, "player_id": p, "name": None, "bot": None}
                 for s, p in enumerate(seated)]
        match_rows.append({"table_id": table, "form": form, "rated": True, "finished_at": at,
                           "hands": 4, "winner": winner, "scores": [2100, 1800],
                           "seats": seats})
        for s, p in enumerate(seated):
            key = (p, form)
            before = mu.get(key, 1500.0)
            after = before + (20 if s % 2 == winner else -20)
            mu[key] = after
            counts[key] = counts.get(key, 0) + 1
            seat_rows.append({"table_id": table, "seat": s, "player_id": p, "form": form,
                              "rated": True, "finished_at": at, "side": s % 2,
                              "result": "won" if s % 2 == winner else "lost", "score": 2000,
                              "abandoned": False, "rating_before": before,
                              "rating_after": after})
            history.append({"player_id": p, "form": form, "table_id": table, "at": at,
                            "mu": after, "sigma": 200.0})
    boards: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in seat_rows:
        for period in periods_of(row["finished_at"]):
            entry = boards.setdefault((period, row["form"], row["player_id"]), {
                "period": period, "form": row["form"], "player_id": row["player_id"],
                "matches": 0, "sigma": 200.0})
            entry["matches"] += 1
            entry["mu"] = row["rating_after"]
    token, session_id, secret_hash = new_token()
    with engine.begin() as conn:
        conn.execute(insert(AccountRow), [
            {"player_id": p, "username": u, "username_key": u, "password_hash": hashed}
            for p, u in zip(ids, names, strict=True)])
        conn.execute(insert(SessionRow), [{"id": session_id, "player_id": ids[0],
                                           "secret_hash": secret_hash}])
        for start in range(0, len(match_rows), 20_000):
            conn.execute(insert(MatchRow), match_rows[start:start + 20_000])
        for rows, model in ((seat_rows, MatchPlayerRow), (history, RatingHistoryRow)):
            for start in range(0, len(rows), 50_000):
                conn.execute(insert(model), rows[start:start + 50_000])
        conn.execute(insert(RatingRow), [
            {"player_id": p, "form": f, "mu": v, "sigma": 200.0, "matches": counts[(p, f)]}
            for (p, f), v in mu.items()])
        board_rows = list(boards.values())
        for start in range(0, len(board_rows), 50_000):
            conn.execute(insert(BoardPeriodRow), board_rows[start:start + 50_000])
        conn.execute(insert(PlayerStatRow), [
            {"player_id": p, "form": f, "matches": c, "won": c // 2, "hands": 4 * c,
             "hands_won": 2 * c, "mp": 500 * c, "closings": c, "pozzetti": c,
             "abandoned": 0, "burraco": {"clean": c, "dirty": c}}
            for (p, f), c in counts.items()])
    engine.dispose()
    return names, token


def reuse(url: str) -> str:
    """A new session token for the first player of an existing bench database."""
    engine = make_engine(url)
    token, session_id, secret_hash = new_token()
    with engine.begin() as conn:
        pid = conn.scalar(select(AccountRow.player_id).where(
            AccountRow.username_key == "player_0"))
        conn.execute(insert(SessionRow).values(id=session_id, player_id=pid,
                                               secret_hash=secret_hash))
    engine.dispose()
    return token


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used: steady under a loaded machine,
    where wall-clock times mostly measure the other jobs."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"p50 {statistics.median(ordered):6.2f}  p99 {p99:6.2f}  max {ordered[-1]:6.2f} ms"
            f"  ({len(ordered)} requests)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--db", default=None,
                        help="SQLite file (default: a temporary one); an existing file made "
                             "by an earlier run is timed again without refilling")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="burraco-bench-players-"))
    path = Path(args.db) if args.db else folder / "players.db"
    url = f"sqlite:///{path}"
    started = time.perf_counter()
    if path.exists():  # a database filled by an earlier run: time it again
        names, token = [f"player_{i}" for i in range(args.players)], reuse(url)
    else:
        names, token = fill(url, args.players, args.matches, args.seed)
        print(f"filled {args.players} players, {args.matches} matches in "
              f"{time.perf_counter() - started:.1f} s ({path.stat().st_size / 1e6:.0f} MB)")
    port = 18000 + os.getpid() % 1000
    burraco = str(Path(sys.executable).with_name("burraco"))
    server = subprocess.Popen([burraco, "serve", "--port", str(port), "--db", url],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rng = random.Random(args.seed)
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30,
                              headers={"authorization": f"Bearer {token}"})
        for _ in range(300):
            try:
                if client.get("/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        pages = args.players // 50
        cases = {
            "profile": lambda: f"/api/players/{rng.choice(names)}",
            "board all": lambda: f"/api/leaderboard?players={rng.choice('24')}&page="
                                 f"{rng.randrange(1, pages)}",
            "board month": lambda: f"/api/leaderboard?players={rng.choice('24')}"
                                   f"&period=month&page={rng.randrange(1, 20)}",
            "board week": lambda: f"/api/leaderboard?players={rng.choice('24')}"
                                  f"&period=week&page={rng.randrange(1, 5)}",
        }
        for name, make in cases.items():
            for _ in range(10):  # warm-up
                client.get(make())
            samples = []
            cpu = server_cpu(server.pid)
            for _ in range(args.requests):
                path_ = make()
                t0 = time.perf_counter()
                response = client.get(path_)
                samples.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 200, (path_, response.text)
            per = (server_cpu(server.pid) - cpu) / args.requests * 1000
            print(f"{name:12s} {percentiles(samples)}  server CPU {per:5.2f} ms/request")
    finally:
        server.terminate()
        server.wait(15)


if __name__ == "__main__":
    main()
