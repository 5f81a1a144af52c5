"""Train a small masked policy on ``burraco_v0`` against the ``random`` and ``basic`` bots.

NumPy only, no deep-learning framework: a linear softmax policy that scores
each *legal* catalog id by a handful of features of the id (its kind, how many
cards and wilds it plays, their points) and of the seat's observation (copies
held of a discarded face, its neighbours in suit, the pile's size, the hand's
size).  Illegal ids get probability zero: the mask is applied before the
softmax.  Training is REINFORCE with a running baseline and Adam, on the
single-agent Gymnasium wrapper, one hand per episode, the reward the scaled
score difference (own side minus the opponents').  Episodes alternate between
the two opponents; every ``--eval-every`` iterations the policy plays a fixed
set of held-out deals against each and the mean reward is printed, the
learning curve, each mean with its standard error over the deals.  A zero
policy is exactly the uniform random player, so the first evaluation is the
untrained policy's score on the same deals.  ``--seeds N`` trains N seeds on
the same held-out deals and ends with the curve's mean over the seeds and its
standard error over the seeds.

    python examples/train_masked_policy.py                    # about two minutes
    python examples/train_masked_policy.py --seeds 5          # five of them, error bars
    python examples/train_masked_policy.py --iterations 2 --episodes 2 --eval-episodes 2

Needs the research extra: ``pip install 'burraco[research]'``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

from burraco.env import catalog
from burraco.env.observation import SLICES
from burraco.env.single_agent import SingleAgentEnv

T = catalog.tables()
KINDS = len(catalog.KIND_NAMES)  # draw, pickup, discard, attach, attach-hand, meld
DISCARD_KIND, MELD_KIND, ATTACH_KIND = 2, 5, 3
FEATURES = (
    *(f"is_{name}" for name in catalog.KIND_NAMES),
    "cards_played", "wilds_played", "points_played", "discard_wild", "discard_points",
    "discard_copies_held", "discard_same_rank_held", "discard_suit_neighbours_held",
    "pickup_pile_size", "draw_pile_size", "meld_hand_size", "attach_hand_size",
)
HAND, PILE_COUNT, HAND_COUNTS = SLICES["hand"], SLICES["pile_count"], SLICES["hand_counts"]

FloatArray = npt.NDArray[np.float64]


def features(obs: npt.NDArray[np.float32], ids: npt.NDArray[np.intp]) -> FloatArray:
    """One row of features per legal id."""
    kind = T.kinds[ids]
    cards = T.cards[ids].astype(np.float64)
    wilds = T.wilds[ids].astype(np.float64)
    points = T.points[ids].astype(np.float64)
    face = T.face[ids]
    hand = obs[HAND]
    pile = float(obs[PILE_COUNT][0])
    held = float(obs[HAND_COUNTS][0])
    phi = np.zeros((len(ids), len(FEATURES)))
    phi[np.arange(len(ids)), kind] = 1.0
    plays = (kind == MELD_KIND) | (kind == ATTACH_KIND)
    phi[:, KINDS] = np.where(plays, cards / 4, 0)
    phi[:, KINDS + 1] = np.where(plays, wilds, 0)
    phi[:, KINDS + 2] = np.where(plays, points / 50, 0)
    discard = kind == DISCARD_KIND
    for row in np.flatnonzero(discard):
        f = int(face[row])
        phi[row, KINDS + 3] = wilds[row]
        phi[row, KINDS + 4] = points[row] / 10
        if f < 52:
            rank, suit = f % 13, f // 13
            phi[row, KINDS + 5] = hand[f] - 1
            phi[row, KINDS + 6] = sum(hand[s * 13 + rank] for s in range(4)) - hand[f]
            near = [suit * 13 + r for r in range(max(0, rank - 2), min(13, rank + 3)) if r != rank]
            phi[row, KINDS + 7] = float(hand[near].sum()) / 2
    phi[:, KINDS + 8] = np.where(kind == 1, pile / 10, 0)
    phi[:, KINDS + 9] = np.where(kind == 0, pile / 10, 0)
    phi[:, KINDS + 10] = np.where(kind == MELD_KIND, held / 10, 0)
    phi[:, KINDS + 11] = np.where(kind == ATTACH_KIND, held / 10, 0)
    return phi


def policy(theta: FloatArray, phi: FloatArray) -> FloatArray:
    logits = phi @ theta
    logits -= logits.max()
    p: FloatArray = np.exp(logits)
    out: FloatArray = p / p.sum()
    return out


def play(env: SingleAgentEnv, theta: FloatArray, seed: int, rng: np.random.Generator,
         trace: list[tuple[FloatArray, int]] | None = None) -> float:
    """One episode with the policy; the episode's reward.  ``trace`` collects (phi, choice)."""
    obs, _ = env.reset(seed=seed)
    total = 0.0
    done = False
    while not done:
        ids = np.flatnonzero(obs["action_mask"].view(bool))
        phi = features(obs["observation"], ids)
        choice = int(rng.choice(len(ids), p=policy(theta, phi)))
        if trace is not None:
            trace.append((phi, choice))
        obs, reward, terminated, truncated, _ = env.step(int(ids[choice]))
        total += float(reward)
        done = terminated or truncated
    return total


class Adam:
    def __init__(self, size: int, lr: float) -> None:
        self.lr, self.m, self.v, self.t = lr, np.zeros(size), np.zeros(size), 0

    def step(self, grad: FloatArray) -> FloatArray:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9 ** self.t)
        v = self.v / (1 - 0.999 ** self.t)
        return self.lr * m / (np.sqrt(v) + 1e-8)


Scores = dict[str, tuple[float, float, float]]
"""Per opponent: mean reward, its standard error over the deals, win rate."""


def evaluate(envs: dict[str, SingleAgentEnv], theta: FloatArray, episodes: int,
             seed: int, deals: int) -> Scores:
    """Mean reward (with its standard error over the deals) and win rate against each
    opponent on the held-out deals ``deals``, ``deals + 1``, ... (the same for every
    training seed; ``seed`` drives the policy's sampling)."""
    out = {}
    rng = np.random.default_rng(seed)
    for name, env in envs.items():
        rewards = np.array([play(env, theta, 1_000_000 + deals + k, rng)
                            for k in range(episodes)])
        error = float(rewards.std(ddof=1) / np.sqrt(episodes)) if episodes > 1 else 0.0
        out[name] = (float(rewards.mean()), error, float(np.mean(rewards > 0)))
    return out


OPPONENTS = ("random", "basic")


def train(args: argparse.Namespace, seed: int) -> list[tuple[int, Scores]]:
    """One training run from the zero (uniform random) policy; its learning curve."""
    envs = {name: SingleAgentEnv(args.players, seat=None, opponents=name) for name in OPPONENTS}
    theta = np.zeros(len(FEATURES))
    adam = Adam(len(FEATURES), args.lr)
    rng = np.random.default_rng(seed)
    baseline = {name: 0.0 for name in OPPONENTS}
    start = time.perf_counter()
    curve: list[tuple[int, Scores]] = []
    print(f"seed {seed}\n{'iter':>4}  {'episodes':>8}  " + "  ".join(
        f"{'vs ' + name + ' reward':>20}  {'win':>5}" for name in OPPONENTS) + "  seconds")

    def report(iteration: int) -> None:
        scores = evaluate(envs, theta, args.eval_episodes, seed, args.eval_deals)
        curve.append((iteration, scores))
        cells = "  ".join(f"{scores[n][0]:>+12.3f} ± {scores[n][1]:.3f}  {scores[n][2]:>5.2f}"
                          for n in OPPONENTS)
        print(f"{iteration:>4}  {iteration * args.episodes:>8}  {cells}  "
              f"{time.perf_counter() - start:7.1f}", flush=True)

    report(0)
    for iteration in range(1, args.iterations + 1):
        grad = np.zeros_like(theta)
        steps = 0
        for k in range(args.episodes):
            name = OPPONENTS[k % len(OPPONENTS)]
            trace: list[tuple[FloatArray, int]] = []
            ret = play(envs[name], theta, seed * 100_000 + iteration * 1000 + k, rng, trace)
            advantage = ret - baseline[name]
            baseline[name] += 0.05 * (ret - baseline[name])
            for phi, choice in trace:
                p = policy(theta, phi)
                grad += advantage * (phi[choice] - p @ phi)
            steps += len(trace)
        theta += adam.step(grad / max(1, steps))
        if iteration % args.eval_every == 0 or iteration == args.iterations:
            report(iteration)
    print("weights: " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, theta, strict=True)))
    return curve


def summary(curves: list[list[tuple[int, Scores]]], episodes: int) -> None:
    """Across training seeds: each evaluation's mean reward over the seeds, ± the standard
    error over the seeds (iteration 0 is the untrained policy on the same deals)."""
    print(f"\n{len(curves)} seeds, the same {episodes} held-out deals per opponent: mean "
          "reward over the seeds ± its standard error over the seeds (row 0: untrained)")
    print(f"{'iter':>4}  " + "  ".join(f"{'vs ' + name:>18}" for name in OPPONENTS))
    for row, (iteration, _) in enumerate(curves[0]):
        cells = []
        for name in OPPONENTS:
            values = np.array([curve[row][1][name][0] for curve in curves])
            error = values.std(ddof=1) / np.sqrt(len(values))
            cells.append(f"{values.mean():>+10.3f} ± {error:.3f}")
        print(f"{iteration:>4}  " + "  ".join(cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--episodes", type=int, default=24, help="episodes per iteration")
    parser.add_argument("--eval-every", type=int, default=5)
    parser.add_argument("--eval-episodes", type=int, default=60)
    parser.add_argument("--eval-deals", type=int, default=0, metavar="FIRST",
                        help="the held-out deals' first seed offset (the same for every seed)")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=1,
                        help="train this many seeds (SEED, SEED+1, ...) and sum them up with "
                             "error bars over the seeds")
    args = parser.parse_args(argv)
    if min(args.iterations, args.episodes, args.eval_every, args.eval_episodes,
           args.seeds) < 1:
        parser.error("--iterations, --episodes, --eval-every, --eval-episodes and --seeds "
                     "must be at least 1")
    curves = [train(args, seed) for seed in range(args.seed, args.seed + args.seeds)]
    if len(curves) > 1:
        summary(curves, args.eval_episodes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
