"""The round clock: how long a round lasts and what happens when its time is up.

RULES.md §11.6 gives the federation's round lengths (about 32–35 minutes for three
smazzate, 42–45 for four); the default is :data:`MINUTES_PER_SMAZZATA` per smazzata, which
lands inside both ranges.  When the time is up the time-out rule of RULES.md §8.2 (FIBur
Art. 15) applies: a last lap is played and, if nobody closes in it, nobody scores the
closing bonus, no new smazzata is dealt, and the match is scored on the smazzate played.
:data:`WARNING_MINUTES` before the end the pages warn (the big screen with a beep too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text

MINUTES_PER_SMAZZATA = 11
MAX_MINUTES = 240
WARNING_MINUTES = 5
"""The pages warn when this much time is left (or less), until the time is up."""
WARNING = timedelta(minutes=WARNING_MINUTES)


def default_minutes(hands: int) -> int:
    """The round's default length: 11 minutes a smazzata (3 → 33, 4 → 44; §11.6)."""
    return MINUTES_PER_SMAZZATA * hands


def check_minutes(minutes: int) -> None:
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise TournamentError(Text("error.minutes_whole", value=repr(minutes)))
    if not 1 <= minutes <= MAX_MINUTES:
        raise TournamentError(Text("error.minutes_range", most=MAX_MINUTES, n=minutes))


@dataclass(frozen=True, slots=True)
class Clock:
    round: int
    minutes: int
    started_at: datetime
    ends_at: datetime

    def left(self, at: datetime) -> timedelta:
        return max(self.ends_at - at, timedelta(0))

    def expired(self, at: datetime) -> bool:
        return at >= self.ends_at

    def warning(self, at: datetime) -> bool:
        """At most :data:`WARNING_MINUTES` left, and the time not yet up."""
        return timedelta(0) < self.left(at) <= WARNING

    def left_text(self, at: datetime) -> str:
        """``mm:ss`` left (what the page shows without JavaScript, as of loading it)."""
        seconds = int(self.left(at).total_seconds())
        return f"{seconds // 60:02d}:{seconds % 60:02d}"
