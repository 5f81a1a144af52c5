#!/usr/bin/env python3
"""Train the learned position value (burraco.arena.value_training) for one player count.

    .venv/bin/pip install -e '.[research]'
    PYTHONPATH=build/compiled .venv/bin/python scripts/train_value.py \\
        --players 4 --hands 6000 --jobs 2 --seed 1 \\
        --out src/burraco/bots/data/value-4p.json

Plays ``--hands`` hands from seeds ``--seed`` on with the expert's rollout player at every
seat, describes one turn's end in ``--every`` for every side, fits the network to the margin
each side finally scored, and prints how much of that margin's variance the network and the
hand-set judgement explain on hands held out of the training.  ``--data FILE`` keeps the
positions (NumPy .npz) so that another fit need not play the hands again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="fibur")
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--every", type=int, default=4,
                        help="describe one turn's end in this many")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=24)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--data", help="positions file (.npz): read if it exists, else written")
    parser.add_argument("--out", required=True, help="the model file to write (JSON)")
    args = parser.parse_args(argv)
    try:
        import numpy as np
    except ImportError:
        print("train_value: needs NumPy: pip install -e '.[research]'", file=sys.stderr)
        return 2
    from burraco.arena.value_training import Positions, generate, train

    started = time.perf_counter()
    if args.data and Path(args.data).exists():
        saved = np.load(args.data)
        data = Positions(saved["rows"].tolist(), saved["margins"].tolist(),
                         saved["hands"].tolist())
        print(f"{len(data.margins)} positions read from {args.data}", flush=True)
    else:
        def report(done: int) -> None:
            print(f"  {done}/{args.hands} hands, {time.perf_counter() - started:.0f} s",
                  flush=True)

        data = generate(players=args.players, hands=args.hands, seed=args.seed, jobs=args.jobs,
                        rules=args.rules, every=args.every, report=report)
        if args.data:
            np.savez_compressed(args.data, rows=np.asarray(data.rows),
                                margins=np.asarray(data.margins), hands=np.asarray(data.hands))
    played = time.perf_counter() - started
    info = {"players": args.players, "rules": args.rules, "hands": args.hands,
            "seed": args.seed, "every": args.every, "hidden": args.hidden,
            "epochs": args.epochs}
    fit = train(data, players=args.players, hidden=args.hidden, epochs=args.epochs,
                seed=args.seed, info=info)
    fit.model.info.update({"r2_model": round(fit.r2_model, 4),
                           "r2_judged": round(fit.r2_judged, 4)})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(fit.model.to_json(), indent=1) + "\n")
    fitted = time.perf_counter() - started - played
    print(f"{fit.rows_train} positions to train, {fit.rows_test} held out (whole hands); "
          f"hands played in {played:.0f} s, fitted in {fitted:.0f} s")
    print(f"variance of the final margin explained on held-out hands: network "
          f"{fit.r2_model:.3f}, hand-set judgement {fit.r2_judged:.3f}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
