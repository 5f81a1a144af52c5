"""A table's settings: the creator's request (pydantic, checked field by field) and the
frozen :class:`TableConfig` a table keeps (:func:`burraco.server.tables.build_config` makes
one from a request, checking what needs the engine)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from burraco.engine.deal import PLAYER_COUNTS
from burraco.engine.rules import Rules
from burraco.server.rules_bounds import SCORE_CAP, SMAZZATE_CAP, OptionError, check_option

Mode = Literal["free", "smazzate"]


class TableConfigError(ValueError):
    """A table setting is invalid; ``field`` names it and the message says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


NAME_CAP = 64
"""Longest rules preset or bot level name a request may give."""


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["human", "bot"]
    level: str | None = Field(default=None, max_length=NAME_CAP,
                              description="bot level, for bot seats")


class TableRequest(BaseModel):
    """``POST /api/tables``: every field is optional except the seats' kinds.

    Types are strict (``"public": "yes"`` is refused, not read as true) and every size
    a client chooses is capped; the rules options are checked against the engine by
    :func:`build_config`.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    players: int = Field(default=4, ge=min(PLAYER_COUNTS), le=max(PLAYER_COUNTS))
    rules: str = Field(default="fibur", max_length=NAME_CAP)
    options: dict[str, Any] = Field(default_factory=dict, max_length=len(fields(Rules)))
    mode: Mode = "free"
    target: int | None = Field(default=None, ge=1, le=SCORE_CAP)
    smazzate: int | None = Field(default=None, ge=1, le=SMAZZATE_CAP)
    seats: list[SeatRequest] | None = Field(default=None, max_length=max(PLAYER_COUNTS))
    public: bool = True
    casual: bool = True
    turn_seconds: float | None = Field(default=None, ge=1, le=3600)
    grace_seconds: float = Field(default=60, ge=0, le=3600)
    standin: str = Field(default="basic", max_length=NAME_CAP)
    bot_delay: float = Field(default=0.8, ge=0, le=10)
    creator_seat: int | None = Field(default=None, ge=0, lt=max(PLAYER_COUNTS))
    rated: bool = False
    """Rated play (docs/protocol.md): accounts and bots only, no undo, 2 or 4 players."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    kind: Literal["human", "bot"]
    level: str | None = None


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything fixed when a table is created (stored with it, shown to everyone)."""

    players: int
    rules: str
    options: dict[str, Any]
    mode: Mode
    target: int | None
    smazzate: int | None
    seats: tuple[SeatSpec, ...]
    public: bool = True
    casual: bool = True
    turn_seconds: float | None = None
    grace_seconds: float = 60.0
    standin: str = "basic"
    bot_delay: float = 0.8
    rated: bool = False
    tutorial: bool = False
    """The first-hand tutorial's fixed deal (:mod:`burraco.server.tutorial`); server-made only."""

    def rules_value(self) -> Rules:
        """The rules as they apply at this table (its player count included)."""
        rules = _rules(self.rules, json.dumps(self.options, sort_keys=True), self.target)
        return rules.for_players(self.players)

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].kind == "bot"

    @property
    def human_seats(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec.kind == "human"]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["seats"] = [asdict(s) for s in self.seats]
        if not self.tutorial:
            del out["tutorial"]  # ordinary tables keep the stored shape they always had
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["seats"] = tuple(SeatSpec(**s) for s in data["seats"])
        return cls(**values)


@lru_cache(maxsize=256)  # bounded: every distinct set of options is a new key
def _rules(preset: str, options_json: str, target: int | None) -> Rules:
    rules = Rules.preset(preset).with_options(**typed_options(json.loads(options_json)))
    return rules.with_options(target=target) if target is not None else rules


def typed_options(options: dict[str, Any]) -> dict[str, Any]:
    hints = get_type_hints(Rules)
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name == "name" or name not in hints:
            raise TableConfigError(f"options.{name}", "no such rules option (see `burraco rules "
                                   "show`)")
        try:
            out[name] = TypeAdapter(hints[name]).validate_json(json.dumps(value), strict=True)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise TableConfigError(f"options.{name}",
                                   f"{first['msg']} (got {_short(value)})") from None
        try:
            check_option(name, out[name])
        except OptionError as exc:
            raise TableConfigError(exc.field, str(exc)) from None
    return out


def _short(value: Any) -> str:
    """A value as shown in an error: its start only, so a huge value gives a short answer."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
