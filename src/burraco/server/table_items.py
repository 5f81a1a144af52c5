"""What a table's queue carries, and a client connection as the table sees it.

A table (:class:`burraco.server.actor.TableActor`) handles these items one at a time; the
gateway, the hub and the cluster put them in its queue.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from burraco.accounts.identity import Guest
from burraco.engine.actions import Action
from burraco.server.protocol import Act, Hello, HintAsk, Undo


class Conn(Protocol):
    """A client connection as the actor sees it (the gateway implements it)."""

    seat: int | None
    guest: Guest | None
    wants_legal: bool
    protocol: int
    """The protocol version served (docs/protocol.md §15): 2 sends event deltas."""
    pending: int
    """The connection's commands (and syncs) queued here: the actor counts them down."""

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


# --- what the queue carries -------------------------------------------------------------------

@dataclass(slots=True)
class Join:
    """A connection's accepted tokens asking to join; ``admitted`` says if the table took it.

    The gateway reads nothing more from the connection until ``admitted`` is
    resolved, and stops reading when it is ``False``.
    """

    conn: Conn
    hello: Hello
    admitted: asyncio.Future[bool] = field(default_factory=lambda: asyncio.get_running_loop()
                                           .create_future())


@dataclass(slots=True)
class Leave:
    conn: Conn


@dataclass(slots=True)
class ClientCommand:
    conn: Conn
    message: Act | Undo | HintAsk


@dataclass(slots=True)
class HintReady:
    """The expert's choice for a hint, thought off the table's loop, to be given if the table
    is still where it was asked."""

    conn: Conn
    seat: int
    version: int
    cmid: str
    action: Action


@dataclass(slots=True)
class BotCommand:
    seat: int
    version: int
    action: Action
    source: str  # bot | standin | clock


@dataclass(slots=True)
class Resync:
    conn: Conn


@dataclass(slots=True)
class Timer:
    kind: str  # grace | clock
    seat: int
    key: object


@dataclass(slots=True)
class Claim:
    """A seat claimed outside a connection (the creator's own seat at creation)."""

    seat: int
    guest: Guest
    done: asyncio.Future[str | None] = field(default_factory=lambda: asyncio.get_running_loop()
                                             .create_future())


@dataclass(slots=True)
class Reveal:
    """Publish hand ``number``'s held reveal: every table of the deal group has played it."""

    number: int
    reveal: dict[str, Any]


Item = Join | Leave | ClientCommand | BotCommand | Resync | Timer | Claim | Reveal | HintReady


def settle(item: Join | Claim, outcome: Any) -> None:
    """Resolve a queued join or claim whose answer someone awaits (once)."""
    future = item.admitted if isinstance(item, Join) else item.done
    if not future.done():
        future.set_result(outcome)
