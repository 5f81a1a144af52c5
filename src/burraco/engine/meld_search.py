"""Every distinct new meld a hand can open, by card faces (RULES.md §4).

This is the hot path of ``legal_actions``: it builds melds shape by shape
(runs of one suit with at most one gap, sets per rank) from face counts
instead of testing subsets, and emits each face multiset once.  Every shape
it emits is a legal meld by construction; the conformance tests check that
against the meld solver.

What one suit's runs (or one rank's sets) allow depends only on which faces of
that suit are held, which wilds are held and whether the suit's 2 is held
twice, so each answer is computed once per such key and kept, with its
``NewMeld`` actions ready made: hands repeat those per-suit patterns all the
time, and most calls of ``legal_actions`` then build no meld at all.
"""

from __future__ import annotations

from collections.abc import Set
from itertools import product

from burraco.engine.actions import NewMeld
from burraco.engine.cards import ACE_HIGH, CARD_FACE, JOKER, make_face
from burraco.engine.melds import SET, Meld, accepts
from burraco.engine.rules import Rules

_TWO_OF = tuple(make_face(2, s) for s in range(4))
_WILD_FACES = (*_TWO_OF, JOKER)
# _SLOT_FACE[suit][slot]: the natural face standing in a sequence slot (1 and 14 are the ace)
_SLOT_FACE = tuple(
    tuple(make_face(1 if slot in (1, ACE_HIGH) else slot, suit) if slot else -1
          for slot in range(ACE_HIGH + 1))
    for suit in range(4)
)


_Found = dict[tuple[int, ...], None]
_SEQUENCE_CACHE: dict[int, tuple[NewMeld, ...]] = {}
_SET_CACHE: dict[tuple[int, int, int, int, int, int, int], tuple[NewMeld, ...]] = {}
CACHE_LIMIT = 1 << 13
"""Entries each meld cache holds before it starts again (emptied whole: cheaper than an LRU's
bookkeeping on every hit).  A process that plays for months meets ever new holdings, so an
unbounded cache would grow without end; the shapes that matter come back within a few hands."""


def candidate_actions(
    counts: list[int], rules: Rules, *, set_ranks_taken: Set[int],
    sequence_suits_taken: Set[int] = frozenset(), suit_masks: list[int] | None = None,
    rank_counts: list[int] | None = None,
) -> list[NewMeld]:
    """``NewMeld`` of every legal new meld ``counts`` allows, in :func:`candidate_melds`'s order.

    ``suit_masks`` and ``rank_counts`` (optional, the caller may have them): per suit, bit ``k``
    set when the face ``suit * 13 + k`` is held; per ``face % 13``, the cards held of that
    rank.  The actions come from caches shared by every call, so they
    must not be changed (they are frozen dataclasses).
    """
    wild_mask = 0
    wilds: list[int] = []
    for bit, w in enumerate(_WILD_FACES):
        if counts[w]:
            wild_mask |= 1 << bit
            wilds.append(w)
    out: list[NewMeld] = []
    same_suit = rules.same_suit_sequences
    for suit in range(4):
        if not same_suit and suit in sequence_suits_taken:
            continue
        base = suit * 13
        if suit_masks is not None:
            mask = suit_masks[suit]
        else:
            mask = 0
            for k in range(13):
                if counts[base + k]:
                    mask |= 1 << k
        if mask & (mask - 1) == 0:
            continue  # fewer than two naturals of the suit: no run
        key = (((mask << 5) | wild_mask) << 1 | (counts[base + 1] >= 2)) << 2 | suit
        cached = _SEQUENCE_CACHE.get(key)
        if cached is None:
            found: _Found = {}
            _sequences(counts, suit, wilds, found)
            cached = tuple(NewMeld(tuple(sorted(f))) for f in found)
            if len(_SEQUENCE_CACHE) >= CACHE_LIMIT:
                _SEQUENCE_CACHE.clear()
            _SEQUENCE_CACHE[key] = cached
        out += cached
    allowed = rules.set_ranks
    limit = 4 * rules.packs
    for rank, faces in _SET_FACES:
        if rank_counts is not None and rank_counts[faces[0]] < 2:
            continue  # faces[0] is the rank's heart, whose face is rank - 1
        a, b, c, d = counts[faces[0]], counts[faces[1]], counts[faces[2]], counts[faces[3]]
        total = a + b + c + d
        if total < 2 or (total == 2 and not wilds):
            continue
        if rank in set_ranks_taken or (allowed is not None and rank not in allowed):
            continue
        set_key = (rank, a, b, c, d, wild_mask, limit)
        made = _SET_CACHE.get(set_key)
        if made is None:
            found = {}
            _rank_sets(faces, (a, b, c, d), limit, wilds, found)
            made = tuple(NewMeld(tuple(sorted(f))) for f in found)
            if len(_SET_CACHE) >= CACHE_LIMIT:
                _SET_CACHE.clear()
            _SET_CACHE[set_key] = made
        out += made
    return out


def candidate_melds(
    counts: list[int], rules: Rules, *, set_ranks_taken: Set[int],
    sequence_suits_taken: Set[int] = frozenset(),
) -> list[tuple[int, ...]]:
    """Face multisets (unsorted tuples) of every legal new meld ``counts`` allows."""
    wilds = [w for w in _WILD_FACES if counts[w]]
    found: dict[tuple[int, ...], None] = {}
    for suit in range(4):
        if not rules.same_suit_sequences and suit in sequence_suits_taken:
            continue
        _sequences(counts, suit, wilds, found)
    _sets(counts, rules, wilds, set_ranks_taken, found)
    return list(found)


def _sequences(
    counts: list[int], suit: int, wilds: list[int], found: dict[tuple[int, ...], None],
) -> None:
    faces = _SLOT_FACE[suit]
    present = [False] + [counts[faces[slot]] > 0 for slot in range(1, ACE_HIGH + 1)]
    if sum(present) < 2:
        return
    two = _TWO_OF[suit]
    for a in range(1, ACE_HIGH):
        if not present[a]:
            continue
        gap = 0
        for b in range(a + 1, ACE_HIGH + 1):
            if a == 1 and b == ACE_HIGH:
                break  # one ace per sequence
            if not present[b]:
                if gap:
                    break
                gap = b
                continue
            naturals = [faces[s] for s in range(a, b + 1) if s != gap]
            uses_two = a <= 2 <= b and gap != 2
            if not gap:
                if b - a >= 2:
                    found[tuple(sorted(naturals))] = None
                free = a - 1 if a > 1 else b + 1
                if free > ACE_HIGH:
                    continue
                for w in wilds:
                    if w == two and (free == 2 or (uses_two and counts[two] < 2)):
                        continue
                    found[tuple(sorted([*naturals, w]))] = None
                # the wild may also stand for a held natural that is kept in hand
                for skip in range(a + 1, b):
                    kept = [faces[s] for s in range(a, b + 1) if s != skip]
                    needs_two = a <= 2 <= b and skip != 2
                    for w in wilds:
                        if w == two and (skip == 2 or (needs_two and counts[two] < 2)):
                            continue
                        found[tuple(sorted([*kept, w]))] = None
            else:
                for w in wilds:
                    if w == two and (gap == 2 or (uses_two and counts[two] < 2)):
                        continue
                    found[tuple(sorted([*naturals, w]))] = None


_SET_FACES = tuple(
    (rank, tuple(make_face(rank, s) for s in range(4))) for rank in (1, *range(3, 14)))


def _sets(
    counts: list[int], rules: Rules, wilds: list[int], taken: Set[int],
    found: dict[tuple[int, ...], None],
) -> None:
    allowed = rules.set_ranks
    limit = 4 * rules.packs
    for rank, faces in _SET_FACES:
        held = tuple(counts[f] for f in faces)
        total = held[0] + held[1] + held[2] + held[3]
        if total < 2 or (total == 2 and not wilds):
            continue
        if rank in taken or (allowed is not None and rank not in allowed):
            continue
        _rank_sets(faces, held, limit, wilds, found)


def _rank_sets(
    faces: tuple[int, ...], held: tuple[int, ...], limit: int, wilds: list[int], found: _Found,
) -> None:
    for picks in product(*(range(h + 1) for h in held)):
        n = sum(picks)
        if n < 2 or n > limit:
            continue
        naturals = [f for f, k in zip(faces, picks, strict=True) for _ in range(k)]
        if n >= 3:
            found[tuple(naturals)] = None
        for w in wilds:
            found[(*naturals, w)] = None


_ACCEPTS: dict[tuple[int, ...], frozenset[int]] = {}
_RULES_BY_ID: dict[int, Rules] = {}


def accepts_by_shape(meld: Meld, rules: Rules) -> frozenset[int]:
    """``melds.accepts`` memoised on the meld's shape, which alone decides what fits.

    A sequence's faces follow from its suit, slots and wild face, a set's from
    its rank and sizes, so equal shapes accept equal faces.
    """
    cached = meld._accepts
    if cached is not None and meld._accepts_rules is rules:
        return cached
    if id(rules) not in _RULES_BY_ID:
        if len(_RULES_BY_ID) >= 64 or len(_ACCEPTS) >= CACHE_LIMIT:
            # every table has its own Rules: start again rather than keep each one alive
            # (and an id may be reused once its Rules is freed, so the answers go too)
            _RULES_BY_ID.clear()
            _ACCEPTS.clear()
        _RULES_BY_ID[id(rules)] = rules  # keep the id valid for the cache key
    key: tuple[int, ...]
    if meld.kind == SET:
        key = (id(rules), 0, meld.rank, len(meld.cards), meld.wild)
    else:
        wild_face = CARD_FACE[meld.cards[meld.wild - meld.lo]] if meld.wild else -1
        key = (id(rules), 1, meld.suit, meld.lo, len(meld.cards), meld.wild, wild_face)
    result = _ACCEPTS.get(key)
    if result is None:
        result = accepts(meld, rules)
        if len(_ACCEPTS) >= CACHE_LIMIT:
            _ACCEPTS.clear()
            _RULES_BY_ID.clear()
            _RULES_BY_ID[id(rules)] = rules
        _ACCEPTS[key] = result
    meld._accepts = result
    meld._accepts_rules = rules
    return result
