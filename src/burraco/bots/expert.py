"""``expert``: search over the hidden cards, with the advanced policy as its guide.

At each real choice (take the pile or draw; which card to discard) the expert:

1. asks the advanced policy for its move, and lists a few candidates beside it
   (for a discard, the policy's next best discards);
2. samples ``iterations`` full states consistent with its view
   (:func:`burraco.bots.determinize.determinize`: the cards opponents took
   with the pile in their hands, their discards and declined piles weighing
   what else they hold);
3. on each sample plays every candidate out with the advanced policy at
   every seat for a few turns (or to the end of the hand), and scores the
   result: the real score if the hand ended, else the evaluation of
   :mod:`burraco.bots.evaluate` for both sides.  All candidates meet the same
   samples and the same stock (common random numbers), so their differences
   are measured with far less noise than their values;
4. keeps the policy's move unless another is better on average by a clear
   margin (a paired test over the samples).

Uniformly random rollouts carry almost no signal in rummy games, hence the
heuristic rollouts; the evidence-weighted sampling is where much of the
strength comes from.  The budget is a number of samples (deterministic, so a
game replays exactly) or, with ``seconds``, a time limit per decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from burraco.bots.advanced_policy import (
    Params,
    Policy,
    choose_discard,
    discard_costs,
    find_exit,
    make_context,
)
from burraco.bots.determinize import determinize, rules_of
from burraco.bots.evaluate import Context, face_counts, hand_value, natural_fits, table_value
from burraco.bots.knowledge import History, read_history
from burraco.bots.position_features import position_features
from burraco.bots.tuned import NumberedPolicy
from burraco.bots.value_model import ValueModel, load_model, shipped_model
from burraco.engine.actions import DRAW, PICKUP, Action, Discard
from burraco.engine.legal import legal_actions
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import PLAY_PHASE, HandState, closing_ready
from burraco.engine.views import View

POZZETTO_MISS = 100.0
CHECK_EVERY = 8
PRUNE_Z = 1.5


class ExpertBot:
    """Determinized search over a few candidate moves, advanced-policy rollouts."""

    name = "expert"

    def __init__(
        self, rng: random.Random, *, rules: Rules | None = None, iterations: int = 0,
        seconds: float | None = None, candidates: int = 3, horizon: int | None = None,
        margin: float = 5.0, z: float = 1.0, evidence: bool = True, meld_search: int = 0,
        pickup_iterations: int = 0, numbers: str | None = "tuned", value: str = "learned",
        **params: float,
    ) -> None:
        self.rng = rng
        self.rules = rules
        self.iterations = iterations
        """Imagined deals per decision (0: 128 where a learned value ends the rollouts,
        else 32)."""
        self.seconds = seconds
        self.candidates = candidates
        self.horizon = horizon
        """Turns played out after the candidate (-1: two rounds; 0: to the end of the hand;
        ``None``: one round where a learned value ends the rollouts, else two)."""
        self.margin = margin
        self.z = z
        self.evidence = evidence
        self.meld_search = bool(meld_search)
        """Also weigh each meld the policy makes against stopping there (discarding now)."""
        self.pickup_iterations = pickup_iterations
        """Samples for the pile-or-stock choice, the hand's largest swing (0: ``iterations``)."""
        self.numbered = NumberedPolicy(numbers, params)
        """The guide and the rollouts' player at every seat: ``params`` over a named set
        (``tuned`` by default: at 2 players it beat the hand-set numbers' expert, now
        ``expert-2026``, in 63 % of 400 duplicate matches; docs/bots.md)."""
        self.policy = self.numbered.policy
        self.value = LeafValue(value)
        """How a rollout stopped before the hand's end is judged: ``learned`` (the shipped
        network for the table's count, where there is one: at 4 players, on 128 deals of one
        round, it beat the expert of 2026 in 62.4 % of 400 duplicate matches, docs/bots.md),
        ``judged`` (the club player's numbers) or a model file's path."""
        self.searches = 0

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        rules = self.rules or rules_of(view)
        seat = view.seat if view.seat is not None else view.turn
        self.policy = self.numbered.at(view.players)
        sandbox = determinize(view, random.Random(0), rules=rules, evidence=False, history=False)
        history = read_history(view)
        default = self.policy.decide(sandbox, seat, legal, history=history)
        options = self._candidates(sandbox, seat, legal, default, history)
        if len(options) < 2:
            return default
        self.searches += 1
        values = self._search(view, rules, seat, options)
        return self._choose(options, values)

    def _candidates(
        self, state: HandState, seat: int, legal: Sequence[Action], default: Action,
        history: History,
    ) -> list[Action]:
        if state.phase != PLAY_PHASE:
            return [default, PICKUP if default == DRAW else DRAW] if PICKUP in legal else []
        ctx = make_context(state, seat, self.policy.params)
        if not isinstance(default, Discard):
            return self._meld_candidates(state, seat, legal, default, ctx, history)
        ranked = sorted(discard_costs(state, seat, legal, ctx, None), key=lambda p: p[1])
        out: list[Action] = [default]
        for action, _cost in ranked:
            if action not in out:
                out.append(action)
            if len(out) >= self.candidates:
                break
        return out

    def _meld_candidates(
        self, state: HandState, seat: int, legal: Sequence[Action], default: Action,
        ctx: Context, history: History,
    ) -> list[Action]:
        """The policy's meld against stopping now with its discard; none on a way out."""
        if not self.meld_search:
            return []
        if len(state.hands[seat]) <= self.policy.params.exit_cards and find_exit(state, seat):
            return []  # the policy is on its way to the pozzetto or to closing
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return []
        stop = choose_discard(state, seat, discards, ctx, history, self.policy.params)
        return [default, stop]

    def _search(
        self, view: View, rules: Rules, seat: int, options: list[Action],
    ) -> list[list[float]]:
        """Values of each option on the same samples; options clearly worse are dropped early.

        Every ``CHECK_EVERY`` samples an alternative whose mean gain over the
        default is below the margin by more than ``PRUNE_Z`` standard errors
        stops being played; when none is left the search ends.  The values of
        a dropped option are cleared, so :meth:`_choose` ignores it.
        """
        model = self.value.at(view.players)
        horizon, budget = self._shape(view.players, model is not None)
        if self.pickup_iterations and PICKUP in options:
            budget = self.pickup_iterations
        values: list[list[float]] = [[] for _ in options]
        active = [True] * len(options)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while True:
            if deadline is not None:
                if time.perf_counter() > deadline and done >= 2:
                    break
            elif done >= budget:
                break
            sample_rng = random.Random(self.rng.getrandbits(64))
            sample = determinize(view, sample_rng, rules=rules, evidence=self.evidence,
                                 history=False)
            for k, option in enumerate(options):
                if active[k]:
                    state = sample.clone()
                    state.apply_in_place(option)
                    values[k].append(rollout(state, seat, horizon,
                                             Policy(self.policy.params), model))
            done += 1
            if done % CHECK_EVERY == 0:
                for k in range(1, len(options)):
                    if active[k]:
                        mean, se = _paired(values[k], values[0])
                        if mean + PRUNE_Z * se < self.margin:
                            active[k] = False
                            values[k] = []
                if not any(active[1:]):
                    break
        return values

    def _shape(self, players: int, learned: bool) -> tuple[int, int]:
        """(turns to play out, imagined deals): with a learned value to end them, rollouts
        of one round on four times the deals (the network judges the rest of the hand better
        than a second round does, and the time saved buys samples); else two rounds on 32."""
        horizon = self.horizon
        if horizon is None:
            horizon = players if learned else 2 * players
        elif horizon < 0:
            horizon = 2 * players
        return horizon, self.iterations or (128 if learned else 32)

    def _choose(self, options: list[Action], values: list[list[float]]) -> Action:
        """The default (first) unless another is clearly better on the same samples."""
        best, best_score = 0, 0.0
        for k in range(1, len(options)):
            if len(values[k]) != len(values[0]) or len(values[0]) < 2:
                continue
            mean, se = _paired(values[k], values[0])
            if mean > self.margin and mean > self.z * se and mean > best_score:
                best, best_score = k, mean
        return options[best]


def _paired(values: list[float], base: list[float]) -> tuple[float, float]:
    """Mean and standard error of the differences on the same samples."""
    n = len(values)
    diffs = [a - b for a, b in zip(values, base[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def rollout(
    state: HandState, seat: int, horizon: int, policy: Policy | None = None,
    model: ValueModel | None = None,
) -> float:
    """Play on with the advanced policy at every seat; ``seat``'s score margin.

    Stops after ``horizon`` more turns (0: at the end of the hand) and then
    judges the position with :func:`leaf_value`, or with ``model`` (the
    learned value) when given.  The margin is the seat's score minus the
    average of the other sides' scores (with two sides: the difference).
    """
    policy = policy or Policy()
    turns = 0
    while not state.is_over:
        legal = legal_actions(state)
        action = policy.decide(state, state.turn, legal)
        state.apply_in_place(action)
        if isinstance(action, Discard):
            turns += 1
            if horizon and turns >= horizon:
                break
    side = state.side_of[seat]
    if state.is_over:
        totals = hand_result(state).seat_totals
        others = [totals[s] for s in range(state.players) if state.side_of[s] != side]
        return totals[seat] - sum(others) / len(others)
    rivals = [s for s in state.live_sides() if s != side]
    params = policy.params
    if model is not None:
        return learned_margin(state, side, rivals, model, params)
    return (leaf_value(state, side, params)
            - sum(leaf_value(state, s, params) for s in rivals) / len(rivals))


def learned_margin(
    state: HandState, side: int, rivals: list[int], model: ValueModel, params: Params,
) -> float:
    """The network's margin for ``side``; with one rival, the mean of both sides' readings
    (the margin is zero-sum, so reading it from both seats halves the network's error)."""

    def judge(position: HandState, judged: int) -> float:
        return leaf_value(position, judged, params)

    own = model.predict(position_features(state, side, judge))
    if len(rivals) != 1:
        return own
    return 0.5 * (own - model.predict(position_features(state, rivals[0], judge)))


class LeafValue:
    """The expert's ``value`` option: which judgement ends a rollout, per player count."""

    __slots__ = ("_models", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self._models: dict[int, ValueModel | None] = {}
        if name not in ("judged", "learned"):
            load_model(name)  # refuse a bad file when the bot is made

    def at(self, players: int) -> ValueModel | None:
        """The model for a table of ``players`` (``None``: the club player's judgement)."""
        if players not in self._models:
            if self.name == "judged":
                model = None
            elif self.name == "learned":
                model = shipped_model(players)
            else:
                model = load_model(self.name)
            self._models[players] = model
        return self._models[players]


def leaf_value(state: HandState, side: int, params: Params | None = None) -> float:
    """A side's expected final score from here, as the evaluation judges it."""
    seats = state.seats_of(side)
    ctx = make_context(state, seats[0], params)
    melds = state.melds[side]
    fits = natural_fits(melds, state.rules)
    value = table_value(melds, ctx)
    for seat in seats:
        counts = face_counts(state.hands[seat] + state.pending[seat])
        value += hand_value(counts, fits, ctx)
    if state.pozzetto_taker[side] < 0:
        fewest = min(len(state.hands[s]) for s in seats)
        miss = 1.0 if not state.pozzetti else min(0.9, 0.25 + 0.05 * fewest)
        value -= POZZETTO_MISS * miss
    elif closing_ready(melds, state.rules):
        fewest = min(len(state.hands[s]) + len(state.pending[s]) for s in seats)
        value += 100.0 * (0.7 if fewest <= 3 else 0.5 if fewest <= 6 else 0.35)
    return value
