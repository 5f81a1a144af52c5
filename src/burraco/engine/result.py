"""The score of a finished hand, side by side (RULES.md §8.4, §9).

Scoring one side needs facts about the whole table (did anybody take a
pozzetto? was it a real closing?), so this module reads them off the state and
hands them to :func:`burraco.engine.scoring.score_side`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from burraco.engine.cards import CARD_FACE
from burraco.engine.scoring import Pozzetto, SideScore, half_up, score_side
from burraco.engine.state import HandState


@dataclass(frozen=True, slots=True)
class HandResult:
    """Why the hand ended and each side's score (index = side)."""

    reason: str
    closer: int
    sides: tuple[SideScore, ...]
    """Each side's score, in the order of ``side_seats``."""
    side_seats: tuple[tuple[int, ...], ...]
    """The seats of each side as the hand ended."""
    seat_totals: tuple[int, ...]
    """What each seat scores for the hand: its side's total, or half of a pair's total
    (rounded up to 5) for the pairs formed at 3 and 5 players (§13.2)."""
    redeal: bool
    """True when nobody took a pozzetto and the rules say to deal again (§8.4)."""

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.sides)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "closer": self.closer,
            "redeal": self.redeal,
            "sides": [
                {"seats": list(seats), **score.to_dict()}
                for seats, score in zip(self.side_seats, self.sides, strict=True)
            ],
            "seat_totals": list(self.seat_totals),
        }


def hand_result(state: HandState) -> HandResult:
    """Score a finished hand; raise ``ValueError`` if it is still being played."""
    if not state.is_over:
        raise ValueError("the hand is not over yet")
    anybody = any(t >= 0 for t in state.pozzetto_taker)
    closer_side = state.side_of[state.closer] if state.closer >= 0 else -1
    sides = []
    side_seats = []
    seat_totals = [0] * state.players
    for side in state.live_sides():
        seats = state.seats_of(side)
        side_seats.append(tuple(seats))
        hand = [CARD_FACE[c] for s in seats for c in state.hands[s]]
        unplayed = [CARD_FACE[c] for s in seats for c in state.pending[s]]
        status: Pozzetto = "taken"
        if state.pozzetto_taker[side] < 0:
            status = "missing" if anybody else "nobody"
        score = score_side(
            state.melds[side], hand, closed=side == closer_side, pozzetto=status,
            unplayed=unplayed, rules=state.rules,
        )
        sides.append(score)
        split = state.mode == "pairs" and len(seats) == 2
        for seat in seats:
            seat_totals[seat] = half_up(score.total) if split else score.total
    redeal = not anybody and state.rules.nobody_pozzetto == "redeal"
    return HandResult(state.end_reason, state.closer, tuple(sides), tuple(side_seats),
                      tuple(seat_totals), redeal)
