"""Standings by VP with configurable tie-breaks (RULES.md §11.5), live after every result.

The ranking criteria are ``Settings.ranking``: VP first (the duplicate score in a
duplicate event), then the tie-breaks in the order the director chose:

* ``mp_diff`` total MP difference ("scarto"), byes included
* ``h2h``     head-to-head: VP won in the matches among the tied pairs; applied only
              when every two of them have met (else skipped for that group)
* ``mp``      total MP scored
* ``vp`` / ``dup`` the VP total or the duplicate score, as a later criterion
* ``lot``     a draw, reproducible from the tournament's seed

Each criterion splits a group of tied pairs; the next one only looks inside
the groups still tied.  Pairs still tied after the last criterion share a rank.
A bye counts as a match won with the configured award (``bye_vp``, ``bye_mp``); a round
a late entry missed as an absence (``Evening.absent``, by default 6 VP and −355 MP).
An arbitral score counts the VP the director gave.
In an individual event each player of a line is credited with the line's score,
and head-to-head counts the matches where the tied players sat as opponents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from burraco.tournament.draw import seeded_rng
from burraco.tournament.duplicate import duplicate_scores
from burraco.tournament.parts import TournamentData

LOT_SALT = 0x107


@dataclass(slots=True)
class Tally:
    pair: int
    vp: int = 0
    mp_diff: int = 0
    mp: int = 0
    played: int = 0
    byes: int = 0
    dup: Fraction = Fraction(0)
    against: dict[int, int] = field(default_factory=dict)
    """Opponent → VP this pair won against it (summed if they met more than once)."""
    penalty_vp: int = 0
    penalty_mp: int = 0
    absent: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    pair: int
    name: str
    vp: int
    mp_diff: int
    mp: int
    played: int
    byes: int
    dup: Fraction | None
    """The duplicate score (None unless the event is duplicate)."""
    tied: bool = False
    """Shares its rank: still level after every criterion."""
    penalty_vp: int = 0
    penalty_mp: int = 0
    """Taken away by the evening's penalties (already out of ``vp``, ``mp_diff``, ``mp``)."""
    withdrawn: bool = False
    absent: int = 0
    """Rounds missed by a late entry, each scored as an absence (``Evening.absent``)."""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"rank": self.rank, "pair": self.pair, "name": self.name,
                                  "vp": self.vp, "mp_diff": self.mp_diff, "mp": self.mp,
                                  "played": self.played, "byes": self.byes}
        if self.dup is not None:
            out["dup"] = round(float(self.dup), 1)
        if self.tied:
            out["tied"] = True
        if self.penalty_vp or self.penalty_mp:
            out["penalty_vp"], out["penalty_mp"] = self.penalty_vp, self.penalty_mp
        if self.withdrawn:
            out["withdrawn"] = True
        if self.absent:
            out["absent"] = self.absent
        return out


def tallies(t: TournamentData) -> dict[int, Tally]:
    out = {p.number: Tally(p.number) for p in t.pairs}
    for r in t.results:
        for side in (0, 1):
            for me in r.line(side):
                line = out[me]
                line.vp += r.vp[side]
                line.mp += r.mp[side]
                line.mp_diff += r.mp[side] - r.mp[1 - side]
                line.played += 1
                for other in r.line(1 - side):
                    line.against[other] = line.against.get(other, 0) + r.vp[side]
    for played in t.rounds:
        for pair in played.byes:
            out[pair].vp += t.settings.bye_vp
            out[pair].mp_diff += t.settings.bye_mp
            out[pair].byes += 1
    absent_vp, absent_mp = t.evening.absent_score(t.settings.bye_vp, t.settings.bye_mp)
    for entry in t.evening.late:  # the rounds a late entry missed: each an absence
        missed = min(entry.from_round - 1, len(t.rounds))
        out[entry.pair].vp += missed * absent_vp
        out[entry.pair].mp_diff += missed * absent_mp
        out[entry.pair].absent += missed
    if t.settings.duplicate:
        for pair, score in duplicate_scores(t).items():
            out[pair].dup = score
    for penalty in t.evening.penalties:  # the evening's penalties (RULES.md §12): taken away
        line = out[penalty.pair]
        line.vp -= penalty.vp
        line.mp_diff -= penalty.mp
        line.mp -= penalty.mp
        line.dup -= penalty.mp
        line.penalty_vp += penalty.vp
        line.penalty_mp += penalty.mp
    return out


def standings(t: TournamentData) -> list[Standing]:
    """The ranking now: every pair, best first."""
    lines = tallies(t)
    order = [p.number for p in t.pairs]
    lot_order = list(order)
    seeded_rng(t.settings.seed, LOT_SALT).shuffle(lot_order)
    lot = {pair: -i for i, pair in enumerate(lot_order)}
    groups = _split(order, list(t.settings.ranking), lines, lot)
    gone = {w.pair for w in t.evening.withdrawals}
    out: list[Standing] = []
    for group in groups:
        rank = len(out) + 1
        for pair in sorted(group):
            line = lines[pair]
            out.append(Standing(
                rank, pair, t.pair(pair).name, line.vp, line.mp_diff, line.mp, line.played,
                line.byes, line.dup if t.settings.duplicate else None, len(group) > 1,
                line.penalty_vp, line.penalty_mp, pair in gone, line.absent))
    return out


Key = Callable[[int], Fraction]


def _split(group: list[int], criteria: list[str], lines: dict[int, Tally],
           lot: dict[int, int]) -> list[list[int]]:
    if len(group) <= 1 or not criteria:
        return [group] if group else []
    name, rest = criteria[0], criteria[1:]
    key = _key(name, group, lines, lot)
    if key is None:
        return _split(group, rest, lines, lot)
    ordered = sorted(group, key=lambda p: (-key(p), p))
    out: list[list[int]] = []
    run: list[int] = []
    for pair in ordered:
        if run and key(pair) != key(run[0]):
            out += _split(run, rest, lines, lot)
            run = []
        run.append(pair)
    out += _split(run, rest, lines, lot)
    return out


def _key(name: str, group: list[int], lines: dict[int, Tally],
         lot: dict[int, int]) -> Key | None:
    if name == "h2h":
        members = set(group)
        if any(other not in lines[p].against for p in group for other in members - {p}):
            return None
        return lambda p: Fraction(sum(v for o, v in lines[p].against.items() if o in members))
    if name == "lot":
        return lambda p: Fraction(lot[p])
    if name == "dup":
        return lambda p: lines[p].dup
    attribute = {"vp": "vp", "mp_diff": "mp_diff", "mp": "mp"}[name]
    return lambda p: Fraction(getattr(lines[p], attribute))


def line_of(t: TournamentData, pair: int) -> str | None:
    """``NS`` or ``EW``: the line a pair sat in the Mitchell rounds (its first one)."""
    mitchell = [played for played in t.rounds if played.movement == "mitchell"]
    for played in mitchell:  # a table says the line; a bye may be a withdrawn EW's opponent's
        for table in played.tables:
            if pair in table.pairs():
                return "NS" if table.ns == pair else "EW"
    if any(pair in played.byes for played in mitchell):
        return "NS"  # a Mitchell's bye falls on the NS pair facing the empty place
    return None


def line_standings(t: TournamentData) -> dict[str, list[Standing]]:
    """The NS and EW rankings of a Mitchell: each line's pairs ranked among themselves.

    The overall order decides (same criteria); ranks are counted again within the line,
    pairs level on every criterion sharing theirs.
    """
    out: dict[str, list[Standing]] = {"NS": [], "EW": []}
    overall = standings(t)
    for line in ("NS", "EW"):
        mine = [s for s in overall if line_of(t, s.pair) == line]
        ranked: list[Standing] = []
        for k, s in enumerate(mine):
            same = k > 0 and s.tied and mine[k - 1].tied and mine[k - 1].rank == s.rank
            rank = ranked[-1].rank if same else k + 1
            ranked.append(replace(s, rank=rank))
        out[line] = ranked
    return out
