"""The arena of an open event (:mod:`burraco.meet.events`): games one after another for a
fixed length of time, scored like Lichess's arenas; pure and deterministic.

**Pairing.**  Whoever is waiting (not at a table, in the event) is paired at once:
:func:`pair` takes the waiting entrants (each with the moment it began to wait) and
``now``, and returns the games to start.  The waiting are ranked by score, then rating,
then the lot, and from the top each meets the nearest below it, so scores and ratings stay
close; an entrant never meets the opponent of its last game again while another pairing
of those waiting avoids it (the same search as the Swiss's, :mod:`burraco.meet.matching`).
Two who just played each other and find nobody else (the usual case in a small arena: a
game ends, its two players come back together) wait :data:`REMATCH_AFTER` seconds for
someone else to come back before they meet again.  With an odd number waiting, the one
that began to wait last sits out (ties: the lowest-ranked), unless its sitting out would
force an immediate rematch that another's would not.  No game starts at or after the end
(the start plus the length); the games still being played then count once their results
are recorded, and :func:`burraco.meet.events.finish` waits for them.

**Scores** (https://lichess.org/tournament/help): a win scores 2, a draw 1, a loss 0; after
two wins in a row every further win scores double, 4, until a game that is not a win ends
the streak.  (Lichess also doubles a draw that ends a streak; here a draw is 1 always, as
this event's rules were asked for.  There is no berserk.)  A game lost by not sitting down
is a loss and ends the streak; the opponent's is a win.

**Standings**: score, then performance (the mean over played games of the opponent's
rating, +500 for a win, −500 for a loss: Lichess's tournament performance), then the
rating, then the lot.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from burraco.meet.events import EventError, EventState, add_games, lot
from burraco.meet.matching import pairing, symmetric

WIN, DRAW, LOSS = 2, 1, 0
STREAK_WIN = 4
"""A win's points on a streak."""
STREAK_AFTER = 2
"""Wins in a row after which a win scores :data:`STREAK_WIN`."""
PERFORMANCE_STEP = 500.0
REMATCH_AFTER = 30.0
"""Seconds two who just played each other wait, alone, before they meet again (someone
else may come back meanwhile).  Lichess holds its lobby 15 to 50 seconds by the clock
(``WaitingUsers.waitSeconds``) when last opponents are waiting."""


def points(outcomes: Iterable[str]) -> list[int]:
    """Each game's points from its outcome (``W``, ``D``, ``L``), in the order played.

    >>> points("WWWWDWWWL")
    [2, 2, 4, 4, 1, 2, 2, 4, 0]
    """
    out: list[int] = []
    run = 0
    for outcome in outcomes:
        if outcome == "W":
            out.append(STREAK_WIN if run >= STREAK_AFTER else WIN)
            run += 1
        elif outcome in ("D", "L"):
            out.append(DRAW if outcome == "D" else LOSS)
            run = 0
        else:
            raise ValueError(f"an outcome is W, D or L, not {outcome!r}")
    return out


@dataclass(frozen=True, slots=True)
class Tally:
    """One entrant's arena so far: its closed games in the order played."""

    outcomes: str
    """``W``/``D``/``L`` per game."""
    points: tuple[int, ...]
    performance: float | None
    """``None`` before its first game played (a default is not played)."""

    @property
    def score(self) -> int:
        return sum(self.points)

    @property
    def streak(self) -> int:
        """Wins in a row at the end."""
        return len(self.outcomes) - len(self.outcomes.rstrip("W"))

    @property
    def on_fire(self) -> bool:
        """Whether its next win scores double."""
        return self.streak >= STREAK_AFTER


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: str
    accounts: tuple[str, ...]
    score: int
    games: int
    wins: int
    draws: int
    losses: int
    streak: int
    on_fire: bool
    performance: float | None
    rating: float
    lot: int
    withdrawn: bool


def tallies(state: EventState) -> dict[str, Tally]:
    """Every entrant's tally (games in order of start)."""
    rating = {e.id: e.rating for e in state.entrants}
    outcomes: dict[str, list[str]] = {e.id: [] for e in state.entrants}
    perf: dict[str, list[float]] = {e.id: [] for e in state.entrants}
    for game in sorted(state.games, key=lambda g: g.started):
        result = game.result
        if result is None:
            continue
        for side, entrant in enumerate(game.sides):
            if side in result.absent:
                outcome = "L"
            elif result.winner is None:
                outcome = "D"
            else:
                outcome = "W" if result.winner == side else "L"
            outcomes[entrant].append(outcome)
            if not result.absent:
                step = {"W": 1, "D": 0, "L": -1}[outcome] * PERFORMANCE_STEP
                perf[entrant].append(rating[game.sides[1 - side]] + step)
    return {e: Tally("".join(o), tuple(points(o)),
                     sum(perf[e]) / len(perf[e]) if perf[e] else None)
            for e, o in outcomes.items()}


def last_opponents(state: EventState) -> dict[str, str]:
    """Each entrant's opponent in its latest game."""
    last: dict[str, tuple[float, str]] = {}
    for game in state.games:
        a, b = game.sides
        for me, other in ((a, b), (b, a)):
            if me not in last or game.started >= last[me][0]:
                last[me] = (game.started, other)
    return {me: other for me, (_, other) in last.items()}


def pair(state: EventState, waiting: Mapping[str, float], now: float, *,
         rematch_after: float = REMATCH_AFTER) -> tuple[tuple[str, str], ...]:
    """The games to start at ``now`` among ``waiting`` (entrant → when it began to wait),
    the better-ranked entrant first in each; none at or after the end.  Two who just
    played each other meet again only when no other pairing avoids it and both have waited
    ``rematch_after`` seconds."""
    if state.spec.kind != "arena":
        raise EventError("kind", "only an arena pairs whoever waits")
    if state.phase != "running":
        raise EventError("phase", f"cannot pair: the event is {state.phase}")
    ends = state.ends
    if ends is None or now >= ends:
        return ()
    busy = state.playing()
    for entrant_id, since in waiting.items():
        entrant = state.entrant(entrant_id)
        if not entrant.active or entrant_id in busy:
            raise EventError("waiting", f"{entrant_id!r} is not free to play")
        if not isinstance(since, int | float) or not math.isfinite(since):
            raise EventError("waiting", f"{entrant_id!r} waits since a number of seconds")
    if len(waiting) < 2:
        return ()
    tally = tallies(state)
    spec = state.spec
    ranked = sorted(waiting, key=lambda e: (-tally[e].score, -state.entrant(e).rating,
                                            lot(spec, e)))
    index = {entrant: i for i, entrant in enumerate(ranked)}
    last = last_opponents(state)
    repeats = [(index[e], index[last[e]]) for e in ranked if last.get(e) in index]
    sit_out = sorted(range(len(ranked)), key=lambda i: (-waiting[ranked[i]], -i))

    def nearest(p: int, rest: Sequence[int]) -> Sequence[int]:
        return rest

    found = pairing(len(ranked), symmetric(len(ranked), repeats), nearest, sit_out)
    if found is None:
        patient = {i for i, e in enumerate(ranked) if now - waiting[e] >= rematch_after}
        held = [(a, b) for a, b in repeats if a not in patient or b not in patient]
        found = pairing(len(ranked), symmetric(len(ranked), held), nearest, sit_out,
                        most_left=len(ranked))
    if found is None:  # pragma: no cover - anyone may be left out
        raise AssertionError("a pairing that may leave anyone out always exists")
    return tuple((ranked[a], ranked[b]) for a, b in found[0])


def start_games(state: EventState, waiting: Mapping[str, float], now: float, *,
                rematch_after: float = REMATCH_AFTER) -> EventState:
    """The state with :func:`pair`'s games started at ``now``."""
    return add_games(state, pair(state, waiting, now, rematch_after=rematch_after), now)


def standings(state: EventState) -> tuple[Standing, ...]:
    """Every entrant that took part (withdrawn ones included, flagged), best first."""
    tally = tallies(state)
    spec = state.spec
    rows = []
    for entrant in state.entrants:
        if not entrant.joined:
            continue
        t = tally[entrant.id]
        rows.append((entrant, t))
    rows.sort(key=lambda row: (-row[1].score,
                               -(row[1].performance if row[1].performance is not None
                                 else float("-inf")),
                               -row[0].rating, lot(spec, row[0].id)))
    return tuple(Standing(
        rank, e.id, e.accounts, t.score, len(t.outcomes), t.outcomes.count("W"),
        t.outcomes.count("D"), t.outcomes.count("L"), t.streak, t.on_fire, t.performance,
        e.rating, lot(spec, e.id), e.withdrawn) for rank, (e, t) in enumerate(rows, 1))
