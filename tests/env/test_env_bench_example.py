"""Smoke runs: ``burraco bench env`` and the training example."""

from __future__ import annotations

import json
import os
import runpy
from pathlib import Path

import pytest

from burraco.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_policy.py"


def test_bench_env_reports_env_and_engine_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "env", "--players", "2", "--hands", "2", "--aec-steps", "300",
                 "--rounds", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["2p"]
    for key in ("env_steps_per_s", "env_steps_per_cpu_s", "wrapped_env_steps_per_s",
                "observation_us", "mask_us", "engine_decisions_per_cpu_s",
                "observe_us", "step_us", "engine_decisions_per_s", "env_vs_engine"):
        assert figures[key] > 0, key
    assert main(["bench", "env", "--players", "4", "--hands", "1", "--aec-steps", "300",
                 "--rounds", "1"]) == 0
    text = capsys.readouterr().out
    assert "steps/s" in text and "engine" in text and "decisions/s" in text and "µs" in text
    assert "burraco_v0 4p:" in text and "AEC loop" in text


def test_bench_env_times_the_aec_loop_for_every_player_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "env", "--hands", "1", "--aec-steps", "300", "--rounds", "1", "--json"]
    for n in (3, 5, 6):
        args += ["--players", str(n)]
    assert main(args) == 0
    aec = json.loads(capsys.readouterr().out)["aec"]
    assert set(aec["burraco_v0_steps_per_cpu_s"]) == {"3p", "5p", "6p"}
    assert aec["vector"]["5p"]["games"] == 64 and aec["vector"]["5p"]["game_steps_per_cpu_s"] > 0
    assert all(rate > 0 for rate in aec["burraco_v0_steps_per_cpu_s"].values())


@pytest.mark.skipif(not os.environ.get("BURRACO_REFERENCE_PYTHON"),
                    reason="set BURRACO_REFERENCE_PYTHON to a Python with "
                           "pettingzoo[classic]==1.24.3 to compare with gin_rummy_v4")
def test_bench_env_compares_with_gin_rummy(capsys: pytest.CaptureFixture[str]) -> None:
    reference = os.environ["BURRACO_REFERENCE_PYTHON"]
    assert main(["bench", "env", "--players", "2", "--hands", "1", "--aec-steps", "500",
                 "--rounds", "1", "--reference-python", reference, "--json"]) == 0
    aec = json.loads(capsys.readouterr().out)["aec"]
    assert aec["gin_rummy_v4_pettingzoo"] == "1.24.3"
    assert aec["gin_rummy_v4_steps_per_cpu_s"] > 0 and aec["ratio_vs_gin_rummy_v4"]["2p"] > 0


def test_bench_env_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "env", "--hands", "0"]) == 2
    assert main(["bench", "env", "--rules", "nope"]) == 2
    assert "unknown rules preset" in capsys.readouterr().err
    assert main(["bench", "env", "--reference-python", "/no/such/python"]) == 2
    assert "no such program" in capsys.readouterr().err
    # a Python without PettingZoo 1.24.3 cannot time the reference: said, nothing printed
    assert main(["bench", "env", "--hands", "1", "--aec-steps", "50", "--rounds", "1",
                 "--reference-python", "/usr/bin/python3"]) == 2
    captured = capsys.readouterr()
    assert "could not run gin_rummy_v4" in captured.err and captured.out == ""


def test_the_training_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE))
    assert module["main"](["--iterations", "1", "--episodes", "2", "--eval-episodes", "1"]) == 0
    out = capsys.readouterr().out
    assert "vs random reward" in out and "weights:" in out and "±" in out
    assert module["main"](["--iterations", "1", "--episodes", "1", "--eval-episodes", "2",
                           "--seeds", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("weights:") == 2 and "2 seeds, the same 2 held-out deals" in out
    rows = out.split("(row 0: untrained)")[1].splitlines()[2:4]
    assert [row.split()[0] for row in rows] == ["0", "1"] and all("±" in r for r in rows)
