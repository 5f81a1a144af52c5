"""The fixed action catalog: layout, version, round trips,
and the meld table checked against the engine's meld reader in both directions."""

from __future__ import annotations

import doctest
import hashlib
import random
from itertools import combinations_with_replacement, product

import pytest

from burraco.engine import Attach, Discard, Draw, NewMeld, Pickup, parse_action
from burraco.engine.actions import CallTime
from burraco.engine.cards import FACES, JOKER, make_face, parse_faces, sort_key
from burraco.engine.deal import ids_from_faces
from burraco.env import catalog
from burraco.env.catalog import (
    ATTACH,
    ATTACH_HAND,
    CATALOG_VERSION,
    DISCARD,
    DRAW,
    MAX_MELDS,
    MELD,
    PICKUP,
    action_id,
    action_of,
    describe,
    is_meld_shape,
)

# Any change to an id's meaning must bump CATALOG_VERSION and this digest (docs/research-env.md).
DIGEST_V0 = "ebb95bb40c3a8b1a312e29981b21efbf8f3040cd0e02dc8ceb12144d65290062"
TWOS = [make_face(2, s) for s in range(4)]


def test_the_layout_is_version_0() -> None:
    assert CATALOG_VERSION == 0
    assert (DRAW, PICKUP, DISCARD, ATTACH) == (0, 1, 2, 55)
    assert MAX_MELDS == 36 and ATTACH_HAND == ATTACH + 36 * FACES and MELD == ATTACH_HAND + 36
    assert len(catalog.meld_faces()) == 14132 and catalog.size() == 16131
    text = "\n".join(describe(i) for i in range(catalog.size()))
    assert hashlib.sha256(text.encode()).hexdigest() == DIGEST_V0


def test_max_melds_bounds_every_side() -> None:
    """A meld has at least three cards, so 108 cards never make more than 36 melds."""
    assert MAX_MELDS * 3 >= 108


def test_every_id_round_trips() -> None:
    hand = ids_from_faces([parse_faces("9H 10H")])[0]
    for i in range(catalog.size()):
        action = action_of(i, hand)
        assert action_id(action) == i, (i, action)
        if catalog.kind(i) != "attach-hand":
            assert action_of(i) == action
            assert parse_action(describe(i)) == action, i
    assert describe(ATTACH_HAND + 2) == "attach 3 *"
    assert action_of(ATTACH_HAND + 2, hand) == Attach(2, tuple(parse_faces("9H 10H")))


def test_kinds_and_examples() -> None:
    assert action_id(Draw()) == DRAW and catalog.kind(DRAW) == "draw"
    assert action_id(Pickup()) == PICKUP and catalog.kind(PICKUP) == "pickup"
    assert action_id(Discard(JOKER)) == DISCARD + 52 and catalog.kind(DISCARD + 52) == "discard"
    assert action_id(parse_action("attach 36 KS")) == ATTACH + 35 * FACES + make_face(13, 3)
    assert catalog.kind(action_id(parse_action("meld 5H 6H 7H"))) == "meld"
    # the faces of a meld may be named in any order
    assert action_id(NewMeld((make_face(7, 0), make_face(5, 0), make_face(6, 0)))) == \
        action_id(parse_action("meld 5H 6H 7H"))


def test_what_has_no_id_is_refused() -> None:
    with pytest.raises(ValueError, match="no id"):
        action_id(CallTime())
    with pytest.raises(ValueError, match="not a legal meld shape"):
        action_id(NewMeld(tuple(parse_faces("5H 6H 8H"))))
    with pytest.raises(ValueError, match="beyond"):
        action_id(Attach(MAX_MELDS, (3,)))
    with pytest.raises(ValueError, match="no action id"):
        action_of(catalog.size())
    with pytest.raises(ValueError, match="needs the hand"):
        action_of(ATTACH_HAND)
    hand = ids_from_faces([parse_faces("7C 10C KD")])[0]
    with pytest.raises(ValueError, match="whole-hand"):
        action_id(parse_action("attach 1 7C 10C"), hand)
    assert action_id(parse_action("attach 1 7C 10C KD"), hand) == ATTACH_HAND


def test_every_meld_id_is_a_legal_meld() -> None:
    table = catalog.meld_faces()
    assert len(set(table)) == len(table)
    for faces in table:
        assert faces == tuple(sorted(faces, key=sort_key))
        assert is_meld_shape(faces), faces


def _complete(candidates: list[tuple[int, ...]]) -> None:
    """Each candidate is in the table iff the engine reads it as a new meld."""
    index = set(catalog.meld_faces())
    for faces in candidates:
        key = tuple(sorted(faces, key=sort_key))
        assert (key in index) == is_meld_shape(faces), key


def test_every_short_sequence_shape_has_an_id() -> None:
    """All multisets of 3–5 cards from one suit and the wilds (two packs' copies)."""
    pool = [make_face(rank, 1) for rank in range(1, 14)] + [t for t in TWOS if t != 14] + [JOKER]
    for n in (3, 4, 5):
        _complete([
            c for c in combinations_with_replacement(pool, n)
            if all(c.count(f) <= (4 if f == JOKER else 2) for f in set(c))
        ])


def test_every_set_shape_has_an_id() -> None:
    """Any per-suit copies 0–2 of two ranks, with no, one or two wilds."""
    for rank in (1, 7):
        suits = [make_face(rank, s) for s in range(4)]
        candidates = []
        for copies in product(range(3), repeat=4):
            naturals = [f for f, k in zip(suits, copies, strict=True) for _ in range(k)]
            for wilds in ([], [JOKER], [TWOS[2]], [JOKER, TWOS[0]], [TWOS[1], TWOS[1]]):
                if len(naturals) + len(wilds) >= 3:
                    candidates.append(tuple(naturals + wilds))
        _complete(candidates)
    _complete([tuple(parse_faces("2H 2D 2C")), tuple(parse_faces("2H 2H JK"))])


def test_long_random_sequence_shapes_have_ids() -> None:
    """Random multisets of 6–14 cards of one suit and wilds, most of them near-runs."""
    rng = random.Random(5)
    candidates = []
    for _ in range(3000):
        suit = rng.randrange(4)
        lo = rng.randrange(1, 13)
        hi = min(14, lo + rng.randrange(5, 14))
        slots = list(range(lo, hi + 1))
        if rng.random() < 0.5:
            slots.remove(rng.choice(slots))
        faces = [make_face(1 if s == 14 else s, suit) for s in slots]
        faces += rng.sample([JOKER, *TWOS, *TWOS], rng.randrange(0, 3))
        candidates.append(tuple(faces))
    _complete(candidates)


def test_doctests() -> None:
    assert doctest.testmod(catalog).failed == 0
