"""A match as a sequence of scored hands: free play to a target, or a tournament match.

Both are immutable values built from their history (the side totals of each
hand): ``record_hand`` returns a new value, so a replay or an undo is just a
shorter history.  Sides are numbered like seats mod 2: side 0 is North–South
(seats 0 and 2, or seat 0 alone in 2p), side 1 East–West.  With 6 players the
three pairs are sides 0–2 (seat mod 3); with 3 and 5 players, whose partnerships
change from hand to hand, each seat keeps its own score (§13.2–13.3).

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
Totals = tuple[int, ...]


def scorers(players: int) -> int:
    """How many scores a free-play match keeps: sides, or seats at 3 and 5 players."""
    return {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[players]


def _totals(side_totals: Sequence[int], count: int = SIDES) -> Totals:
    if len(side_totals) != count:
        raise ValueError(f"a hand scores {count} sides, got {len(side_totals)} totals")
    return tuple(side_totals)


def _sums(hands: Sequence[Totals], count: int = SIDES) -> Totals:
    return tuple(sum(h[k] for h in hands) for k in range(count))


def _check_seats(players: int, first_dealer: int | None, allowed: tuple[int, ...] = (2, 4)) -> None:
    if players not in allowed:
        counts = ", ".join(str(n) for n in allowed)
        raise ValueError(f"this match is for {counts} players, not {players}")
    if first_dealer is not None and not 0 <= first_dealer < players:
        raise ValueError(f"no seat {first_dealer} at a table of {players}")


def _dealer(players: int, first_dealer: int | None, played: int) -> int:
    # §2.3: seat n−1 deals first unless a record names the dealer; the deal passes to the next seat
    start = players - 1 if first_dealer is None else first_dealer
    return (start + played) % players


@dataclass(frozen=True, slots=True)
class FreePlayMatch:
    """Hands until a side reaches the target (§9.3, §10; 3 and 5 players §13).

    If several reach it in the same hand the higher total wins; equal totals
    mean one more hand.  A hand dealt again (``nobody_pozzetto="redeal"``) is
    simply not recorded, so the dealer does not move.  With 3 and 5 players the
    scores are per seat (``HandResult.seat_totals``), the target is 1505 and,
    once anyone reaches the threshold, hands are dealt ``individual``.
    """

    players: int = 4
    rules: Rules = FIBUR
    hands: tuple[Totals, ...] = ()
    """Side totals of every hand played, in order."""
    first_dealer: int | None = None
    """Dealer of the first hand; ``None`` means seat ``players - 1`` (§2.3)."""

    def __post_init__(self) -> None:
        _check_seats(self.players, self.first_dealer, (2, 3, 4, 5, 6))
        if self.target <= 0:
            raise ValueError(f"a free-play target is positive, not {self.target}")

    @property
    def target(self) -> int:
        if self.players == 3:
            return self.rules.three_player_target
        if self.players == 5:
            return self.rules.five_player_target
        return self.rules.target

    @property
    def scores(self) -> Totals:
        return _sums(self.hands, scorers(self.players))

    @property
    def individual(self) -> bool:
        """3 and 5 players: the next hand is dealt with everyone alone (§13.2–13.3)."""
        if self.players == 3:
            threshold = self.rules.individual_from
        elif self.players == 5:
            threshold = self.rules.five_player_individual_from
        else:
            return False
        return any(score >= threshold for score in self.scores)

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
        best = max(range(len(scores)), key=lambda side: scores[side])
        if scores[best] < self.target or scores.count(scores[best]) > 1:
            return None
        return best

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def record_hand(self, side_totals: Sequence[int]) -> FreePlayMatch:
        """The match after one more hand: side totals (seat totals at 3 and 5 players)."""
        if self.finished:
            raise ValueError(f"the match is over: side {self.winner} won")
        totals = _totals(side_totals, scorers(self.players))
        return FreePlayMatch(self.players, self.rules, (*self.hands, totals), self.first_dealer)


@dataclass(frozen=True, slots=True)
class TournamentMatch:
    """A tournament match of a fixed number of smazzate; MP per line → VP (§10, §11.2).

    Built only when the VP table for ``smazzate`` is configured, so a match
    whose table is unknown (team matches, 5 smazzate or more, §11.3) fails before play.
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
