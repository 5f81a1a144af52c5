"""Tune the club player's numbers with CMA-ES on duplicate deals.

The advanced policy (and so the expert's guide and rollouts) rests on a dozen
hand-set numbers: the evaluation's :class:`~burraco.bots.evaluate.Weights` and
the policy's :class:`~burraco.bots.advanced.Params`.  This searches them the
way the field tunes heuristics of card games: CMA-ES (the ``cma`` package)
proposes a population of number sets; each plays the same duplicate matches
against a fixed opponent (common random numbers: every candidate meets the
same deals, so their differences are measured, not their luck); the search
moves towards the sets that scored more match points per hand.  Each
generation deals fresh matches, so the search cannot learn a deal set by
heart.  The result is validated on matches no generation saw.

Run with ``scripts/tune_weights.py`` (``pip install -e '.[tune]'``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from burraco.arena.duplicate import MatchSpec, run_matches, summarize
from burraco.bots.advanced import Params


@dataclass(frozen=True, slots=True)
class Knob:
    """One tuned number: its name in :class:`Params`, its default, its step and bounds."""

    name: str
    default: float
    scale: float
    """The change that one unit of the search's normalised space makes."""
    low: float
    high: float

    def value(self, x: float) -> float:
        return min(self.high, max(self.low, self.default + x * self.scale))


def _knob(name: str, scale: float, low: float, high: float) -> Knob:
    default = float(getattr(Params(), name))
    return Knob(name, default, scale, low, high)


KNOBS: tuple[Knob, ...] = (
    _knob("clean_hope", 60.0, 0.0, 400.0),
    _knob("dirty_hope", 40.0, 0.0, 300.0),
    _knob("wild_value", 15.0, 0.0, 120.0),
    _knob("meldable_extra", 6.0, -10.0, 40.0),
    _knob("stuck_floor", 0.2, 0.0, 1.0),
    _knob("race_open", 4.0, 0.0, 40.0),
    _knob("race_open_urgency", 5.0, 0.0, 40.0),
    _knob("race_pozzetto", 3.0, 0.0, 40.0),
    _knob("race_pozzetto_urgency", 5.0, 0.0, 40.0),
    _knob("lone_use", 0.08, 0.0, 0.5),
    _knob("pair_use", 0.12, 0.2, 0.84),
    _knob("near_use", 0.12, 0.2, 0.84),
    _knob("pickup_margin", 6.0, -40.0, 40.0),
    _knob("ready_bonus", 4.0, -10.0, 40.0),
    _knob("danger_scale", 0.4, 0.0, 3.0),
    _knob("late_urgency", 0.15, 0.1, 0.95),
)
"""Every float of :class:`Params` (the two integer thresholds stay as they are)."""


def params_of(x: Sequence[float], knobs: Sequence[Knob] = KNOBS) -> dict[str, float]:
    """The numbers a point of the normalised space stands for, rounded for reading."""
    return {k.name: round(k.value(v), 4) for k, v in zip(knobs, x, strict=True)}


def spec_of(level: str, params: dict[str, float]) -> str:
    """A bot spec with these numbers: ``advanced:clean_hope=180.0,...``."""
    options = ",".join(f"{name}={value}" for name, value in params.items())
    return f"{level}:{options}" if options else level


def score_population(
    specs: Sequence[str], against: str, *, players: int, matches: int, seed: int,
    jobs: int, rules: str = "fibur",
) -> list[float]:
    """Match points per hand of each spec minus ``against``'s, on the same duplicate deals."""
    scores: list[float] = []
    for spec in specs:
        work = [MatchSpec(a=spec, b=against, players=players, rules=rules, hands=1, seed=seed,
                          index=j) for j in range(matches)]
        results = run_matches(work, jobs=jobs)
        scores.append(sum((r.a_mp - r.b_mp) / r.hands for r in results) / len(results))
    return scores


@dataclass(slots=True)
class Generation:
    """What one generation measured, for the log."""

    number: int
    seed: int
    scores: list[float]
    best: dict[str, float]
    mean: dict[str, float]
    sigma: float
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"generation": self.number, "seed": self.seed,
                "scores": [round(s, 2) for s in self.scores],
                "best_score": round(max(self.scores), 2), "best": self.best,
                "mean": self.mean, "sigma": round(self.sigma, 4),
                "seconds": round(self.seconds, 1)}


def tune(
    *, level: str = "advanced", against: str = "advanced", players: int = 2,
    matches: int = 150, generations: int = 15, popsize: int = 10, sigma0: float = 0.6,
    seed: int = 1, jobs: int = 2, rules: str = "fibur",
    report: Callable[[Generation], None] | None = None,
) -> list[Generation]:
    """CMA-ES over :data:`KNOBS` from the defaults; the last generation's mean is the answer."""
    # the optional extra: pip install -e '.[tune]'
    import cma  # type: ignore[import-untyped,import-not-found,unused-ignore]

    es = cma.CMAEvolutionStrategy(
        [0.0] * len(KNOBS), sigma0,
        {"popsize": popsize, "seed": seed, "verbose": -9, "bounds": [-3.0, 3.0]})
    log: list[Generation] = []
    for number in range(1, generations + 1):
        start = time.perf_counter()
        points = es.ask()
        specs = [spec_of(level, params_of(x)) for x in points]
        generation_seed = seed * 100_003 + number
        scores = score_population(specs, against, players=players, matches=matches,
                                  seed=generation_seed, jobs=jobs, rules=rules)
        es.tell(points, [-s for s in scores])  # cma minimises
        best = max(range(len(points)), key=lambda k: scores[k])
        entry = Generation(number, generation_seed, scores, params_of(points[best]),
                           params_of(list(es.mean)), float(es.sigma),
                           time.perf_counter() - start)
        log.append(entry)
        if report is not None:
            report(entry)
    return log


def validate(
    params: dict[str, float], *, level: str = "advanced", against: str = "advanced",
    players: int = 2, matches: int = 400, seed: int = 999, jobs: int = 2,
    rules: str = "fibur",
) -> dict[str, Any]:
    """The arena's figures for the tuned numbers against ``against`` on unseen deals."""
    spec = spec_of(level, params)
    work = [MatchSpec(a=spec, b=against, players=players, rules=rules, hands=1, seed=seed,
                      index=j) for j in range(matches)]
    start = time.perf_counter()
    results = run_matches(work, jobs=jobs)
    return summarize(spec, against, players, results, time.perf_counter() - start)


def write_log(path: str, log: Sequence[Generation], extra: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump({**extra, "knobs": [k.name for k in KNOBS],
                   "generations": [g.to_dict() for g in log]}, out, indent=1)
        out.write("\n")


def default_params() -> dict[str, float]:
    """The tuned knobs' values today (the point the search starts from)."""
    names = {k.name for k in KNOBS}
    return {f.name: float(getattr(Params(), f.name)) for f in fields(Params)
            if f.name in names}
