"""Hand scoring of one side (RULES.md §9) and the three-player halving (§13.2).

The scorer takes what lies on the table and in the hands when a hand ends and
turns it into match points.  It does not decide *how* the hand ended: the
caller says whether it was a real closing and what happened to the side's
pozzetto, because that depends on the whole table, not on one side.

>>> from burraco.engine.melds import parse_meld
>>> s = score_side([parse_meld("3H 4H 5H 6H 7H 8H 9H")], [], closed=True, pozzetto="taken")
>>> (s.melds, s.bonuses, s.closing, s.total)
(45, 200, 100, 345)
>>> half_up(1215)
610
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from burraco.engine.cards import FACE_POINTS, FACES
from burraco.engine.melds import Meld, burraco_type
from burraco.engine.rules import FIBUR, Rules

Pozzetto = Literal["taken", "missing", "nobody"]


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's score for one hand, kept in parts so a score sheet can show them."""

    melds: int
    """Face value of every card in the side's melds (§9.1)."""
    bonuses: int
    """Sum of the burraco bonuses."""
    burraco: tuple[tuple[str, int], ...]
    """``(type, bonus)`` of each burraco, in meld order."""
    closing: int
    """The closing bonus, or 0."""
    pozzetto: int
    """0, minus the penalty for a pozzetto not taken, or minus an unplayed pozzetto's cards."""
    hand: int
    """Minus the face value of the cards left in both partners' hands (0 or negative)."""
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": self.melds,
            "bonuses": self.bonuses,
            "burraco": [{"type": kind, "points": points} for kind, points in self.burraco],
            "closing": self.closing,
            "pozzetto": self.pozzetto,
            "hand": self.hand,
            "total": self.total,
        }


def score_side(
    melds: Sequence[Meld],
    hand: Sequence[int],
    *,
    closed: bool,
    pozzetto: Pozzetto,
    unplayed: Sequence[int] = (),
    rules: Rules = FIBUR,
) -> SideScore:
    """Score one side at the end of a hand (§9).

    ``hand`` holds the faces left in the hands of *both* partners (the closer's
    partner pays too); ``unplayed`` the faces of a pozzetto the side took but
    never played (§6.4, §9.2), which must not be repeated in ``hand``.

    ``pozzetto`` is ``"taken"`` when this side took one, ``"missing"`` when it
    did not but another side did (it pays the penalty), ``"nobody"`` when no
    side took one (§8.4): no penalty under ``nobody_pozzetto="score"``, the
    penalty under ``"penalty-each"``.  Under ``"redeal"`` the hand does not
    count and the caller deals it again; this function still returns the plain
    score (no penalty) so that the decision stays with the caller.

    ``closed`` is a real closing (§7.1), never a hand ended by the stock, the
    clock or a stall (§8); it needs a taken pozzetto and a burraco.
    """
    kinds = [(kind, rules.bonus(kind)) for m in melds if (kind := burraco_type(m, rules))]
    if closed and pozzetto != "taken":
        raise ValueError("a side that closed has taken its pozzetto (§7.1)")
    if closed and not kinds:
        raise ValueError("a side that closed has at least one burraco (§7.1)")
    if unplayed and pozzetto != "taken":
        raise ValueError("unplayed pozzetto cards belong to a side that took its pozzetto")
    table = sum(m.points for m in melds)
    bonuses = sum(points for _, points in kinds)
    closing = rules.closing_bonus if closed else 0
    pozzetto_points = _pozzetto_points(pozzetto, unplayed, rules)
    hand_points = -faces_value(hand)
    return SideScore(
        melds=table,
        bonuses=bonuses,
        burraco=tuple(kinds),
        closing=closing,
        pozzetto=pozzetto_points,
        hand=hand_points,
        total=table + bonuses + closing + pozzetto_points + hand_points,
    )


def _pozzetto_points(pozzetto: Pozzetto, unplayed: Sequence[int], rules: Rules) -> int:
    if pozzetto == "taken":
        # an unplayed pozzetto costs its cards *instead of* the penalty (§9.2)
        return -faces_value(unplayed)
    if pozzetto == "missing":
        return -rules.pozzetto_penalty
    if pozzetto == "nobody":
        return -rules.pozzetto_penalty if rules.nobody_pozzetto == "penalty-each" else 0
    raise ValueError(f"unknown pozzetto state {pozzetto!r} (taken, missing or nobody)")


def faces_value(faces: Sequence[int]) -> int:
    """Face value of some faces (§1.2); rejects anything that is not a face."""
    total = 0
    for face in faces:
        if not 0 <= face < FACES:
            raise ValueError(f"not a card face: {face}")
        total += FACE_POINTS[face]
    return total


def half_up(points: int) -> int:
    """Half of a pair's score, rounded up to a multiple of 5 (§13.2: 1215 → 610, −115 → −55).

    Three and five players split a pair's score between the partners; the
    sources say "rounded up", so a half ending in 2.5 goes towards +∞.
    """
    return -(-points // 10) * 5
