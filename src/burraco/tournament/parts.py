"""The parts a tournament is made of: settings, entrants, rounds and results (RULES.md §11).

:class:`~burraco.tournament.model.Tournament` holds them (its module imports them from
here, and they may be imported from there too).  :class:`TournamentData` is what the
seating, the standings and duplicate scoring read of a tournament: they take it, not the
model's class, because the model seats its rounds with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from burraco.tournament.errors import TournamentError
from burraco.tournament.evening import Evening
from burraco.tournament.i18n import Text
from burraco.tournament.scale import VpScale
from burraco.tournament.schedule import Schedule
from burraco.tournament.seating import Table

Kind = Literal["pairs", "individual", "teams"]
KINDS: tuple[Kind, ...] = ("pairs", "individual", "teams")
ENTRANT = {"pairs": "pair", "individual": "player", "teams": "team"}
INDIVIDUAL_MOVEMENTS = ("random", "danish", "danish-modified")
SeatingOrder = Literal["registration", "draw"]
TIE_BREAKS = ("mp_diff", "h2h", "mp", "vp", "dup", "lot")
DEFAULT_TIE_BREAKS = ("mp_diff", "h2h", "lot")
Source = Literal["director", "online", "bot", "tables", "arbitral"]
"""Who gave a result: ``arbitral`` is the director's VP, given instead of the table's."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything fixed when the tournament is created."""

    name: str
    hands: int = 3
    """Smazzate per match."""
    schedule: Schedule = field(default_factory=lambda: Schedule.parse("mitchell:3,danish:1"))
    scale: VpScale | None = None
    """MP → VP table; ``None``: the official table for ``hands`` (3 or 4)."""
    duplicate: bool = False
    """Every table of a round plays the same deals; ranking by MP against the field (§11.4)."""
    bye_vp: int = 14
    """VP for a pair with no opponent (a local rule: one club gives 14 VP, §11.5)."""
    bye_mp: int = 355
    """MP difference credited with a bye (the same club: +355)."""
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    """After VP (after the duplicate score in a duplicate event); §11.5 default."""
    seating: SeatingOrder = "registration"
    """First-round order: as registered, or drawn by lot from ``seed``."""
    seed: int = 0
    kind: Kind = "pairs"

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError(Text("error.no_name"))
        if not 1 <= self.hands <= 12:
            raise TournamentError(Text("error.hands_range", n=self.hands))
        if self.scale is not None and self.scale.hands != self.hands:
            raise TournamentError(Text("error.scale_hands", name=repr(self.scale.name),
                                       hands=self.scale.hands, n=self.hands))
        self.vp_scale  # noqa: B018 - fails early when no table is known for these hands
        if not 0 <= self.bye_vp <= 20:
            raise TournamentError(Text("error.bye_vp", n=self.bye_vp))
        if self.bye_mp % 5:
            raise TournamentError(Text("error.bye_mp", n=self.bye_mp))
        unknown = [k for k in self.tie_breaks if k not in TIE_BREAKS]
        if unknown:
            raise TournamentError(Text("error.tie_break", name=repr(unknown[0]),
                                       known=", ".join(TIE_BREAKS)))
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise TournamentError(Text("error.tie_twice", listed=",".join(self.tie_breaks)))
        if self.seating not in ("registration", "draw"):
            raise TournamentError(Text("error.seating", value=repr(self.seating)))
        if self.kind not in KINDS:
            raise TournamentError(Text("error.kind", kinds=", ".join(KINDS),
                                       kind=repr(self.kind)))
        if self.kind == "individual":
            wrong = [s.movement for s in self.schedule.segments
                     if s.movement not in INDIVIDUAL_MOVEMENTS]
            if wrong:
                raise TournamentError(Text("error.individual_movement", movement=wrong[0],
                                           movements=", ".join(INDIVIDUAL_MOVEMENTS)))
        if self.kind == "teams" and self.scale is None:
            raise TournamentError(Text("error.team_scale"))

    @property
    def entrant(self) -> str:
        """What an entrant is called: ``pair``, ``player`` or ``team``."""
        return ENTRANT[self.kind]

    @property
    def vp_scale(self) -> VpScale:
        return self.scale if self.scale is not None else VpScale.builtin(self.hands)

    @property
    def ranking(self) -> tuple[str, ...]:
        """The ranking criteria in order: VP (or the duplicate score), then the tie-breaks."""
        first = "dup" if self.duplicate else "vp"
        return (first, *(k for k in self.tie_breaks if k != first))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "hands": self.hands, "schedule": str(self.schedule),
            "scale": self.scale.to_dict() if self.scale is not None else None,
            "duplicate": self.duplicate, "bye_vp": self.bye_vp, "bye_mp": self.bye_mp,
            "tie_breaks": list(self.tie_breaks), "seating": self.seating, "seed": self.seed,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        scale = data.get("scale")
        return cls(
            name=data["name"], hands=data["hands"], schedule=Schedule.parse(data["schedule"]),
            scale=VpScale.from_dict(scale) if scale else None, duplicate=data["duplicate"],
            bye_vp=data["bye_vp"], bye_mp=data["bye_mp"], tie_breaks=tuple(data["tie_breaks"]),
            seating=data["seating"], seed=data["seed"], kind=data.get("kind", "pairs"))


@dataclass(frozen=True, slots=True)
class Pair:
    number: int
    name: str
    players: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    movement: str
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        known = ", ".join(str(t.number) for t in self.tables) or Text("error.none")
        raise TournamentError(Text("error.no_table", round=self.number, table=number,
                                   known=known))

    def table_of(self, pair: int) -> Table | None:
        for t in self.tables:
            if pair in t.entrants():
                return t
        return None


@dataclass(frozen=True, slots=True)
class Result:
    """One table's match: the lines' MP over the smazzate and the VP they give."""

    round: int
    table: int
    ns: int
    ew: int
    mp: tuple[int, int]
    vp: tuple[int, int]
    hands: tuple[tuple[int, int], ...] = ()
    """(NS, EW) of each smazzata, when known."""
    source: Source = "director"
    rooms: tuple[tuple[int, int], ...] = ()
    """Team events: (home, away) MP at each of the match's two tables, when known."""
    ns_partner: int | None = None
    ew_partner: int | None = None
    """Individual events: the second player of each line (from the round's seating)."""

    @property
    def diff(self) -> int:
        return self.mp[0] - self.mp[1]

    @property
    def arbitral(self) -> bool:
        return self.source == "arbitral"

    @property
    def logged(self) -> str:
        """The result as the director's log writes it: ``MP_NS MP_EW VP_NS VP_EW``."""
        return f"{self.mp[0]} {self.mp[1]} {self.vp[0]} {self.vp[1]}"

    def line(self, side: int) -> tuple[int, ...]:
        """The entrants credited with the NS (0) or EW (1) line's score."""
        return Table(self.table, self.ns, self.ew, self.ns_partner, self.ew_partner).line(side)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round, "table": self.table, "ns": self.ns, "ew": self.ew,
            "mp": list(self.mp), "vp": list(self.vp), "hands": [list(h) for h in self.hands],
            "source": self.source}
        if self.ns_partner is not None:
            out["ns_partner"], out["ew_partner"] = self.ns_partner, self.ew_partner
        if self.rooms:
            out["rooms"] = [list(r) for r in self.rooms]
        return out


class TournamentData(Protocol):
    """A tournament as the seating, the standings and duplicate scoring read it."""

    @property
    def settings(self) -> Settings: ...

    @property
    def pairs(self) -> tuple[Pair, ...]: ...

    @property
    def rounds(self) -> tuple[Round, ...]: ...

    @property
    def results(self) -> tuple[Result, ...]: ...

    @property
    def evening(self) -> Evening: ...

    @property
    def field(self) -> int:
        """Entrants registered before round 1 (the movement is planned for them)."""
        ...

    def pair(self, number: int) -> Pair: ...

    def round_results(self, round_number: int) -> list[Result]: ...

    def initial_order(self) -> list[int]:
        """Pairs in first-round order: as registered, or drawn by lot from the seed."""
        ...
