"""Smoke runs: ``burraco bench env`` and the training example."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

from burraco.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_policy.py"


def test_bench_env_reports_env_and_engine_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "env", "--players", "2", "--hands", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["2p"]
    for key in ("env_steps_per_s", "env_steps_per_cpu_s", "wrapped_env_steps_per_s",
                "observation_us", "mask_us", "engine_decisions_per_cpu_s",
                "observe_us", "step_us", "engine_decisions_per_s", "env_vs_engine"):
        assert figures[key] > 0, key
    assert main(["bench", "env", "--players", "4", "--hands", "1"]) == 0
    text = capsys.readouterr().out
    assert "steps/s" in text and "engine" in text and "decisions/s" in text and "µs" in text


def test_bench_env_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "env", "--hands", "0"]) == 2
    assert main(["bench", "env", "--rules", "nope"]) == 2
    assert "unknown rules preset" in capsys.readouterr().err


def test_the_training_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE))
    assert module["main"](["--iterations", "1", "--episodes", "2", "--eval-episodes", "1"]) == 0
    out = capsys.readouterr().out
    assert "vs random reward" in out and "weights:" in out
