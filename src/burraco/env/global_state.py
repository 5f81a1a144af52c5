"""The whole state of a hand as one flat array: **for centralised critics in training only.**

.. warning::

   This array holds every card, hidden ones included: every hand, the pozzetti
   not yet taken, the stock in order.  It is the one exception to the
   environment's secrecy (docs/architecture.md, "Secrecy"), made for
   centralised critics (a value function trained with the whole state, as in
   MAPPO) and for analysis.  **Never give it to a policy that acts**, not as an
   input, not through a feature computed from it: a policy that sees it plays
   with every hand face up.  A policy acts on ``observe(agent)``.

Layout (``StateLayout``; sizes in docs/research-env.md), float32, seats and
sides **absolute** (slot k is seat k, side k), cards counted by face (0–52):

* ``public``: the observation of seat 0 (``Encoder.encode_state(state, 0)``),
  which holds everything public (melds, pile, known cards, counts, turn,
  phase, match scores) with absolute seats, plus seat 0's own cards;
* ``hands``: every seat's playable hand, ``seats × 53``;
* ``pending``: the pozzetto each seat took with the discard and has not
  played yet, seen or not, ``seats × 53``;
* ``pozzetti``: the pozzetti still on the table, the next to be taken first,
  ``slots × 53``;
* ``stock``: the stock's cards, ``53``; ``stock_order``: the stock from its
  top, face + 1 per card (0 past its end); ``pile_order``: the pile from its
  bottom, face + 1 per card (0 past its end);
* ``barred``: the face the seat on turn took from a one-card pile (may not be
  discarded this turn, §3.1.4), one-hot; ``duties``: the seat on turn owes a
  meld (§3.1.4) and the International pinella duty (§14.1).

>>> from burraco.engine import HandState, deal_seeded
>>> from burraco.engine.rules import FIBUR
>>> from burraco.env.observation import Encoder
>>> rules = FIBUR.for_players(2)
>>> state = HandState.start(deal_seeded(1, players=2, dealer=0, rules=rules), rules)
>>> encoder = StateEncoder(Encoder(rules, 2))
>>> whole = encoder.encode(state)
>>> whole.shape == (encoder.layout.size,), int(whole[encoder.layout.slices["hands"]].sum())
(True, 22)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from burraco.engine.cards import CARD_FACE, FACES
from burraco.engine.state import HandState
from burraco.env.observation import NO_MATCH, Encoder, Layout, MatchInfo

__all__ = ["StateEncoder", "StateLayout"]


class StateLayout:
    """The slices of the whole-state array of one table size (see the module)."""

    def __init__(self, observation: Layout) -> None:
        seats = observation.seats
        copies = 2 * observation.packs
        cards = 54 * observation.packs
        self.pozzetto_slots = pozzetti = max(2, observation.sides)
        parts: list[tuple[str, int, float]] = [
            ("public", observation.size, 0.0),  # bounds: the observation's own
            ("hands", seats * FACES, copies),
            ("pending", seats * FACES, copies),
            ("pozzetti", pozzetti * FACES, copies),
            ("stock", FACES, copies),
            ("stock_order", cards, FACES),
            ("pile_order", cards, FACES),
            ("barred", FACES, 1),
            ("duties", 2, 1),
        ]
        self.seats = seats
        self.cards = cards
        self.slices: dict[str, slice] = {}
        start = 0
        for name, length, _ in parts:
            self.slices[name] = slice(start, start + length)
            start += length
        self.size = start
        self.low = np.zeros(start, dtype=np.float32)
        self.high = np.zeros(start, dtype=np.float32)
        for name, _, high in parts:
            self.high[self.slices[name]] = high
        public = self.slices["public"]
        self.low[public] = observation.low
        self.high[public] = observation.high

    def shape_of(self, name: str) -> tuple[int, ...]:
        """The shape of a slice: per-seat and per-pozzetto face blocks as rows of 53."""
        length = self.slices[name].stop - self.slices[name].start
        return {"hands": (self.seats, FACES), "pending": (self.seats, FACES),
                "pozzetti": (self.pozzetto_slots, FACES)}.get(name, (length,))


class StateEncoder:
    """The whole state of any hand of one table (FULL STATE: never for a policy that acts)."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.layout = StateLayout(encoder.layout)
        o = {name: s.start for name, s in self.layout.slices.items()}
        self._offsets = o
        cards = self.layout.cards
        self._hand_index = [[o["hands"] + seat * FACES + CARD_FACE[c] for c in range(cards)]
                            for seat in range(self.layout.seats)]
        self._pending_index = [
            [o["pending"] + seat * FACES + CARD_FACE[c] for c in range(cards)]
            for seat in range(self.layout.seats)]
        self._pozzetto_index = [
            [o["pozzetti"] + k * FACES + CARD_FACE[c] for c in range(cards)]
            for k in range(self.layout.pozzetto_slots)]
        self._stock_index = [o["stock"] + CARD_FACE[c] for c in range(cards)]
        self._face_code = np.array([CARD_FACE[c] + 1 for c in range(cards)], dtype=np.float32)

    def encode(self, state: HandState, match: MatchInfo = NO_MATCH) -> npt.NDArray[np.float32]:
        """The whole state of ``state`` (``match``: seat 0's match scores, as its observation
        shows them).  FULL STATE: every hidden card; for centralised critics only."""
        lay = self.layout
        o = self._offsets
        ones: list[int] = []
        for seat, (hand, pending) in enumerate(zip(state.hands, state.pending, strict=True)):
            ones += map(self._hand_index[seat].__getitem__, hand)
            ones += map(self._pending_index[seat].__getitem__, pending)
        for k, pozzetto in enumerate(state.pozzetti):
            ones += map(self._pozzetto_index[k].__getitem__, pozzetto)
        ones += map(self._stock_index.__getitem__, state.stock)
        out = np.bincount(ones, minlength=lay.size).astype(np.float32)
        public = lay.slices["public"]
        out[public] = self.encoder.encode_state(state, 0, match)
        stock = state.stock  # its top card is at the end of the list
        if stock:
            start = o["stock_order"]
            out[start:start + len(stock)] = self._face_code[stock[::-1]]
        pile = state.pile
        if pile:
            start = o["pile_order"]
            out[start:start + len(pile)] = self._face_code[pile]
        barred = state.barred
        if barred >= 0 and not state.is_over and barred in state.hands[state.turn]:
            out[o["barred"] + CARD_FACE[barred]] = 1
        out[o["duties"]] = state.owes_meld
        out[o["duties"] + 1] = state.pinella_duty
        return out
