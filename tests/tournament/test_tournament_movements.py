"""Movements (RULES.md §11.4): Mitchell, Danish, modified Danish, round robin, random draw."""

from __future__ import annotations

import itertools
import random

import pytest

from burraco.tournament.danish import danish_round
from burraco.tournament.draw import draw_round
from burraco.tournament.errors import TournamentError
from burraco.tournament.mitchell import check_offsets, lines, mitchell_round, offsets
from burraco.tournament.round_robin import cycle_length, round_robin_round
from burraco.tournament.seating import Seating


def _check_round(seating: Seating, pairs: list[int]) -> None:
    """Every pair appears exactly once: at one table or with a bye."""
    assert sorted(seating.seated()) == sorted(pairs)


# --- Mitchell ---------------------------------------------------------------------------------

@pytest.mark.parametrize("tables", range(3, 21))
def test_mitchell_rotation_and_no_repeat_3_to_20_tables(tables: int) -> None:
    pairs = list(range(1, 2 * tables + 1))
    ns, ew = lines(pairs)
    assert ns == tuple(range(1, tables + 1))
    assert ew == tuple(range(tables + 1, 2 * tables + 1))
    steps = [1] * tables  # step 1 allows exactly one round per table
    check_offsets(steps, tables)
    met: set[frozenset[int]] = set()
    where: dict[int, list[int]] = {p: [] for p in pairs}
    for rnd, offset in enumerate(offsets(steps)):
        seating = mitchell_round(ns, ew, offset=offset)
        _check_round(seating, pairs)
        assert seating.byes == ()
        for table in seating.tables:
            assert table.ns == ns[table.number - 1], "NS pairs never move"
            assert table.ew in ew, "NS pairs only ever meet EW pairs"
            match = frozenset(table.pairs())
            assert match not in met, f"pairs {set(match)} meet twice (round {rnd + 1})"
            met.add(match)
            where[table.ew].append(table.number)
    assert len(met) == tables * tables, "every NS pair met every EW pair once"
    for pair in ew:  # each EW pair moves one table up each round, from the last to the first
        moves = {(b - a) % tables for a, b in itertools.pairwise(where[pair])}
        assert moves == {1}


@pytest.mark.parametrize(("tables", "step", "rounds"), [
    (6, 2, 3), (7, 2, 7), (7, 3, 7), (10, 3, 10), (12, 5, 12), (9, 3, 3), (8, 2, 4),
])
def test_mitchell_step_moves_ew_that_many_tables(tables: int, step: int, rounds: int) -> None:
    pairs = list(range(1, 2 * tables + 1))
    ns, ew = lines(pairs)
    steps = [step] * rounds
    check_offsets(steps, tables)
    met: set[frozenset[int]] = set()
    previous: dict[int, int] = {}
    for offset in offsets(steps):
        seating = mitchell_round(ns, ew, offset=offset)
        for table in seating.tables:
            match = frozenset(table.pairs())
            assert match not in met
            met.add(match)
            if table.ew in previous:
                assert (table.number - previous[table.ew]) % tables == step % tables
            previous[table.ew] = table.number


@pytest.mark.parametrize(("tables", "step", "rounds"), [
    (3, 1, 4), (6, 2, 4), (9, 3, 4), (4, 4, 2), (8, 4, 3), (12, 6, 3),
])
def test_mitchell_refuses_rounds_that_would_repeat(tables: int, step: int, rounds: int) -> None:
    with pytest.raises(TournamentError, match="at most"):
        check_offsets([step] * rounds, tables)


@pytest.mark.parametrize("pairs", [3, 5, 7, 9, 25])
def test_mitchell_odd_field_rotates_the_bye_among_ns(pairs: int) -> None:
    order = list(range(1, pairs + 1))
    ns, ew = lines(order)
    tables = len(ns)
    assert ew[-1] is None
    byes = []
    for offset in range(tables):
        seating = mitchell_round(ns, ew, offset=offset)
        _check_round(seating, order)
        assert len(seating.byes) == 1 and seating.byes[0] in ns
        byes.append(seating.byes[0])
    assert sorted(byes) == sorted(ns), "each NS pair sits out once over a full rotation"


def test_mitchell_needs_two_pairs() -> None:
    with pytest.raises(TournamentError, match="at least 2 pairs"):
        lines([1])


# --- Danish -----------------------------------------------------------------------------------

def test_danish_pairs_by_rank_better_pair_ns() -> None:
    seating = danish_round([5, 2, 8, 1, 3, 7])
    assert [t.pairs() for t in seating.tables] == [(5, 2), (8, 1), (3, 7)]
    assert [t.number for t in seating.tables] == [1, 2, 3]


def test_plain_danish_allows_an_immediate_rematch() -> None:
    seating = danish_round([5, 2, 8, 1])
    assert seating.tables[0].pairs() == (5, 2)


def test_modified_danish_avoids_last_rounds_opponents() -> None:
    previous = {5: 2, 2: 5, 8: 1, 1: 8, 3: 7, 7: 3}
    seating = danish_round([5, 2, 8, 1, 3, 7], previous=previous)
    # 5 skips 2 (just met) and takes 8; 2 would take 1, but then 3 and 7 would meet again
    assert [t.pairs() for t in seating.tables] == [(5, 8), (2, 3), (1, 7)]


def test_modified_danish_backtracks_when_the_bottom_is_stuck() -> None:
    # greedy would give (1,2) (3,4) then 5 and 6, who just met: backtracking fixes it
    previous = {5: 6, 6: 5, 1: 3, 3: 1, 2: 4, 4: 2}
    seating = danish_round([1, 2, 3, 4, 5, 6], previous=previous)
    assert all(previous[t.ns] != t.ew for t in seating.tables)
    assert seating.tables[0].pairs() == (1, 2)
    _check_round(seating, [1, 2, 3, 4, 5, 6])


def test_modified_danish_with_two_pairs_must_repeat() -> None:
    seating = danish_round([2, 1], previous={1: 2, 2: 1})
    assert seating.tables[0].pairs() == (2, 1)


def test_danish_bye_goes_to_the_lowest_ranked_without_one() -> None:
    seating = danish_round([4, 1, 3, 2, 5], had_bye=[5])
    assert seating.byes == (2,)
    assert [t.pairs() for t in seating.tables] == [(4, 1), (3, 5)]


@pytest.mark.parametrize("seed", range(20))
def test_modified_danish_random_fields_never_rematch(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(4, 30, 2)
    pairs = list(range(1, n + 1))
    rng.shuffle(pairs)
    last = pairs[:]
    rng.shuffle(last)
    previous = {}
    for i in range(0, n, 2):
        previous[last[i]] = last[i + 1]
        previous[last[i + 1]] = last[i]
    seating = danish_round(pairs, previous=previous)
    _check_round(seating, pairs)
    assert all(previous[t.ns] != t.ew for t in seating.tables)


# --- round robin ------------------------------------------------------------------------------

@pytest.mark.parametrize("count", range(2, 17))
def test_round_robin_n_pairs_play_n_n_minus_1_over_2_matches(count: int) -> None:
    pairs = list(range(1, count + 1))
    matches: list[frozenset[int]] = []
    byes: list[int] = []
    ns_count = dict.fromkeys(pairs, 0)
    for index in range(cycle_length(count)):
        seating = round_robin_round(pairs, index)
        _check_round(seating, pairs)
        matches += [frozenset(t.pairs()) for t in seating.tables]
        byes += seating.byes
        for t in seating.tables:
            ns_count[t.ns] += 1
    assert len(matches) == count * (count - 1) // 2
    assert set(matches) == {frozenset(m) for m in itertools.combinations(pairs, 2)}
    if count % 2:
        assert sorted(byes) == pairs, "odd field: each pair sits out exactly once"
    else:
        assert byes == []
    rounds = cycle_length(count) - (1 if count % 2 else 0)
    assert max(ns_count.values()) - min(ns_count.values()) <= rounds


def test_round_robin_has_no_round_past_the_cycle() -> None:
    with pytest.raises(TournamentError, match="has 3 rounds; there is no round 4"):
        round_robin_round([1, 2, 3, 4], 3)


# --- random draw ------------------------------------------------------------------------------

def test_draw_is_reproducible_and_avoids_rematches() -> None:
    pairs = list(range(1, 11))
    first = draw_round(pairs, random.Random(3))
    assert first == draw_round(pairs, random.Random(3))
    met = {p: {o} for p, o in first.opponents().items()}
    second = draw_round(pairs, random.Random(4), met=met)
    _check_round(second, pairs)
    assert all(t.ew not in met[t.ns] for t in second.tables)


def test_draw_bye_goes_to_a_pair_with_fewest_byes() -> None:
    pairs = [1, 2, 3]
    seating = draw_round(pairs, random.Random(1), byes={1: 1, 2: 1})
    assert seating.byes == (3,)
