"""The matching behind the events' pairings, held to brute force: a pairing with no
forbidden pair is found exactly when one exists, each choice is the first one that keeps
the rest pairable, and the one left out of an odd count is the first that can be."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from hypothesis import event, given, settings
from hypothesis import strategies as st

from burraco.meet.matching import pairing, symmetric


def completable(players: frozenset[int], forbidden: Sequence[frozenset[int]]) -> bool:
    """Whether ``players`` can all be paired avoiding ``forbidden``, by trying every way."""
    @cache
    def go(rest: frozenset[int]) -> bool:
        if not rest:
            return True
        p = min(rest)
        return any(go(rest - {p, q}) for q in rest - {p} if q not in forbidden[p])
    return go(players)


def in_order(p: int, rest: Sequence[int]) -> Sequence[int]:
    return rest


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[frozenset[int]], list[int]]:
    count = draw(st.integers(0, 12))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.7, 0.85]))
    edges = [pair for pair in itertools.combinations(range(count), 2)
             if draw(st.floats(0, 1)) < density]
    forbidden = [frozenset(s) for s in symmetric(count, edges)]
    sit_out = draw(st.permutations(list(range(count))))
    return count, forbidden, sit_out


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_property_pairing_matches_brute_force(
        drawn: tuple[int, list[frozenset[int]], list[int]]) -> None:
    count, forbidden, sit_out = drawn
    everyone = frozenset(range(count))
    found = pairing(count, forbidden, in_order, sit_out)
    if count % 2:
        possible = [b for b in sit_out if completable(everyone - {b}, forbidden)]
        if not possible:
            event("odd, none")
            assert found is None
            return
        assert found is not None
        pairs, left = found
        assert left == [possible[0]]
    else:
        if not completable(everyone, forbidden):
            event("even, none")
            assert found is None
            return
        assert found is not None
        pairs, left = found
        assert left == []
    event("paired")
    seated = [x for pair in pairs for x in pair]
    assert sorted(seated + left) == list(range(count))
    assert all(b not in forbidden[a] for a, b in pairs)
    # each choice: the best-ranked free player takes the first partner that keeps the rest
    # pairable
    rest = everyone - set(left)
    for a, b in pairs:
        assert a == min(rest)
        first = next(q for q in sorted(rest - {a})
                     if q not in forbidden[a] and completable(rest - {a, q}, forbidden))
        assert b == first
        rest = rest - {a, b}


def most_pairs(players: frozenset[int], forbidden: Sequence[frozenset[int]]) -> int:
    """The most disjoint allowed pairs among ``players``, by trying every way."""
    @cache
    def go(rest: frozenset[int]) -> int:
        if len(rest) < 2:
            return 0
        p = min(rest)
        best = go(rest - {p})
        for q in rest - {p}:
            if q not in forbidden[p]:
                best = max(best, 1 + go(rest - {p, q}))
        return best
    return go(players)


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_property_leaving_out_as_few_as_can_be(
        drawn: tuple[int, list[frozenset[int]], list[int]]) -> None:
    count, forbidden, sit_out = drawn
    everyone = frozenset(range(count))
    found = pairing(count, forbidden, in_order, sit_out, most_left=count)
    assert found is not None
    pairs, left = found
    size = most_pairs(everyone, forbidden)
    assert len(pairs) == size and len(left) == count - 2 * size
    assert all(b not in forbidden[a] for a, b in pairs)
    expected: list[int] = []
    for u in sit_out:
        if len(expected) == count - 2 * size:
            break
        if most_pairs(everyone - set(expected) - {u}, forbidden) == size:
            expected.append(u)
    assert left == expected


def test_a_blossom_is_seen_through() -> None:
    # 0-1-2 a triangle, 2-3, 3-4-5 a triangle: allowed edges only; its one perfect
    # matching needs the path through both odd cycles
    allowed = {(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (4, 5), (3, 5)}
    forbidden = symmetric(6, [p for p in itertools.combinations(range(6), 2)
                              if p not in allowed])
    found = pairing(6, forbidden, in_order)
    assert found is not None
    assert sorted(found[0]) == [(0, 1), (2, 3), (4, 5)]
    forbidden[2].add(3)
    forbidden[3].add(2)
    assert pairing(6, forbidden, in_order) is None


def test_preferences_are_followed() -> None:
    def backwards(p: int, rest: Sequence[int]) -> Sequence[int]:
        return list(reversed(rest))

    found = pairing(6, [set() for _ in range(6)], backwards)
    assert found is not None and found[0] == [(0, 5), (1, 4), (2, 3)]
    found = pairing(5, [set() for _ in range(5)], in_order, sit_out=[2, 4])
    assert found is not None and found == ([(0, 1), (3, 4)], [2])
