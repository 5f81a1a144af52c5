"""What each seat may see: stored events as frames, and full resyncs.

Stored events are complete (the dealt hands, the drawn card, a pozzetto's
cards).  :func:`project` returns the part a seat (``None``: a spectator) may
see, deciding secrecy only through the engine (``event_for`` for engine
events; the dealt hands are cut down to the seat's own), and
:func:`sync_body` builds a resync from ``view(state, seat)``.  Nothing else
sends game content to a client.
"""

from __future__ import annotations

import json
from typing import Any, get_args

from burraco.engine.cards import card_str
from burraco.engine.events import Event, event_for, event_to_dict
from burraco.engine.views import view
from burraco.server.game import Game
from burraco.server.running import table_score

ENGINE_EVENTS: dict[str, Any] = {cls.__name__: cls for cls in get_args(Event)}
"""Every engine event class by name (read from the engine's ``Event`` union)."""


def _texts(ids: list[int]) -> list[str]:
    return [card_str(c) for c in ids]


def project(kind: str, payload: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it, with card texts beside the ids; ``None``: nothing."""
    cls = ENGINE_EVENTS.get(kind)
    if cls is not None:
        event = _engine_event(cls, payload)
        shown = event_for(event, seat)
        return None if shown is None else _shown(shown)
    if kind == "HandStarted":
        out = {"type": kind, **{k: v for k, v in payload.items() if k != "hands"}}
        out["pile_text"] = _texts(payload["pile"])
        if seat is not None:
            out["cards"] = payload["hands"][seat]
            out["cards_text"] = _texts(payload["hands"][seat])
        return out
    if kind == "Undone":
        out = {"type": kind, **payload}
        if seat == payload["seat"]:
            out["hand_text"] = _texts(payload["hand"])
        else:
            del out["hand"], out["action"]
        return out
    return {"type": kind, **payload}


def frames_for(version: int, kind: str, payload: dict[str, Any],
               seats: set[int | None]) -> dict[int | None, str]:
    """The frame text of one event for each of ``seats``, each version encoded once.

    Same answers as :func:`project` seat by seat; engine events are cut by
    ``event_for`` once per seat and equal results share one JSON encoding.
    """
    cls = ENGINE_EVENTS.get(kind)
    if cls is None:
        if kind in _PER_SEAT:
            return {seat: frame(version, project(kind, payload, seat)) for seat in seats}
        text = frame(version, project(kind, payload, None))
        return dict.fromkeys(seats, text)
    event = _engine_event(cls, payload)
    encoded: dict[Any, str] = {}
    out: dict[int | None, str] = {}
    for seat in seats:
        shown = event_for(event, seat)
        known = encoded.get(shown)
        if known is None:
            known = encoded[shown] = frame(version, None if shown is None else _shown(shown))
        out[seat] = known
    return out


def _engine_event(cls: Any, payload: dict[str, Any]) -> Any:
    """The engine event back from its stored form (lists become tuples, nested ones too)."""
    return cls(**{k: _frozen(v) for k, v in payload.items()})


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


_PER_SEAT = frozenset({"HandStarted", "Undone"})
"""Server events whose content depends on the seat (see :func:`project`)."""


def _shown(event: Any) -> dict[str, Any]:
    out = event_to_dict(event)
    if "card" in out:
        out["card_text"] = card_str(out["card"]) if out["card"] >= 0 else None
    if "cards" in out:
        out["cards_text"] = _texts(out["cards"])
    return out


def frame(version: int, shown: dict[str, Any] | None) -> str:
    """The JSON text of an event frame: ``{"v": N, "e": {...}}``, or ``{"v": N}``."""
    if shown is None:
        return f'{{"v":{version}}}'
    return json.dumps({"v": version, "e": shown}, separators=(",", ":"))


def sync_body(game: Game, seat: int | None, protocol: int = 1) -> dict[str, Any]:
    """Everything ``seat`` may see of the table now (the ``sync`` message's game part).

    Protocol 2 adds the hand's ``table_score`` (:mod:`burraco.server.running`).
    """
    hand: dict[str, Any] | None = None
    if game.hand is not None and game.secret is not None:
        hand = view(game.hand, seat).to_dict()
        hand["number"] = game.hand_no
        hand["commitment"] = game.secret.commitment
        if game.hand_no in game.held:  # the group's other tables may still hold these cards
            hand["revealed"] = []
        if protocol >= 2:
            hand["table_score"] = table_score(game.hand)
    return {
        "status": game.status,
        "match": game.match.to_dict(),
        "hand": hand,
    }
