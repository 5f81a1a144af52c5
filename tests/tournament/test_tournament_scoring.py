"""VP scales (§11.2–11.3), schedules, standings and tie-breaks (§11.5), duplicate (§11.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from burraco.tournament.duplicate import duplicate_scores, round_scores
from burraco.tournament.errors import TournamentError
from burraco.tournament.model import Result, Round, Settings, Tournament
from burraco.tournament.scale import VpScale, scale_for
from burraco.tournament.schedule import Schedule, Segment
from burraco.tournament.seating import Table
from burraco.tournament.standings import standings

# RULES.md §11.2, table A (3 smazzate) and table B (4): (lowest diff, highest diff, winner VP)
TABLE_A = [(0, 50, 10), (55, 150, 11), (155, 250, 12), (255, 350, 13), (355, 500, 14),
           (505, 650, 15), (655, 800, 16), (805, 1000, 17), (1005, 1250, 18), (1255, 1500, 19),
           (1505, 9000, 20)]
TABLE_B = [(0, 100, 10), (105, 300, 11), (305, 500, 12), (505, 700, 13), (705, 900, 14),
           (905, 1100, 15), (1105, 1300, 16), (1305, 1500, 17), (1505, 1700, 18),
           (1705, 2000, 19), (2005, 9000, 20)]


def _edges(hands: int, table: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    return [(hands, diff, vp) for low, high, vp in table for diff in (low, high)]


@pytest.mark.parametrize(("hands", "diff", "vp"), _edges(3, TABLE_A) + _edges(4, TABLE_B))
def test_every_vp_band_edge_both_ways(hands: int, diff: int, vp: int) -> None:
    scale = VpScale.builtin(hands)
    assert scale.official
    assert scale.vp(700 + diff, 700) == (vp, 20 - vp)
    assert scale.vp(-300, -300 + diff) == (20 - vp, vp)


def test_no_official_table_for_five_smazzate_is_invented() -> None:
    with pytest.raises(TournamentError, match=r"no official VP table .* 5 smazzate.*--vp-table"):
        VpScale.builtin(5)
    with pytest.raises(TournamentError, match="no official VP table"):
        Settings("Club", hands=5)


def test_two_smazzate_need_no_typed_table() -> None:
    """Issue 36: FIBur's 2-smazzate table (RULES.md §11.2 table C) is built in and official."""
    scale = VpScale.builtin(2)
    assert scale.official and scale.vp(1305, 1000) == (14, 6) and scale.vp(0, 1005) == (0, 20)
    assert Settings("Club", hands=2).hands == 2


def test_a_configured_table_is_named_and_not_official() -> None:
    scale = scale_for(2, "club two-hand:30,90,150,210,300,400,500,650,800,1000")
    assert (scale.name, scale.official, scale.hands) == ("club two-hand", False, 2)
    assert scale.vp(500, 470) == (10, 10)
    assert scale.vp(500, 465) == (11, 9)
    assert scale.vp(0, 1005) == (0, 20)
    assert Settings("Club", hands=2, scale=scale).vp_scale is scale


@pytest.mark.parametrize(("text", "message"), [
    ("30,90", "expected NAME:B1,...,B10"),
    (":30,90", "expected NAME:B1,...,B10"),
    ("x:30,90,150", "needs 10 bounds"),
    ("x:30,90,150,210,300,400,500,650,800,1003", "multiples of 5"),
    ("x:30,90,150,210,300,300,500,650,800,1000", "must increase"),
    ("x:30,ninety", "whole numbers"),
])
def test_bad_vp_tables_are_refused(text: str, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        VpScale.parse(text, hands=2)


def test_vp_band_text() -> None:
    scale = VpScale.builtin(3)
    assert scale.band(300) == "255–350"
    assert scale.band(0) == "0–50"
    assert scale.band(2000) == "≥ 1505"


# --- schedules --------------------------------------------------------------------------------

def test_schedule_of_the_seed_round_trips() -> None:
    s = Schedule.parse("mitchell:3,danish:1")
    assert s.segments == (Segment("mitchell", 3), Segment("danish", 1))
    assert str(s) == "mitchell:3,danish:1"
    assert s.total_rounds(24) == 4
    assert s.at(4, 24) == (Segment("danish", 1), 0)


def test_schedule_aliases_steps_and_round_robin() -> None:
    s = Schedule.parse(" Danese:1 , mitchell:2@3, italiana, danese-modificato:1, sorteggio:2")
    assert str(s) == "danish:1,mitchell:2@3,roundrobin,danish-modified:1,random:2"
    assert Schedule.parse(str(s)) == s
    assert s.total_rounds(8) == 1 + 2 + 7 + 1 + 2
    assert s.total_rounds(7) == 1 + 2 + 7 + 1 + 2
    assert s.mitchell_steps(8) == [3, 3]


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty schedule"),
    ("mitchel:3,swiss:2", "unknown movement 'swiss'"),
    ("mitchell", r"give the number of rounds, e.g. mitchell:3"),
    ("mitchell:three", "number of rounds must be a whole number, not 'three'"),
    ("mitchell:0", "must be 1 to 99"),
    ("mitchell:3,", "empty segment"),
    ("danish:1@2", "only a Mitchell has a step"),
    ("mitchell:3@0", "step must be at least 1"),
    ("mitchell:3@x", "step must be a whole number"),
])
def test_bad_schedules_name_the_segment(text: str, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        Schedule.parse(text)


# --- standings and tie-breaks -----------------------------------------------------------------

def _event(results: list[tuple[int, int, int, int]], *, pairs: int = 4,
           tie_breaks: tuple[str, ...] = ("mp_diff", "h2h", "lot"), byes: tuple[int, ...] = (),
           duplicate: bool = False) -> Tournament:
    """A tournament with one round per result: (ns, ew, ns_mp, ew_mp)."""
    t = Tournament(Settings("T", schedule=Schedule.parse("random:9"), tie_breaks=tie_breaks,
                            duplicate=duplicate))
    for n in range(1, pairs + 1):
        t, _ = t.register(f"pair {n}")
    rounds = []
    rows = []
    scale = t.settings.vp_scale
    for i, (ns, ew, a, b) in enumerate(results, start=1):
        rounds.append(Round(i, "random", (Table(1, ns, ew),), byes if i == 1 else ()))
        rows.append(Result(i, 1, ns, ew, (a, b), scale.vp(a, b)))
    return Tournament(t.settings, t.pairs, tuple(rounds), tuple(rows))


def test_ranking_by_vp() -> None:
    t = _event([(1, 2, 1200, 900), (3, 4, 400, 1000)])
    table = standings(t)
    assert [(s.rank, s.pair, s.vp) for s in table] == [(1, 4, 15), (2, 1, 13), (3, 2, 7),
                                                      (4, 3, 5)]
    assert table[0].mp_diff == 600 and table[0].mp == 1000 and table[0].played == 1


def test_equal_vp_broken_by_mp_difference() -> None:
    # 1 beats 2 by 300 (13–7) and 3 beats 4 by 260 (13–7): same VP, 1 has the larger scarto
    t = _event([(1, 2, 1200, 900), (3, 4, 760, 500)])
    assert [s.pair for s in standings(t)][:2] == [1, 3]


def test_equal_vp_and_scarto_broken_by_head_to_head() -> None:
    # 3 beats 1 by 300 (13–7); 1 beats 2 by 505 (15–5); 3 loses to 4 by 95 (9–11):
    # 1 and 3 both end on 22 VP and +205 MP, and 3 won their match
    t = _event([(3, 1, 1000, 700), (1, 2, 1005, 500), (3, 4, 600, 695)])
    table = {s.pair: s for s in standings(t)}
    assert (table[1].vp, table[1].mp_diff) == (table[3].vp, table[3].mp_diff) == (22, 205)
    ranked = [s.pair for s in standings(t)]
    assert ranked.index(3) < ranked.index(1)


def test_head_to_head_is_skipped_for_pairs_that_never_met() -> None:
    # 1 and 3 level on VP and scarto and never met: head-to-head cannot decide; the draw does
    t = _event([(1, 2, 1200, 900), (3, 4, 1200, 900)], tie_breaks=("mp_diff", "h2h"))
    table = standings(t)
    assert [(s.rank, s.tied) for s in table[:2]] == [(1, True), (1, True)]
    assert {table[0].pair, table[1].pair} == {1, 3}
    assert table[2].rank == 3


def test_lot_is_reproducible_and_separates_every_tie() -> None:
    t = _event([(1, 2, 1200, 900), (3, 4, 1200, 900)])
    first = standings(t)
    assert [s.rank for s in first] == [1, 2, 3, 4]
    assert not any(s.tied for s in first)
    assert first == standings(t)


def test_tie_breaks_are_configurable_mp_scored_before_scarto() -> None:
    # equal VP; 1 has the larger scarto, 3 scored more MP
    t = _event([(1, 2, 1200, 900), (3, 4, 1460, 1200)], tie_breaks=("mp", "mp_diff"))
    assert [s.pair for s in standings(t)][:2] == [3, 1]
    t = _event([(1, 2, 1200, 900), (3, 4, 1460, 1200)], tie_breaks=("mp_diff", "mp"))
    assert [s.pair for s in standings(t)][:2] == [1, 3]


def test_unknown_or_repeated_tie_break_is_refused() -> None:
    with pytest.raises(TournamentError, match="unknown tie-break 'coin'"):
        Settings("T", tie_breaks=("mp_diff", "coin"))
    with pytest.raises(TournamentError, match="listed twice"):
        Settings("T", tie_breaks=("h2h", "h2h"))


def test_bye_award_counts_in_standings() -> None:
    t = _event([(1, 2, 1000, 1000)], pairs=3, byes=(3,))
    table = {s.pair: s for s in standings(t)}
    assert (table[3].vp, table[3].mp_diff, table[3].byes, table[3].played) == (14, 355, 1, 0)
    assert standings(t)[0].pair == 3


# --- duplicate --------------------------------------------------------------------------------

def test_duplicate_scores_hand_computed() -> None:
    """Three tables play the same deals.  NS differences: +600, 0, −300 (sum 300).

    Table 1: 600 − mean(0, −300) = 600 + 150 = 750 for NS 1, −750 for EW 4.
    Table 2: 0 − mean(600, −300) = 0 − 150 = −150 for NS 2, +150 for EW 5.
    Table 3: −300 − mean(600, 0) = −300 − 300 = −600 for NS 3, +600 for EW 6.
    """
    rows = [Result(1, 1, 1, 4, (900, 300), (15, 5)), Result(1, 2, 2, 5, (400, 400), (10, 10)),
            Result(1, 3, 3, 6, (200, 500), (7, 13))]
    scores = round_scores(rows)
    assert scores == {1: 750, 4: -750, 2: -150, 5: 150, 3: -600, 6: 600}
    assert sum(scores.values()) == 0


def test_duplicate_scores_keep_fractions_and_a_lone_table_scores_zero() -> None:
    rows = [Result(1, 1, 1, 5, (500, 0), (14, 6)), Result(1, 2, 2, 6, (0, 0), (10, 10)),
            Result(1, 3, 3, 7, (0, 0), (10, 10)), Result(1, 4, 4, 8, (0, 100), (10, 10))]
    scores = round_scores(rows)
    assert scores[1] == 500 - Fraction(-100, 3)
    assert scores[4] == -100 - Fraction(500, 3)
    assert round_scores(rows[:1]) == {1: 0, 5: 0}


def test_duplicate_event_ranks_by_the_duplicate_score_not_vp() -> None:
    settings = Settings("D", schedule=Schedule.parse("mitchell:1"), duplicate=True)
    t = Tournament(settings)
    for n in range(1, 7):
        t, _ = t.register(f"p{n}")
    t = t.start_round()
    # pair 1 wins big but so does every NS: the hands favoured NS; pair 3's NS win is smallest
    t = t.record(1, 1, 1500, 500).record(1, 2, 1400, 300).record(1, 3, 900, 600)
    table = standings(t)
    dup = duplicate_scores(t)
    assert dup[3] == 300 - Fraction(1000 + 1100, 2)
    assert table[0].pair == 6, "EW pair 6 lost least on cards that favoured NS"
    assert table[0].vp < max(s.vp for s in table)
    assert settings.ranking[0] == "dup"


@pytest.mark.parametrize(("ns", "ew"), [(-100, 900), (900, -100), (-300, -50), (-2000, 0)])
def test_negative_totals_give_the_vp_of_their_difference(ns: int, ew: int) -> None:
    """A match total below 0 is legal in Burraco: only the MP difference counts (§11.2)."""
    scale = scale_for(3)
    diff = abs(ns - ew)
    winner = next(vp for low, high, vp in TABLE_A if low <= diff <= high)
    expected = (winner, 20 - winner) if ns >= ew else (20 - winner, winner)
    assert scale.vp(ns, ew) == expected
    t = Tournament(Settings("Serata", schedule=Schedule.parse("mitchell:1")))
    for n in range(1, 5):
        t, _ = t.register(f"P{n}")
    t = t.start_round().record(1, 1, ns, ew)
    assert t.results[0].vp == expected and t.results[0].mp == (ns, ew)
    mine = next(s for s in standings(t) if s.pair == t.results[0].ns)
    assert mine.vp == expected[0]
