"""Post-game analysis: for each decision of one seat, what the strongest level would have
played from that seat's view, and the match points the move played lost.

The hand is replayed from its record.  At each decision of the seat with a
choice, the analyser is given exactly what a bot at that seat was given —
``view(state, seat)`` and the legal actions — never the state: the other
hands, the stock and the pozzetti stay unseen, so the marks of a hand do not
change when its hidden cards do.  The strongest level chooses its move (seeded
by the decision's place in the hand, so an analysis replays exactly); when it
differs from the move played, both are played out on the same imagined deals
(:func:`burraco.bots.determinize.determinize`, with the expert's rollouts) and
the loss is the mean difference of the seat's score margin (its score minus
the average of the other sides'), in match points.  A gain counts only beyond
``z`` standard errors (within them it is noise) and beyond ``margin`` points;
otherwise the loss is 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from burraco.bots.base import make_bot
from burraco.bots.determinize import determinize
from burraco.bots.expert import rollout
from burraco.engine.actions import Action, parse_action
from burraco.engine.legal import legal_actions
from burraco.engine.records import RecordError, moves_from_record, start_state
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import View, view

STRONGEST = "expert"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat, as the analysis judged it."""

    index: int
    """The move's place in the record's ``moves`` (0-based)."""
    phase: str
    played: str
    best: str
    loss: float
    """Match points the move played lost against ``best`` (0: it agrees, or the gain is within
    ``z`` standard errors or ``margin`` points)."""
    gain: float
    """Mean margin of ``best`` over ``played`` on the imagined deals (before the noise test)."""
    se: float
    """Standard error of ``gain``."""
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "phase": self.phase, "played": self.played,
                "best": self.best, "loss": round(self.loss, 1), "gain": round(self.gain, 1),
                "se": round(self.se, 1), "samples": self.samples}


@dataclass(slots=True)
class Analysis:
    seat: int
    players: int
    rules: str
    level: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "players": self.players, "rules": self.rules,
                "level": self.level, "decisions": [d.to_dict() for d in self.decisions],
                "total_loss": round(self.total_loss, 1)}


@dataclass(frozen=True, slots=True)
class Settings:
    level: str = STRONGEST
    """The level asked for its move (options allowed: ``expert:iterations=64``)."""
    samples: int = 32
    """Imagined deals on which the move played and the better one are compared."""
    horizon: int = -1
    """Turns played out after the move (-1: two rounds, as the expert; 0: to the end)."""
    z: float = 2.0
    margin: float = 5.0
    seed: int = 0


def seat_decisions(data: dict[str, Any], seat: int) -> Iterator[tuple[int, View, list[Action],
                                                                      Action, Rules]]:
    """(move index, the seat's view, its legal actions, the move played, rules) for each
    decision of ``seat`` with more than one legal action; ``RecordError`` for a bad record."""
    state = start_state(data)
    if not 0 <= seat < state.players:
        raise RecordError(f"seat {seat}: the record has seats 0 to {state.players - 1}")
    for index, text in enumerate(moves_from_record(data)):
        try:
            action = parse_action(text)
        except ValueError as exc:
            raise RecordError(f"moves[{index}] {text!r}: {exc}") from None
        if state.turn == seat and not state.is_over:
            legal = legal_actions(state)
            if len(legal) > 1 and action in legal:
                yield index, view(state, seat), legal, action, state.rules
        try:
            state.apply_in_place(action)
        except ValueError as exc:
            raise RecordError(f"moves[{index}] {text!r}: {exc}") from None


def analyze(data: dict[str, Any], seat: int, settings: Settings | None = None, *,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Judge every decision of ``seat`` in the record ``data`` (see the module's doc)."""
    settings = settings or Settings()
    todo = list(seat_decisions(data, seat))
    first = start_state(data)
    out = Analysis(seat, first.players, first.rules.name, settings.level)
    for done, (index, seen, legal, played, rules) in enumerate(todo):
        out.decisions.append(judge(seen, legal, played, rules, index, settings))
        if progress is not None:
            progress(done + 1, len(todo))
    return out


def judge(seen: View, legal: list[Action], played: Action, rules: Rules, index: int,
          settings: Settings) -> Decision:
    """One decision from the seat's view only: the best move and the loss of ``played``."""
    seat = seen.seat if seen.seat is not None else seen.turn
    seed = _seed(settings.seed, index)
    best = make_bot(settings.level, seed=seed, rules=rules).act(seen, legal)
    if best == played:
        return Decision(index, seen.phase, str(played), str(best), 0.0, 0.0, 0.0, 0)
    gain, se = paired_gain(seen, rules, seat, best, played, settings, random.Random(seed + 1))
    loss = gain if gain > settings.margin and gain > settings.z * se else 0.0
    return Decision(index, seen.phase, str(played), str(best), loss, gain, se,
                    settings.samples)


def paired_gain(seen: View, rules: Rules, seat: int, best: Action, played: Action,
                settings: Settings, rng: random.Random) -> tuple[float, float]:
    """Mean and standard error of ``best``'s margin over ``played`` on the same deals."""
    horizon = settings.horizon if settings.horizon >= 0 else 2 * seen.players
    diffs: list[float] = []
    for _ in range(settings.samples):
        sample = determinize(seen, random.Random(rng.getrandbits(64)), rules=rules,
                             history=False)
        values = []
        for option in (best, played):
            state: HandState = sample.clone()
            state.apply_in_place(option)
            values.append(rollout(state, seat, horizon))
        diffs.append(values[0] - values[1])
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def _seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7919 + 17) % (2**31)
