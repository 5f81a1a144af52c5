"""The evening's accidents: late pairs, no-shows, a round drawn by mistake, renames,
arbitral scores and a match cut short by time.

RULES.md §11.4 (the Mitchell movement), §11.5 (the bye's award, a local rule), §12 (late
arrival, International Art. 34: the absent pair's 6 VP), §8.2 (time-out, FIBur Art. 15).
Each refusal changes nothing: the operations return a new tournament or raise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from burraco.tournament import changes
from burraco.tournament.errors import TournamentError
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.register import Typed, save_lines
from burraco.tournament.register import load as load_register
from burraco.tournament.schedule import Schedule
from burraco.tournament.service import Director
from burraco.tournament.standings import standings
from burraco.tournament.table_desk import Desk


def event(pairs: int, schedule: str = "mitchell:3,danish:1") -> Tournament:
    t = Tournament(Settings("Giovedì", schedule=Schedule.parse(schedule)))
    for n in range(1, pairs + 1):
        t, _ = t.register(f"P{n}", (f"A{n}", f"B{n}"))
    return t


def play(t: Tournament, ns: int = 600, ew: int = 400) -> Tournament:
    t = t.start_round()
    assert t.current is not None
    for table in t.current.tables:
        t = t.record(t.current.number, table.number, ns, ew)
    return t


def meetings(t: Tournament) -> list[frozenset[int]]:
    return [frozenset(table.pairs()) for r in t.rounds for table in r.tables]


# --- late entries ---------------------------------------------------------------------------

def test_a_late_pair_takes_the_bye_table_and_nobody_else_moves() -> None:
    t = play(event(7))  # 7 pairs: 4 tables, the NS pair facing the empty EW place sits out
    alone = event(7)
    alone = play(play(alone))
    t, late = changes.late_register(t, "Ritardatari", ("C", "D"), "bye")
    assert late.number == 8 and t.evening.late_entry(8) is not None
    t = t.start_round()
    second = t.rounds[1]
    assert second.byes == ()
    bye_pair = alone.rounds[1].byes[0]  # who would have sat out plays the late pair
    assert frozenset((bye_pair, 8)) in {frozenset(x.pairs()) for x in second.tables}
    kept = {x.pairs() for x in alone.rounds[1].tables}
    assert kept <= {x.pairs() for x in second.tables}  # every other table as planned
    assert len(meetings(t)) == len(set(meetings(t)))


def test_a_late_pair_scores_an_absence_for_the_round_it_missed() -> None:
    t = play(event(7))
    t, _ = changes.late_register(t, "Ritardatari", (), "bye")
    mine = next(s for s in standings(t) if s.pair == 8)
    assert (mine.vp, mine.mp_diff, mine.absent, mine.played) == (6, -355, 1, 0)
    t = changes.set_absent(t, 0, 0)
    mine = next(s for s in standings(t) if s.pair == 8)
    assert (mine.vp, mine.mp_diff) == (0, 0)
    with pytest.raises(TournamentError, match="0 to 20 VP"):
        changes.set_absent(t, 21, 0)
    with pytest.raises(TournamentError, match="multiple of 5"):
        changes.set_absent(t, 6, -352)


def test_the_bye_table_is_refused_when_the_movement_has_no_empty_place() -> None:
    t = play(event(8))
    with pytest.raises(TournamentError, match="no empty place"):
        changes.late_register(t, "Ritardatari", (), "bye")
    # …unless a pair withdrew: the late pair takes its place
    t = changes.withdraw(t, 6, "byes")
    t, late = changes.late_register(t, "Ritardatari", (), "bye")
    t = play(t)
    second = t.rounds[1]
    assert second.byes == () and 6 not in {p for x in second.tables for p in x.pairs()}
    assert any(late.number in x.pairs() for x in second.tables)


def test_two_late_pairs_after_round_1_with_the_movement_drawn_again() -> None:
    t = play(event(8))
    t, _ = changes.late_register(t, "Late A", (), "redraw")
    t, _ = changes.late_register(t, "Late B", (), "redraw")
    while len(t.rounds) < 3:
        t = play(t)
    for played in t.rounds[1:3]:
        assert len(played.tables) == 5 and played.byes == ()
    mitchell = meetings(t)
    assert len(mitchell) == len(set(mitchell))


def test_a_late_entry_is_refused_before_the_draw_and_after_the_last_round() -> None:
    with pytest.raises(TournamentError, match="register the pair as usual"):
        changes.late_register(event(8), "X", (), "redraw")
    t = event(8, "mitchell:2")
    t = play(play(t))
    with pytest.raises(TournamentError, match="no round left"):
        changes.late_register(t, "X", (), "redraw")
    with pytest.raises(TournamentError, match="bye, redraw"):
        changes.late_register(play(event(8)), "X", (), "later")
    with pytest.raises(TournamentError, match="late entry"):
        play(event(8)).register("X")


# --- no-shows and a round drawn by mistake -------------------------------------------------

def test_a_no_show_is_removed_and_the_later_pairs_move_up() -> None:
    t = changes.set_category(event(7), 4, "Senior")
    t = changes.remove_pair(t, 2)
    assert [(p.number, p.name) for p in t.pairs[:4]] == [(1, "P1"), (2, "P3"), (3, "P4"),
                                                         (4, "P5")]
    assert len(t.pairs) == 6 and t.evening.categories == ((3, "Senior"),)
    with pytest.raises(TournamentError, match="round 1 has been drawn"):
        changes.remove_pair(t.start_round(), 1)


def test_a_round_drawn_by_mistake_is_taken_back_while_nobody_entered_a_result() -> None:
    t = play(event(8))
    drawn = t.start_round()
    back = changes.undo_round(drawn)
    assert back.rounds == t.rounds
    assert back.start_round().rounds == drawn.rounds  # drawn again: the same seating
    entered = drawn.record(2, 1, 500, 500)
    with pytest.raises(TournamentError, match="table"):
        changes.undo_round(entered)
    first = changes.undo_round(event(8).start_round())  # round 1: registration opens again
    first, _ = first.register("P9")
    assert len(first.pairs) == 9


# --- renames --------------------------------------------------------------------------------

def test_a_rename_keeps_the_old_name_in_the_history() -> None:
    t = play(event(6))
    t = changes.rename(t, 2, "Bianchi – Verdi", ["Anna Bianchi", "Luca Verdi"])
    assert t.pair(2).name == "Bianchi – Verdi"
    r = t.evening.renames[-1]
    assert (r.before, r.after, r.players_before, r.rounds) == (
        "P2", "Bianchi – Verdi", ("A2", "B2"), 1)
    with pytest.raises(TournamentError, match="already has these names"):
        changes.rename(t, 2, "Bianchi – Verdi", ["Anna Bianchi", "Luca Verdi"])
    with pytest.raises(TournamentError, match="already registered"):
        changes.rename(t, 3, "p1")


# --- arbitral scores and the time-out -------------------------------------------------------

def test_an_arbitral_score_stands_instead_of_the_table() -> None:
    t = event(6).start_round()
    t = t.record(1, 1, 0, 0, arbitral=(14, 6))
    r = t.result(1, 1)
    assert r is not None and r.arbitral and r.vp == (14, 6)
    t = t.record(1, 2, 800, 700, arbitral=(12, 6), correct=False)  # a split score
    assert sum(s.vp for s in standings(t)) == 14 + 6 + 12 + 6
    for bad, words in (((21, 0), "between 0 and 20"), ((10.5, 9), "whole number")):
        with pytest.raises(TournamentError, match=words):
            t.record(1, 1, 0, 0, arbitral=bad, correct=True)  # type: ignore[arg-type]


def test_a_match_cut_short_by_time_has_fewer_smazzate() -> None:
    t = event(6).start_round()
    with pytest.raises(TournamentError, match="3"):
        t.record(1, 1, 900, 500, hands=[(400, 200), (500, 300)])
    t = t.record(1, 1, 900, 500, hands=[(400, 200), (500, 300)], timed_out=True)
    r = t.result(1, 1)
    assert r is not None and len(r.hands) == 2
    with pytest.raises(TournamentError, match="at most"):
        t.record(1, 2, 900, 500, hands=[(300, 100)] * 3 + [(0, 200)], timed_out=True)


# --- stored: the same through the director's database ---------------------------------------

def test_the_accidents_are_stored(tmp_path: Path) -> None:
    director = Director.open(f"sqlite:///{tmp_path / 'club.db'}")
    tid = director.create(Settings("Giovedì", schedule=Schedule.parse("mitchell:3")))
    director.register_all(tid, [(f"P{n}", (f"A{n}", f"B{n}")) for n in range(1, 9)])
    with director.engine.begin() as conn:  # pair 5's first player paid and stays for dinner
        save_lines(conn, tid, director.load(tid), {(5, 1): Typed(paid=True, dinner=True)})
    removed = director.remove_pair(tid, 3)
    with director.engine.connect() as conn:
        lines = load_register(conn, tid, director.load(tid)).lines
    moved = [(x.pair, x.player, x.name) for x in lines if x.dinner]
    assert moved == [(4, 1, "A5")]  # pair 5 is pair 4 now, its register line with it
    assert removed.name == "P3"
    assert [p.name for p in director.load(tid).pairs] == ["P1", "P2", "P4", "P5", "P6", "P7",
                                                          "P8"]
    first = director.start_round(tid)
    director.undo_round(tid)
    assert director.load(tid).rounds == ()
    again = director.start_round(tid)
    assert again == first
    desk = Desk(director)
    link = desk.links(tid)[0]
    token = str(link["ns"]).rsplit("/", 1)[-1]
    desk.submit(tid, token, 600, 400)
    with pytest.raises(TournamentError, match="phones"):
        director.undo_round(tid)
    assert len(director.load(tid).rounds) == 1
    director.evening(tid, lambda t: changes.rename(t, 2, "Seconda coppia"))
    for table in director.load(tid).rounds[0].tables:
        director.record(tid, 1, table.number, 700, 300)
    pair = director.late_register(tid, "Tardi", ("Uno", "Due"), "bye")
    t = director.load(tid)
    assert (pair.number, t.pair(2).name) == (8, "Seconda coppia")
    assert t.evening.late_entry(8) is not None and t.evening.renames[0].before == "P2"
    director.record(tid, 1, 1, 0, 0, arbitral=(14, 6), correct=True)
    assert director.load(tid).result(1, 1).arbitral  # type: ignore[union-attr]
    director.close()
