"""The wall: the whole movement card of an evening, every round's seating (RULES.md §11.4).

A fixed movement (Mitchell, round robin) is known in full once the pairs are registered
and the first-round order is set: the card gives every pair its table and line in every
round, and every table its NS and EW pair, so the director can print it before round 1.
A round seated only when it starts (Danish: by the ranking then; a random draw) is marked
so for that round.

The rounds are seated by the model's own functions: the rounds started are what was
played; the next one is :meth:`~.model.Tournament.next_seating` (:func:`.pairing.plan`
while the round in play has no results yet: a fixed movement does not read them), and
each later one is planned the same way on the rounds before it, as if nothing changed.
After a withdrawal a re-seated round depends on the meetings before it, and a Danish or
drawn round before it is not known yet: the rounds after the next are then as things
stand now and may still change (:attr:`Wall.approximate`).

>>> from burraco.tournament.model import Settings, Tournament
>>> from burraco.tournament.schedule import Schedule
>>> t = Tournament(Settings("Club", schedule=Schedule.parse("mitchell:2,danish:1")))
>>> for name in ("A", "B", "C", "D", "E", "F"):
...     t, _ = t.register(name)
>>> card = wall(t)
>>> [(r.number, r.how) for r in card.rounds]
[(1, 'planned'), (2, 'planned'), (3, 'ranking')]
>>> [tb.pairs() for tb in card.rounds[1].tables]
[(1, 6), (2, 4), (3, 5)]
>>> card.table_numbers()
[1, 2, 3]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Lang, Text, tr
from burraco.tournament.pairing import plan
from burraco.tournament.parts import Round
from burraco.tournament.seating import Seating, Table

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament

How = Literal["played", "planned", "ranking", "draw"]
"""``played``: started, as seated; ``planned``: a fixed movement's round to come;
``ranking``/``draw``: seated when it starts (Danish by the ranking, or by a draw)."""
FIXED = ("mitchell", "roundrobin")
LATER: dict[str, How] = {"danish": "ranking", "danish-modified": "ranking", "random": "draw"}


@dataclass(frozen=True, slots=True)
class WallRound:
    number: int
    movement: str
    how: How
    tables: tuple[Table, ...] = ()
    """The seating (a round seated later: none)."""
    byes: tuple[int, ...] = ()
    expected_tables: int = 0
    """A round seated later: the tables it would have if it were seated now."""

    @property
    def known(self) -> bool:
        return self.how in ("played", "planned")

    def table_of(self, entrant: int) -> Table | None:
        return next((tb for tb in self.tables if entrant in tb.entrants()), None)

    def table(self, number: int) -> Table | None:
        return next((tb for tb in self.tables if tb.number == number), None)


@dataclass(frozen=True, slots=True)
class Wall:
    rounds: tuple[WallRound, ...]
    current: int | None = None
    """The round in play (started, not every table has its result)."""
    approximate: bool = False
    """Pairs have withdrawn and rounds after the next are planned: they may still change."""
    problem: Text | None = None
    """Why no round to come could be planned (too few pairs, an impossible schedule)."""

    def table_numbers(self) -> list[int]:
        """Every table any round uses (a round seated later: as many as it would have now)."""
        numbers = {tb.number for r in self.rounds for tb in r.tables}
        most = max((r.expected_tables for r in self.rounds), default=0)
        return sorted(numbers | set(range(1, most + 1)))


def wall(t: Tournament) -> Wall:
    """The movement card of ``t`` as it stands now (see the module's doc)."""
    rounds = [WallRound(r.number, r.movement, "played", r.tables, r.byes) for r in t.rounds]
    current = t.current
    playing = (current.number if current is not None and not t.round_complete(current.number)
               else None)
    sim = t
    problem: Text | None = None
    planned_after_next = False
    for number in range(len(t.rounds) + 1, t.total_rounds + 1):
        try:
            movement, seating = _seat(sim, number == len(t.rounds) + 1)
        except TournamentError as exc:
            problem = exc.text or Text("error.cards_no_tables")
            break
        fixed = movement in FIXED and t.settings.kind != "individual"
        if fixed:
            rounds.append(WallRound(number, movement, "planned", seating.tables, seating.byes))
            planned_after_next = planned_after_next or number > len(t.rounds) + 1
            played = Round(number, movement, seating.tables, seating.byes)
        else:
            rounds.append(WallRound(number, movement, LATER.get(movement, "draw"),
                                    expected_tables=len(seating.tables)))
            played = Round(number, movement, ())  # not known: it seats nobody here
        sim = replace(sim, rounds=(*sim.rounds, played))
    approximate = bool(t.evening.withdrawals) and planned_after_next
    return Wall(tuple(rounds), playing, approximate, problem)


def _seat(sim: Tournament, first: bool) -> tuple[str, Seating]:
    """The model's seating of the round after ``sim``'s last: ``next_seating`` when the
    model would start it now, else the same plan (the round before has no results yet)."""
    last = sim.rounds[-1].number if sim.rounds else 0
    if first and (last == 0 or sim.round_complete(last)):
        return sim.next_seating()
    return plan(sim)


# --- the words of a cell, shared by the page and the PDF ----------------------------------------

def side_words(t: Tournament, lang: Lang) -> tuple[str, str]:
    """The two lines as ``lang`` names them: NS and EW (EO in Italian), a team's home and
    away."""
    if t.settings.kind == "teams":
        return tr(lang, "col.home"), tr(lang, "col.away")
    return tr(lang, "paper.ns_short"), tr(lang, "paper.ew_short")


def later_word(r: WallRound, lang: Lang) -> str:
    return tr(lang, "wall.by_ranking" if r.how == "ranking" else "wall.by_draw")


def entrant_cell(t: Tournament, r: WallRound, entrant: int, lang: Lang) -> str:
    """Where ``entrant`` sits in round ``r``: ``3 NS``, ``bye``, ``withdrawn``, ``by ranking``."""
    if entrant in t.evening.withdrawn(r.number):
        return tr(lang, "paper.withdrawn")
    if not r.known:
        return later_word(r, lang)
    table = r.table_of(entrant)
    if table is not None:
        return f"{table.number} {side_words(t, lang)[table.side_of(entrant)]}"
    return tr(lang, "paper.bye") if entrant in r.byes else "–"


def line_numbers(table: Table, side: int) -> str:
    return "+".join(str(n) for n in table.line(side))


def table_cell(r: WallRound, number: int, lang: Lang) -> str:
    """Who sits at table ``number`` in round ``r``: ``1 – 4`` (NS – EW), ``no match``."""
    if not r.known:
        return later_word(r, lang)
    table = r.table(number)
    if table is None:
        return tr(lang, "wall.no_match")
    return f"{line_numbers(table, 0)} – {line_numbers(table, 1)}"
