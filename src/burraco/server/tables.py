"""A table's settings as chosen by its creator, checked before the table exists.

The HTTP body (:class:`TableRequest`, pydantic) is validated field by field;
:func:`build_config` then checks what needs the engine (the rules preset and
options, the player count, the bot levels) and returns a frozen
:class:`TableConfig`, or raises :class:`TableConfigError` naming the field
(the types live in :mod:`burraco.server.table_config`).
"""

from __future__ import annotations

from burraco.bots import make_bot
from burraco.engine.deal import DealError, deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.server.game import Game, fresh_deal
from burraco.server.rules_bounds import OptionError, check_cards
from burraco.server.table_config import (
    NAME_CAP,
    SeatRequest,
    SeatSpec,
    TableConfig,
    TableConfigError,
    TableRequest,
    typed_options,
)

__all__ = ["NAME_CAP", "RATED_MINIMUM", "SeatRequest", "SeatSpec", "TableConfig",
           "TableConfigError", "TableRequest", "build_config"]


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
    rules = base.with_options(**typed_options(request.options))
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
    try:
        Game.new(config).trial_deal(fresh_deal)
        rules = config.rules_value()
        legal_actions(HandState.start(deal_seeded(0, players=config.players, rules=rules),
                                      rules))
    except (DealError, ValueError, IndexError) as exc:
        field = "players" if "player" in str(exc) else "options"
        raise TableConfigError(field, str(exc)) from None
