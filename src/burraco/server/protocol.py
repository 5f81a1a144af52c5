"""The WebSocket protocol's messages (docs/protocol.md is the reference for client authors).

Client → server messages are pydantic models, read by :func:`read_client_message`,
which raises :class:`ProtocolError` with a stable code naming what was wrong.
Server → client messages are built as plain dicts (the hot path) by the small
functions below; :data:`ServerMessage` describes them as pydantic models, so tests
can check every frame a server sends against the documented shapes.

Rule of thumb: a message with a top-level ``"v"`` is an event of the table
(version ``v``); every other message has a ``"t"`` naming its type.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)

PROTOCOL = 2
"""The newest protocol version the server speaks (docs/protocol.md §15): a ``hello`` without
``protocol`` is served version 1, exactly as before versions existed."""

SERVER_ID_PREFIX = "server:"
"""Every client message id the server stores for itself starts with this; no client's may."""
MAX_CLIENT_ID = 64


def server_cmid(source: str, version: int) -> str:
    """The id of a command the server plays itself (clock, stand-in, bot, claim)."""
    return f"{SERVER_ID_PREFIX}{source}-{version}"


def client_id_problem(value: str) -> str | None:
    """Why ``value`` cannot be a client message id (``None`` when it can)."""
    if not 1 <= len(value) <= MAX_CLIENT_ID:
        return f"an id has 1 to {MAX_CLIENT_ID} characters, not {len(value)}"
    if not value.isprintable():
        return "an id has printable characters only (no control, format or line characters)"
    if value.startswith(SERVER_ID_PREFIX):
        return f"ids starting with {SERVER_ID_PREFIX!r} are the server's own"
    return None


def _check_client_id(value: str) -> str:
    problem = client_id_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


CLIENT_ID = Annotated[str, Field(strict=True), AfterValidator(_check_client_id)]

ERROR_CODES: dict[str, str] = {
    # the message itself
    "bad_json": "the message is not valid JSON",
    "bad_message": "the JSON does not have the fields its type needs",
    "unknown_type": "the message's \"t\" is not a known type",
    "too_large": "the message is longer than the server reads",
    "binary_frame": "only text frames are read",
    "hello_required": "the first message of a connection must be a hello",
    "already_joined": "a connection sends hello once",
    # who you are
    "table_not_found": "no live table has this id",
    "bad_token": "a guest, seat or watch token is malformed or forged",
    "guest_required": "claiming or holding a seat needs a guest token",
    "seat_token_mismatch": "the seat token opens another seat (or table)",
    "seat_taken": "the seat is held by another guest",
    "no_such_seat": "the table has no such seat",
    "bot_seat": "the seat is played by a bot",
    "watch_token_required": "spectating a private table needs its watch token",
    "account_required": "a rated table seats accounts only (send a session token)",
    "rated_wait": "an abandonment's wait before the next rated match is not over",
    "rated_live": "a rated match is shown to spectators only once it is over",
    "one_seat": "a person plays one seat of a rated match",
    "session_ended": "the session the connection was opened with ended (logout, a new "
                     "password): log in again",
    # commands
    "spectator": "spectators cannot act",
    "not_your_seat": "the command names a seat other than the connection's",
    "not_playing": "no hand is being played at the table",
    "duplicate_message": "this client message id was already applied (see \"applied\")",
    "stale_version": "the command's version is not the table's current version",
    "not_your_turn": "another seat is on turn",
    "bad_action": "the action's text cannot be read",
    "forbidden_action": "players may not send this action",
    "illegal_action": "the engine refused the action; \"reason\" cites the rule",
    "unknown_quick": "the quick message's id is not one of the fixed list (docs/protocol.md)",
    "muted": "a moderator muted this account: no quick messages until the mute ends",
    "no_rematch": "a rematch is offered only by a seat's holder once the match is over",
    "undo_not_allowed": "undo is off at this table, or the play cannot be taken back",
    "nothing_to_undo": "no meld or attachment of yours since your draw",
    "hint_not_allowed": "hints are given at casual tables only",
    "hint_given": "the hint for this position was given already (see \"reason\")",
    # the server
    "overloaded": "the table has too many commands waiting; retry",
    "rate_limited": "the connection sent more messages than its rate allows; this one was "
                    "dropped (not handled): send it again later",
    "storage_error": "the database did not take the command; nothing changed, retry",
    "internal_error": "a bug; send sync to see where the table stands",
}


class ProtocolError(Exception):
    def __init__(self, code: str, reason: str, cmid: str | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.cmid = cmid


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    """First message of a connection: who is connecting, and what it has seen."""

    t: Literal["hello"]
    seat: int | None = None
    seat_token: str | None = Field(default=None, max_length=512)
    guest: str | None = Field(default=None, max_length=512)
    watch_token: str | None = Field(default=None, max_length=512)
    v: int | None = Field(default=None, ge=0)
    legal: bool = False
    protocol: int = Field(default=1, ge=1, le=1000)
    """The newest protocol version the client reads; the server serves the lower of it and
    :data:`PROTOCOL`."""


class Act(_Message):
    t: Literal["act"]
    id: CLIENT_ID
    v: int = Field(ge=0)
    action: str = Field(max_length=200)
    seat: int | None = None


class Undo(_Message):
    t: Literal["undo"]
    id: CLIENT_ID
    v: int = Field(ge=0)
    seat: int | None = None


class HintAsk(_Message):
    """What would the expert do: a hint for the seat's turn (casual tables only)."""

    t: Literal["hint"]
    id: CLIENT_ID
    v: int = Field(ge=0)
    seat: int | None = None


class Sync(_Message):
    t: Literal["sync"]


class Ping(_Message):
    t: Literal["ping"]


class Quick(_Message):
    """A quick message of the fixed list (``burraco.server.quick``), by id (protocol.md §16)."""

    t: Literal["quick"]
    msg: str = Field(max_length=64)


ClientMessage = Annotated[Hello | Act | Undo | HintAsk | Sync | Ping | Quick,
                          Field(discriminator="t")]
_CLIENT = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "act", "undo", "hint", "sync", "ping", "quick")


ClientMessageT = Hello | Act | Undo | HintAsk | Sync | Ping | Quick


def read_client_message(text: str | bytes | None, *, limit: int) -> ClientMessageT:
    """Parse one client frame; :class:`ProtocolError` says exactly what was wrong."""
    if text is None or isinstance(text, bytes):
        raise ProtocolError("binary_frame", "send JSON in text frames")
    if len(text) > limit:
        raise ProtocolError("too_large", f"message of {len(text)} characters; the limit is {limit}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ProtocolError("bad_json", "not JSON the server reads: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers past Python's digit limit
        raise ProtocolError("bad_json", f"not JSON the server reads: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a \"t\" field")
    kind = data.get("t")
    raw_id = data.get("id")
    # a reject carries the id back only when it is one (never control characters, never 10 kB)
    cmid = raw_id if (isinstance(raw_id, str) and 0 < len(raw_id) <= MAX_CLIENT_ID
                      and raw_id.isprintable()) else None
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r:.40} (known: "
                            f"{', '.join(CLIENT_TYPES)})", cmid)
    try:
        return _CLIENT.validate_python(data)
    except RecursionError:
        raise ProtocolError("bad_message", f"{kind}: nested too deeply", cmid) from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:]) or 'message'}: {err['msg']}"
            for err in exc.errors())
        raise ProtocolError("bad_message", f"{kind}: {problems}", cmid) from None


# --- server → client ------------------------------------------------------------------------------

def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def reject(code: str, reason: str, cmid: str | None, version: int | None,
           **extra: Any) -> dict[str, Any]:
    assert code in ERROR_CODES, code
    return {"t": "reject", "id": cmid, "code": code, "reason": reason, "version": version, **extra}


def ack(cmid: str, first: int, last: int) -> dict[str, Any]:
    return {"t": "ack", "id": cmid, "from": first, "to": last}


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EventFrame(_Out):
    v: int
    e: dict[str, Any] | None = None
    d: dict[str, Any] | None = None


class HelloOk(_Out):
    t: Literal["hello_ok"]
    table: str
    seat: int | None
    version: int
    catch_up: Literal["none", "replay", "sync"]
    nickname: str | None = None
    protocol: int | None = None


class SyncOut(_Out):
    t: Literal["sync"]
    version: int
    table: dict[str, Any]
    seat: int | None
    status: str
    seats: list[dict[str, Any]]
    match: dict[str, Any]
    hand: dict[str, Any] | None
    clock: dict[str, Any] | None


class AckOut(_Out):
    t: Literal["ack"]
    id: str
    from_: int = Field(alias="from")
    to: int


class RejectOut(_Out):
    t: Literal["reject"]
    id: str | None
    code: str
    reason: str
    version: int | None
    applied: dict[str, int] | None = None


class LegalOut(_Out):
    t: Literal["legal"]
    version: int
    seat: int
    actions: list[str]
    undo: bool


class PresenceOut(_Out):
    t: Literal["presence"]
    seats: list[dict[str, Any]]


class ClockOut(_Out):
    t: Literal["clock"]
    seat: int | None
    deadline_ms: int | None
    seconds: float | None


class PongOut(_Out):
    t: Literal["pong"]


class QuickOut(_Out):
    t: Literal["quick"]
    seat: int
    msg: str


class RematchOut(_Out):
    """The match's next table: the token only to the seat it opens (docs/protocol.md §16)."""

    t: Literal["rematch"]
    table: str
    by: str | None
    seat: int | None = None
    token: str | None = None


_OUT_MODELS: dict[str, type[_Out]] = {
    "hello_ok": HelloOk, "sync": SyncOut, "ack": AckOut, "reject": RejectOut, "legal": LegalOut,
    "presence": PresenceOut, "clock": ClockOut, "pong": PongOut, "quick": QuickOut,
    "rematch": RematchOut,
}


def check_server_message(data: dict[str, Any]) -> None:
    """Raise ``ValidationError`` unless ``data`` is a documented server message (for tests)."""
    if "v" in data and "t" not in data:
        EventFrame.model_validate(data)
        return
    model = _OUT_MODELS.get(str(data.get("t", "")))
    if model is None:
        raise ValueError(f"undocumented server message {data!r:.200}")
    model.model_validate(data)
