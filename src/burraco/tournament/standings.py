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
A bye counts as a match won with the configured award (``bye_vp``, ``bye_mp``).
In an individual event each player of a line is credited with the line's score,
and head-to-head counts the matches where the tied players sat as opponents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from burraco.tournament.draw import seeded_rng
from burraco.tournament.duplicate import duplicate_scores

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament

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

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"rank": self.rank, "pair": self.pair, "name": self.name,
                                  "vp": self.vp, "mp_diff": self.mp_diff, "mp": self.mp,
                                  "played": self.played, "byes": self.byes}
        if self.dup is not None:
            out["dup"] = round(float(self.dup), 1)
        if self.tied:
            out["tied"] = True
        return out


def tallies(t: Tournament) -> dict[int, Tally]:
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
    if t.settings.duplicate:
        for pair, score in duplicate_scores(t).items():
            out[pair].dup = score
    return out


def standings(t: Tournament) -> list[Standing]:
    """The ranking now: every pair, best first."""
    lines = tallies(t)
    order = [p.number for p in t.pairs]
    lot_order = list(order)
    seeded_rng(t.settings.seed, LOT_SALT).shuffle(lot_order)
    lot = {pair: -i for i, pair in enumerate(lot_order)}
    groups = _split(order, list(t.settings.ranking), lines, lot)
    out: list[Standing] = []
    for group in groups:
        rank = len(out) + 1
        for pair in sorted(group):
            line = lines[pair]
            out.append(Standing(
                rank, pair, t.pair(pair).name, line.vp, line.mp_diff, line.mp, line.played,
                line.byes, line.dup if t.settings.duplicate else None, len(group) > 1))
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
