#!/usr/bin/env python3
"""Fit the bot levels' fixed ratings from arena matches, on the players' rating scale.

    .venv/bin/python scripts/fit_bot_ratings.py --published
    .venv/bin/python scripts/fit_bot_ratings.py [--matches 30] [--expert-matches 12] [--seed 1]

For each form of play (2 players; 4 in pairs) it takes duplicate matches of one
deal between neighbouring levels (random–basic, basic–advanced, then
advanced–expert-2026 and expert-2026–expert, where the expert plays with its tuned
numbers at 2 players and with the learned position value at 4): with
``--published``, the 400-match arena runs whose results docs/bots.md gives
("Measured strength": they took over two hours of CPU, too much to repeat on a
shared machine); otherwise it plays new ones.  It fits
Bradley–Terry strengths by maximum likelihood (the arena's ``fit_elo``, with
bootstrap intervals) and puts each level on the OpenSkill Plackett–Luce scale
the server rates with: the mean at which the model itself predicts the level's
fitted chance of beating ``basic`` (a pair of each at 4 players).  ``basic`` (the
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

from burraco.accounts.ratings import BETA, MU, model
from burraco.arena.duplicate import MatchSpec, run_matches
from burraco.arena.stats import elo_intervals, fit_elo

LEVELS = {
    2: ("random", "basic", "advanced", "expert-2026", "expert"),
    4: ("random", "basic", "advanced", "expert-2026", "expert"),
}
OUT = Path(__file__).resolve().parent.parent / "src/burraco/server/players/bot_ratings.json"


PUBLISHED = {
    # docs/bots.md, "Measured strength": `burraco arena A B --players P --matches 400 --seed 1`,
    # A's match win rate (ties count half)
    # (the expert-2026 rows were measured as `expert`, before its numbers were tuned and
    # before the learned value; expert against it: `burraco arena expert expert-2026 --players
    # 2 --matches 400 --jobs 2 --seed 51`, and at 4 players six runs of
    # `"expert:iterations=128"`, today's default there, 400 matches in all, `--seed 121` to
    # `--seed 171`: 249.5 points)
    2: {("basic", "random"): 0.995, ("advanced", "basic"): 0.734,
        ("expert-2026", "advanced"): 0.748, ("expert", "expert-2026"): 0.631},
    4: {("basic", "random"): 1.0, ("advanced", "basic"): 0.755, ("expert-2026", "advanced"): 0.722,
        ("expert", "expert-2026"): 0.62375},
}
PUBLISHED_MATCHES = 400


def played(players: int, matches: int, expert_matches: int, seed: int,
           jobs: int) -> list[tuple[int, int, float]]:
    results: list[tuple[int, int, float]] = []
    levels = LEVELS[players]
    for i in range(len(levels) - 1):
        a, b = levels[i + 1], levels[i]
        count = expert_matches if a.startswith("expert") else matches
        specs = [MatchSpec(a, b, players, "fibur", 1, seed, k) for k in range(count)]
        for result in run_matches(specs, jobs=jobs):
            results.append((i + 1, i, result.score))
    return results


def published(players: int) -> list[tuple[int, int, float]]:
    """The published runs as match results: ``round(2 n p)`` half points won by A."""
    results: list[tuple[int, int, float]] = []
    for (a, b), rate in PUBLISHED[players].items():
        i, j = LEVELS[players].index(a), LEVELS[players].index(b)
        halves = round(2 * PUBLISHED_MATCHES * rate)
        wins, draw = divmod(halves, 2)
        results += [(i, j, 1.0)] * wins + [(i, j, 0.5)] * draw
        results += [(i, j, 0.0)] * (PUBLISHED_MATCHES - wins - draw)
    return results


def _mu_for(p: float, team: int, sigma: float, basic_sigma: float) -> float:
    """The mean at which a team of ``team`` such bots beats a team of basic bots with
    probability ``p``, by the rating model's own prediction (bisection)."""
    m = model()
    basic = [m.rating(mu=MU, sigma=basic_sigma) for _ in range(team)]
    low, high = MU - 20_000.0, MU + 20_000.0
    for _ in range(100):
        mid = (low + high) / 2
        bots = [m.rating(mu=mid, sigma=sigma) for _ in range(team)]
        if m.predict_win([bots, basic])[0] < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def fit_form(players: int, results: list[tuple[int, int, float]],
             seed: int) -> dict[str, dict[str, float]]:
    levels = LEVELS[players]
    anchor = levels.index("basic")
    elo = fit_elo(len(levels), results, anchor=anchor)
    intervals = elo_intervals(len(levels), results, anchor=anchor, resamples=100, seed=seed)
    team = players // 2
    out: dict[str, dict[str, float]] = {}
    for level, rating, (low, high) in zip(levels, elo, intervals, strict=True):
        spread = (high - low) / (2 * 1.96)  # Elo points, one standard deviation
        # near even odds one Elo point is worth c·ln10/400 of the teams' summed means
        slope = math.sqrt(2 * BETA**2) * math.log(10) / 400 / team
        sigma = max(25.0, spread * slope)
        p = 1 / (1 + 10 ** (-rating / 400))
        mu = MU if level == "basic" else _mu_for(p, team, sigma, 25.0)
        out[level] = {"mu": round(mu, 1), "sigma": round(sigma, 1), "elo": round(rating, 1),
                      "win_vs_basic": round(p, 4)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--expert-matches", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--published", action="store_true",
                        help="fit the 400-match runs of docs/bots.md instead of playing")
    args = parser.parse_args()
    started = time.perf_counter()
    ratings = {}
    for p in (2, 4):
        results = published(p) if args.published else played(
            p, args.matches, args.expert_matches, args.seed, args.jobs)
        ratings[str(p)] = fit_form(p, results, args.seed)
    command = ("scripts/fit_bot_ratings.py --published" if args.published else
               f"scripts/fit_bot_ratings.py --matches {args.matches} "
               f"--expert-matches {args.expert_matches} --seed {args.seed}")
    data = {"method": "duplicate arena matches of one deal between neighbouring levels, "
                      "Bradley-Terry maximum likelihood, on the Plackett-Luce scale; "
                      "basic at 1500",
            "command": command,
            "seconds": round(time.perf_counter() - started),
            "ratings": ratings}
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
