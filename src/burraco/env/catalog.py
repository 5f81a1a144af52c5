"""The fixed action catalog of ``burraco_v0``: one stable integer id per atomic engine action.

Version :data:`CATALOG_VERSION` (docs/research-env.md).  Ids are laid out in
ranges, each a function of card faces (0–52, ``cards.py``) and meld slots only,
never of physical cards, so an id means the same in every hand and every seat:

========================  =========================  ==========================================
range                     size                       action
========================  =========================  ==========================================
``DRAW``                  1                          ``draw``
``PICKUP``                1                          ``pickup``
``DISCARD + f``           53                         ``discard f``
``ATTACH + m*53 + f``     ``MAX_MELDS`` × 53         ``attach m+1 f`` (one card, side meld ``m``)
``ATTACH_HAND + m``       ``MAX_MELDS``              ``attach m+1 <every card in hand>``
``MELD + k``              ``len(MELD_FACES)``        ``meld MELD_FACES[k]``
========================  =========================  ==========================================

Three packs (5 and 6 players) append their own ids after these (slots 36–53
and the sets that need a third copy: ``ATTACH_X``, ``ATTACH_HAND_X``,
``MELD_X``), so every two-pack id keeps its meaning; functions take
``packs=3`` for them.

``MAX_MELDS`` is 36: a meld has at least 3 of the 108 cards, so no side can
ever hold more, and every ``Attach`` the engine lists has an id.  The engine
lists attachments one card at a time, except the whole-hand attachment that
legal.py's docstring describes (a hand holding the card barred by the
one-card-pile rule, emptied onto one meld at once); its faces are always the
whole hand, so the meld slot alone names it and decoding it needs the hand.

``MELD_FACES`` enumerates every face multiset that can open a legal meld with
two packs: sequences (suit × run of natural slots with at most one interior
slot left empty × no wild or one of JK, 2H, 2D, 2C, 2S, the natural-2 readings
included) and sets (rank × copies of each suit, 0–2 × no wild or one wild),
each kept only if the engine's meld reader accepts it under the most
permissive rules, deduplicated in enumeration order.  Every table is built
once, on first use.

>>> from burraco.engine import Draw, parse_action
>>> action_id(Draw())
0
>>> describe(action_id(parse_action("meld 5H 6H 7H")))
'meld 5H 6H 7H'
>>> str(action_of(action_id(parse_action("attach 3 8H"))))
'attach 3 8H'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product

import numpy as np

from burraco.engine.actions import DRAW as DRAW_ACTION
from burraco.engine.actions import PICKUP as PICKUP_ACTION
from burraco.engine.actions import Action, Attach, Discard, Draw, NewMeld, Pickup
from burraco.engine.cards import (
    ACE_HIGH,
    CARD_FACE,
    FACE_IS_WILD,
    FACE_POINTS,
    FACES,
    JOKER,
    Face,
    face_str,
    make_face,
    sort_key,
)
from burraco.engine.melds import Meld, ids_for_faces, read_meld
from burraco.engine.rules import FIBUR

CATALOG_VERSION = 0
"""Bumped whenever any id changes meaning; the tests pin a digest of the tables."""

MAX_MELDS = 36
"""Meld slots per side that have ids (108 cards / 3 cards per meld: a proven bound)."""
MAX_MELDS_THREE_PACKS = 54
"""The same bound with three packs (5 and 6 players): 162 cards / 3."""

DRAW = 0
PICKUP = 1
DISCARD = 2
ATTACH = DISCARD + FACES
ATTACH_HAND = ATTACH + MAX_MELDS * FACES
MELD = ATTACH_HAND + MAX_MELDS
BASE_SIZE = 16131
"""Ids of the two-pack catalog (``MELD + len(meld_faces())``, checked when the tables are built).
The three-pack catalog appends its own after these, so every id below keeps its meaning."""
ATTACH_X = BASE_SIZE
"""Three packs: ``ATTACH_X + (m - 36)*53 + f`` attaches face ``f`` to slot ``m`` ≥ 36."""
ATTACH_HAND_X = ATTACH_X + (MAX_MELDS_THREE_PACKS - MAX_MELDS) * FACES
MELD_X = ATTACH_HAND_X + MAX_MELDS_THREE_PACKS - MAX_MELDS
"""Three packs: ``MELD_X + j`` opens the j-th face multiset that needs a third pack."""

KIND_NAMES = ("draw", "pickup", "discard", "attach", "attach-hand", "meld")
"""Names of the id kinds, indexed by :data:`KINDS` values."""

_WILD_OPTIONS: tuple[Face | None, ...] = (
    None, JOKER, *(make_face(2, suit) for suit in range(4)))
_SET_RANKS = (1, *range(3, 14))


def _slot_face(slot: int, suit: int) -> Face:
    return make_face(1 if slot == ACE_HIGH else slot, suit)


def is_meld_shape(faces: Sequence[Face]) -> bool:
    """Whether the engine reads these faces as a legal new meld (most permissive rules)."""
    return len(faces) >= 3 and isinstance(read_meld(ids_for_faces(faces), FIBUR), Meld)


def _enumerate_melds(packs: int = 2) -> tuple[tuple[Face, ...], ...]:
    """Every face multiset of a legal new meld (``packs`` packs), in a fixed order."""
    found: dict[tuple[Face, ...], None] = {}

    def keep(faces: list[Face]) -> None:
        if len(faces) >= 3:  # every such shape is legal: the tests check it with is_meld_shape
            found[tuple(sorted(faces, key=sort_key))] = None

    for suit in range(4):
        for lo in range(1, ACE_HIGH):
            for hi in range(lo + 1, ACE_HIGH + 1):
                if lo == 1 and hi == ACE_HIGH:
                    continue  # one ace per sequence
                for empty in (None, *range(lo + 1, hi)):
                    naturals = [_slot_face(s, suit) for s in range(lo, hi + 1) if s != empty]
                    for wild in _WILD_OPTIONS:
                        if wild is None and empty is not None:
                            continue  # a gap needs the wild
                        keep(naturals if wild is None else [*naturals, wild])
    for rank in _SET_RANKS:
        suits = [make_face(rank, suit) for suit in range(4)]
        for copies in product(range(packs + 1), repeat=4):
            naturals = [f for f, k in zip(suits, copies, strict=True) for _ in range(k)]
            if len(naturals) < 2:
                continue
            for wild in _WILD_OPTIONS:
                keep(naturals if wild is None else [*naturals, wild])
    return tuple(found)


class Tables:
    """The catalog's lookup tables for two or three packs, built once by :func:`tables`.

    Per id, read-only NumPy arrays for policies that score ids by features:
    ``kinds`` (index into :data:`KIND_NAMES`), ``cards`` (cards it puts down or
    throws; 0 for draw, pickup and the whole hand), ``wilds`` (jokers and 2s
    among them), ``points`` (their face points), ``face`` (the one face of a
    discard or single attachment, else -1) and ``slot`` (the meld slot of an
    attachment, else -1); ``meld`` is the index into ``meld_faces`` of a new
    meld, else -1.  The three-pack tables extend the two-pack ones: their first
    :data:`BASE_SIZE` ids are the same.
    """

    def __init__(self, packs: int = 2) -> None:
        if packs not in (2, 3):
            raise ValueError(f"the catalog is for two or three packs, not {packs}")
        self.packs = packs
        base = _enumerate_melds(2)
        if MELD + len(base) != BASE_SIZE:
            raise AssertionError("the two-pack catalog changed size: bump CATALOG_VERSION")
        known = set(base)
        extra = tuple(f for f in _enumerate_melds(3) if f not in known) if packs == 3 else ()
        self.meld_faces = base + extra
        self.meld_index = {faces: k for k, faces in enumerate(self.meld_faces)}
        self.max_melds = MAX_MELDS if packs == 2 else MAX_MELDS_THREE_PACKS
        self.size = BASE_SIZE if packs == 2 else MELD_X + len(extra)
        self.base_melds = len(base)
        n = self.size
        kinds = np.zeros(n, dtype=np.int8)
        cards = np.zeros(n, dtype=np.int16)
        wilds = np.zeros(n, dtype=np.int16)
        points = np.zeros(n, dtype=np.int16)
        face = np.full(n, -1, dtype=np.int16)
        slot = np.full(n, -1, dtype=np.int16)
        meld = np.full(n, -1, dtype=np.int32)
        kinds[PICKUP] = 1
        for f in range(FACES):
            ids = [DISCARD + f, *(attach_id(m, f) for m in range(self.max_melds))]
            for i in ids:
                cards[i], wilds[i], points[i], face[i] = 1, FACE_IS_WILD[f], FACE_POINTS[f], f
            kinds[ids[0]] = 2
            kinds[ids[1:]] = 3
        for m in range(self.max_melds):
            slot[[attach_id(m, f) for f in range(FACES)]] = m
            slot[attach_hand_id(m)] = m
            kinds[attach_hand_id(m)] = 4
        for k, faces in enumerate(self.meld_faces):
            i = meld_id(k)
            kinds[i] = 5
            meld[i] = k
            cards[i] = len(faces)
            wilds[i] = sum(FACE_IS_WILD[f] for f in faces)
            points[i] = sum(FACE_POINTS[f] for f in faces)
        for array in (kinds, cards, wilds, points, face, slot, meld):
            array.flags.writeable = False
        self.kinds, self.cards, self.wilds, self.points = kinds, cards, wilds, points
        self.face, self.slot, self.meld = face, slot, meld


def attach_id(slot: int, face: Face) -> int:
    """The id of attaching one card of ``face`` to meld slot ``slot``."""
    if slot < MAX_MELDS:
        return ATTACH + slot * FACES + face
    return ATTACH_X + (slot - MAX_MELDS) * FACES + face


def attach_hand_id(slot: int) -> int:
    """The id of attaching the whole hand to meld slot ``slot``."""
    return ATTACH_HAND + slot if slot < MAX_MELDS else ATTACH_HAND_X + slot - MAX_MELDS


def meld_id(k: int) -> int:
    """The id of opening ``meld_faces(3)[k]`` (the two-pack ones come first)."""
    return MELD + k if MELD + k < BASE_SIZE else MELD_X + (MELD + k - BASE_SIZE)


@lru_cache(maxsize=2)
def tables(packs: int = 2) -> Tables:
    return Tables(packs)


def size(packs: int = 2) -> int:
    """Number of ids (the ``Discrete`` action space's ``n``) of a table with ``packs`` packs."""
    return tables(packs).size


def meld_faces(packs: int = 2) -> tuple[tuple[Face, ...], ...]:
    """Faces of every new-meld id, in id order (``meld_id(k)`` opens ``meld_faces()[k]``)."""
    return tables(packs).meld_faces


def kind(action: int, packs: int = 2) -> str:
    """``draw``, ``pickup``, ``discard``, ``attach``, ``attach-hand`` or ``meld``."""
    return KIND_NAMES[int(tables(packs).kinds[_checked(action, packs)])]


def _checked(action: int, packs: int = 2) -> int:
    n = tables(packs).size
    if not 0 <= action < n:
        raise ValueError(f"no action id {action} (catalog v{CATALOG_VERSION} for {packs} packs "
                         f"has {n})")
    return action


def action_id(action: Action, hand: Iterable[int] | None = None, packs: int = 2) -> int:
    """The id of an engine action; ``ValueError`` if the catalog has none (``time``).

    An attachment of several cards has an id only as the whole hand's (the one
    kind the engine lists): give ``hand`` (physical cards) to have that checked.
    ``packs`` 3 admits the three-pack ids (slots 36–53, sets of three copies).
    """
    if isinstance(action, Draw):
        return DRAW
    if isinstance(action, Pickup):
        return PICKUP
    if isinstance(action, Discard):
        return DISCARD + action.face
    if isinstance(action, Attach):
        limit = tables(packs).max_melds
        if not 0 <= action.meld < limit:
            raise ValueError(f"meld slot {action.meld} is beyond the catalog's {limit}")
        if len(action.faces) == 1:
            return attach_id(action.meld, action.faces[0])
        if hand is not None and sorted(action.faces) != sorted(CARD_FACE[c] for c in hand):
            raise ValueError(f"{action}: only a whole-hand attachment of several cards has an id")
        return attach_hand_id(action.meld)
    if isinstance(action, NewMeld):
        index = tables(packs).meld_index
        k = index.get(tuple(action.faces))
        if k is None:
            k = index.get(tuple(sorted(action.faces, key=sort_key)))
        if k is None:
            raise ValueError(f"{action} is not a legal meld shape")
        return meld_id(k)
    raise ValueError(f"{action} has no id: only a player's actions do")


def action_of(action: int, hand: Iterable[int] | None = None, packs: int = 2) -> Action:
    """The engine action of an id.

    ``hand`` (the acting seat's physical cards, ``View.hand``) is needed only
    for the whole-hand attachment ids, whose faces are the hand's.
    """
    t = tables(packs)
    k = int(t.kinds[_checked(action, packs)])
    if k == 0:
        return DRAW_ACTION
    if k == 1:
        return PICKUP_ACTION
    if k == 2:
        return Discard(action - DISCARD)
    if k == 3:
        return Attach(int(t.slot[action]), (int(t.face[action]),))
    if k == 4:
        if hand is None:
            raise ValueError("a whole-hand attachment id needs the hand to name its cards")
        faces = tuple(sorted((CARD_FACE[c] for c in hand), key=sort_key))
        return Attach(int(t.slot[action]), faces)
    return NewMeld(t.meld_faces[int(t.meld[action])])


def describe(action: int, packs: int = 2) -> str:
    """The id as action text, the whole hand written ``*``: ``attach 2 *``."""
    if kind(action, packs) == "attach-hand":
        return f"attach {int(tables(packs).slot[action]) + 1} *"
    return str(action_of(action, packs=packs))


def faces_text(faces: Sequence[Face]) -> str:
    return " ".join(face_str(f) for f in faces)
