"""A tournament's sequence of rounds as text: ``mitchell:3,danish:1`` (RULES.md §11.1, §11.4).

A schedule is a comma-separated list of segments ``MOVEMENT[:ROUNDS][@STEP]``:

* ``mitchell:3`` three Mitchell rounds; ``mitchell:3@2`` with EW moving two tables a round
* ``danish:1`` Danish (1st v 2nd, 3rd v 4th …); ``danish-modified:2`` no rematch of the
  previous round
* ``roundrobin`` all'italiana, every pair meets every other once (the count may be given
  to play only the first rounds of the cycle)
* ``random:1`` a random draw (sorteggio)

Italian names are accepted (``danese``, ``danese-modificato``, ``italiana``,
``sorteggio``).  ``str`` gives the canonical text back, so a schedule round-trips.

>>> s = Schedule.parse("mitchell:3,danish:1")
>>> str(s), s.total_rounds(24)
('mitchell:3,danish:1', 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text

Movement = Literal["mitchell", "danish", "danish-modified", "roundrobin", "random"]
MOVEMENTS: tuple[Movement, ...] = ("mitchell", "danish", "danish-modified", "roundrobin",
                                   "random")
ALIASES: dict[str, Movement] = {
    "mitchell": "mitchell", "mitchel": "mitchell",
    "danish": "danish", "danese": "danish",
    "danish-modified": "danish-modified", "modified-danish": "danish-modified",
    "danese-modificato": "danish-modified",
    "roundrobin": "roundrobin", "round-robin": "roundrobin", "italiana": "roundrobin",
    "all-italiana": "roundrobin",
    "random": "random", "draw": "random", "sorteggio": "random",
}
MAX_ROUNDS = 99


@dataclass(frozen=True, slots=True)
class Segment:
    movement: Movement
    rounds: int | None
    """``None`` only for a round robin: the whole cycle."""
    step: int = 1
    """Mitchell only: tables the EW pairs move each round."""

    def __str__(self) -> str:
        text = self.movement if self.rounds is None else f"{self.movement}:{self.rounds}"
        return f"{text}@{self.step}" if self.step != 1 else text

    def count(self, pairs: int) -> int:
        """Rounds this segment plays with ``pairs`` pairs."""
        if self.rounds is not None:
            return self.rounds
        return pairs - 1 if pairs % 2 == 0 else pairs


@dataclass(frozen=True, slots=True)
class Schedule:
    segments: tuple[Segment, ...]

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.segments)

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """Parse a schedule, or raise :class:`TournamentError` naming the bad segment."""
        if not text or not text.strip():
            raise TournamentError(Text("error.schedule_empty"))
        return cls(tuple(_segment(part.strip(), text) for part in text.split(",")))

    def total_rounds(self, pairs: int) -> int:
        return sum(s.count(pairs) for s in self.segments)

    def at(self, round_number: int, pairs: int) -> tuple[Segment, int]:
        """The segment of round ``round_number`` (1-based) and the round's index within it."""
        first = 1
        for segment in self.segments:
            count = segment.count(pairs)
            if round_number < first + count:
                return segment, round_number - first
            first += count
        raise TournamentError(Text("error.schedule_rounds", schedule=self, n=first - 1,
                                   pairs=pairs, round=round_number))

    def index_among(self, round_number: int, pairs: int, movement: Movement) -> int:
        """How many rounds of ``movement`` come before ``round_number``.

        A movement split over several segments continues where it stopped: the
        Mitchell rotation goes on, a round robin plays the next rounds of its cycle.
        """
        done = 0
        first = 1
        for segment in self.segments:
            count = segment.count(pairs)
            if segment.movement == movement:
                done += max(0, min(count, round_number - first))
            first += count
        return done

    def mitchell_steps(self, pairs: int) -> list[int]:
        """The step of every Mitchell round, in order."""
        return [s.step for s in self.segments if s.movement == "mitchell"
                for _ in range(s.count(pairs))]


def _segment(part: str, whole: str) -> Segment:
    where = Text("where.segment", whole=repr(whole), part=repr(part))
    if not part:
        raise TournamentError(Text("error.segment_empty", whole=repr(whole)))
    head, at, step_text = part.partition("@")
    name, colon, rounds_text = head.partition(":")
    movement = ALIASES.get(name.strip().lower())
    if movement is None:
        raise TournamentError(Text("error.segment_movement", where=where,
                                   name=repr(name.strip()), known=", ".join(MOVEMENTS)))
    rounds: int | None = None
    if colon:
        rounds = _number(rounds_text, Text("what.segment_rounds", where=where))
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(Text("error.segment_count", where=where, most=MAX_ROUNDS))
    elif movement != "roundrobin":
        raise TournamentError(Text("error.segment_needs_count", where=where, movement=movement))
    step = 1
    if at:
        if movement != "mitchell":
            raise TournamentError(Text("error.segment_step_mitchell", where=where))
        step = _number(step_text, Text("what.segment_step", where=where))
        if step < 1:
            raise TournamentError(Text("error.segment_step", where=where))
    return Segment(movement, rounds, step)


def _number(text: str, what: Text) -> int:
    text = text.strip()
    if not text.isdigit():
        raise TournamentError(Text("error.whole_number", what=what, value=repr(text)))
    return int(text)
