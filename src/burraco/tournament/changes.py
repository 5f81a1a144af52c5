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
        raise TournamentError(f"a pair withdraws between rounds: round {len(t.rounds)} is still "
                              f"being played (no result yet at table(s) {missing})")
    if t.rounds and len(t.rounds) >= t.total_rounds:
        raise TournamentError("every round has been played: there is nothing to withdraw from")
    return len(t.rounds) + 1


def withdraw(t: Tournament, pair: int, mode: str) -> Tournament:
    """The pair plays no more rounds from the next one on (see the module's docstring)."""
    if mode not in MODES:
        raise TournamentError(f"a withdrawal's remaining matches become byes or are re-seated "
                              f"(byes or reseat), not {mode!r}")
    if t.settings.kind != "pairs":
        raise TournamentError("withdrawals are for pairs events")
    t.pair(pair)
    if any(w.pair == pair for w in t.evening.withdrawals):
        raise TournamentError(f"{t.settings.entrant} {pair} has already withdrawn")
    start = _next_round(t)
    if not t.rounds:
        raise TournamentError(f"before round 1 there is nothing to withdraw from: pair {pair} "
                              "can simply not be registered (registrations are final)")
    playing = len(t.pairs) - len(t.evening.withdrawn(start)) - 1
    if playing < 2:
        raise TournamentError(f"pair {pair} cannot withdraw: fewer than 2 pairs would be left")
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
        raise TournamentError("a penalty needs a reason (it is printed with the standings)")
    if len(reason) > MAX_REASON:
        raise TournamentError(f"a penalty's reason is at most {MAX_REASON} characters")
    for value, unit, most in ((vp, "VP", MAX_PENALTY_VP), (mp, "MP", MAX_PENALTY_MP)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TournamentError(f"a penalty in {unit} must be a whole number, not {value!r}")
        if not 0 <= value <= most:
            raise TournamentError(f"a penalty is 0 to {most} {unit} (a positive number taken "
                                  f"away), not {value}")
    if mp % 5:
        raise TournamentError(f"a penalty of {mp} MP is not a multiple of 5")
    if not vp and not mp:
        raise TournamentError("a penalty takes some VP or MP: both are 0")
    if round_number is not None:
        t.round(round_number)
    penalty = Penalty(pair, vp, mp, reason, round_number)
    if penalty in t.evening.penalties:  # a form posted twice
        raise TournamentError(f"this penalty of pair {pair} ({reason}) is already recorded; "
                              "give another reason to add a second one")
    return replace(t, evening=replace(t.evening, penalties=(*t.evening.penalties, penalty)))


def set_line_rankings(t: Tournament, on: bool) -> Tournament:
    if on and not any(s.movement == "mitchell" for s in t.settings.schedule.segments):
        raise TournamentError("NS and EW rankings are for Mitchell rounds; this schedule has "
                              f"none ({t.settings.schedule})")
    return replace(t, evening=replace(t.evening, line_rankings=on))


def set_prizes(t: Tournament, text: str) -> Tournament:
    prizes = parse_prizes(text)
    known = {"overall", "ns", "ew"} | {c.casefold() for _, c in t.evening.categories}
    for p in prizes:
        if p.category.casefold() in ("ns", "ew") and not t.evening.line_rankings:
            raise TournamentError(f"prize {p}: switch the NS/EW rankings on first")
        if p.category.casefold() not in known and t.pairs:
            cats = sorted({c for _, c in t.evening.categories}) or ["none yet"]
            raise TournamentError(f"prize {p}: no pair is in category {p.category!r} "
                                  f"(members' categories of the pairs: {', '.join(cats)})")
    return replace(t, evening=replace(t.evening, prizes=prizes))


def set_category(t: Tournament, pair: int, category: str | None) -> Tournament:
    t.pair(pair)
    kept = tuple(c for c in t.evening.categories if c[0] != pair)
    if category:
        kept = tuple(sorted((*kept, (pair, category))))
    return replace(t, evening=replace(t.evening, categories=kept))
