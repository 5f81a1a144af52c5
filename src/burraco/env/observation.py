"""The flat observation of ``burraco_v0``: one float32 array with named slices.

Built from one seat's :class:`~burraco.engine.views.View` and nothing else, so
it never depends on cards the seat cannot see (the tests swap hidden cards and
compare).  Seats are relative (0 = the observer, 1 = the next to play, …),
sides too (0 = the observer's side, 1 = the opponents); unused seat slots at
2 players stay zero.  Cards are counted by face (0–52, ``cards.py``), so the
two packs look alike.  The layout (docs/research-env.md) is versioned with the
environment: ``burraco_v0`` keeps it fixed.

>>> SLICES["hand"], OBS_SIZE
(slice(0, 53, None), 2132)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from burraco.engine.cards import CARD_FACE, FACE_POINTS, FACES, JOKER, make_face
from burraco.engine.melds import SEQUENCE, Meld, base_type
from burraco.engine.rules import Rules
from burraco.engine.state import DRAW_PHASE, OVER, PLAY_PHASE, HandState, closing_ready
from burraco.engine.views import View
from burraco.env.catalog import MAX_MELDS, MAX_MELDS_THREE_PACKS

SEATS = 4
"""Seat slots of the 2- and 4-player layout (2-player tables use the first two)."""
SIDES = 2
"""Side slots of the 2- and 4-player layout."""

MELD_FEATURES: tuple[str, ...] = (
    "sequence", "set", "suit_H", "suit_D", "suit_C", "suit_S", "rank", "lo", "hi", "cards",
    "wild_slot", "wild_JK", "wild_2H", "wild_2D", "wild_2C", "wild_2S", "clean", "semi_clean",
    "dirty", "points",
)
"""Per meld slot: kind flags, suit one-hot (sequences), rank (sets, 1–13), first and last
rank slot (sequences, 1–14: 1 the low ace, 14 the high ace), cards, the wild's slot (a set
with a wild: 1), which wild, its burraco class so far, and its face points."""
_F = {name: k for k, name in enumerate(MELD_FEATURES)}
_WILD_COLUMN = {JOKER: _F["wild_JK"], **{make_face(2, s): _F["wild_2H"] + s for s in range(4)}}
_MELD_STRIDE = len(MELD_FEATURES)
_SIDE_SLOTS = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}
"""Most sides a hand can have: everyone alone at first at 3 and 5 players, three pairs at 6."""


class Layout:
    """The slices of one table size's observation (docs/research-env.md).

    2 and 4 players share the ``burraco_v0`` layout (4 seat slots, 2 side
    slots, 36 meld slots); 3 players has 3 side slots, 5 players 6 seat and 5
    side slots, 6 players 6 seat and 3 side slots, and those three add a
    ``partners`` slice (which relative side each relative seat is on now, as
    partnerships form mid-hand).  Three packs (5 and 6 players) give 54 meld
    slots and up to 6 copies of a face.
    """

    def __init__(self, players: int, packs: int) -> None:
        if players not in _SIDE_SLOTS:
            raise ValueError(f"observations are for 2 to 6 players, not {players}")
        self.players = players
        self.packs = packs
        self.seats = seats = SEATS if players <= 4 else 6
        self.sides = sides = _SIDE_SLOTS[players]
        self.max_melds = max_melds = MAX_MELDS if packs == 2 else MAX_MELDS_THREE_PACKS
        copies = 2 * packs  # jokers: two per pack; other faces: one per pack
        cards = 54 * packs
        layout: list[tuple[str, int, float]] = [
            ("hand", FACES, copies),
            ("pozzetto_seen", FACES, copies),
            ("barred", FACES, 1),
            ("pile", FACES, copies),
            ("pile_top", FACES, 1),
            ("unseen", FACES, copies),
            ("known", seats * FACES, copies),
            ("table", sides * FACES, copies),
            ("melds", sides * max_melds * _MELD_STRIDE, 1000),
            ("hand_counts", seats, cards),
            ("hidden_counts", seats, cards),
            ("pending_counts", seats, 18),
            ("pending_seen", seats, 1),
            ("pozzetto_taker", seats, 1),
            ("turn", seats, 1),
            ("dealer", seats, 1),
            ("pozzetto_taken", sides, 1),
            ("closing_ready", sides, 1),
            ("burraco", sides * 3, max_melds),
            ("meld_count", sides, max_melds),
            ("phase", 2, 1),
            ("my_turn", 1, 1),
            ("stock_count", 1, cards),
            ("pile_count", 1, cards),
            ("pozzetti_left", 1, max(2, sides)),
            ("final_turn", 1, 1),
            ("time_called", 1, 1),
            ("time_left", 1, 12),
            ("stall", 1, 1000),
            ("turn_single_pickup", 1, 1),
            ("turn_melded", 1, 1),
            ("match", 4, 1000),
        ]
        if players in (3, 5, 6):
            layout.append(("partners", seats * sides, 1))
        self.slices: dict[str, slice] = {}
        start = 0
        for name, length, _ in layout:
            self.slices[name] = slice(start, start + length)
            start += length
        self.size = start
        self.low = np.zeros(start, dtype=np.float32)
        self.high = np.zeros(start, dtype=np.float32)
        for name, _, high in layout:
            self.high[self.slices[name]] = high
        self.low[self.slices["match"]] = -1000.0
        self.offsets = {name: s.start for name, s in self.slices.items()}

    def shape_of(self, name: str) -> tuple[int, ...]:
        """The shape :func:`slice_of` gives a slice."""
        length = self.slices[name].stop - self.slices[name].start
        return {
            "known": (self.seats, FACES), "table": (self.sides, FACES),
            "melds": (self.sides, self.max_melds, _MELD_STRIDE), "burraco": (self.sides, 3),
            "partners": (self.seats, self.sides),
        }.get(name, (length,))


_LAYOUTS: dict[tuple[int, int], Layout] = {}


def layout_for(players: int, packs: int = 2) -> Layout:
    """The (shared) layout of a table of ``players`` with ``packs`` packs."""
    key = (players, packs)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = Layout(players, packs)
    return _LAYOUTS[key]


V0 = layout_for(4, 2)
SLICES: dict[str, slice] = V0.slices
"""Name → slice of the 2- and 4-player observation (docs/research-env.md describes each)."""
OBS_SIZE = V0.size
LOW = V0.low
HIGH = V0.high

_CACHE_LIMIT = 10_000  # cached melds and sides; a hand makes a few hundred, so clearing is rare


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """Match scores for the ``match`` slice (all zero when an episode is one hand): the
    observer's (side's, or own at 3 and 5 players), the best other one, target, hands."""

    own: int = 0
    other: int = 0
    target: int = 0
    hands: int = 0


NO_MATCH = MatchInfo()


@dataclass(frozen=True, slots=True)
class _SideBlock:
    melds: tuple[Meld, ...]
    rows: npt.NDArray[np.float32]
    faces: npt.NDArray[np.float32]
    burraco: npt.NDArray[np.float32]
    ready: bool
    burraco_counts: tuple[float, float, float]


class Encoder:
    """Turns a seat's view into the flat observation (one per table; caches meld features)."""

    def __init__(self, rules: Rules, players: int = 4) -> None:
        self.rules = rules
        self.layout = layout_for(players, rules.packs)
        self._rel_sides: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        lay = self.layout
        o = lay.offsets
        rows = [name for name, _ in sorted(
            ((n, sl.start) for n, sl in lay.slices.items() if sl.stop <= o["table"]),
            key=lambda item: item[1])]
        if rows != ["hand", "pozzetto_seen", "barred", "pile", "pile_top", "unseen", "known"]:
            raise AssertionError("the face blocks moved: update _seen_rows")
        # hand, pozzetto_seen, pile and the known cards of every other seat count as seen
        self._seen_rows = np.array([1, 1, 0, 1, 0, 0, 0] + [1] * (lay.seats - 1), dtype=np.int64)
        self._face_rows_end = o["table"]
        self._seat_cache: dict[tuple[int, int], tuple[list[int], npt.NDArray[np.intp]]] = {}
        self._templates: dict[
            tuple[tuple[int, ...], tuple[tuple[int, ...], ...]],
            tuple[npt.NDArray[np.float32], list[_SideBlock]]] = {}
        lay = self.layout
        o = lay.offsets
        cards = 54 * rules.packs  # physical ids 0..cards-1
        self._card_index: dict[str, list[int]] = {
            name: [o[name] + CARD_FACE[c] for c in range(cards)]
            for name in ("hand", "pozzetto_seen", "barred", "pile", "pile_top")}
        self._card_index_known = [
            [o["known"] + r * FACES + CARD_FACE[c] for c in range(cards)] for r in range(lay.seats)]
        self._scalar_index = tuple(o[name] for name in (
            "my_turn", "stock_count", "pile_count", "pozzetti_left", "final_turn", "time_called",
            "time_left", "stall", "turn_single_pickup", "turn_melded"))
        # 2, 4 and 6 players: partnerships never change, so each seat's side slots are fixed
        self._fixed = players in (2, 4, 6)
        fixed_side_of = tuple(
            seat % (players // 2) if players > 2 else seat for seat in range(players))
        self._fixed_sides = [self.relative_sides(me, fixed_side_of) for me in range(players)] \
            if self._fixed else []
        deck = np.full(FACES, float(rules.packs), dtype=np.float32)  # copies of each face
        deck[JOKER] = 2.0 * rules.packs if rules.jokers else 0.0
        self._deck = deck
        self._melds: dict[Meld, npt.NDArray[np.float32]] = {}
        self._sides: dict[tuple[int, ...], _SideBlock] = {}

    def meld_features(self, meld: Meld) -> npt.NDArray[np.float32]:
        row = self._melds.get(meld)
        if row is not None:
            return row
        row = np.zeros(_MELD_STRIDE, dtype=np.float32)
        cards = meld.cards
        if meld.kind == SEQUENCE:
            row[_F["sequence"]] = 1
            row[_F["suit_H"] + meld.suit] = 1
            row[_F["lo"]] = meld.lo
            row[_F["hi"]] = meld.lo + len(cards) - 1
        else:
            row[_F["set"]] = 1
            row[_F["rank"]] = meld.rank
        row[_F["cards"]] = len(cards)
        wild = meld.wild_card
        if wild is not None:
            row[_F["wild_slot"]] = meld.wild
            row[_WILD_COLUMN[CARD_FACE[wild]]] = 1
        kind = base_type(meld, self.rules)
        if kind is not None:
            row[_F["clean" if kind == "clean" else
                   "semi_clean" if kind == "semi-clean" else "dirty"]] = 1
        row[_F["points"]] = sum(FACE_POINTS[CARD_FACE[c]] for c in cards)
        row.flags.writeable = False
        if len(self._melds) > _CACHE_LIMIT:
            self._melds.clear()
        self._melds[meld] = row
        return row

    def _side(self, melds: Sequence[Meld]) -> _SideBlock:
        """One side's melds encoded, cached on the identity of its meld objects.

        Melds are immutable and an attachment makes a new one; the entry keeps
        the melds alive, so an id in a key is never reused while cached.
        """
        key = tuple(map(id, melds))
        block = self._sides.get(key)
        if block is not None:
            return block
        rows = np.concatenate([self.meld_features(meld) for meld in melds])
        table = rows.reshape(len(melds), _MELD_STRIDE)
        faces = np.zeros(FACES, dtype=np.float32)
        for meld in melds:
            for card in meld.cards:
                faces[CARD_FACE[card]] += 1
        burraco = table[:, _F["clean"]:_F["dirty"] + 1].sum(axis=0)
        block = _SideBlock(
            tuple(melds), rows, faces, burraco, closing_ready(list(melds), self.rules),
            (float(burraco[0]), float(burraco[1]), float(burraco[2])))
        if len(self._sides) > _CACHE_LIMIT:
            self._sides.clear()
        self._sides[key] = block
        return block

    def relative_sides(self, me: int, side_of: tuple[int, ...]) -> tuple[int, ...]:
        """Each engine side's slot as ``me`` sees it: sides in the order of their first
        seat after ``me`` in playing order (own side 0); empty sides get the last slots."""
        key = (me, side_of)
        found = self._rel_sides.get(key)
        if found is not None:
            return found
        n = len(side_of)
        order: list[int] = []
        for k in range(n):
            side = side_of[(me + k) % n]
            if side not in order:
                order.append(side)
        slots = self.layout.sides
        rest = [side for side in range(slots) if side not in order]
        rel = [0] * slots
        for slot, side in enumerate(order + rest):
            rel[side] = slot
        found = tuple(rel)
        self._rel_sides[key] = found
        return found

    def encode(self, view: View, match: MatchInfo = NO_MATCH) -> npt.NDArray[np.float32]:
        """The observation of ``view.seat`` (a seat, not a spectator).

        ``view.moves`` is not read, so a view of a state without history gives
        the same observation.
        """
        me = view.seat
        if me is None:
            raise ValueError("observations are for a seat, not a spectator")
        return self._encode(
            me, view.players, view.hand, view.pozzetto_seen, view.barred, view.pile, view.known,
            view.side_of, view.melds, view.pozzetto_taker, view.hand_counts, view.pending_counts,
            view.pending_seen, view.turn, view.dealer, view.phase, view.stock_count,
            view.pozzetti_left, view.final_turn, view.time_left, view.stall,
            view.turn_single_pickup, view.turn_melded, match)

    def encode_state(self, state: HandState, seat: int,
                     match: MatchInfo = NO_MATCH) -> npt.NDArray[np.float32]:
        """``encode(view(state, seat))`` without building the view (the environment's path).

        It reads exactly the fields :func:`burraco.engine.views.view` shows the
        seat, by the same rules (the tests compare the two on every state).
        """
        me = seat
        pending = state.pending
        mine = pending[me]
        seen = mine if mine and state.pending_seen[me] else ()
        hand = state.hands[me]
        barred = state.barred if me == state.turn and state.barred in hand else -1
        hands = state.hands
        return self._encode(
            me, state.players, hand, seen, barred, state.pile, state.known, state.side_of,
            state.melds, state.pozzetto_taker,
            [len(h) + len(p) for h, p in zip(hands, pending, strict=True)],
            [len(p) for p in pending], state.pending_seen, state.turn, state.dealer,
            state.phase, len(state.stock), len(state.pozzetti), state.final_turn,
            state.time_left, state.stall, state.turn_single_pickup, state.turn_melded, match)

    def _encode(
        self, me: int, players: int, hand: Sequence[int], pozzetto_seen: Sequence[int],
        barred: int, pile: Sequence[int], known: Sequence[Sequence[int]],
        side_of: Sequence[int], melds: Sequence[Sequence[Meld]], takers: Sequence[int],
        held: Sequence[int], pending: Sequence[int], pending_seen: Sequence[bool], turn: int,
        dealer: int, phase: str, stock: int, pozzetti: int, final_turn: bool, time_left: int,
        stall: int, single: bool, melded: bool, match: MatchInfo,
    ) -> npt.NDArray[np.float32]:
        lay = self.layout
        o = lay.offsets
        idx = self._card_index
        # every card shown is counted by face: one bincount over flat indices
        ones = list(map(idx["hand"].__getitem__, hand))
        if pozzetto_seen:
            ones += map(idx["pozzetto_seen"].__getitem__, pozzetto_seen)
        if barred >= 0:
            ones.append(idx["barred"][barred])
        if pile:
            ones += map(idx["pile"].__getitem__, pile)
            ones.append(idx["pile_top"][pile[-1]])
        rel, seat_index = self._seat_tables(players, me)
        known_index = self._card_index_known
        for seat in range(players):
            cards = known[seat]
            if cards:
                ones += map(known_index[rel[seat]].__getitem__, cards)
        rel_side = self._fixed_sides[me] if self._fixed and players == lay.players else \
            self.relative_sides(me, tuple(side_of))
        counts = np.bincount(ones, minlength=lay.size)
        # the face blocks from hand to known are contiguous rows of 53: one product sums
        # what the seat has seen (hand, seen pozzetto, pile, others' known cards)
        seen = self._seen_rows @ counts[:self._face_rows_end].reshape(-1, FACES)
        obs = counts.astype(np.float32)
        obs += self._template(rel_side, melds)  # melds, tables, and the deck less the tables
        u = o["unseen"]
        obs[u:u + FACES] -= seen

        hidden = [held[seat] - len(known[seat]) for seat in range(players)]
        hidden[me] = 0 if pozzetto_seen else pending[me]
        obs[seat_index] = [
            *held, *hidden, *pending, *pending_seen, turn == me and phase != OVER, stock,
            len(pile), pozzetti, final_turn, time_left >= 0, max(time_left, 0), stall, single,
            melded]
        obs[o["turn"] + rel[turn]] = 1
        obs[o["dealer"] + rel[dealer]] = 1
        if phase == DRAW_PHASE:
            obs[o["phase"]] = 1
        elif phase == PLAY_PHASE:
            obs[o["phase"] + 1] = 1
        for side, taker in enumerate(takers):
            if taker >= 0:
                obs[o["pozzetto_taken"] + rel_side[side]] = 1
                obs[o["pozzetto_taker"] + rel[taker]] = 1
        partners = o.get("partners")
        if partners is not None:
            width = lay.sides
            obs[[partners + rel[seat] * width + rel_side[side_of[seat]]
                 for seat in range(players)]] = 1
        if match is not NO_MATCH:
            m = o["match"]
            obs[m:m + 4] = (match.own / 1000, match.other / 1000, match.target / 1000,
                            match.hands)
        return obs

    def _seat_tables(self, players: int, me: int) -> tuple[list[int], npt.NDArray[np.intp]]:
        """Relative seats as ``me`` sees them, and where the per-seat counts and the scalars
        go (in the order ``_encode`` lists their values)."""
        key = (players, me)
        found = self._seat_cache.get(key)
        if found is None:
            o = self.layout.offsets
            rel = [(seat - me) % players for seat in range(players)]
            index = [o[name] + r for name in (
                "hand_counts", "hidden_counts", "pending_counts", "pending_seen") for r in rel]
            index += self._scalar_index
            found = (rel, np.array(index, dtype=np.intp))
            self._seat_cache[key] = found
        return found

    def _template(self, rel_side: Sequence[int],
                  melds: Sequence[Sequence[Meld]]) -> npt.NDArray[np.float32]:
        """Everything the melds on the table decide, as a full-size array: meld features,
        faces per side, burraco counts, meld counts, closing readiness, and the deck less
        the tables in ``unseen``.  Cached on the meld objects' identities (kept alive by the
        cached side blocks) and the sides' order."""
        sides = tuple(tuple(map(id, side)) for side in melds)
        key = (tuple(rel_side), sides)
        found = self._templates.get(key)
        if found is not None:
            return found[0]
        lay = self.layout
        o = lay.offsets
        template = np.zeros(lay.size, dtype=np.float32)
        stride = lay.max_melds * _MELD_STRIDE
        unseen = self._deck.copy()
        blocks = []
        for side, side_melds in enumerate(melds):
            if not side_melds:
                continue
            r = rel_side[side]
            block = self._side(side_melds)
            blocks.append(block)
            start = o["melds"] + r * stride
            template[start:start + block.rows.size] = block.rows
            table = o["table"] + r * FACES
            template[table:table + FACES] = block.faces
            unseen -= block.faces
            b = o["burraco"] + 3 * r
            template[b:b + 3] = block.burraco
            template[o["meld_count"] + r] = len(side_melds)
            template[o["closing_ready"] + r] = block.ready
        template[o["unseen"]:o["unseen"] + FACES] = unseen
        template.flags.writeable = False
        if len(self._templates) > _CACHE_LIMIT:
            self._templates.clear()
        self._templates[key] = (template, blocks)
        return template


def slice_of(obs: npt.NDArray[np.float32], name: str,
             layout: Layout = V0) -> npt.NDArray[np.float32]:
    """One named slice, shaped: per-seat face blocks as (seats, 53), per side (sides, 53)."""
    return obs[layout.slices[name]].reshape(layout.shape_of(name))
