"""``basic``: melds what it can, attaches, keeps its wilds, discards its least useful card."""

from __future__ import annotations

import random
from collections.abc import Sequence

from burraco.engine.actions import Action, Attach, Discard, Draw, NewMeld, Pickup
from burraco.engine.cards import FACE_IS_WILD, FACE_POINTS, JOKER, card_face, face_rank, face_suit
from burraco.engine.views import View


class BasicBot:
    name = "basic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if any(isinstance(a, Draw) for a in legal):
            return self._draw_or_pickup(view, legal)
        melds = [a for a in legal if isinstance(a, NewMeld)]
        hand_size = len(view.hand)
        natural_melds = [m for m in melds if not any(FACE_IS_WILD[f] for f in m.faces)]
        if natural_melds:
            return max(natural_melds, key=lambda m: (len(m.faces), str(m)))
        attaches = [a for a in legal if isinstance(a, Attach)]
        natural_attaches = [a for a in attaches if not any(FACE_IS_WILD[f] for f in a.faces)]
        if natural_attaches:
            return natural_attaches[0]
        if melds and (hand_size <= 5 or max(len(m.faces) for m in melds) >= 4):
            return max(melds, key=lambda m: (len(m.faces), str(m)))
        if attaches and hand_size <= 4:
            return attaches[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return min(discards, key=lambda d: self._keep_value(view, d.face))
        return legal[0]

    def _draw_or_pickup(self, view: View, legal: Sequence[Action]) -> Action:
        pickup = next((a for a in legal if isinstance(a, Pickup)), None)
        if pickup is not None and view.pile:
            top = card_face(view.pile[-1])
            if len(view.pile) >= 4 or self._keep_value(view, top, extra=True) >= 3:
                return pickup
        return next(a for a in legal if isinstance(a, Draw))

    def _keep_value(self, view: View, face: int, *, extra: bool = False) -> float:
        """How much a card is worth keeping: wilds most, then cards that fit others."""
        if face == JOKER or FACE_IS_WILD[face]:
            return 100.0
        faces: list[int] = [card_face(c) for c in view.hand]
        if not extra:
            faces.remove(face)
        rank, suit = face_rank(face), face_suit(face)
        value = 0.0
        for other in faces:
            if other == JOKER or FACE_IS_WILD[other]:
                continue
            if face_rank(other) == rank:
                value += 2
            elif face_suit(other) == suit and abs(face_rank(other) - rank) <= 2:
                value += 3 - abs(face_rank(other) - rank)
        side = view.side_of[view.seat] if view.seat is not None else 0
        for meld in view.melds[side]:
            extends = meld.suit == suit and rank in (meld.lo - 1, meld.hi + 1)
            if (meld.is_sequence and extends) or (not meld.is_sequence and meld.rank == rank):
                value += 4
        return value - FACE_POINTS[face] / 100
