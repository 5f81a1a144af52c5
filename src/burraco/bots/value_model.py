"""The learned position value: a small network that says how a hand will end from here.

``scripts/train_value.py`` plays hands with the rollout player at every seat,
describes positions along the way (:mod:`burraco.bots.position_features`) and
fits a one-hidden-layer network to the margin each side finally scored: the
same number a rollout played to the end of the hand would return.  The
weights ship in ``burraco/bots/data/value-<players>p.json``; inference is
plain Python (a few hundred multiplications), so the bots need no NumPy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from burraco.bots.position_features import FEATURES


class ValueModelError(ValueError):
    """A model file that is missing, malformed, or made for other inputs."""


@dataclass(frozen=True, slots=True)
class ValueModel:
    """``margin = out · relu(hidden · ((x − mean) / scale) + bias) + out_bias``, in MP."""

    players: int
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    hidden: tuple[tuple[float, ...], ...]
    bias: tuple[float, ...]
    out: tuple[float, ...]
    out_bias: float
    info: dict[str, Any]

    def predict(self, x: list[float]) -> float:
        """The expected margin, in match points, of the side these numbers describe."""
        z = [(v - m) / s for v, m, s in zip(x, self.mean, self.scale, strict=True)]
        total = self.out_bias
        for row, b, w in zip(self.hidden, self.bias, self.out, strict=True):
            h = b
            for a, v in zip(row, z, strict=True):
                h += a * v
            if h > 0.0:
                total += w * h
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "features": list(self.features), "mean": list(self.mean),
            "scale": list(self.scale), "hidden": [list(r) for r in self.hidden],
            "bias": list(self.bias), "out": list(self.out), "out_bias": self.out_bias,
            "info": self.info,
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str = "model") -> ValueModel:
        """Check the shapes and the input names: a model made for other inputs is refused."""
        try:
            features = tuple(str(f) for f in data["features"])
            if features != FEATURES:
                raise ValueModelError(
                    f"{source}: made for other inputs than this version's position features")
            width = len(features)
            hidden = tuple(tuple(float(a) for a in row) for row in data["hidden"])
            model = cls(
                players=int(data["players"]), features=features,
                mean=tuple(float(v) for v in data["mean"]),
                scale=tuple(float(v) for v in data["scale"]),
                hidden=hidden, bias=tuple(float(v) for v in data["bias"]),
                out=tuple(float(v) for v in data["out"]), out_bias=float(data["out_bias"]),
                info=dict(data.get("info", {})),
            )
        except ValueModelError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueModelError(f"{source}: not a value model ({exc!r})") from exc
        if (len(model.mean) != width or len(model.scale) != width
                or any(len(row) != width for row in hidden)
                or not len(hidden) == len(model.bias) == len(model.out)):
            raise ValueModelError(f"{source}: the weights' shapes do not match")
        if any(s <= 0.0 for s in model.scale):
            raise ValueModelError(f"{source}: a feature's scale is not positive")
        return model


def model_path(players: int) -> str:
    return f"value-{players}p.json"


@cache
def shipped_model(players: int) -> ValueModel | None:
    """The model shipped for this player count, or ``None`` when there is none."""
    name = model_path(players)
    resource = resources.files("burraco.bots") / "data" / name
    if not resource.is_file():
        return None
    return ValueModel.from_json(json.loads(resource.read_text()), source=name)


def load_model(path: str | Path) -> ValueModel:
    """A model from a file (``scripts/train_value.py --out``)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueModelError(f"{path}: cannot read a value model ({exc})") from exc
    return ValueModel.from_json(data, source=str(path))
