"""``burraco bench frames``: a real server, four bot clients per protocol, every frame counted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BURRACO = str(Path(sys.executable).with_name("burraco"))


def test_bench_frames_counts_each_seat_under_both_protocols() -> None:
    done = subprocess.run([BURRACO, "bench", "frames", "--hands", "1", "--json"],
                          capture_output=True, text=True, timeout=600, check=True)
    figures = json.loads(done.stdout)
    old, new = figures["protocols"]["1"], figures["protocols"]["2"]
    assert [s["seat"] for s in old] == [s["seat"] for s in new] == [0, 1, 2, 3]
    for before, after in zip(old, new, strict=True):
        assert before["syncs"] > 10  # a protocol-1 view asks after its events
        assert after["syncs"] == 1  # the hello's only: the deltas keep protocol 2 current
        assert 0 < after["bytes"] < before["bytes"]


def test_bench_frames_refuses_no_hands() -> None:
    done = subprocess.run([BURRACO, "bench", "frames", "--hands", "0"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert "--hands must be at least 1" in done.stdout + done.stderr
