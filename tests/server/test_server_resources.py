"""Memory and disk per table stay bounded over a long all-bot match (a real server process).

All-bot tables with no delay play as fast as the server stores their moves.
After a warm-up the test measures, over a window of a few thousand events,
how much the server process's resident memory and its database files grow per
event.  A table keeps in memory a bounded window of what it did (recent
events, recent command ids): its memory must not grow with its history.  Its
disk grows with the history it keeps on purpose (every event, every command),
by a bounded amount per event.  The figures are printed for the record.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from harness import ServerProcess

TABLES = 3
WARM_UP_EVENTS = 6000
"""Events played before the measure starts (the bounded windows fill first)."""
WINDOW_EVENTS = 30000
"""Events the measure spans: counted, not timed, so a busy machine only makes it longer."""
PATIENCE = 300.0
"""Seconds a phase may take at most (an idle machine plays about 2,000 events a second)."""
MAX_RSS_BYTES_PER_EVENT = 200
"""Keeping every command id costs about 340 bytes per event; the bounded windows of recent
events and ids fill during the warm-up, and after it the allocator's own growth measures
15 to 50 bytes per event, falling as the match goes on.  The engine's memo tables of melds
(bounded: ``meld_search.CACHE_LIMIT`` entries each, tested in tests/engine) are still filling
in this window and add 30 to 70 bytes per event, more on a loaded machine."""
MAX_DISK_BYTES_PER_EVENT = 2500


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def disk_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def test_memory_and_disk_per_table_stay_bounded_over_a_long_bot_match(
        tmp_path: Path) -> None:
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to read the server's memory")
    db = tmp_path / "burraco.db"
    server = ServerProcess(f"sqlite:///{db}", tmp_path / "server.log",
                           extra=["--sqlite-sync", "normal"])
    server.start()
    try:
        assert server.proc is not None
        idle_rss = rss_bytes(server.proc.pid)
        creator = server.guest("Bots")
        tables = [server.create_table(creator, players=2, target=100_000, bot_delay=0,
                                      seats=[{"kind": "bot", "level": "basic"}] * 2)
                  for _ in range(TABLES)]

        def events() -> int:
            total = 0
            for table in tables:
                info = server.http.get(f"/api/tables/{table['table_id']}").json()
                assert info["status"] == "playing", info["status"]
                total += int(info["version"])
            return total

        deadline = time.monotonic() + PATIENCE
        while events() < WARM_UP_EVENTS and time.monotonic() < deadline:
            time.sleep(1)
        start_events, start_rss, start_disk = events(), rss_bytes(server.proc.pid), \
            disk_bytes(db)
        peak = start_rss
        began = time.monotonic()
        deadline = began + PATIENCE
        while events() - start_events < WINDOW_EVENTS and time.monotonic() < deadline:
            time.sleep(1)
            peak = max(peak, rss_bytes(server.proc.pid))
        window = time.monotonic() - began
        end_events, end_rss, end_disk = events(), rss_bytes(server.proc.pid), disk_bytes(db)
    finally:
        server.stop()
    played = end_events - start_events
    rss_per_event = (end_rss - start_rss) / played
    disk_per_event = (end_disk - start_disk) / played
    print(f"\nresources: {TABLES} all-bot tables, {played} events in {window:.0f} s "
          f"({start_events} before); RSS {start_rss / 2**20:.1f} -> {end_rss / 2**20:.1f} MiB "
          f"(peak {peak / 2**20:.1f} MiB, {(peak - idle_rss) / TABLES / 2**20:.2f} MiB per "
          f"table over the idle server; {rss_per_event:.1f} B/event); disk "
          f"{start_disk / 2**20:.1f} -> {end_disk / 2**20:.1f} MiB ({disk_per_event:.0f} B/event)")
    assert played >= 2000, f"only {played} events: the measure means nothing"
    assert rss_per_event <= MAX_RSS_BYTES_PER_EVENT, (
        f"the server's memory grows {rss_per_event:.0f} bytes per event")
    assert disk_per_event <= MAX_DISK_BYTES_PER_EVENT, (
        f"the database grows {disk_per_event:.0f} bytes per event")
