"""Withdrawals in the fixed movements: nobody meets an opponent twice, whatever the mode.

The movement is planned with the whole field and the withdrawn pairs are taken out of it,
so a withdrawal never moves the pairs still playing into a place that repeats a match
(the lines used to be formed again, and the EW pairs after the gap slipped back one table).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.tournament import changes
from burraco.tournament.errors import TournamentError
from burraco.tournament.mitchell import check_offsets
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.schedule import Schedule


def event(schedule: str, pairs: int) -> Tournament:
    t = Tournament(Settings("Serata", schedule=Schedule.parse(schedule)))
    for n in range(1, pairs + 1):
        t, _ = t.register(f"P{n}")
    return t


def play(t: Tournament) -> Tournament:
    t = t.start_round()
    assert t.current is not None
    for table in t.current.tables:
        t = t.record(t.current.number, table.number, 600, 400)
    return t


def repeats(t: Tournament) -> list[tuple[int, int, int]]:
    """(pair, pair, round) of every match two pairs had already played."""
    seen: set[frozenset[int]] = set()
    out = []
    for played in t.rounds:
        for table in played.tables:
            key = frozenset(table.pairs())
            if key in seen:
                out.append((table.ns, table.ew, played.number))
            seen.add(key)
    return out


@pytest.mark.parametrize(("pairs", "gone"), [(8, 6), (10, 7), (8, 2), (9, 2)])
@pytest.mark.parametrize("mode", ["byes", "reseat"])
def test_a_mitchell_withdrawal_brings_back_no_opponent(pairs: int, gone: int, mode: str) -> None:
    t = play(event("mitchell:4" if pairs > 8 else "mitchell:3", pairs))
    t = play(changes.withdraw(t, gone, mode))
    second = {table.pairs() for table in t.rounds[1].tables}
    if (pairs, gone) == (8, 6):  # 1-5 2-6 3-7 4-8, then EW moves one table: 6 leaves a gap
        assert second == {(1, 8), (2, 5), (4, 7)} and t.rounds[1].byes == (3,)
    while len(t.rounds) < t.total_rounds:
        t = play(t)
    assert repeats(t) == []


def test_a_reseat_keeps_every_pair_at_its_table_and_in_its_line() -> None:
    t = play(event("mitchell:3", 8))  # NS 1-4 at tables 1-4, EW 5-8
    t = play(changes.withdraw(t, 2, "reseat"))  # an NS pair: its table has no NS pair
    for table in t.rounds[1].tables:
        assert table.ns == table.number and table.ew in (5, 6, 7, 8)


def test_a_reseat_pairs_the_pairs_left_alone() -> None:
    t = play(event("mitchell:3", 8))
    t = changes.withdraw(changes.withdraw(t, 6, "reseat"), 7, "reseat")
    t = play(t)  # 3 and 4 would face 6 and 7: they have never met, so they play each other
    assert t.rounds[1].byes == () and (3, 4) in {x.pairs() for x in t.rounds[1].tables}
    t = play(t)  # 1 and 4 are alone: they play; 3 is not met twice
    assert t.rounds[2].byes == () and repeats(t) == []
    with_byes = play(changes.withdraw(changes.withdraw(play(event("mitchell:3", 8)), 6, "byes"),
                                      7, "byes"))
    assert sorted(with_byes.rounds[1].byes) == [3, 4]  # byes: the movement as planned


def test_a_round_robin_withdrawal_brings_back_no_opponent() -> None:
    t = play(event("roundrobin:5", 8))
    t = changes.withdraw(t, 3, "reseat")
    while len(t.rounds) < t.total_rounds:
        t = play(t)
    assert repeats(t) == []


@st.composite
def evenings(draw: st.DrawFn) -> tuple[int, str, list[tuple[int, int, str]]]:
    """(pairs, schedule, withdrawals as (after round, pair, mode)) of a legal Mitchell."""
    pairs = draw(st.integers(6, 30))
    tables = (pairs + 1) // 2
    rounds = draw(st.integers(3, min(5, tables)))
    step = draw(st.sampled_from([1, 1, 2]))
    try:
        check_offsets([step] * rounds, tables)
    except TournamentError:
        step = 1
    schedule = f"mitchell:{rounds}" + (f"@{step}" if step != 1 else "")
    count = draw(st.integers(1, max(1, pairs // 3)))
    gone = draw(st.lists(st.integers(1, pairs), min_size=count, max_size=count, unique=True))
    withdrawals = [(draw(st.integers(1, rounds - 1)), p, draw(st.sampled_from(changes.MODES)))
                   for p in gone]
    return pairs, schedule, withdrawals


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_withdrawals_never_make_two_pairs_meet_twice(
        case: tuple[int, str, list[tuple[int, int, str]]]) -> None:
    pairs, schedule, withdrawals = case
    t = event(schedule, pairs)
    gone: set[int] = set()
    while len(t.rounds) < t.total_rounds:
        if t.rounds:
            for after, pair, mode in withdrawals:
                if after == len(t.rounds) and pairs - len(gone) > 2:
                    t = changes.withdraw(t, pair, mode)
                    gone.add(pair)
        t = play(t)
        played = t.rounds[-1]
        seated = [p for table in played.tables for p in table.pairs()] + list(played.byes)
        assert sorted(seated) == sorted(set(range(1, pairs + 1)) - gone), played
        assert len({x.number for x in played.tables}) == len(played.tables)
    assert repeats(t) == [], (schedule, withdrawals)
