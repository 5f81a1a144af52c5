#!/usr/bin/env python3
"""Tune the club player's numbers with CMA-ES on duplicate deals (burraco.arena.tune).

    .venv/bin/pip install -e '.[tune]'
    PYTHONPATH=build/compiled .venv/bin/python scripts/tune_weights.py \\
        --players 2 --matches 150 --generations 15 --popsize 10 --jobs 2 --seed 1 \\
        --out tune-2p.json --validate 400

Each generation, every candidate plays the same fresh duplicate matches against
``--against`` (default: the club player with today's numbers); CMA-ES moves
towards the candidates that gained more match points per hand.  The last
generation's mean is printed as a bot spec and, with ``--validate N``, played
against ``--against`` on N duplicate matches that no generation saw.  The log
(every generation's scores, best and mean) goes to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys

from burraco.arena.tune import Generation, spec_of, tune, validate, write_log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="advanced",
                        help="the bot whose numbers are tuned (advanced or expert options)")
    parser.add_argument("--against", default="advanced")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="fibur")
    parser.add_argument("--matches", type=int, default=150,
                        help="duplicate matches per candidate per generation")
    parser.add_argument("--generations", type=int, default=15)
    parser.add_argument("--popsize", type=int, default=10)
    parser.add_argument("--sigma0", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--validate", type=int, default=0, metavar="N",
                        help="then play the result against --against on N unseen matches")
    parser.add_argument("--out", default="tune.json")
    args = parser.parse_args(argv)
    try:
        import cma  # noqa: F401
    except ImportError:
        print("tune_weights: needs the cma package: pip install -e '.[tune]'", file=sys.stderr)
        return 2

    def report(g: Generation) -> None:
        print(f"generation {g.number}: best {max(g.scores):+.1f} MP/hand, "
              f"mean of the population {sum(g.scores) / len(g.scores):+.1f}, "
              f"sigma {g.sigma:.3f}, {g.seconds:.0f} s", flush=True)

    log = tune(level=args.level, against=args.against, players=args.players,
               matches=args.matches, generations=args.generations, popsize=args.popsize,
               sigma0=args.sigma0, seed=args.seed, jobs=args.jobs, rules=args.rules,
               report=report)
    result = log[-1].mean
    extra: dict[str, object] = {"players": args.players, "rules": args.rules,
                                "against": args.against, "level": args.level,
                                "matches": args.matches, "result": result}
    print("result:", spec_of(args.level, result))
    if args.validate:
        summary = validate(result, level=args.level, against=args.against,
                           players=args.players, matches=args.validate,
                           seed=args.seed * 7919 + 999, jobs=args.jobs, rules=args.rules)
        extra["validation"] = summary
        print(json.dumps(summary, indent=1))
    write_log(args.out, log, extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
