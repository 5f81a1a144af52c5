"""``--ray``: arena matches and tournament tables on a local Ray cluster give the figures
``--jobs`` gives for the same seed.  Skipped when Ray (the ``cluster`` extra) is absent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from burraco.cli import main

ray = pytest.importorskip("ray", reason="Ray is the cluster extra: pip install -e '.[cluster]'")

from burraco.arena import ray_runner  # noqa: E402

pytestmark = pytest.mark.xdist_group("ray")  # one local cluster at a time


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One local cluster of two workers for the module; the commands join it."""
    assert ray_runner.connect(ray_runner.LOCAL, num_cpus=2)
    yield
    ray_runner.disconnect()


def _figures(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    for key in ("hands_per_s", "latency_ms", "seconds"):
        data.pop(key, None)
    return data


def test_arena_on_ray_gives_the_jobs_figures(
        cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["arena", "basic", "random", "--matches", "6", "--players", "4", "--seed", "7"]
    assert main([*common, "--jobs", "2", "--no-progress", "--json", str(tmp_path / "j")]) == 0
    capsys.readouterr()
    assert main([*common, "--ray", "--progress", "--json", str(tmp_path / "r")]) == 0
    err = capsys.readouterr().err
    assert "Ray cluster local" in err and "6/6" in err  # the progress bar reached the end
    assert _figures(tmp_path / "r") == _figures(tmp_path / "j")


def test_tournament_simulation_on_ray_gives_the_jobs_standings(
        cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["tournament", "simulate", "--pairs", "4", "--schedule", "mitchell:1,danish:1",
              "--hands", "1", "--vp-table", "t:30,90,150,210,300,400,500,650,800,1000",
              "--bots", "random,basic", "--seed", "3"]
    assert main([*common, "--jobs", "2", "--no-progress", "--json", str(tmp_path / "j")]) == 0
    capsys.readouterr()
    assert main([*common, "--ray", "--progress", "--json", str(tmp_path / "r")]) == 0
    err = capsys.readouterr().err
    assert "Ray cluster local" in err and "tables" in err
    assert _figures(tmp_path / "r") == _figures(tmp_path / "j")
