#!/usr/bin/env python3
"""Fit the bot levels' fixed ratings from arena matches, on the players' rating scale.

    .venv/bin/python scripts/fit_bot_ratings.py [--matches 30] [--expert-matches 12] [--seed 1]

For each form of play (2 players; 4 in pairs) it plays duplicate matches of one
deal between neighbouring levels (random–basic, basic–advanced,
advanced–expert), fits Bradley–Terry strengths by maximum likelihood (the
arena's ``fit_elo``, with bootstrap intervals), and puts them on the
OpenSkill Plackett–Luce scale the server rates with: a win probability
``1 / (1 + 10^(-d/400))`` in Elo is ``1 / (1 + e^(-Δμ/c))`` there, with
``c = sqrt(2 β² + 2 σ²)``, so ``Δμ = d · c · ln 10 / 400``.  ``basic`` (the
beginner) is put at the newcomer's 1500: a new account is presumed a beginner
until its results say otherwise.  The result is written to
``src/burraco/server/players/bot_ratings.json``, which the server reads.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from burraco.arena.duplicate import MatchSpec, run_matches
from burraco.arena.stats import elo_intervals, fit_elo
from burraco.server.players.ratings import BETA, MU

LEVELS = ("random", "basic", "advanced", "expert")
OUT = Path(__file__).resolve().parent.parent / "src/burraco/server/players/bot_ratings.json"


def fit_form(players: int, matches: int, expert_matches: int, seed: int,
             jobs: int) -> dict[str, dict[str, float]]:
    results: list[tuple[int, int, float]] = []
    for i in range(len(LEVELS) - 1):
        a, b = LEVELS[i + 1], LEVELS[i]
        count = expert_matches if "expert" in (a, b) else matches
        specs = [MatchSpec(a, b, players, "fibur", 1, seed, k) for k in range(count)]
        for result in run_matches(specs, jobs=jobs):
            results.append((i + 1, i, result.score))
    elo = fit_elo(len(LEVELS), results, anchor=LEVELS.index("basic"))
    intervals = elo_intervals(len(LEVELS), results, anchor=LEVELS.index("basic"),
                              resamples=100, seed=seed)
    out: dict[str, dict[str, float]] = {}
    for level, rating, (low, high) in zip(LEVELS, elo, intervals, strict=True):
        spread = (high - low) / (2 * 1.96)  # Elo points, one standard deviation
        sigma = max(25.0, spread * math.sqrt(2) * BETA * math.log(10) / 400)
        c = math.sqrt(2 * BETA**2 + 2 * sigma**2)
        out[level] = {"mu": round(MU + rating * c * math.log(10) / 400, 1),
                      "sigma": round(sigma, 1), "elo": round(rating, 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--expert-matches", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    ratings = {str(p): fit_form(p, args.matches, args.expert_matches, args.seed, args.jobs)
               for p in (2, 4)}
    data = {"method": "duplicate arena matches of one deal between neighbouring levels, "
                      "Bradley-Terry maximum likelihood, on the Plackett-Luce scale; "
                      "basic at 1500",
            "command": f"scripts/fit_bot_ratings.py --matches {args.matches} "
                       f"--expert-matches {args.expert_matches} --seed {args.seed}",
            "seconds": round(time.perf_counter() - started),
            "ratings": ratings}
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
