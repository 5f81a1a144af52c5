"""``burraco arena`` and ``burraco bench bots`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.cli import main

BURRACO = str(Path(sys.executable).with_name("burraco"))


def test_arena_prints_the_figures_and_writes_the_json_contract(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    code = main(["arena", "basic", "random", "--matches", "3", "--players", "4",
                 "--hands-per-match", "2", "--seed", "5", "--json", str(out), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "win rate of basic" in text and "decision latency of random" in text
    data = json.loads(out.read_text())
    assert {"a": "basic", "b": "random", "players": 4, "matches": 3}.items() <= data.items()
    assert data["hands"] == 12
    for key in ("win_rate", "mp_diff_per_hand", "hands_per_s"):
        assert isinstance(data[key], float | int)
    assert len(data["win_rate_ci"]) == 2 and len(data["mp_diff_ci"]) == 2
    assert set(data["latency_ms"]["basic"]) == {"p50", "p95"}


def test_arena_runs_as_a_process_with_parallel_jobs(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = subprocess.run(
        [BURRACO, "arena", "random", "basic", "--matches", "4", "--jobs", "2", "--json",
         str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["matches"] == 4


def test_ladder_fits_elo_with_intervals(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "l.json", tmp_path / "ladder.png"
    code = main(["arena", "--ladder", "random", "basic", "advanced", "--matches", "4",
                 "--json", str(out), "--no-progress", "--plot", str(png)])
    assert code == 0
    text = capsys.readouterr().out
    assert "Elo (random = 0" in text
    assert "| bot | Elo | 95 % interval | matches |" in text and "| random | +0 |" in text
    assert f"plot written to {png}" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    data = json.loads(out.read_text())
    assert set(data["elo"]) == {"random", "basic", "advanced"}
    assert data["elo"]["random"]["elo"] == 0
    assert len(data["pairs"]) == 3
    lo, hi = data["elo"]["basic"]["ci"]
    assert lo <= data["elo"]["basic"]["elo"] <= hi


@pytest.mark.parametrize("argv", [
    ["arena", "basic"],
    ["arena", "basic", "random", "advanced"],
    ["arena", "--ladder", "basic", "basic"],
    ["arena", "grandmaster", "basic"],
    ["arena", "basic", "random", "--players", "7"],
    ["arena", "basic", "random", "--matches", "0"],
    ["arena", "basic", "random", "--rules", "nope"],
])
def test_arena_usage_errors_exit_2(argv: list[str]) -> None:
    assert main(argv) == 2


def test_bench_bots_reports_latency_per_level(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "bots", "--levels", "basic,advanced", "--players", "2", "--hands",
                 "2", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    for level in ("basic", "advanced"):
        figures = data[level]["2p"]
        assert figures["decisions"] > 0
        assert figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"]


def test_a_ladder_of_outside_engines_adds_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """Which bots a ladder plays (the play itself is stubbed: the levels' ladder is slow)."""
    from burraco.arena import cli

    seen: list[list[str]] = []
    monkeypatch.setattr(cli, "_run_ladder", lambda args, bots: seen.append(bots) or 0)
    assert main(["arena", "--ladder"]) == 0
    assert main(["arena", "--ladder", "cmd:./engine --fast"]) == 0
    assert main(["arena", "--ladder", "basic", "cmd:./engine"]) == 0
    assert seen == [["random", "basic", "advanced", "expert"],
                    ["random", "basic", "advanced", "expert", "cmd:./engine --fast"],
                    ["basic", "cmd:./engine"]]

@pytest.mark.parametrize("argv", [
    ["arena", "basic", "random", "--ray"],
    ["tournament", "simulate", "--pairs", "4", "--ray", "--no-progress"],
])
def test_ray_without_the_cluster_extra_says_how_to_install_it(argv: list[str]) -> None:
    """A Python where Ray cannot be imported (as without the extra): exit 2, the command."""
    code = ("import sys; sys.modules['ray'] = None; from burraco.cli import main; "
            f"sys.exit(main({argv!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert "pip install 'burraco[cluster]'" in done.stderr and done.stdout == ""
