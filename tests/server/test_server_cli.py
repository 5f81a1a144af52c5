"""`burraco serve` and `burraco bench server` as real processes (no figure is judged here)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from harness import BURRACO


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BURRACO, *args], capture_output=True, text=True, timeout=timeout)


def test_serve_refuses_an_unusable_database_url() -> None:
    for url, words in (("mysql://x/y", "expected sqlite:///PATH"),
                       ("sqlite://", "in-memory")):
        done = run("serve", "--db", url)
        assert done.returncode == 2
        assert words in done.stderr and "--db" in done.stderr


def test_bench_server_reports_every_figure(tmp_path: Path) -> None:
    done = run("bench", "server", "--tables", "2", "--duration", "2", "--warmup", "0.5",
               "--db", f"sqlite:///{tmp_path / 'bench.db'}", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["tables"] == 2 and figures["connections"] == 8
    assert figures["actions"] > 0 and figures["errors"] == 0
    assert set(figures["latency_ms"]) == {"p50", "p99", "max", "samples"}
    assert figures["latency_ms"]["samples"] > 0


def test_bench_server_checks_its_arguments() -> None:
    done = run("bench", "server", "--tables", "0")
    assert done.returncode == 2 and "--tables" in done.stderr
