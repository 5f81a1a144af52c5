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
* Late entries need nothing here: registration stays open until round 1 starts, and
  round 1 is seated only when it starts.
"""

from __future__ import annotations

from dataclasses import replace

from burraco.tournament.errors import TournamentError
from burraco.tournament.evening import (
    MODES,
    Evening,
    Penalty,
    Prize,
    Withdrawal,
    WithdrawalMode,
    parse_prizes,
)
from burraco.tournament.i18n import Text
from burraco.tournament.model import Tournament

__all__ = [  # the evening's records are defined in .evening, and imported from here as ever
    "MAX_PENALTY_MP", "MAX_PENALTY_VP", "MAX_REASON", "MODES", "Evening", "Penalty", "Prize",
    "Withdrawal", "WithdrawalMode", "parse_prizes", "penalise", "set_category",
    "set_line_rankings", "set_prizes", "withdraw",
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
