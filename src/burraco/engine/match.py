"""A match as a sequence of scored hands: free play to a target, or a tournament match.

Both are immutable values built from their history (the side totals of each
hand): ``record_hand`` returns a new value, so a replay or an undo is just a
shorter history.  Sides are numbered like seats mod 2: side 0 is North–South
(seats 0 and 2, or seat 0 alone in 2p), side 1 East–West.

>>> m = FreePlayMatch(rules=FIBUR.with_options(target=505)).record_hand([600, 200])
>>> m.scores, m.winner, m.dealer
((600, 200), 0, 0)
>>> TournamentMatch(3).record_hand([300, -40]).vp
(13, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from burraco.engine.rules import FIBUR, Rules
from burraco.engine.vp import vp_for_scores, vp_table

SIDES = 2
Totals = tuple[int, int]


def _totals(side_totals: Sequence[int]) -> Totals:
    if len(side_totals) != SIDES:
        raise ValueError(f"a hand scores {SIDES} sides, got {len(side_totals)} totals")
    return (side_totals[0], side_totals[1])


def _sums(hands: Sequence[Totals]) -> Totals:
    return (sum(h[0] for h in hands), sum(h[1] for h in hands))


def _check_seats(players: int, first_dealer: int | None) -> None:
    if players not in (2, 4):
        raise ValueError(f"a two-sided match has 2 or 4 players, not {players}")
    if first_dealer is not None and not 0 <= first_dealer < players:
        raise ValueError(f"no seat {first_dealer} at a table of {players}")


def _dealer(players: int, first_dealer: int | None, played: int) -> int:
    # §2.3: seat n−1 deals first unless a record names the dealer; the deal passes to the next seat
    start = players - 1 if first_dealer is None else first_dealer
    return (start + played) % players


@dataclass(frozen=True, slots=True)
class FreePlayMatch:
    """Hands until a side reaches ``rules.target`` (§9.3, §10).

    If both sides reach it in the same hand the higher total wins; equal totals
    mean one more hand.  A hand dealt again (``nobody_pozzetto="redeal"``) is
    simply not recorded, so the dealer does not move.
    """

    players: int = 4
    rules: Rules = FIBUR
    hands: tuple[Totals, ...] = ()
    """Side totals of every hand played, in order."""
    first_dealer: int | None = None
    """Dealer of the first hand; ``None`` means seat ``players - 1`` (§2.3)."""

    def __post_init__(self) -> None:
        _check_seats(self.players, self.first_dealer)
        if self.rules.target <= 0:
            raise ValueError(f"a free-play target is positive, not {self.rules.target}")

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def scores(self) -> Totals:
        return _sums(self.hands)

    @property
    def dealer(self) -> int:
        """Seat dealing the next hand."""
        return _dealer(self.players, self.first_dealer, len(self.hands))

    @property
    def first_player(self) -> int:
        """Seat that plays first in the next hand: the dealer's left (§2.3)."""
        return (self.dealer + 1) % self.players

    @property
    def winner(self) -> int | None:
        """Side that won, or ``None`` while nobody has (or both stand level past the target)."""
        scores = self.scores
        best = max(range(SIDES), key=lambda side: scores[side])
        if scores[best] < self.target or scores.count(scores[best]) > 1:
            return None
        return best

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def record_hand(self, side_totals: Sequence[int]) -> FreePlayMatch:
        """The match after one more hand scored ``side_totals`` (side 0, side 1)."""
        if self.finished:
            raise ValueError(f"the match is over: side {self.winner} won")
        return FreePlayMatch(
            self.players, self.rules, (*self.hands, _totals(side_totals)), self.first_dealer
        )


@dataclass(frozen=True, slots=True)
class TournamentMatch:
    """A tournament match of a fixed number of smazzate; MP per line → VP (§10, §11.2).

    Built only when the VP table for ``smazzate`` is configured, so a match
    whose table is unknown (2 smazzate under FIBur, §11.3) fails before play.
    """

    smazzate: int
    rules: Rules = FIBUR
    hands: tuple[Totals, ...] = ()
    """Line totals (NS, EW) of every smazzata played, in order."""
    players: int = 4
    first_dealer: int | None = None

    def __post_init__(self) -> None:
        _check_seats(self.players, self.first_dealer)
        if self.smazzate < 1:
            raise ValueError(f"a match has at least one smazzata, not {self.smazzate}")
        vp_table(self.smazzate, self.rules)
        if len(self.hands) > self.smazzate:
            raise ValueError(f"{len(self.hands)} hands in a match of {self.smazzate} smazzate")

    @property
    def finished(self) -> bool:
        return len(self.hands) == self.smazzate

    @property
    def mp(self) -> Totals:
        """Match points of each line: the sum of its hand scores."""
        return _sums(self.hands)

    @property
    def vp(self) -> Totals:
        """(NS, EW) victory points of the MP so far; final once ``finished``."""
        ns, ew = self.mp
        return vp_for_scores(ns, ew, self.smazzate, self.rules)

    @property
    def dealer(self) -> int:
        return _dealer(self.players, self.first_dealer, len(self.hands))

    def record_hand(self, line_totals: Sequence[int]) -> TournamentMatch:
        if self.finished:
            raise ValueError(f"all {self.smazzate} smazzate of the match are played")
        return TournamentMatch(
            self.smazzate, self.rules, (*self.hands, _totals(line_totals)), self.players,
            self.first_dealer,
        )
