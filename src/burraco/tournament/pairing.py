"""The next round's seating, whatever the movement: the schedule decides which one applies.

Before any round the whole schedule is checked against the number of pairs, so
an impossible event (more Mitchell rounds than the rotation allows without a
repeat, a round robin longer than its cycle) is refused before play starts.
"""

from __future__ import annotations

from collections.abc import Iterable

from burraco.tournament.danish import danish_round
from burraco.tournament.draw import draw_round, seeded_rng
from burraco.tournament.errors import TournamentError
from burraco.tournament.evening import LateMode
from burraco.tournament.i18n import Text
from burraco.tournament.individual import individual_round
from burraco.tournament.late import place_lines, place_order
from burraco.tournament.mitchell import check_offsets, lines, mitchell_round, offsets
from burraco.tournament.parts import TournamentData
from burraco.tournament.reseat import reseat
from burraco.tournament.round_robin import cycle_length, round_robin_round
from burraco.tournament.schedule import Schedule
from burraco.tournament.seating import Seating
from burraco.tournament.standings import standings


def check_schedule(schedule: Schedule, pairs: int) -> None:
    """Raise unless every round of ``schedule`` can be seated with ``pairs`` pairs."""
    if pairs < 2:
        raise TournamentError(Text("error.two_pairs", n=pairs))
    steps = schedule.mitchell_steps(pairs)
    if steps:
        tables = (pairs + 1) // 2
        try:
            check_offsets(steps, tables)
        except TournamentError as exc:
            raise TournamentError(Text("error.schedule_pairs", schedule=schedule, n=pairs,
                                       reason=exc.text or str(exc))) from None
    robin = sum(s.count(pairs) for s in schedule.segments if s.movement == "roundrobin")
    if robin > cycle_length(pairs):
        raise TournamentError(Text("error.robin_rounds", schedule=schedule, n=pairs,
                                   robin=robin, cycle=cycle_length(pairs)))


def plan(t: TournamentData) -> tuple[str, Seating]:
    """(movement, seating) of the round after the last one started, withdrawals applied."""
    movement, seating = _plan(t)
    if movement in ("mitchell", "roundrobin") and t.settings.kind != "individual":
        return movement, seating  # already around the withdrawals (:func:`_fixed`)
    withdrawn = t.evening.withdrawn(len(t.rounds) + 1)
    return movement, without(seating, set(withdrawn)) if withdrawn else seating


def without(seating: Seating, gone: set[int]) -> Seating:
    """The seating with the withdrawn pairs taken out: whoever faced one has a bye.

    The tables keep their numbers (the club's table cards stay where they are).
    """
    tables = []
    byes = [p for p in seating.byes if p not in gone]
    for table in seating.tables:
        left = [p for p in table.pairs() if p not in gone]
        if len(left) == 2:
            tables.append(table)
        else:
            byes.extend(left)
    return Seating(tuple(tables), tuple(byes))


def _met(t: TournamentData, movement: str | None = None) -> dict[int, set[int]]:
    """Each pair's opponents in the rounds played (of ``movement`` only, if given)."""
    met: dict[int, set[int]] = {}
    for r in t.rounds:
        if movement is None or r.movement == movement:
            for table in r.tables:
                met.setdefault(table.ns, set()).add(table.ew)
                met.setdefault(table.ew, set()).add(table.ns)
    return met


def _meetings(seatings: Iterable[Seating]) -> set[frozenset[int]]:
    return {frozenset(table.pairs()) for s in seatings for table in s.tables}


def _fixed(t: TournamentData, movement: str, planned: Seating,
           coming: Iterable[Seating], home: dict[int, int] | None = None, *,
           redrawn: bool = False) -> Seating:
    """A fixed movement's round (the whole field's plan) around the withdrawals.

    See :mod:`.reseat`: nobody changes place because someone withdrew, so no two pairs
    meet twice; the pairs left alone may play each other.  ``redrawn``: the movement was
    drawn again for late entries (:mod:`.late`), so a meeting of any earlier round may
    come back: such pairs play others.
    """
    withdrawn = t.evening.withdrawn(len(t.rounds) + 1)
    met = _met(t)
    same = met if redrawn else _met(t, movement)
    again = {frozenset((p, q)) for p, qs in same.items() for q in qs}
    if not withdrawn and not any(frozenset(table.pairs()) in again for table in planned.tables):
        return planned
    return reseat(planned, withdrawn, met=met, again=again, later=_meetings(coming),
                  home=home)


def _late(t: TournamentData, number: int) -> tuple[list[tuple[int, LateMode]], int | None]:
    """The late entries playing round ``number`` (pair, mode) and the first round drawn
    again for them (``None``: none was)."""
    entries = [e for e in t.evening.late if e.from_round <= number]
    redraws = [e.from_round for e in entries if e.mode == "redraw"]
    return [(e.pair, e.mode) for e in entries], min(redraws) if redraws else None


def _mitchell(t: TournamentData, number: int, count: int) -> Seating:
    """A Mitchell round: the movement planned for the field, with the late entries."""
    schedule = t.settings.schedule
    first_ns, first_ew = lines(t.initial_order()[:count])
    late, redrawn_at = _late(t, number)
    gone = {w.pair for w in t.evening.withdrawals if w.from_round <= number}
    ns, ew = place_lines(first_ns, first_ew, late, gone)
    home = {p: k + 1 for k, p in enumerate(ns)}
    shifts = offsets(schedule.mitchell_steps(count))
    index = schedule.index_among(number, count, "mitchell")
    if redrawn_at is None:
        return _fixed(t, "mitchell", mitchell_round(ns, ew, offset=shifts[index]),
                      (mitchell_round(ns, ew, offset=s) for s in shifts[index + 1:]),
                      home=home)
    met = _met(t)
    tables = len(ns)

    def repeats(offset: int) -> int:
        seating = mitchell_round(ns, ew, offset=offset)
        return sum(table.ew in met.get(table.ns, ()) for table in seating.tables)

    natural = shifts[index] % tables
    best = min(range(tables), key=lambda k: (repeats((natural + k) % tables), k))
    return _fixed(t, "mitchell", mitchell_round(ns, ew, offset=(natural + best) % tables),
                  (), home=home, redrawn=True)


def _plan(t: TournamentData) -> tuple[str, Seating]:
    schedule = t.settings.schedule
    count = t.field
    check_schedule(schedule, count)
    number = len(t.rounds) + 1
    segment, _ = schedule.at(number, count)
    movement = segment.movement
    reseated = {p for p, mode in t.evening.withdrawn(number).items() if mode == "reseat"}
    order = [p for p in t.initial_order() if p not in reseated]
    if t.settings.kind == "individual":
        return movement, _individual(t, movement, number, order,
                                     [s.pair for s in standings(t)] if t.rounds else order)
    if movement == "mitchell":
        return movement, _mitchell(t, number, count)
    if movement == "roundrobin":
        late, redrawn_at = _late(t, number)
        gone = {w.pair for w in t.evening.withdrawals if w.from_round <= number}
        full = place_order(t.initial_order()[:count], late, gone)
        index = schedule.index_among(number, count, movement)
        total = sum(s.count(count) for s in schedule.segments if s.movement == movement)
        return movement, _fixed(t, movement, round_robin_round(full, index),
                                (round_robin_round(full, k) for k in range(index + 1, total)),
                                redrawn=redrawn_at is not None)
    had_bye = [p for r in t.rounds for p in r.byes]
    if movement in ("danish", "danish-modified"):
        ranking = [s.pair for s in standings(t) if s.pair not in reseated]
        previous: dict[int, int] | None = None
        if movement == "danish-modified":
            previous = Seating(t.rounds[-1].tables).opponents() if t.rounds else {}
        return movement, danish_round(ranking, previous=previous, had_bye=had_bye)
    byes = {p: had_bye.count(p) for p in set(had_bye)}
    return movement, draw_round(order, seeded_rng(t.settings.seed, number), met=_met(t),
                                byes=byes)



def _individual(t: TournamentData, movement: str, number: int, order: list[int],
                ranking: list[int]) -> Seating:
    """An individual round: partners and opponents so far steer the new partnerships."""
    partnered: dict[int, set[int]] = {}
    met: dict[int, set[int]] = {}
    for played in t.rounds:
        for table in played.tables:
            for side in (0, 1):
                mine, theirs = table.line(side), table.line(1 - side)
                for p in mine:
                    partnered.setdefault(p, set()).update(q for q in mine if q != p)
                    met.setdefault(p, set()).update(theirs)
    byes: dict[int, int] = {}
    for played in t.rounds:
        for p in played.byes:
            byes[p] = byes.get(p, 0) + 1
    previous: dict[int, set[int]] = {}
    if movement == "danish-modified" and t.rounds:
        for table in t.rounds[-1].tables:
            for p in table.entrants():
                previous[p] = set(table.entrants()) - {p}
    ranked = movement in ("danish", "danish-modified")
    return individual_round(ranking if ranked else order, ranked=ranked,
                            rng=seeded_rng(t.settings.seed, number), partnered=partnered,
                            met=met, byes=byes, previous=previous)
