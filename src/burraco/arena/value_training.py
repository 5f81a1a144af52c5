"""Data and training for the learned position value (:mod:`burraco.bots.value_model`).

Positions come from hands played by the expert's rollout player at every seat
(the club player with the expert's numbers for the table's count), from fresh
seeded deals.  After a turn's discard, one position in ``every`` is described
for each side (:func:`burraco.bots.position_features.position_features`); when
the hand ends each row gets the margin its side finally scored (the side's
score minus the average of the others').  That is what the search's rollout,
played to the end of the hand, returns for a position; the network learns its
expectation, so the search can stop early and ask the network instead of the
hand-set judgement.

Training needs NumPy (``pip install -e '.[research]'``); the data comes in
parallel worker processes, one seed range each, so a run replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from burraco.bots.expert import leaf_value
from burraco.bots.position_features import FEATURES, position_features
from burraco.bots.tuned import NumberedPolicy
from burraco.bots.value_model import ValueModel
from burraco.engine.actions import Discard
from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState


@dataclass(frozen=True, slots=True)
class Positions:
    """Rows of features, each side's final margin, and the hand each row came from."""

    rows: list[list[float]]
    margins: list[float]
    hands: list[int]


def play_positions(
    seed: int, players: int, rules: str = "fibur", every: int = 4, numbers: str = "tuned",
) -> Positions:
    """One self-played hand from ``deal_seeded(seed)``: its described positions and margins."""
    table = Rules.preset(rules).for_players(players)
    policy = NumberedPolicy(numbers, {}).at(players)
    params = policy.params
    state = HandState.start(deal_seeded(seed, players=players, rules=table), table)
    pick = random.Random(seed)
    pending: list[tuple[int, list[float]]] = []
    turns = 0

    def judge(position: HandState, side: int) -> float:
        return leaf_value(position, side, params)

    while not state.is_over:
        action = policy.decide(state, state.turn, legal_actions(state))
        state.apply_in_place(action)
        if isinstance(action, Discard) and not state.is_over:
            turns += 1
            if pick.randrange(every) == 0:
                for side in state.live_sides():
                    pending.append((side, position_features(state, side, judge)))
    totals = hand_result(state).seat_totals
    margins: list[float] = []
    rows: list[list[float]] = []
    for side, row in pending:
        seat = state.seats_of(side)[0]
        others = [totals[s] for s in range(players) if state.side_of[s] != side]
        margins.append(totals[seat] - sum(others) / len(others))
        rows.append(row)
    return Positions(rows, margins, [seed] * len(rows))


def _play_range(job: tuple[int, int, int, str, int, str]) -> Positions:
    first, count, players, rules, every, numbers = job
    rows: list[list[float]] = []
    margins: list[float] = []
    hands: list[int] = []
    for seed in range(first, first + count):
        got = play_positions(seed, players, rules, every, numbers)
        rows += got.rows
        margins += got.margins
        hands += got.hands
    return Positions(rows, margins, hands)


def generate(
    *, players: int, hands: int, seed: int, jobs: int = 2, rules: str = "fibur", every: int = 4,
    numbers: str = "tuned", report: Callable[[int], None] | None = None,
) -> Positions:
    """Positions from ``hands`` self-played hands, seeds ``seed`` to ``seed + hands - 1``."""
    chunk = 50
    work = [(first, min(chunk, seed + hands - first), players, rules, every, numbers)
            for first in range(seed, seed + hands, chunk)]
    rows: list[list[float]] = []
    margins: list[float] = []
    ids: list[int] = []
    done = 0
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        for got in pool.map(_play_range, work):
            rows += got.rows
            margins += got.margins
            ids += got.hands
            done += chunk
            if report is not None:
                report(min(done, hands))
    return Positions(rows, margins, ids)


@dataclass(frozen=True, slots=True)
class Fit:
    """The trained model and how well it and the hand-set judgement predict unseen hands."""

    model: ValueModel
    r2_model: float
    """Share of the final margin's variance the network explains on the held-out hands."""
    r2_judged: float
    """The same for the hand-set judgement (``leaf_value`` own − rivals, best linear scale)."""
    rows_train: int
    rows_test: int


def train(
    data: Positions, *, players: int, hidden: int = 24, epochs: int = 40, seed: int = 1,
    test_share: float = 0.1, rate: float = 0.003, info: dict[str, Any] | None = None,
) -> Fit:
    """Fit the one-hidden-layer network by Adam on squared error; hold out whole hands."""
    import numpy as np  # the research extra: only training needs it

    x = np.asarray(data.rows, dtype=np.float64)
    y = np.asarray(data.margins, dtype=np.float64)
    hand = np.asarray(data.hands)
    rng = np.random.default_rng(seed)
    unique = np.unique(hand)
    test_hands = rng.choice(unique, size=max(1, int(len(unique) * test_share)), replace=False)
    test = np.isin(hand, test_hands)
    xtr, ytr, xte, yte = x[~test], y[~test], x[test], y[test]
    mean = xtr.mean(axis=0)
    scale = xtr.std(axis=0)
    scale[scale < 1e-6] = 1.0
    ztr, zte = (xtr - mean) / scale, (xte - mean) / scale
    y_scale = float(ytr.std()) or 1.0
    t = ytr / y_scale

    width = x.shape[1]
    w1 = rng.normal(0.0, np.sqrt(2.0 / width), size=(hidden, width))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), size=hidden)
    b2 = 0.0
    params = [w1, b1, w2, np.array([b2])]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    batch = 256
    for _epoch in range(epochs):
        order = rng.permutation(len(ztr))
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            zb, tb = ztr[idx], t[idx]
            pre = zb @ params[0].T + params[1]
            act = np.maximum(pre, 0.0)
            out = act @ params[2] + params[3][0]
            err = (out - tb) / len(idx)
            g_w2 = act.T @ err
            g_b2 = np.array([err.sum()])
            back = np.outer(err, params[2]) * (pre > 0)
            g_w1 = back.T @ zb
            g_b1 = back.sum(axis=0)
            step += 1
            for k, grad in enumerate((g_w1, g_b1, g_w2, g_b2)):
                moments[k] = 0.9 * moments[k] + 0.1 * grad
                squares[k] = 0.999 * squares[k] + 0.001 * grad * grad
                m_hat = moments[k] / (1 - 0.9 ** step)
                v_hat = squares[k] / (1 - 0.999 ** step)
                params[k] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)

    def predict(z: Any) -> Any:
        return (np.maximum(z @ params[0].T + params[1], 0.0) @ params[2] + params[3][0]) * y_scale

    def r2(pred: Any, truth: Any) -> float:
        return float(1.0 - ((truth - pred) ** 2).mean() / truth.var())

    own, rival = FEATURES.index("own_judged"), FEATURES.index("rival_judged")
    judged_tr = xtr[:, own] - xtr[:, rival]
    judged_te = xte[:, own] - xte[:, rival]
    slope, intercept = np.polyfit(judged_tr, ytr, 1)
    model = ValueModel(
        players=players, features=FEATURES, mean=tuple(float(v) for v in mean),
        scale=tuple(float(v) for v in scale),
        hidden=tuple(tuple(float(a) for a in row) for row in params[0]),
        bias=tuple(float(v) for v in params[1]),
        out=tuple(float(v) * y_scale for v in params[2]), out_bias=float(params[3][0]) * y_scale,
        info=dict(info or {}),
    )
    return Fit(model=model, r2_model=r2(predict(zte), yte),
               r2_judged=r2(slope * judged_te + intercept, yte),
               rows_train=len(ytr), rows_test=len(yte))
