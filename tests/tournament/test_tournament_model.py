"""The tournament value: registration, rounds from the schedule, result entry and its checks."""

from __future__ import annotations

import doctest
import itertools

import pytest

import burraco.tournament.address
import burraco.tournament.danish
import burraco.tournament.draw
import burraco.tournament.duplicate
import burraco.tournament.entries
import burraco.tournament.held
import burraco.tournament.individual
import burraco.tournament.mitchell
import burraco.tournament.model
import burraco.tournament.reseat
import burraco.tournament.round_robin
import burraco.tournament.scale
import burraco.tournament.schedule
import burraco.tournament.service
import burraco.tournament.web_tables
from burraco.tournament.errors import TournamentError
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.schedule import Schedule
from burraco.tournament.standings import standings


def _field(pairs: int, schedule: str = "mitchell:3,danish:1", **options: object) -> Tournament:
    t = Tournament(Settings("Torneo", schedule=Schedule.parse(schedule), **options))  # type: ignore[arg-type]
    for n in range(1, pairs + 1):
        t, _ = t.register(f"Pair {n}", [f"A{n}", f"B{n}"])
    return t


def _play_round(t: Tournament, score: int = 0) -> Tournament:
    """Enter a result at every table: NS wins by 5 * (table + score) MP."""
    current = t.current
    assert current is not None
    for table in current.tables:
        t = t.record(current.number, table.number, 1000 + 5 * (table.ns + score), 1000)
    return t


@pytest.mark.parametrize("module", [
    burraco.tournament.model, burraco.tournament.scale, burraco.tournament.schedule,
    burraco.tournament.mitchell, burraco.tournament.danish, burraco.tournament.round_robin,
    burraco.tournament.draw, burraco.tournament.duplicate, burraco.tournament.entries,
    burraco.tournament.individual, burraco.tournament.web_tables, burraco.tournament.held,
    burraco.tournament.reseat, burraco.tournament.address, burraco.tournament.service,
])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_seed_event_three_mitchell_then_danish() -> None:
    t = _field(24)
    assert t.status == "registration" and t.total_rounds == 4
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        t = t.start_round()
        assert t.status == f"round {number}"
        current = t.current
        assert current is not None and current.movement == "mitchell"
        assert len(current.tables) == 12
        for table in current.tables:
            assert table.ns == table.number, "NS pairs 1–12 stay at their table"
            assert frozenset(table.pairs()) not in met
            met.add(frozenset(table.pairs()))
        t = _play_round(t, number)
        assert t.status == f"round {number} done"
    t = t.start_round()
    final = t.current
    assert final is not None and final.movement == "danish"
    ranking = [s.pair for s in standings(t)]
    assert [table.pairs() for table in final.tables] == [
        (ranking[i], ranking[i + 1]) for i in range(0, 24, 2)]
    t = _play_round(t)
    assert t.finished and t.status == "finished"
    with pytest.raises(TournamentError, match="all 4 rounds of the schedule"):
        t.start_round()


def test_next_round_waits_for_every_result() -> None:
    t = _field(6).start_round()
    t = t.record(1, 1, 500, 400)
    with pytest.raises(TournamentError,
                       match=r"round 1 is not over: no result yet at table\(s\) 2, 3"):
        t.start_round()


def test_registration_rules() -> None:
    t = _field(2, "mitchell:1")
    with pytest.raises(TournamentError, match="already registered"):
        t.register("pair 1")
    with pytest.raises(TournamentError, match="needs a name"):
        t.register("   ")
    with pytest.raises(TournamentError, match="cannot be a number"):
        t.register("17")
    started = t.start_round()
    with pytest.raises(TournamentError, match="registration closed"):
        started.register("Late pair")
    assert t.find_pair("PAIR 2").number == 2
    assert t.find_pair("1").name == "Pair 1"
    with pytest.raises(TournamentError, match=r"no pair 31 in this tournament \(pairs: 1–2\)"):
        t.find_pair("31")


def test_impossible_schedule_is_refused_before_round_one() -> None:
    t = _field(6, "mitchell:4")
    with pytest.raises(TournamentError, match="at most 3 Mitchell rounds"):
        t.start_round()
    with pytest.raises(TournamentError, match="everyone has met everyone after 5"):
        _field(6, "roundrobin:6").start_round()
    with pytest.raises(TournamentError, match="at least 2 pairs"):
        _field(1).start_round()


def test_odd_field_gets_byes_with_the_configured_award() -> None:
    t = _field(7, "mitchell:4", bye_vp=12, bye_mp=0)
    byes = []
    for _ in range(4):
        t = t.start_round()
        current = t.current
        assert current is not None and len(current.byes) == 1
        byes += current.byes
        t = _play_round(t)
    assert len(set(byes)) == 4, "the bye moves to a different NS pair each round"
    table = {s.pair: s for s in standings(t)}
    assert table[byes[0]].byes == 1
    assert table[byes[0]].played == 3


def test_round_robin_event_every_pair_meets_every_other() -> None:
    t = _field(5, "roundrobin")
    assert t.total_rounds == 5
    matches = []
    while not t.finished:
        t = _play_round(t.start_round())
    matches = [frozenset((r.ns, r.ew)) for r in t.results]
    assert len(matches) == 5 * 4 // 2
    assert set(matches) == {frozenset(m) for m in itertools.combinations(range(1, 6), 2)}


def test_modified_danish_after_danish_avoids_the_rematch() -> None:
    t = _play_round(_field(8, "danish:1,danish-modified:1").start_round())
    first = {frozenset(tab.pairs()) for tab in t.rounds[0].tables}
    t = t.start_round()
    assert t.current is not None and t.current.movement == "danish-modified"
    assert not first & {frozenset(tab.pairs()) for tab in t.current.tables}


def test_drawn_first_round_seating_is_reproducible() -> None:
    a = _field(8, "mitchell:1", seating="draw", seed=11).start_round()
    b = _field(8, "mitchell:1", seating="draw", seed=11).start_round()
    c = _field(8, "mitchell:1", seating="draw", seed=12).start_round()
    assert a.rounds == b.rounds
    assert a.rounds != c.rounds


def test_random_draw_rounds_avoid_rematches() -> None:
    t = _field(10, "random:3", seed=5)
    met: set[frozenset[int]] = set()
    for _ in range(3):
        t = t.start_round()
        assert t.current is not None
        for table in t.current.tables:
            assert frozenset(table.pairs()) not in met
            met.add(frozenset(table.pairs()))
        t = _play_round(t)


# --- result entry -----------------------------------------------------------------------------

@pytest.fixture
def playing() -> Tournament:
    return _field(6, "mitchell:3").start_round()  # table 1: 1 v 4, 2: 2 v 5, 3: 3 v 6


@pytest.mark.parametrize(("call", "message"), [
    (lambda t: t.record(1, 1, 1234, 900), "round 1, table 1: the NS score 1234 is not a "
                                          "multiple of 5"),
    (lambda t: t.record(1, 1, 1200, 902), "the EW score 902 is not a multiple of 5"),
    (lambda t: t.record(1, 1, 1200, 900, vp=(12, 8)),
     "VP 12–8 do not follow the table 'FIBur 3 smazzate .*': MP 1200 – 900 \\(difference 300, "
     "band 255–350\\) give 13–7"),
    (lambda t: t.record(1, 9, 1200, 900), r"round 1 has no table 9 \(tables: 1, 2, 3\)"),
    (lambda t: t.record(2, 1, 1200, 900), r"round 2 has not started \(rounds started: 1–1\)"),
    (lambda t: t.record(1, 1, 1200, 900, ns=31), r"no pair 31 in this tournament \(pairs: 1–6\)"),
    (lambda t: t.record(1, 1, 1200, 900, ns=1, ew=5),
     "round 1, table 1 seats pair 1 NS and pair 4 EW, so the EW pair is 4, not 5"),
    (lambda t: t.record(1, 1, 1200, 900, hands=[(400, 300), (400, 300)]),
     "2 smazzate given, the matches have 3"),
    (lambda t: t.record(1, 1, 1200, 900, hands=[(400, 300), (400, 300), (400, 301)]),
     "smazzata 3, the EW score 301 is not a multiple of 5"),
    (lambda t: t.record(1, 1, 1200, 900, hands=[(400, 300), (400, 300), (300, 300)]),
     "the smazzate add up to 1100 – 900, not 1200 – 900"),
    (lambda t: t.record(1, 1, 1200, 900, correct=True), "has no result to correct"),
    (lambda t: t.record(1, 1, 1200, 900).record(1, 1, 1000, 900),
     r"already has a result \(MP 1200 – 900, VP 13–7\); enter it as a correction"),
    (lambda t: t.record(1, 1, 10**6, 0), "not a plausible Burraco score"),
])
def test_bad_results_are_refused_and_change_nothing(playing: Tournament, call: object,
                                                   message: str) -> None:
    before = playing
    with pytest.raises(TournamentError, match=message):
        call(playing)  # type: ignore[operator]
    assert playing == before and playing.results == ()


def test_a_good_result_and_its_correction(playing: Tournament) -> None:
    t = playing.record(1, 2, 1200, 900, vp=(13, 7), ns=2, ew=5,
                       hands=[(400, 300), (400, 300), (400, 300)])
    result = t.result(1, 2)
    assert result is not None
    assert (result.ns, result.ew, result.mp, result.vp) == (2, 5, (1200, 900), (13, 7))
    t = t.record(1, 2, 900, 1200, correct=True)
    result = t.result(1, 2)
    assert result is not None and result.vp == (7, 13) and result.hands == ()
    assert len(t.results) == 1
    assert {s.pair: s.vp for s in standings(t)}[5] == 13


def test_negative_scores_are_fine(playing: Tournament) -> None:
    t = playing.record(1, 3, -150, 410)
    result = t.result(1, 3)
    assert result is not None and result.vp == (5, 15)


def test_settings_round_trip() -> None:
    settings = Settings("Club", hands=4, schedule=Schedule.parse("mitchell:2@2,danish:1"),
                        duplicate=True, bye_vp=12, bye_mp=0, tie_breaks=("h2h", "lot"),
                        seating="draw", seed=9)
    assert Settings.from_dict(settings.to_dict()) == settings
    with pytest.raises(TournamentError, match="bye award must be 0 to 20"):
        Settings("Club", bye_vp=25)
    with pytest.raises(TournamentError, match="bye's MP must be a multiple of 5"):
        Settings("Club", bye_mp=353)
