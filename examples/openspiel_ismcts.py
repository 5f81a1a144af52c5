"""OpenSpiel's IS-MCTS against this project's ``basic`` bot, on OpenSpiel's ``python_burraco``.

IS-MCTS (Cowling, Powley and Whitehouse, 2012; ``open_spiel.python.algorithms.ismcts``)
searches one tree over the seat's information states: each simulation draws a deal the seat
cannot tell from the real one (``BurracoState.resample_from_infostate``), walks the tree by
UCT, and values a new leaf by a rollout to the end of the hand.  The rollouts are OpenSpiel's
``RandomRolloutEvaluator`` (uniformly random legal actions), or with ``--rollouts basic`` the
``basic`` bot playing every seat.  The two sides change seats every hand; OpenSpiel's
``evaluate_bots`` plays them (chance deals).

    python examples/openspiel_ismcts.py                          # 4 hands, 2 players
    python examples/openspiel_ismcts.py --hands 1 --simulations 2 --players 4

A return is the hand's score lead over 1000 (+0.25: IS-MCTS's side scored 250 more).
Needs the openspiel extra: ``pip install 'burraco[openspiel]'``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]
from open_spiel.python.algorithms.evaluate_bots import (  # type: ignore[import-not-found]
    evaluate_bots,
)

import burraco.openspiel  # noqa: F401  (registers python_burraco)
from burraco.openspiel.bots import ProjectBot


class BotRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by one rollout in which a bot level plays every seat."""

    def __init__(self, spec: str, players: int, seed: int) -> None:
        self.bots = [ProjectBot(spec, seat=seat, seed=seed + seat) for seat in range(players)]

    def evaluate(self, state: Any) -> Any:
        working = state.clone()
        while not working.is_terminal():
            working.apply_action(self.bots[working.current_player()].step(working))
        return np.array(working.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class Timed:
    """IS-MCTS, counting its decisions and the seconds they took (it searches afresh at every
    decision, so it needs to be told nothing between them)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        start = time.perf_counter()
        action = int(self.bot.step(state))
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def play(args: argparse.Namespace) -> dict[str, Any]:
    game = pyspiel.load_game(f"python_burraco(players={args.players},rules={args.rules})")
    rng = np.random.RandomState(args.seed)
    if args.rollouts == "random":
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    else:
        evaluator = BotRollouts(args.rollouts, args.players, args.seed)
    search = Timed(ismcts.ISMCTSBot(
        game, evaluator, uct_c=args.uct_c, max_simulations=args.simulations, random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT))
    leads: list[float] = []
    for hand in range(args.hands):
        side = hand % 2  # IS-MCTS's seats: this side (both partners at 4 players)
        bots: list[Any] = [
            search if seat % 2 == side else ProjectBot(
                args.opponent, seat=seat, seed=args.seed * 1000 + hand * 10 + seat)
            for seat in range(args.players)]
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        leads.append(float(returns[side]))
        print(f"hand {hand + 1}: IS-MCTS at seat{'s' if args.players == 4 else ''} "
              f"{side}{' and ' + str(side + 2) if args.players == 4 else ''}: "
              f"{leads[-1]:+.3f}", flush=True)
    mean = statistics.fmean(leads)
    error = statistics.stdev(leads) / len(leads) ** 0.5 if len(leads) > 1 else float("nan")
    wins = sum(lead > 0 for lead in leads)
    losses = sum(lead < 0 for lead in leads)
    per_decision = search.seconds / max(1, search.decisions)
    print(f"IS-MCTS ({args.simulations} simulations, {args.rollouts} rollouts) vs "
          f"{args.opponent}, {args.players} players, {args.hands} hands: mean return "
          f"{mean:+.3f} ± {error:.3f} (points lead {1000 * mean:+.0f}); won {wins}, lost "
          f"{losses}; {search.decisions} decisions, {per_decision:.2f} s each")
    return {"leads": leads, "mean": mean, "wins": wins, "losses": losses,
            "decisions": search.decisions, "seconds_per_decision": per_decision}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--rules", default="fibur", help="rules preset (burraco rules list)")
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=32,
                        help="IS-MCTS simulations per decision")
    parser.add_argument("--rollouts", default="random",
                        help="'random' (OpenSpiel's evaluator) or a bot level playing them out")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--opponent", default="basic", help="this project's bot level")
    parser.add_argument("--seed", type=int, default=0)
    return play(parser.parse_args(argv))


if __name__ == "__main__":
    main()
