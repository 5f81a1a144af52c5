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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from burraco.engine.cards import CARD_FACE, FACE_POINTS, FACES, JOKER, make_face
from burraco.engine.melds import SEQUENCE, Meld, base_type
from burraco.engine.rules import Rules
from burraco.engine.state import DRAW_PHASE, OVER, PLAY_PHASE, closing_ready
from burraco.engine.views import View
from burraco.env.catalog import MAX_MELDS

SEATS = 4
"""Seat slots (2-player tables use the first two)."""
SIDES = 2

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

# (name, length, high bound); low bounds are 0 except where _NEGATIVE says
_LAYOUT: tuple[tuple[str, int, float], ...] = (
    ("hand", FACES, 4),
    ("pozzetto_seen", FACES, 4),
    ("barred", FACES, 1),
    ("pile", FACES, 4),
    ("pile_top", FACES, 1),
    ("unseen", FACES, 4),
    ("known", SEATS * FACES, 4),
    ("table", SIDES * FACES, 4),
    ("melds", SIDES * MAX_MELDS * len(MELD_FEATURES), 1000),
    ("hand_counts", SEATS, 108),
    ("hidden_counts", SEATS, 108),
    ("pending_counts", SEATS, 18),
    ("pending_seen", SEATS, 1),
    ("pozzetto_taker", SEATS, 1),
    ("turn", SEATS, 1),
    ("dealer", SEATS, 1),
    ("pozzetto_taken", SIDES, 1),
    ("closing_ready", SIDES, 1),
    ("burraco", SIDES * 3, 36),
    ("meld_count", SIDES, MAX_MELDS),
    ("phase", 2, 1),
    ("my_turn", 1, 1),
    ("stock_count", 1, 108),
    ("pile_count", 1, 108),
    ("pozzetti_left", 1, 2),
    ("final_turn", 1, 1),
    ("time_called", 1, 1),
    ("time_left", 1, 12),
    ("stall", 1, 1000),
    ("turn_single_pickup", 1, 1),
    ("turn_melded", 1, 1),
    ("match", 4, 1000),
)
_NEGATIVE = {"match": -1000.0}


def _slices() -> dict[str, slice]:
    out: dict[str, slice] = {}
    start = 0
    for name, length, _ in _LAYOUT:
        out[name] = slice(start, start + length)
        start += length
    return out


SLICES: dict[str, slice] = _slices()
"""Name → slice of the flat observation (docs/research-env.md describes each)."""
OBS_SIZE = SLICES["match"].stop
LOW = np.zeros(OBS_SIZE, dtype=np.float32)
HIGH = np.zeros(OBS_SIZE, dtype=np.float32)
for _name, _length, _high in _LAYOUT:
    HIGH[SLICES[_name]] = _high
    LOW[SLICES[_name]] = _NEGATIVE.get(_name, 0.0)

_CACHE_LIMIT = 10_000  # cached melds and sides; a hand makes a few hundred, so clearing is rare
_O = {name: s.start for name, s in SLICES.items()}
_MELD_STRIDE = len(MELD_FEATURES)
_HAND, _POZZETTO_SEEN, _PILE, _UNSEEN, _KNOWN, _MATCH = (
    SLICES[name] for name in ("hand", "pozzetto_seen", "pile", "unseen", "known", "match"))
_TABLE_0 = slice(_O["table"], _O["table"] + FACES)
_TABLE_1 = slice(_O["table"] + FACES, _O["table"] + 2 * FACES)


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """Match scores for the ``match`` slice (all zero when an episode is one hand)."""

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


class Encoder:
    """Turns a seat's view into the flat observation (one per rules; caches meld features)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
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

    def _side(self, melds: tuple[Meld, ...]) -> _SideBlock:
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
        block = _SideBlock(
            melds, rows, faces, table[:, _F["clean"]:_F["dirty"] + 1].sum(axis=0),
            closing_ready(list(melds), self.rules))
        if len(self._sides) > _CACHE_LIMIT:
            self._sides.clear()
        self._sides[key] = block
        return block

    def encode(self, view: View, match: MatchInfo = NO_MATCH) -> npt.NDArray[np.float32]:
        """The observation of ``view.seat`` (a seat, not a spectator).

        ``view.moves`` is not read, so a view of a state without history gives
        the same observation.
        """
        me = view.seat
        if me is None:
            raise ValueError("observations are for a seat, not a spectator")
        players = view.players
        face = CARD_FACE
        o = _O
        # every card shown is counted by face: one bincount over flat indices
        ones: list[int] = []
        base = o["hand"]
        ones += [base + face[c] for c in view.hand]
        base = o["pozzetto_seen"]
        ones += [base + face[c] for c in view.pozzetto_seen]
        if view.barred >= 0:
            ones.append(o["barred"] + face[view.barred])
        base = o["pile"]
        ones += [base + face[c] for c in view.pile]
        if view.pile:
            ones.append(o["pile_top"] + face[view.pile[-1]])
        rel = [(seat - me) % players for seat in range(players)]
        for seat, cards in enumerate(view.known):
            if cards:
                base = o["known"] + rel[seat] * FACES
                ones += [base + face[c] for c in cards]
        my_side = view.side_of[me]
        rel_side = [0 if side == my_side else 1 for side in range(len(view.melds))]
        obs = np.bincount(ones, minlength=OBS_SIZE).astype(np.float32)

        for side, melds in enumerate(view.melds):
            if not melds:
                continue
            r = rel_side[side]
            block = self._side(melds)
            start = o["melds"] + r * MAX_MELDS * _MELD_STRIDE
            obs[start:start + block.rows.size] = block.rows
            obs[o["table"] + r * FACES:o["table"] + (r + 1) * FACES] = block.faces
            obs[o["burraco"] + 3 * r:o["burraco"] + 3 * r + 3] = block.burraco
            obs[o["meld_count"] + r] = len(melds)
            obs[o["closing_ready"] + r] = block.ready

        seen = obs[_HAND] + obs[_POZZETTO_SEEN] + obs[_PILE] + obs[_TABLE_0] + obs[_TABLE_1]
        known = obs[_KNOWN]
        for k in range(1, players):
            seen += known[k * FACES:(k + 1) * FACES]
        obs[_UNSEEN] = self._deck - seen

        for side, taker in enumerate(view.pozzetto_taker):
            if taker >= 0:
                obs[o["pozzetto_taken"] + rel_side[side]] = 1
                obs[o["pozzetto_taker"] + rel[taker]] = 1
        pending_hidden = 0 if view.pozzetto_seen else view.pending_counts[me]
        for seat in range(players):
            r = rel[seat]
            held = view.hand_counts[seat]
            obs[o["hand_counts"] + r] = held
            obs[o["hidden_counts"] + r] = (
                pending_hidden if seat == me else held - len(view.known[seat]))
            obs[o["pending_counts"] + r] = view.pending_counts[seat]
            obs[o["pending_seen"] + r] = view.pending_seen[seat]
        obs[o["turn"] + rel[view.turn]] = 1
        obs[o["dealer"] + rel[view.dealer]] = 1
        phase = view.phase
        if phase == DRAW_PHASE:
            obs[o["phase"]] = 1
        elif phase == PLAY_PHASE:
            obs[o["phase"] + 1] = 1
        obs[o["my_turn"]] = view.turn == me and phase != OVER
        obs[o["stock_count"]] = view.stock_count
        obs[o["pile_count"]] = len(view.pile)
        obs[o["pozzetti_left"]] = view.pozzetti_left
        obs[o["final_turn"]] = view.final_turn
        obs[o["time_called"]] = view.time_left >= 0
        obs[o["time_left"]] = max(view.time_left, 0)
        obs[o["stall"]] = view.stall
        obs[o["turn_single_pickup"]] = view.turn_single_pickup
        obs[o["turn_melded"]] = view.turn_melded
        if match is not NO_MATCH:
            obs[_MATCH] = (match.own / 1000, match.other / 1000, match.target / 1000,
                           match.hands)
        return obs


def slice_of(obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
    """One named slice, shaped: per-seat face blocks as (SEATS, 53), per side (SIDES, 53)."""
    part = obs[SLICES[name]]
    if name == "known":
        return part.reshape(SEATS, FACES)
    if name == "table":
        return part.reshape(SIDES, FACES)
    if name == "melds":
        return part.reshape(SIDES, MAX_MELDS, _MELD_STRIDE)
    if name == "burraco":
        return part.reshape(SIDES, 3)
    return part

