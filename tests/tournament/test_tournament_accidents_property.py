"""A Mitchell evening's accidents at random: no two pairs meet twice, nobody is lost.

Random Mitchell sizes (6–30 pairs, 3–5 rounds), and between rounds random withdrawals
(``byes`` or ``reseat``) and late entries (``bye`` or ``redraw``, RULES.md §11.4 for the
movement; the late entries of the club-evening issue).  After every round:

* every pair registered and not withdrawn plays exactly one table or sits out (a bye)
  exactly once; a withdrawn pair, or a late one before its first round, is nowhere;
* no two pairs meet twice (the movement never needs a repeat at these sizes: a repeat
  is always avoidable by a bye);
* the standings account for every round of every pair: played + byes + absences.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.tournament.changes import late_register, withdraw
from burraco.tournament.errors import TournamentError
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.schedule import Schedule
from burraco.tournament.standings import standings

Accident = tuple[str, int, str]  # (kind, which pair / how many, mode)


@st.composite
def evenings(draw: st.DrawFn) -> tuple[int, int, list[list[Accident]], int]:
    pairs = draw(st.integers(6, 30))
    tables = (pairs + 1) // 2
    rounds = draw(st.integers(3, min(5, tables)))
    between = []
    for _ in range(rounds - 1):
        between.append(draw(st.lists(st.tuples(
            st.sampled_from(["withdraw", "late"]), st.integers(1, 40),
            st.sampled_from(["a", "b"])), max_size=3)))
    return pairs, rounds, between, draw(st.integers(0, 2**16))


def _seed_scores(t: Tournament, seed: int) -> Tournament:
    played = t.rounds[-1]
    for k, table in enumerate(played.tables):
        a = (seed * 31 + k * 17 + played.number * 7) % 60 * 25
        t = t.record(played.number, table.number, a, 1500 - a)
    return t


def _check_round(t: Tournament) -> None:
    played = t.rounds[-1]
    number = played.number
    seated = [p for table in played.tables for p in table.pairs()] + list(played.byes)
    assert len(seated) == len(set(seated)), f"round {number}: a pair seated twice: {seated}"
    gone = set(t.evening.withdrawn(number))
    waiting = {e.pair for e in t.evening.late if e.from_round > number}
    expected = {p.number for p in t.pairs} - gone - waiting
    assert set(seated) == expected, (
        f"round {number}: seated {sorted(seated)}, expected {sorted(expected)}")
    met: set[frozenset[int]] = set()
    for r in t.rounds:
        for table in r.tables:
            meeting = frozenset(table.pairs())
            assert meeting not in met, f"round {r.number}: {sorted(meeting)} met twice"
            met.add(meeting)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_accidents_never_make_pairs_meet_twice(evening: tuple[int, int, list[list[Accident]],
                                                             int]) -> None:
    pairs, rounds, between, seed = evening
    t = Tournament(Settings("Prop", schedule=Schedule.parse(f"mitchell:{rounds}"),
                            seed=seed, seating="draw" if seed % 2 else "registration"))
    for k in range(pairs):
        t, _ = t.register(f"P{k + 1}")
    t = t.start_round()
    _check_round(t)
    t = _seed_scores(t, seed)
    late_count = 0
    for accidents in between:
        for kind, which, mode in accidents:
            try:
                if kind == "withdraw":
                    t = withdraw(t, (which - 1) % len(t.pairs) + 1,
                                 "byes" if mode == "a" else "reseat")
                else:
                    late_count += 1
                    t, _ = late_register(t, f"Late {late_count}", (),
                                         "bye" if mode == "a" else "redraw")
            except TournamentError:
                pass  # refused (an already withdrawn pair, no empty place…): nothing changed
        t = t.start_round()
        _check_round(t)
        t = _seed_scores(t, seed)
    assert t.finished
    for s in standings(t):
        entry = t.evening.late_entry(s.pair)
        gone = next((w.from_round for w in t.evening.withdrawals if w.pair == s.pair), None)
        rounds_in = (gone - 1 if gone else rounds) - (entry.from_round - 1 if entry else 0)
        assert s.played + s.byes == rounds_in, (s, rounds_in)
        assert s.absent == (entry.from_round - 1 if entry else 0)
