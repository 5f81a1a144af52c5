"""The optional turn clock, and what is played for a seat whose time runs out.

A table with ``turn_seconds`` gives each turn that many seconds (a whole turn:
draw, melds and discard).  On timeout the server plays for the seat: it draws
from the stock if it has not drawn yet, then discards the least useful card
(:func:`least_useful_discard`); melds are never made for it.  The clock is
restarted from full time after a server restart.
"""

from __future__ import annotations

from collections.abc import Sequence

from burraco.engine.actions import DRAW, Action, Discard, Draw
from burraco.engine.cards import FACE_IS_WILD, FACE_POINTS, card_face, face_rank, face_suit
from burraco.engine.melds import Meld
from burraco.engine.views import View


def usefulness(face: int, hand: Sequence[int], melds: Sequence[Meld]) -> float:
    """How much ``face`` helps the rest of ``hand`` (faces) and the side's melds."""
    if FACE_IS_WILD[face]:
        return 1000.0
    rank, suit = face_rank(face), face_suit(face)
    score = 0.0
    others = list(hand)
    others.remove(face)
    for other in others:
        if FACE_IS_WILD[other]:
            continue
        if face_rank(other) == rank:
            score += 2
        elif face_suit(other) == suit and abs(face_rank(other) - rank) <= 2:
            score += 3 - abs(face_rank(other) - rank)
    for meld in melds:
        extends = meld.suit == suit and rank in (meld.lo - 1, meld.hi + 1)
        if (meld.is_sequence and extends) or (not meld.is_sequence and meld.rank == rank):
            score += 4
    return score


def least_useful_discard(seat_view: View, legal: Sequence[Action]) -> Action:
    """The legal discard of the card that helps least; ties: the higher-valued card goes.

    Wild cards are kept unless nothing else may be discarded.  Falls back to the
    first legal action when no discard is legal (the engine always offers one).
    """
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards:
        return legal[0]
    hand = [card_face(c) for c in seat_view.hand]
    side = seat_view.side_of[seat_view.seat] if seat_view.seat is not None else 0
    melds = seat_view.melds[side]
    return min(discards, key=lambda d: (usefulness(d.face, hand, melds), -FACE_POINTS[d.face],
                                         str(d)))


def timeout_action(seat_view: View, legal: Sequence[Action]) -> Action:
    """The action played for a seat whose turn clock ran out."""
    if any(isinstance(a, Draw) for a in legal):
        return DRAW
    return least_useful_discard(seat_view, legal)
