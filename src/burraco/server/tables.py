"""A table's settings as chosen by its creator, checked before the table exists.

The HTTP body (:class:`TableRequest`, pydantic) is validated field by field;
:func:`build_config` then checks what needs the engine (the rules preset and
options, the player count, the bot levels) and returns a frozen
:class:`TableConfig`, or raises :class:`TableConfigError` naming the field.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from burraco.bots import make_bot
from burraco.engine.deal import PLAYER_COUNTS, DealError
from burraco.engine.rules import Rules
from burraco.server.rules_bounds import (
    SCORE_CAP,
    SMAZZATE_CAP,
    OptionError,
    check_cards,
    check_option,
)

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
    rules = Rules.preset(preset).with_options(**_typed_options(json.loads(options_json)))
    return rules.with_options(target=target) if target is not None else rules


def _typed_options(options: dict[str, Any]) -> dict[str, Any]:
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


RATED_MINIMUM = (505, 3)
"""A rated match's lowest target, and fewest hands (the server's settings may change them)."""


def build_config(request: TableRequest, *, engines: tuple[str, ...] = (),
                 rated_minimum: tuple[int, int] = RATED_MINIMUM) -> TableConfig:
    """The checked settings of a new table; :class:`TableConfigError` names a bad field.

    ``engines`` are the outside engines the server registered: a bot seat may be
    ``engine:NAME`` for one of them.  ``rated_minimum``: (target, hands) a rated match
    must reach at least.
    """
    try:
        base = Rules.preset(request.rules)
    except ValueError as exc:
        raise TableConfigError("rules", str(exc)) from None
    rules = base.with_options(**_typed_options(request.options))
    try:
        check_cards(rules, request.players, set(request.options))
    except OptionError as exc:
        raise TableConfigError(exc.field, str(exc)) from None
    seats = request.seats or [SeatRequest(kind="human")] * request.players
    if len(seats) != request.players:
        raise TableConfigError(
            "seats", f"{len(seats)} seats given for {request.players} players")
    specs: list[SeatSpec] = []
    for index, seat in enumerate(seats):
        if seat.kind == "bot":
            level = seat.level or "basic"
            _check_level(level, f"seats.{index}.level", engines)
            specs.append(SeatSpec("bot", level))
        else:
            if seat.level is not None:
                raise TableConfigError(f"seats.{index}.level", "only bot seats have a level")
            specs.append(SeatSpec("human"))
    _check_level(request.standin, "standin", engines)
    target, smazzate = request.target, request.smazzate
    if request.mode == "free":
        if smazzate is not None:
            raise TableConfigError("smazzate", "only for mode 'smazzate'")
        target = target if target is not None else rules.target
    else:
        if target is not None:
            raise TableConfigError("target", "only for mode 'free'")
        if smazzate is None:
            raise TableConfigError("smazzate", "mode 'smazzate' needs the number of hands")
    if request.creator_seat is not None and (
            request.creator_seat >= request.players or specs[request.creator_seat].kind != "human"):
        raise TableConfigError("creator_seat", "must be one of the table's human seats")
    casual = _check_rated(request, target, rated_minimum)
    config = TableConfig(
        players=request.players, rules=request.rules, options=dict(request.options),
        mode=request.mode, target=target, smazzate=smazzate, seats=tuple(specs),
        public=request.public, casual=casual, turn_seconds=request.turn_seconds,
        grace_seconds=request.grace_seconds, standin=request.standin,
        bot_delay=request.bot_delay, rated=request.rated,
    )
    _check_playable(config)
    return config


def _check_rated(request: TableRequest, target: int | None,
                 minimum: tuple[int, int]) -> bool:
    """The table's ``casual`` setting; a rated table is never casual (no undo), and its match
    is long enough for a rating to mean something (not one deal's luck)."""
    if not request.rated:
        return request.casual
    if request.players not in (2, 4):
        raise TableConfigError("rated", "rated play is for 2 players or 4 in pairs")
    if "casual" in request.model_fields_set and request.casual:
        raise TableConfigError("casual", "a rated table is not casual (no undo)")
    least_target, least_hands = minimum
    if request.mode == "smazzate" and (request.smazzate or 0) < least_hands:
        raise TableConfigError("smazzate", f"a rated match has at least {least_hands} hands")
    if request.mode == "free" and target is not None and target < least_target:
        raise TableConfigError("target", f"a rated match is played to at least {least_target} "
                               "points (one deal's luck must not move a rating)")
    return False


def _check_level(level: str, field: str, engines: tuple[str, ...] = ()) -> None:
    if level.startswith("engine:"):
        name = level[len("engine:"):]
        if name not in engines:
            known = ", ".join(engines) or "none"
            raise TableConfigError(field, f"no outside engine {name!r} on this server "
                                   f"(registered: {known})")
        return
    if level.startswith("cmd:"):
        raise TableConfigError(field, "a table cannot run a command: name an outside engine "
                               "the server registered (engine:NAME)")
    try:
        make_bot(level, seed=0)
    except ValueError as exc:
        raise TableConfigError(field, str(exc)) from None


def _check_playable(config: TableConfig) -> None:
    """Deal one hand and list its first moves, so a table that cannot play is never created."""
    from burraco.engine.deal import deal_seeded
    from burraco.engine.legal import legal_actions
    from burraco.engine.state import HandState
    from burraco.server.game import Game, fresh_deal

    try:
        Game.new(config).trial_deal(fresh_deal)
        rules = config.rules_value()
        legal_actions(HandState.start(deal_seeded(0, players=config.players, rules=rules),
                                      rules))
    except (DealError, ValueError, IndexError) as exc:
        field = "players" if "player" in str(exc) else "options"
        raise TableConfigError(field, str(exc)) from None
