"""Memory and disk stay bounded per finished table and per event (a real server process).

All-bot tables with no delay play as fast as the server stores their moves; nobody watches.

* Per finished table: waves of one-hand matches play to their end.  A finished table nobody
  watches is dropped from memory (``--finished-table-seconds``, short here) and read again
  from the database when asked for: once a wave is over the server holds none of its tables
  (``/healthz``), and after warm-up waves its resident memory grows by a bounded amount per
  finished table (it once kept every table that ended with nobody watching, for good).
* Per event: then a few long matches play; after a warm-up the test measures, over a window
  of some 20,000 events, how much the server process's resident memory and its database files
  grow per event.  A table keeps in memory a bounded window of what it did (recent events,
  recent command ids): its memory must not grow with its history.  Its disk grows with the
  history it keeps on purpose (every event, every command), by a bounded amount per event.

The figures are printed for the record.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess

RETIRE_SECONDS = 0.5
"""The server's ``--finished-table-seconds`` here (60 by default)."""
SHORT_WAVES = (80, 80, 60, 60)
"""One-hand matches started at once, wave after wave: the first ``WARM_UP_WAVES`` warm the
server up, the others are measured."""
WARM_UP_WAVES = 2
"""The engine's memo tables of melds (bounded: ``meld_search.CACHE_LIMIT`` entries each,
tested in tests/engine) fill fastest on a fresh server, 20 to 60 kB per one-hand match in the
first waves; the pools of threads bots think in grow to their size."""
MAX_RSS_BYTES_PER_FINISHED_TABLE = 24 * 1024
"""Measured 5 to 10 kB per finished table once warm (the memo tables' further entries and the
allocator's noise); finished tables kept in memory measured 65 to 85 kB each."""
TABLES = 3
WARM_UP_EVENTS = 6000
"""Events of the long matches before the per-event measure starts (their windows of recent
events fill; the memo tables are warm from the one-hand matches)."""
WINDOW_EVENTS = 20000
"""Events the measure spans: counted, not timed, so a busy machine only makes it longer."""
PATIENCE = 300.0
"""Seconds a phase may take at most (an idle machine plays about 2,000 events a second)."""
MAX_RSS_BYTES_PER_EVENT = 100
"""Measured 50 to 55 bytes per event (the memo tables' further entries, the allocator's own
growth).  200 were allowed when the measure began on a fresh server, the memo tables filling
(100 to 130 bytes per event)."""
MAX_DISK_BYTES_PER_EVENT = 2500


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def disk_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def bot_match(server: ServerProcess, creator: str, **body: Any) -> str:
    return str(server.create_table(creator, players=2, bot_delay=0,
                                   seats=[{"kind": "bot", "level": "basic"}] * 2,
                                   **body)["table_id"])


def live_tables(server: ServerProcess) -> int:
    """The tables the server holds in memory (``/healthz``)."""
    return int(server.http.get("/healthz").json()["tables"])


def wait_over(server: ServerProcess, tables: list[str]) -> None:
    """Wait until every match of ``tables`` is over."""
    left = set(tables)
    deadline = time.monotonic() + PATIENCE
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        left = {t for t in left
                if server.http.get(f"/api/tables/{t}").json()["status"] != "finished"}
    assert not left, f"{len(left)} matches not over after {PATIENCE:g} s"


def wait_dropped(server: ServerProcess) -> int:
    """Wait for the server to drop the finished tables; how many it still holds."""
    deadline = time.monotonic() + RETIRE_SECONDS + 10
    while live_tables(server) > 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    return live_tables(server)


def test_memory_and_disk_stay_bounded_per_finished_table_and_per_event(
        tmp_path: Path) -> None:
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to read the server's memory")
    db = tmp_path / "burraco.db"
    server = ServerProcess(f"sqlite:///{db}", tmp_path / "server.log",
                           extra=["--sqlite-sync", "normal", "--table-rate", "none",
                                  "--finished-table-seconds", str(RETIRE_SECONDS)])
    server.start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        idle_rss = rss_bytes(pid)
        creator = server.guest("Bots")

        held: list[int] = []
        measured_from = 0
        for wave, count in enumerate(SHORT_WAVES):
            wait_over(server, [bot_match(server, creator, mode="smazzate", smazzate=1)
                               for _ in range(count)])
            held.append(wait_dropped(server))
            if wave == WARM_UP_WAVES - 1:
                measured_from = rss_bytes(pid)
        finished_rss = rss_bytes(pid)

        tables = [bot_match(server, creator, target=100_000) for _ in range(TABLES)]

        def events() -> int:
            total = 0
            for table in tables:
                info = server.http.get(f"/api/tables/{table}").json()
                assert info["status"] == "playing", info["status"]
                total += int(info["version"])
            return total

        deadline = time.monotonic() + PATIENCE
        while events() < WARM_UP_EVENTS and time.monotonic() < deadline:
            time.sleep(0.5)
        start_events, start_rss, start_disk = events(), rss_bytes(pid), disk_bytes(db)
        began = time.monotonic()
        deadline = began + PATIENCE
        while events() - start_events < WINDOW_EVENTS and time.monotonic() < deadline:
            time.sleep(0.5)
        window = time.monotonic() - began
        end_events, end_rss, end_disk = events(), rss_bytes(pid), disk_bytes(db)
    finally:
        server.stop()
    finished = sum(SHORT_WAVES[WARM_UP_WAVES:])
    rss_per_finished = (finished_rss - measured_from) / finished
    played = end_events - start_events
    rss_per_event = (end_rss - start_rss) / played
    disk_per_event = (end_disk - start_disk) / played
    print(f"\nresources: {sum(SHORT_WAVES)} one-hand all-bot matches played out: RSS "
          f"{idle_rss / 2**20:.1f} idle, {measured_from / 2**20:.1f} -> "
          f"{finished_rss / 2**20:.1f} MiB over the last {finished} "
          f"({rss_per_finished / 1024:.1f} kB per finished table), finished tables still in "
          f"memory after each wave: {held}; then {TABLES} long all-bot matches, {played} events "
          f"in {window:.0f} s ({start_events} before): RSS {start_rss / 2**20:.1f} -> "
          f"{end_rss / 2**20:.1f} MiB ({rss_per_event:.1f} B/event), disk "
          f"{start_disk / 2**20:.1f} -> {end_disk / 2**20:.1f} MiB ({disk_per_event:.0f} B/event)")
    assert held == [0] * len(held), f"finished tables nobody watches stay in memory: {held}"
    assert rss_per_finished <= MAX_RSS_BYTES_PER_FINISHED_TABLE, (
        f"the server's memory grows {rss_per_finished / 1024:.0f} kB per finished table")
    assert played >= 2000, f"only {played} events: the measure means nothing"
    assert rss_per_event <= MAX_RSS_BYTES_PER_EVENT, (
        f"the server's memory grows {rss_per_event:.0f} bytes per event")
    assert disk_per_event <= MAX_DISK_BYTES_PER_EVENT, (
        f"the database grows {disk_per_event:.0f} bytes per event")
