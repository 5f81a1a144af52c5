"""The MaskablePPO example runs a few hundred steps (needs the train extra)."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the MaskablePPO example needs the train extra: "
                                    "pip install -e '.[research,train]'")
pytest.importorskip("sb3_contrib", reason="the MaskablePPO example needs the train extra: "
                                          "pip install -e '.[research,train]'")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def test_maskable_ppo_trains_a_few_hundred_steps_and_plots_its_curve(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE))
    png, curve = tmp_path / "curve.png", tmp_path / "curve.json"
    code = module["main"](["--timesteps", "256", "--eval-every", "128", "--eval-episodes", "2",
                           "--n-steps", "128", "--opponent", "random", "--untrained", "2",
                           "--plot", str(png), "--json", str(curve)])
    assert code == 0
    out = capsys.readouterr().out
    assert out.count("untrained network, seed") == 2
    # before training, after 128 and 256 steps, each with its standard error over the deals
    assert out.count("timesteps  mean reward vs random") == 3 and out.count("±") == 5
    data = json.loads(curve.read_text())
    assert [point[0] for point in data["curve"]] == [0, 128, 256]
    assert all(len(point) == 4 and point[3] >= 0 for point in data["curve"])
    # the untrained network of the training seed is the curve's first point
    assert [u[0] for u in data["untrained"]] == [0, 1]
    assert data["untrained"][0][1] == data["curve"][0][1]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
