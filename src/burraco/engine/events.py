"""What happened when an action was applied, for logs, servers and views.

Events carry physical card ids.  Some are secret to one seat (the card drawn
from the stock, the pozzetto's cards): :func:`event_for` returns the version a
seat may see, with the secret parts removed, so no caller has to remember
which fields are secret.

Physical ids stay inside: which copy of a face moved is itself hidden (a player who
took a 3♥ with the pile and holds another 3♥ plays "a 3♥"), so what leaves the engine for a
seat is :func:`event_shown`, where every card is its face's text.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from burraco.engine.cards import card_str


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int
    card: int  # -1 in the version shown to other seats


@dataclass(frozen=True, slots=True)
class PickedUp:
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Melded:
    seat: int
    side: int
    index: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Attached:
    seat: int
    side: int
    index: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class PozzettoTaken:
    """A side took its pozzetto: ``live`` in diretta (play on) or with the discard."""

    seat: int
    side: int
    live: bool
    cards: tuple[int, ...]  # empty in the version shown to anyone who may not see them


@dataclass(frozen=True, slots=True)
class PozzettoSeen:
    """A pozzetto taken with the discard may now be looked at by its taker (§6.4)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PairsFormed:
    """3 and 5 players: ``solo`` ran out first; the others now play in these pairs."""

    solo: int
    pairs: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class TimeCalled:
    turns_left: int


@dataclass(frozen=True, slots=True)
class HandOver:
    reason: str  # closed | stock | stall | time
    closer: int  # seat that closed, or -1


Event = Drew | PickedUp | Melded | Attached | Discarded | PozzettoTaken | PozzettoSeen \
    | PairsFormed | TimeCalled | HandOver


def event_for(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it (``None``: a spectator); ``None`` if not at all."""
    if isinstance(event, Drew) and event.seat != seat:
        return replace(event, card=-1)
    if isinstance(event, PozzettoTaken) and (event.live is False or event.seat != seat):
        return replace(event, cards=())
    if isinstance(event, PozzettoSeen) and event.seat != seat:
        return None
    return event


def event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in fields(event):
        out[field.name] = _plain(getattr(event, field.name))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_shown(event: Event, seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it, in its JSON form, or ``None`` if not at all.

    Cards are text only: ``card`` becomes ``card_text`` (``None`` for a card drawn by someone
    else), ``cards`` becomes ``cards_text``.  No physical id is in it, so nothing in it tells
    which copy of a face moved.
    """
    shown = event_for(event, seat)
    return None if shown is None else event_text(shown)


def event_text(event: Event) -> dict[str, Any]:
    """The JSON form of an event already cut by :func:`event_for`, every card as text."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in fields(event):
        value = getattr(event, field.name)
        if field.name == "card":
            out["card_text"] = card_str(value) if value >= 0 else None
        elif field.name == "cards":
            out["cards_text"] = [card_str(c) for c in value]
        else:
            out[field.name] = _plain(value)
    return out
