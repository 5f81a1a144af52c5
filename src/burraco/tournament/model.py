"""A tournament of pairs, players or teams as an immutable value (RULES.md §11).

The entrants are pairs (the default), players (an *individual* event: partners
change every round) or teams (a *team* event: a match between two teams is
played at two tables, each team with one line NS at one table and one line EW
at the other, and scored on the two tables' total; line-ups may change between
matches, §11.4).  Whatever the kind, an entrant is a :class:`Pair` record
numbered from 1.

:class:`Tournament` holds the settings, the registered entrants, the rounds started
(each a :class:`Round` of tables) and the results entered (these parts are defined in
:mod:`.parts`).  Every operation
(:meth:`~Tournament.register`, :meth:`~Tournament.start_round`,
:meth:`~Tournament.record`) returns a new value or raises
:class:`~burraco.tournament.errors.TournamentError` naming what was wrong, so a
rejected request changes nothing.  Storage, the command line, the web pages and
the simulation all go through these operations.

>>> from burraco.tournament.schedule import Schedule
>>> t = Tournament(Settings("Club", schedule=Schedule.parse("mitchell:1")))
>>> for name in ("Rossi", "Bianchi", "Verdi", "Neri"):
...     t, _ = t.register(name)
>>> t = t.start_round()
>>> [table.pairs() for table in t.rounds[0].tables]
[(1, 3), (2, 4)]
>>> t = t.record(1, 1, 1200, 900)
>>> t.result(1, 1).vp
(13, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from burraco.tournament.draw import seeded_rng
from burraco.tournament.errors import TournamentError, cut, excerpt
from burraco.tournament.evening import Evening
from burraco.tournament.i18n import Text
from burraco.tournament.pairing import plan
from burraco.tournament.parts import (
    DEFAULT_TIE_BREAKS,
    ENTRANT,
    INDIVIDUAL_MOVEMENTS,
    KINDS,
    TIE_BREAKS,
    Kind,
    Pair,
    Result,
    Round,
    SeatingOrder,
    Settings,
    Source,
)
from burraco.tournament.seating import Seating, Table

__all__ = [  # the parts are defined in .parts, and imported from here as ever
    "DEFAULT_TIE_BREAKS", "ENTRANT", "INDIVIDUAL_MOVEMENTS", "KINDS", "MAX_MATCH_POINTS",
    "TEAM_MAX_PLAYERS", "TEAM_MIN_PLAYERS", "TIE_BREAKS", "Kind", "Pair", "Result", "Round",
    "SeatingOrder", "Settings", "Source", "Tournament", "default_schedule",
]

TEAM_MIN_PLAYERS = 4
TEAM_MAX_PLAYERS = 12


def default_schedule(kind: str) -> str:
    """The schedule used when none is given: an individual event has no fixed pairs to move."""
    return "random:3,danish:1" if kind == "individual" else "mitchell:3,danish:1"


@dataclass(frozen=True, slots=True)
class Tournament:
    settings: Settings
    pairs: tuple[Pair, ...] = ()
    rounds: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()
    evening: Evening = Evening()
    """Withdrawals, penalties, NS/EW rankings, prizes (:mod:`.changes`)."""

    # --- reading ------------------------------------------------------------------------------

    def pair(self, number: int) -> Pair:
        if 1 <= number <= len(self.pairs):
            return self.pairs[number - 1]
        known = f"1–{len(self.pairs)}" if self.pairs else Text("error.none_registered")
        raise TournamentError(Text("error.no_pair", number=number, known=known))

    def find_pair(self, text: str) -> Pair:
        """A pair by number or by name (case-insensitive)."""
        text = text.strip()
        if text.isdigit():
            return self.pair(int(text))
        for p in self.pairs:
            if p.name.casefold() == text.casefold():
                return p
        raise TournamentError(Text("error.no_pair_named", name=excerpt(text)))

    @property
    def total_rounds(self) -> int:
        return self.settings.schedule.total_rounds(self.field)

    @property
    def field(self) -> int:
        """Entrants registered before round 1: the movement is planned for them (late
        entries join it, :mod:`.late`)."""
        return len(self.pairs) - len(self.evening.late)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round:
        if 1 <= number <= len(self.rounds):
            return self.rounds[number - 1]
        started = f"1–{len(self.rounds)}" if self.rounds else Text("error.none_yet")
        raise TournamentError(Text("error.no_round", number=number, started=started))

    def result(self, round_number: int, table: int) -> Result | None:
        for r in self.results:
            if r.round == round_number and r.table == table:
                return r
        return None

    def round_results(self, round_number: int) -> list[Result]:
        return sorted((r for r in self.results if r.round == round_number),
                      key=lambda r: r.table)

    def missing(self, round_number: int) -> list[Table]:
        """Tables of a round still without a result."""
        return [t for t in self.round(round_number).tables
                if self.result(round_number, t.number) is None]

    def round_complete(self, round_number: int) -> bool:
        return not self.missing(round_number)

    @property
    def finished(self) -> bool:
        return (bool(self.rounds) and len(self.rounds) == self.total_rounds
                and self.round_complete(len(self.rounds)))

    @property
    def status(self) -> str:
        """``registration``, ``round N`` (playing), ``round N done`` or ``finished``."""
        if self.finished:
            return "finished"
        if not self.rounds:
            return "registration"
        n = len(self.rounds)
        return f"round {n} done" if self.round_complete(n) else f"round {n}"

    def initial_order(self) -> list[int]:
        """Pairs in first-round order: as registered, or drawn by lot from the seed; the
        late entries after them, in the order they came."""
        late = [e.pair for e in self.evening.late]
        order = [p.number for p in self.pairs if p.number not in late]
        if self.settings.seating == "draw":
            seeded_rng(self.settings.seed, 0x5EA7).shuffle(order)
        return order + late

    # --- changing -----------------------------------------------------------------------------

    def register(self, name: str, players: Sequence[str] = (), *,
                 late: bool = False) -> tuple[Tournament, Pair]:
        """Add an entrant (before the first round; ``late``: after it, see
        :func:`.changes.late_register`); numbers follow registration order.

        A pair may name its two players, a team must name its players (4 to 12), an
        individual entrant is one player: ``name`` itself.
        """
        what = Text(f"entrant.{self.settings.entrant}")
        if self.rounds and not late:
            raise TournamentError(Text("error.registration_closed", what=what,
                                       name=repr(" ".join(name.split()))))
        name, members = self.check_entrant(name, players)
        pair = Pair(len(self.pairs) + 1, name, members)
        return replace(self, pairs=(*self.pairs, pair)), pair

    def check_entrant(self, name: str, players: Sequence[str] = (), *,
                      number: int | None = None) -> tuple[str, tuple[str, ...]]:
        """An entrant's name and players, tidied and checked (``number``: the entrant
        being renamed, whose own name is no clash)."""
        what = Text(f"entrant.{self.settings.entrant}")
        name = " ".join(name.split())
        members = tuple(" ".join(p.split()) for p in players if p.strip())
        if not name:
            raise TournamentError(Text("error.name_needed", what=what))
        if len(name) > 80:
            raise TournamentError(Text("error.name_long", what=what, start=repr(name[:20])))
        if any(len(p) > 80 for p in members):
            raise TournamentError(Text("error.player_long", start=repr(
                next(p for p in members if len(p) > 80)[:20])))
        if any(p.name.casefold() == name.casefold() and p.number != number
               for p in self.pairs):
            raise TournamentError(Text("error.name_taken", what=what, name=repr(name)))
        if name.isdigit():
            raise TournamentError(Text("error.name_number", what=what, name=repr(name),
                                       whats=Text(f"entrants.{self.settings.entrant}")))
        kind = self.settings.kind
        if kind == "individual" and members:
            raise TournamentError(Text("error.individual_players", name=repr(name),
                                       n=len(members)))
        if kind == "pairs" and len(members) > 2:
            raise TournamentError(Text("error.pair_players", name=repr(name), n=len(members)))
        if kind == "teams" and not TEAM_MIN_PLAYERS <= len(members) <= TEAM_MAX_PLAYERS:
            raise TournamentError(Text("error.team_players", name=repr(name), n=len(members),
                                       least=TEAM_MIN_PLAYERS, most=TEAM_MAX_PLAYERS))
        return name, members

    def next_seating(self) -> tuple[str, Seating]:
        """The movement and seating the next round would have (nothing changes)."""
        if self.finished or (self.rounds and len(self.rounds) == self.total_rounds):
            raise TournamentError(Text("error.all_started", n=self.total_rounds,
                                       schedule=self.settings.schedule))
        if self.rounds:
            missing = self.missing(len(self.rounds))
            if missing:
                tables = ", ".join(str(t.number) for t in missing)
                raise TournamentError(Text("error.round_not_over", round=len(self.rounds),
                                           tables=tables))
        least = 4 if self.settings.kind == "individual" else 2
        if len(self.pairs) < least:
            raise TournamentError(Text("error.too_few", least=least, n=len(self.pairs),
                                       whats=Text(f"entrants.{self.settings.entrant}")))
        return plan(self)

    def start_round(self) -> Tournament:
        movement, seating = self.next_seating()
        played = Round(len(self.rounds) + 1, movement, seating.tables, seating.byes)
        return replace(self, rounds=(*self.rounds, played))

    def record(self, round_number: int, table: int, ns_mp: int, ew_mp: int, *,
               vp: tuple[int, int] | None = None, ns: int | None = None, ew: int | None = None,
               hands: Sequence[tuple[int, int]] = (), correct: bool = False,
               source: Source = "director",
               rooms: Sequence[tuple[int, int]] = (), timed_out: bool = False,
               arbitral: tuple[int, int] | None = None) -> Tournament:
        """Enter (or, with ``correct``, replace) a table's result after checking all of it.

        ``ns``/``ew`` (optional) are the pairs the score sheet names, checked against the
        seating; ``vp`` (optional) the VP written on it, checked against the table;
        ``hands`` (optional) the line totals of each smazzata, which must add up.  In a
        team event ``table`` is the match, ``ns_mp``/``ew_mp`` the home and away teams'
        totals over its two tables, and ``rooms`` (optional) the (home, away) MP of each
        table, which must add up.  ``timed_out``: the match was cut short by the round's
        time-out (RULES.md §8.2, FIBur Art. 15), so ``hands`` may be fewer than planned.
        ``arbitral``: the director's (NS, EW) VP, given instead of the table's (a no-show's
        14–6, a split score, an average); the MP stay as entered (0–0 when not known).
        """
        played = self.round(round_number)
        seat = played.table(table)
        unit = "where.match" if self.settings.kind == "teams" else "where.table"
        where = Text(unit, round=round_number, table=table)
        for given, line in ((ns, "ns"), (ew, "ew")):
            if given is not None:
                self.pair(given)
                expected = seat.ns if line == "ns" else seat.ew
                if given != expected:
                    raise TournamentError(Text(
                        "error.wrong_seat", where=where,
                        what=Text(f"entrant.{self.settings.entrant}"), ns=seat.ns, ew=seat.ew,
                        line=Text(line), expected=expected, given=given))
        for value, line in ((ns_mp, "ns"), (ew_mp, "ew")):
            _check_points(value, Text("what.where_score", where=where, line=Text(line)))
        if hands:
            if timed_out and len(hands) > self.settings.hands:
                raise TournamentError(Text("error.hands_over", where=where, n=len(hands),
                                           hands=self.settings.hands))
            if not timed_out and len(hands) != self.settings.hands:
                raise TournamentError(Text("error.hands_count", where=where, n=len(hands),
                                           hands=self.settings.hands))
            _check_parts(where, ("what.where_hand_score", "what.where_hand_score"), hands,
                         (ns_mp, ew_mp), "what.where_hands")
        if rooms:
            if self.settings.kind != "teams":
                raise TournamentError(Text("error.rooms_not_teams", where=where,
                                           kind=Text(f"kind.{self.settings.kind}")))
            if len(rooms) != 2:
                raise TournamentError(Text("error.rooms_count", where=where, n=len(rooms)))
            _check_parts(where, ("what.where_room_home", "what.where_room_away"), rooms,
                         (ns_mp, ew_mp), "what.where_rooms")
        scale = self.settings.vp_scale
        expected_vp = scale.vp(ns_mp, ew_mp)
        if arbitral is not None:
            expected_vp = _check_arbitral(where, arbitral)
            source = "arbitral"
        elif vp is not None and tuple(vp) != expected_vp:
            diff = abs(ns_mp - ew_mp)
            raise TournamentError(Text(
                "error.vp_mismatch", where=where, a=vp[0], b=vp[1], name=repr(scale.name),
                ns=ns_mp, ew=ew_mp, diff=diff, band=scale.band(diff), c=expected_vp[0],
                d=expected_vp[1]))
        old = self.result(round_number, table)
        if old is not None and not correct:
            raise TournamentError(Text("error.has_result", where=where, a=old.mp[0],
                                       b=old.mp[1], c=old.vp[0], d=old.vp[1]))
        if old is None and correct:
            raise TournamentError(Text("error.no_result", where=where))
        new = Result(round_number, table, seat.ns, seat.ew, (ns_mp, ew_mp), expected_vp,
                     tuple((int(a), int(b)) for a, b in hands), source,
                     tuple((int(a), int(b)) for a, b in rooms), seat.ns_partner,
                     seat.ew_partner)
        kept = tuple(r for r in self.results if (r.round, r.table) != (round_number, table))
        return replace(self, results=(*kept, new))


MAX_MATCH_POINTS = 100_000


def _check_arbitral(where: Text, vp: tuple[int, int]) -> tuple[int, int]:
    """An arbitral score: two whole VP of the 20-point scale each (they need not add to 20)."""
    if len(vp) != 2:
        raise TournamentError(Text("error.arbitral_two", where=where, n=len(vp)))
    for value, line in zip(vp, ("ns", "ew"), strict=True):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TournamentError(Text("error.arbitral_whole", where=where, line=Text(line),
                                       value=excerpt(value)))
        if not 0 <= value <= 20:
            raise TournamentError(Text("error.arbitral_range", where=where, line=Text(line),
                                       value=value))
    return (vp[0], vp[1])


def _check_points(value: int, what: Text) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(Text("error.whole_number", what=what, value=excerpt(value)))
    if abs(value) > MAX_MATCH_POINTS:
        raise TournamentError(Text("error.implausible_burraco", what=what, value=cut(value)))
    if value % 5:
        raise TournamentError(Text("error.not_multiple", what=what, value=value))


def _check_parts(where: Text, sides: tuple[str, str], parts: Sequence[tuple[int, int]],
                 totals: tuple[int, int], whole: str) -> None:
    """Each part's two scores (smazzate, or a team match's tables) and that they add up;
    ``sides``: the messages naming the first and the second score of part ``k``."""
    lines = (Text("ns"), Text("ew"))
    for k, pair in enumerate(parts, start=1):
        for side, value, line in zip(sides, pair, lines, strict=True):
            _check_points(value, Text(side, where=where, k=k, line=line))
    sums = (sum(p[0] for p in parts), sum(p[1] for p in parts))
    if sums != totals:
        raise TournamentError(Text("error.add_up", whole=Text(whole, where=where), a=sums[0],
                                   b=sums[1], c=totals[0], d=totals[1]))
