"""Open online tournaments as values: what an event is (:class:`EventSpec`) and where it
stands (:class:`EventState`), and every change to it as a pure function returning a new state.

An event is a Swiss of a fixed number of rounds (paired by :mod:`burraco.meet.swiss`) or an
arena of a fixed length in minutes (paired by :mod:`burraco.meet.arena`), played in form
``"2"`` (one account per entrant) or ``"4"`` (an entrant is a fixed pair of two accounts
that registered together: a game is one table of four), at tables of one rules preset and
one of the pools' formats (:data:`burraco.meet.entries.FORMATS`), with a turn clock.  It is
not the club's tournament (:mod:`burraco.tournament`): nobody directs it, entrants register
themselves, and the server's scheduler drives it with the clock.

The life of an event: :func:`open_event`; :func:`register` and :func:`unregister` until
the start time; :func:`start` at or after it; games made by the pairings
(:func:`begin_round` for a Swiss round, :func:`add_games` for the arena), each closed by
:func:`record_result` or :func:`no_show`; :func:`withdraw` at any time; :func:`finish`.
Times are passed in (seconds, the callers' common clock) and the same calls always give
the same states.  A refused change raises :class:`EventError` naming the field and leaves
the state as it was (a state is never changed in place).

A no-show (an entrant who did not sit down in time) loses that game; an entrant's second
missed game withdraws it (:data:`MISSES_TO_WITHDRAW`).
"""

from __future__ import annotations

import enum
import hashlib
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace

from burraco.engine.rules import PRESETS, Rules
from burraco.engine.vp import vp_for_scores
from burraco.meet.entries import ACCOUNT_CAP, FORMATS, PoolKey

KINDS = ("swiss", "arena")
FORMS = ("2", "4")
PHASES = ("open", "running", "finished")
NAME_CAP = 80
ROUNDS = (1, 15)
"""Fewest and most rounds of a Swiss."""
MINUTES = (1, 720)
"""Shortest and longest arena, in minutes (one minute: a bullet arena of one-hand games)."""
SHOW_SECONDS = (10.0, 900.0)
"""Fewest and most seconds an entrant has to sit down at a new game."""
TURN_SECONDS = (5.0, 600.0)
ENTRANTS = (2, 10_000)
"""Fewest and most entrants an event may be opened for."""
POINTS_CAP = 100_000
"""Largest match-point total a side may report."""
MISSES_TO_WITHDRAW = 2
"""Missed games (no-shows) that withdraw an entrant."""
BYE_VP = 14.0
"""A bye (and a game won by default) in VP: the club rule of RULES.md §11.5 (14 VP; it
also gives +355 MP, which an online event does not keep), the only figure a source gives."""
VP_HANDS = 3
"""Hands of a ``vp3`` game: its VP come from the 3-hand table (RULES.md §11.2)."""


class EventError(ValueError):
    """A malformed event or a refused change; ``field`` names what is wrong, the message
    why (like :class:`burraco.meet.entries.PoolError`)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


@dataclass(frozen=True, slots=True)
class EventSpec:
    """What an event is, fixed when it is opened; checked field by field on creation."""

    name: str
    starts: float
    """The announced start, in seconds."""
    kind: str
    """``swiss`` or ``arena``."""
    form: str
    """``"2"``: entrants are single accounts; ``"4"``: fixed pairs of two accounts."""
    rules: str = "fibur"
    """The tables' rules preset (:data:`burraco.engine.rules.PRESETS`)."""
    format: str = "505"
    """The tables' format (:data:`burraco.meet.entries.FORMATS`); ``vp3`` scores a Swiss
    in VP."""
    rounds: int | None = None
    """A Swiss's rounds."""
    minutes: int | None = None
    """An arena's length, counted from its start."""
    turn_seconds: float = 60.0
    rated: bool = False
    min_rating: float | None = None
    """Each account's rating must reach it to register."""
    club: str | None = None
    """Members of this club only."""
    max_entrants: int = 256
    bye_points: float | None = None
    """What a Swiss bye scores; ``None``: a win (1 point; :data:`BYE_VP` in ``vp3``)."""
    seed: int = 0
    """The seed of the lot that breaks the last ties."""
    show_seconds: float = 120.0
    """Seconds an entrant has to sit down at a new game before it is lost by default."""

    def __post_init__(self) -> None:
        _check_spec(self)

    @property
    def pool(self) -> PoolKey:
        """The pool key of the event's tables (format, form, rated)."""
        return PoolKey(self.format, self.form, self.rated)

    @property
    def vp(self) -> bool:
        """Whether games are scored in victory points (the ``vp3`` format)."""
        return self.format == "vp3"

    @property
    def win(self) -> float:
        """What a game won by default (an absent opponent) scores in a Swiss."""
        return BYE_VP if self.vp else 1.0

    @property
    def bye(self) -> float:
        """What a Swiss bye scores."""
        return self.win if self.bye_points is None else float(self.bye_points)

    @property
    def seconds(self) -> float:
        """An arena's length in seconds (0 for a Swiss)."""
        return 60.0 * (self.minutes or 0)

    def rules_value(self) -> Rules:
        return PRESETS[self.rules]


def _check_spec(spec: EventSpec) -> None:
    """Raise :class:`EventError` for the first malformed field of ``spec``."""
    if not isinstance(spec.name, str) or not 0 < len(spec.name.strip()) <= NAME_CAP:
        raise EventError("name", f"a name is 1 to {NAME_CAP} characters")
    if not _number(spec.starts):
        raise EventError("starts", f"the start is a finite number of seconds, not "
                         f"{spec.starts!r}")
    if spec.kind not in KINDS:
        raise EventError("kind", f"unknown kind {spec.kind!r}: one of {', '.join(KINDS)}")
    if spec.form not in FORMS:
        raise EventError("form", f"unknown form {spec.form!r}: one of {', '.join(FORMS)}")
    if spec.rules not in PRESETS:
        raise EventError("rules", f"unknown rules preset {spec.rules!r}: one of "
                         f"{', '.join(sorted(PRESETS))}")
    if spec.format not in FORMATS:
        raise EventError("format", f"unknown format {spec.format!r}: one of "
                         f"{', '.join(FORMATS)}")
    swiss = spec.kind == "swiss"
    for name, low_high, wanted in (("rounds", ROUNDS, swiss), ("minutes", MINUTES, not swiss)):
        value = getattr(spec, name)
        if not wanted:
            if value is not None:
                raise EventError(name, f"a {spec.kind} has no {name}")
            continue
        low, high = low_high
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            article = "an" if spec.kind == "arena" else "a"
            raise EventError(name, f"{article} {spec.kind} has {low} to {high} {name}, not "
                                   f"{value!r}")
    low_s, high_s = TURN_SECONDS
    if not _number(spec.turn_seconds) or not low_s <= spec.turn_seconds <= high_s:
        raise EventError("turn_seconds", f"the turn clock is {low_s:g} to {high_s:g} "
                         f"seconds, not {spec.turn_seconds!r}")
    if not isinstance(spec.rated, bool):
        raise EventError("rated", "rated is true or false")
    if spec.min_rating is not None and not _number(spec.min_rating):
        raise EventError("min_rating", "the minimum rating is a finite number or none")
    if spec.club is not None and (not isinstance(spec.club, str)
                                  or not 0 < len(spec.club) <= ACCOUNT_CAP):
        raise EventError("club", f"a club id is 1 to {ACCOUNT_CAP} characters or none")
    low_e, high_e = ENTRANTS
    if not isinstance(spec.max_entrants, int) or isinstance(spec.max_entrants, bool) \
            or not low_e <= spec.max_entrants <= high_e:
        raise EventError("max_entrants", f"{low_e} to {high_e} entrants, not "
                         f"{spec.max_entrants!r}")
    if spec.bye_points is not None and (not _number(spec.bye_points)
                                        or not 0 <= spec.bye_points <= (20 if spec.vp else 1)):
        raise EventError("bye_points", f"a bye scores 0 to {20 if spec.vp else 1} points")
    if not isinstance(spec.seed, int) or isinstance(spec.seed, bool):
        raise EventError("seed", "the seed is an integer")
    low_w, high_w = SHOW_SECONDS
    if not _number(spec.show_seconds) or not low_w <= spec.show_seconds <= high_w:
        raise EventError("show_seconds", f"{low_w:g} to {high_w:g} seconds to sit down, not "
                         f"{spec.show_seconds!r}")


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant: an account, or in form ``"4"`` a fixed pair of two."""

    id: str
    """Its first account."""
    accounts: tuple[str, ...]
    rating: float
    """At registration: the account's, or the pair's mean."""
    registered: float
    joined: bool = True
    """False once unregistered before the start (kept for the record, never paired)."""
    withdrawn: bool = False
    missed: int = 0
    """Games it did not sit down for."""

    @property
    def active(self) -> bool:
        """Whether it is in the event and may be paired."""
        return self.joined and not self.withdrawn


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended.  Sides are the game's entrants in order (0, 1)."""

    winner: int | None
    """The side that won; ``None``: a draw, or both absent."""
    points: tuple[int, int] | None
    """Each side's match points; ``None`` for a game not played (a no-show)."""
    vp: tuple[int, int] | None
    """Each side's VP (``vp3`` played games)."""
    absent: tuple[int, ...]
    """The sides that did not sit down."""
    at: float


@dataclass(frozen=True, slots=True)
class Game:
    """One table: two entrants, from its start to its result."""

    id: str
    """``R.T`` (round, table) in a Swiss; ``aN`` in an arena."""
    round: int
    """The Swiss round (1, 2, ...); 0 in an arena."""
    sides: tuple[str, str]
    started: float
    result: Result | None = None

    def side_of(self, entrant: str) -> int:
        return self.sides.index(entrant)


@dataclass(frozen=True, slots=True)
class Bye:
    """A Swiss round an entrant sat out with an odd field."""

    round: int
    entrant: str


@dataclass(frozen=True, slots=True)
class EventState:
    """Where an event stands.  Every change is a function returning a new state."""

    spec: EventSpec
    phase: str = "open"
    entrants: tuple[Entrant, ...] = ()
    """In order of registration."""
    games: tuple[Game, ...] = ()
    """In order of creation."""
    byes: tuple[Bye, ...] = ()
    round: int = 0
    """A Swiss's rounds begun."""
    started: float | None = None
    finished: float | None = None
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise EventError("phase", f"unknown phase {self.phase!r}: one of "
                             f"{', '.join(PHASES)}")
        object.__setattr__(self, "_index", {e.id: i for i, e in enumerate(self.entrants)})

    def entrant(self, entrant_id: str) -> Entrant:
        at = self._index.get(entrant_id)
        if at is None:
            raise EventError("entrant", f"no entrant {entrant_id!r}")
        return self.entrants[at]

    def has(self, entrant_id: str) -> bool:
        return entrant_id in self._index

    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if e.active]

    def game(self, game_id: str) -> Game:
        for game in reversed(self.games):
            if game.id == game_id:
                return game
        raise EventError("game", f"no game {game_id!r}")

    def open_games(self) -> list[Game]:
        return [g for g in self.games if g.result is None]

    def playing(self) -> set[str]:
        """The entrants at a table now."""
        return {e for g in self.games if g.result is None for e in g.sides}

    @property
    def ends(self) -> float | None:
        """When an arena stops starting games (its start plus its length)."""
        if self.spec.kind != "arena" or self.started is None:
            return None
        return self.started + self.spec.seconds


def lot(spec: EventSpec, entrant_id: str) -> int:
    """The entrant's lot for the last tie-break: a digest of the event and the id, the same
    for every call and independent of the other entrants."""
    text = f"{spec.seed}|{spec.name}|{entrant_id}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def open_event(spec: EventSpec) -> EventState:
    return EventState(spec)


def _phase(state: EventState, phase: str, doing: str) -> None:
    if state.phase != phase:
        raise EventError("phase", f"cannot {doing}: the event is {state.phase}")


def _with_entrant(state: EventState, entrant: Entrant) -> EventState:
    entrants = tuple(entrant if e.id == entrant.id else e for e in state.entrants)
    if not state.has(entrant.id):
        entrants += (entrant,)
    return replace(state, entrants=entrants)


def register(state: EventState, party: Sequence[tuple[str, float]], now: float, *,
             members: Collection[str] = ()) -> EventState:
    """The state with ``party`` (``[(account, rating)]``: one account, or two in form
    ``"4"``) registered at ``now``.  ``members``: the party's accounts that belong to the
    event's club (the caller looks them up).  Refused after the start time, when full,
    for a rating below the minimum, for a non-member, or for an account already in."""
    spec = state.spec
    _phase(state, "open", "register")
    if not _number(now) or now >= spec.starts:
        raise EventError("starts", "registration closed at the start time")
    size = 1 if spec.form == "2" else 2
    if isinstance(party, str | bytes) or not isinstance(party, Sequence) \
            or len(party) != size:
        what = "one account" if size == 1 else "two accounts (partners)"
        raise EventError("party", f"an entrant of form {spec.form} is {what}")
    accounts: list[str] = []
    ratings: list[float] = []
    for item in party:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
            raise EventError("party", "each member is an (account, rating) pair")
        account, rating = item
        if not isinstance(account, str) or not 0 < len(account) <= ACCOUNT_CAP:
            raise EventError("account", f"an account id is 1 to {ACCOUNT_CAP} characters")
        if not _number(rating):
            raise EventError("rating", f"the rating of {account!r} is not a finite number")
        accounts.append(account)
        ratings.append(float(rating))
    if len(set(accounts)) != len(accounts):
        raise EventError("party", "an account appears twice in the party")
    taken = {a for e in state.entrants if e.joined for a in e.accounts}
    if taken.intersection(accounts):
        raise EventError("account", f"already registered: {sorted(taken & set(accounts))}")
    if sum(1 for e in state.entrants if e.joined) >= spec.max_entrants:
        raise EventError("max_entrants", f"the event is full ({spec.max_entrants} entrants)")
    if spec.min_rating is not None and min(ratings) < spec.min_rating:
        raise EventError("min_rating", f"each rating must reach {spec.min_rating:g}")
    if spec.club is not None and not set(accounts) <= set(members):
        raise EventError("club", f"members of {spec.club!r} only")
    entrant = Entrant(accounts[0], tuple(accounts), sum(ratings) / len(ratings), float(now))
    return _with_entrant(state, entrant)  # registered, left and back: one row, renewed


def unregister(state: EventState, entrant_id: str, now: float) -> EventState:
    """The state without the entrant (kept with ``joined`` false); before the start only."""
    _phase(state, "open", "unregister")
    if not _number(now) or now >= state.spec.starts:
        raise EventError("starts", "the event has started: withdraw instead")
    entrant = state.entrant(entrant_id)
    if not entrant.joined:
        raise EventError("entrant", f"{entrant_id!r} is not registered")
    return _with_entrant(state, replace(entrant, joined=False))


def start(state: EventState, now: float) -> EventState:
    """The event running from ``now`` (at or after the start time, with at least two
    entrants: two players, or two pairs)."""
    _phase(state, "open", "start")
    if not _number(now) or now < state.spec.starts:
        raise EventError("starts", "the start time has not come")
    if len(state.active()) < 2:
        raise EventError("entrants", "an event needs at least two entrants")
    return replace(state, phase="running", started=float(now))


def _check_pairs(state: EventState, pairs: Sequence[tuple[str, str]],
                 byes: Sequence[str] = ()) -> None:
    busy = state.playing()
    seen: set[str] = set()
    if any(len(p) != 2 for p in pairs):
        raise EventError("pairs", "a game is two entrants")
    for entrant_id in [x for p in pairs for x in p] + list(byes):
        entrant = state.entrant(entrant_id)
        if not entrant.active:
            raise EventError("entrant", f"{entrant_id!r} is not in the event")
        if entrant_id in busy:
            raise EventError("entrant", f"{entrant_id!r} is at a table")
        if entrant_id in seen:
            raise EventError("entrant", f"{entrant_id!r} is paired twice")
        seen.add(entrant_id)


def begin_round(state: EventState, pairs: Sequence[tuple[str, str]], byes: Sequence[str],
                now: float) -> EventState:
    """A Swiss's next round: its games (table 1 first) and its byes, from ``now``."""
    _phase(state, "running", "begin a round")
    spec = state.spec
    if spec.kind != "swiss":
        raise EventError("kind", "an arena has no rounds")
    if state.open_games():
        raise EventError("round", f"round {state.round} is not over")
    if state.round >= (spec.rounds or 0):
        raise EventError("round", f"all {spec.rounds} rounds are played")
    _check_pairs(state, pairs, byes)
    number = state.round + 1
    games = tuple(Game(f"{number}.{t}", number, (a, b), float(now))
                  for t, (a, b) in enumerate(pairs, 1))
    return replace(state, round=number, games=state.games + games,
                   byes=state.byes + tuple(Bye(number, b) for b in byes))


def add_games(state: EventState, pairs: Sequence[tuple[str, str]], now: float) -> EventState:
    """An arena's new games from ``now``; none after its end."""
    _phase(state, "running", "start games")
    if state.spec.kind != "arena":
        raise EventError("kind", "a Swiss starts games by rounds")
    ends = state.ends
    if pairs and (not _number(now) or ends is None or now >= ends):
        raise EventError("minutes", "the arena has ended: no new game")
    _check_pairs(state, pairs)
    count = len(state.games)
    games = tuple(Game(f"a{count + i}", 0, (a, b), float(now))
                  for i, (a, b) in enumerate(pairs, 1))
    return replace(state, games=state.games + games)


def _close(state: EventState, game: Game, result: Result) -> EventState:
    closed = replace(game, result=result)
    return replace(state, games=tuple(closed if g is game else g for g in state.games))


def _open_game(state: EventState, game_id: str) -> Game:
    _phase(state, "running", "close a game")
    game = state.game(game_id)
    if game.result is not None:
        raise EventError("game", f"game {game_id!r} already has its result")
    return game


class _ByPoints(enum.Enum):
    BY_POINTS = "by points"


BY_POINTS = _ByPoints.BY_POINTS
"""``winner`` left to the points: the higher total wins (in ``vp3``: the higher VP)."""


def record_result(state: EventState, game_id: str, points: tuple[int, int], now: float, *,
                  winner: int | _ByPoints | None = BY_POINTS) -> EventState:
    """The state with a game's result: each side's match points (``vp3``: its VP follow
    from the 3-hand table of the event's rules).  ``winner`` (0, 1, ``None`` for a draw)
    overrides the points' verdict, for a game ended otherwise (an abandonment)."""
    game = _open_game(state, game_id)
    if not isinstance(points, tuple | list) or len(points) != 2 \
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points) \
            or not all(abs(p) <= POINTS_CAP for p in points):
        raise EventError("points", f"each side's match points, two integers up to "
                         f"{POINTS_CAP}")
    a, b = points
    vp: tuple[int, int] | None = None
    if state.spec.vp:
        try:
            vp = vp_for_scores(a, b, VP_HANDS, state.spec.rules_value())
        except ValueError as exc:
            raise EventError("points", str(exc)) from None
    if winner is BY_POINTS:
        x, y = vp if vp is not None else (a, b)
        winner = 0 if x > y else 1 if y > x else None
    if winner not in (0, 1, None):
        raise EventError("winner", "the winner is side 0 or 1, or none for a draw")
    return _close(state, game, Result(winner, (a, b), vp, (), float(now)))


def no_show(state: EventState, game_id: str, absent: Iterable[str], now: float) -> EventState:
    """The game lost by each entrant of ``absent`` that did not sit down (won by default by
    the other if present); each absent entrant's missed count grows, and its
    :data:`MISSES_TO_WITHDRAW`-th miss withdraws it."""
    game = _open_game(state, game_id)
    names = sorted(set(absent))
    if not names or any(n not in game.sides for n in names):
        raise EventError("absent", f"the absent are entrants of game {game_id!r}")
    sides = tuple(sorted(game.side_of(n) for n in names))
    winner = None if len(sides) == 2 else 1 - sides[0]
    state = _close(state, game, Result(winner, None, None, sides, float(now)))
    for name in names:
        entrant = state.entrant(name)
        missed = entrant.missed + 1
        state = _with_entrant(state, replace(
            entrant, missed=missed, withdrawn=entrant.withdrawn or missed >= MISSES_TO_WITHDRAW))
    return state


def withdraw(state: EventState, entrant_id: str, now: float) -> EventState:
    """The entrant out of the event from ``now`` (a game it is playing still needs its
    result); before the start, :func:`unregister`."""
    _phase(state, "running", "withdraw")
    entrant = state.entrant(entrant_id)
    if not entrant.active:
        raise EventError("entrant", f"{entrant_id!r} is not in the event")
    return _with_entrant(state, replace(entrant, withdrawn=True))


def finish(state: EventState, now: float, *, early: bool = False) -> EventState:
    """The event over at ``now``: every game closed, and the Swiss's last round played or
    the arena's end reached (``early``: stopped before, by whoever runs it)."""
    _phase(state, "running", "finish")
    if state.open_games():
        raise EventError("games", f"{len(state.open_games())} games have no result yet")
    spec = state.spec
    if not early:
        if spec.kind == "swiss" and state.round < (spec.rounds or 0):
            raise EventError("rounds", f"{state.round} of {spec.rounds} rounds are played")
        ends = state.ends
        if spec.kind == "arena" and (ends is None or now < ends):
            raise EventError("minutes", "the arena has not reached its end")
    return replace(state, phase="finished", finished=float(now))
