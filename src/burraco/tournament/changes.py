"""The evening's changes: withdrawals, penalties, NS/EW rankings, the prize list.

They are held by :class:`Evening`, a value the tournament carries (and stores as one
JSON column).  Each operation returns a new tournament or raises
:class:`~burraco.tournament.errors.TournamentError`, like the model's own.

* A **withdrawal** takes effect from the round after the last one started (between
  rounds only).  ``byes``: the movement goes on as if the pair were there and whoever
  would have met it has a bye; ``reseat``: the next rounds are seated without it (in a
  Mitchell or round robin the pairs left without an opponent play each other, see
  :mod:`.reseat`; no pair meets another twice).  The pair keeps its
  results so far and stays in the standings, marked as withdrawn.
* A **penalty** takes VP (from the VP total) or MP (from the MP difference and the MP
  total; in a duplicate event from the duplicate score) with a written reason.
* **NS/EW rankings** (Mitchell): each pair is ranked within the line it sat in the
  Mitchell rounds (§11.5 keeps one overall ranking by default).
* The **prize list** (:mod:`.prizes`): places per category.
* A **late entry** (:func:`late_register`) joins after round 1 was drawn, from the next
  round, taking the movement's empty place or with the movement drawn again for the
  rounds to come (:mod:`.late`); each round it missed scores as an absence (``absent``,
  by default the mirror of a bye: 6 VP and −355 MP).  Before round 1 is drawn a pair
  simply registers.
* **Mistakes**: a pair registered by mistake (or a no-show) is removed before round 1
  (:func:`remove_pair`; the later pairs move up a number); a drawn round nobody has
  entered a result for is taken back (:func:`undo_round`); a pair or its players are
  renamed at any time (:func:`rename`, the change kept in ``Evening.renames``).
"""

from __future__ import annotations

from dataclasses import replace

from burraco.tournament.errors import TournamentError
from burraco.tournament.evening import (
    LATE_MODES,
    MODES,
    Evening,
    LateEntry,
    Penalty,
    Prize,
    Rename,
    Withdrawal,
    WithdrawalMode,
    parse_prizes,
)
from burraco.tournament.i18n import Text
from burraco.tournament.model import Pair, Result, Tournament

__all__ = [  # the evening's records are defined in .evening, and imported from here as ever
    "LATE_MODES", "MAX_PENALTY_MP", "MAX_PENALTY_VP", "MAX_REASON", "MODES", "Evening",
    "LateEntry", "Penalty", "Prize", "Rename", "Withdrawal", "WithdrawalMode", "late_register",
    "parse_prizes", "penalise", "remove_pair", "rename", "set_absent", "set_category",
    "set_line_rankings", "set_prizes", "undo_round", "withdraw",
]

MAX_PENALTY_VP = 20
MAX_PENALTY_MP = 5000
MAX_REASON = 200


def _next_round(t: Tournament) -> int:
    if t.rounds and not t.round_complete(len(t.rounds)):
        missing = ", ".join(str(x.number) for x in t.missing(len(t.rounds)))
        raise TournamentError(Text("error.withdraw_playing", round=len(t.rounds),
                                   tables=missing))
    if t.rounds and len(t.rounds) >= t.total_rounds:
        raise TournamentError(Text("error.withdraw_over"))
    return len(t.rounds) + 1


def withdraw(t: Tournament, pair: int, mode: str) -> Tournament:
    """The pair plays no more rounds from the next one on (see the module's docstring)."""
    if mode not in MODES:
        raise TournamentError(Text("error.withdraw_mode", mode=repr(mode)))
    if t.settings.kind != "pairs":
        raise TournamentError(Text("error.withdraw_pairs"))
    t.pair(pair)
    if any(w.pair == pair for w in t.evening.withdrawals):
        raise TournamentError(Text("error.withdrawn", what=Text(f"entrant.{t.settings.entrant}"),
                                   pair=pair))
    start = _next_round(t)
    if not t.rounds:
        raise TournamentError(Text("error.withdraw_early", pair=pair))
    playing = len(t.pairs) - len(t.evening.withdrawn(start)) - 1
    if playing < 2:
        raise TournamentError(Text("error.withdraw_few", pair=pair))
    evening = replace(t.evening, withdrawals=(*t.evening.withdrawals,
                                              Withdrawal(pair, start, mode)))
    after = replace(t, evening=evening)
    after.next_seating()  # refuse now a withdrawal that leaves the next round unseatable
    return after


def penalise(t: Tournament, pair: int, *, vp: int = 0, mp: int = 0, reason: str,
             round_number: int | None = None) -> Tournament:
    t.pair(pair)
    reason = " ".join(reason.split())
    if not reason:
        raise TournamentError(Text("error.penalty_reason"))
    if len(reason) > MAX_REASON:
        raise TournamentError(Text("error.penalty_reason_long", most=MAX_REASON))
    for value, unit, most in ((vp, Text("vp"), MAX_PENALTY_VP), (mp, Text("mp"), MAX_PENALTY_MP)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TournamentError(Text("error.penalty_whole", unit=unit, value=repr(value)))
        if not 0 <= value <= most:
            raise TournamentError(Text("error.penalty_range", most=most, unit=unit,
                                       value=value))
    if mp % 5:
        raise TournamentError(Text("error.penalty_fives", mp=mp))
    if not vp and not mp:
        raise TournamentError(Text("error.penalty_empty"))
    if round_number is not None:
        t.round(round_number)
    penalty = Penalty(pair, vp, mp, reason, round_number)
    if penalty in t.evening.penalties:  # a form posted twice
        raise TournamentError(Text("error.penalty_twice", pair=pair, reason=reason))
    return replace(t, evening=replace(t.evening, penalties=(*t.evening.penalties, penalty)))


def set_line_rankings(t: Tournament, on: bool) -> Tournament:
    if on and not any(s.movement == "mitchell" for s in t.settings.schedule.segments):
        raise TournamentError(Text("error.line_rankings", schedule=t.settings.schedule))
    return replace(t, evening=replace(t.evening, line_rankings=on))


def set_prizes(t: Tournament, text: str) -> Tournament:
    prizes = parse_prizes(text)
    known = {"overall", "ns", "ew"} | {c.casefold() for _, c in t.evening.categories}
    for p in prizes:
        if p.category.casefold() in ("ns", "ew") and not t.evening.line_rankings:
            raise TournamentError(Text("error.prize_lines", prize=p))
        if p.category.casefold() not in known and t.pairs:
            cats = sorted({c for _, c in t.evening.categories})
            raise TournamentError(Text("error.prize_category", prize=p,
                                       category=repr(p.category),
                                       categories=", ".join(cats) or Text("error.prize_none_yet")))
    return replace(t, evening=replace(t.evening, prizes=prizes))


def set_category(t: Tournament, pair: int, category: str | None) -> Tournament:
    t.pair(pair)
    kept = tuple(c for c in t.evening.categories if c[0] != pair)
    if category:
        kept = tuple(sorted((*kept, (pair, category))))
    return replace(t, evening=replace(t.evening, categories=kept))


def late_register(t: Tournament, name: str, players: tuple[str, ...] | list[str],
                  mode: str) -> tuple[Tournament, Pair]:
    """Register a pair after round 1 was drawn: it plays from the next round on (the
    module's docstring; :mod:`.late` for where it sits)."""
    if mode not in LATE_MODES:
        raise TournamentError(Text("error.late_mode", mode=repr(mode),
                                   modes=", ".join(LATE_MODES)))
    if t.settings.kind != "pairs":
        raise TournamentError(Text("error.late_pairs"))
    if not t.rounds:
        raise TournamentError(Text("error.late_early"))
    if len(t.rounds) >= t.total_rounds:
        raise TournamentError(Text("error.late_over"))
    after, pair = t.register(name, players, late=True)
    entry = LateEntry(pair.number, len(t.rounds) + 1, mode)
    after = replace(after, evening=replace(after.evening, late=(*after.evening.late, entry)))
    if t.round_complete(len(t.rounds)):
        after.next_seating()  # refuse now an entry the next round cannot seat
    else:
        plan_check(after)
    return after, pair


def plan_check(t: Tournament) -> None:
    """Raise if the round after the one in play could not be seated (its results aside)."""
    from_results = replace(t, results=(*t.results, *(
        _placeholder(t, table.number) for table in t.missing(len(t.rounds)))))
    from_results.next_seating()


def _placeholder(t: Tournament, table: int) -> Result:
    played = t.round(len(t.rounds)).table(table)
    return Result(len(t.rounds), table, played.ns, played.ew, (0, 0), (10, 10))


def remove_pair(t: Tournament, pair: int) -> Tournament:
    """Take a pair off the register before round 1 (a no-show, a mistake): the pairs after
    it move up one number."""
    gone = t.pair(pair)
    if t.rounds:
        raise TournamentError(Text("error.remove_started", pair=gone.label))

    def moved(n: int) -> int:
        return n - 1 if n > pair else n

    pairs = tuple(Pair(moved(p.number), p.name, p.players) for p in t.pairs if p.number != pair)
    e = t.evening
    evening = replace(
        e, categories=tuple((moved(n), c) for n, c in e.categories if n != pair),
        penalties=tuple(replace(p, pair=moved(p.pair)) for p in e.penalties if p.pair != pair),
        renames=tuple(replace(r, pair=moved(r.pair)) for r in e.renames if r.pair != pair))
    return replace(t, pairs=pairs, evening=evening)


def undo_round(t: Tournament) -> Tournament:
    """Take back the last round drawn, when no table of it has a result (the pairs' phone
    entries and the round's clock are the caller's to clear)."""
    if not t.rounds:
        raise TournamentError(Text("error.undo_none"))
    last = len(t.rounds)
    entered = t.round_results(last)
    if entered:
        tables = ", ".join(str(r.table) for r in entered)
        raise TournamentError(Text("error.undo_results", round=last, tables=tables))
    rounds = t.rounds[:-1]
    e = t.evening
    late = tuple(replace(x, from_round=min(x.from_round, last)) for x in e.late)
    if not rounds:  # registration is open again: late entries are simply registered
        late = ()
    evening = replace(e, late=late, withdrawals=tuple(
        replace(w, from_round=min(w.from_round, last)) for w in e.withdrawals))
    return replace(t, rounds=rounds, evening=evening)


def rename(t: Tournament, pair: int, name: str | None = None,
           players: list[str] | tuple[str, ...] | None = None) -> Tournament:
    """Change a pair's name and/or its players' names, at any time; the change is kept."""
    old = t.pair(pair)
    new_name, new_players = t.check_entrant(old.name if name is None else name,
                                            old.players if players is None else players,
                                            number=pair)
    if (new_name, new_players) == (old.name, old.players):
        raise TournamentError(Text("error.rename_same", pair=old.label))
    record = Rename(pair, old.name, new_name, old.players, new_players, len(t.rounds))
    pairs = tuple(Pair(p.number, new_name, new_players) if p.number == pair else p
                  for p in t.pairs)
    return replace(t, pairs=pairs,
                   evening=replace(t.evening, renames=(*t.evening.renames, record)))


def set_absent(t: Tournament, vp: int | None, mp: int | None) -> Tournament:
    """What a round a late pair missed scores (``None``: the mirror of a bye)."""
    if vp is None and mp is None:
        return replace(t, evening=replace(t.evening, absent=None))
    for value, unit in ((vp, Text("vp")), (mp, Text("mp"))):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TournamentError(Text("error.absent_whole", unit=unit, value=repr(value)))
    assert vp is not None and mp is not None
    if not 0 <= vp <= 20:
        raise TournamentError(Text("error.absent_vp", value=vp))
    if mp % 5 or abs(mp) > MAX_PENALTY_MP:
        raise TournamentError(Text("error.absent_mp", value=mp, most=MAX_PENALTY_MP))
    return replace(t, evening=replace(t.evening, absent=(vp, mp)))
