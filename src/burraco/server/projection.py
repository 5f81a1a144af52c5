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

ENGINE_EVENTS: dict[str, Any] = {cls.__name__: cls for cls in get_args(Event)}
"""Every engine event class by name (read from the engine's ``Event`` union)."""


def _texts(ids: list[int]) -> list[str]:
    return [card_str(c) for c in ids]


def project(kind: str, payload: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it, with card texts beside the ids; ``None``: nothing."""
    cls = ENGINE_EVENTS.get(kind)
    if cls is not None:
        event = cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in payload.items()})
        shown = event_for(event, seat)
        if shown is None:
            return None
        out = event_to_dict(shown)
        if "card" in out:
            out["card_text"] = card_str(out["card"]) if out["card"] >= 0 else None
        if "cards" in out:
            out["cards_text"] = _texts(out["cards"])
        return out
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


def frame(version: int, shown: dict[str, Any] | None) -> str:
    """The JSON text of an event frame: ``{"v": N, "e": {...}}``, or ``{"v": N}``."""
    if shown is None:
        return f'{{"v":{version}}}'
    return json.dumps({"v": version, "e": shown}, separators=(",", ":"))


def sync_body(game: Game, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may see of the table now (the ``sync`` message's game part)."""
    hand: dict[str, Any] | None = None
    if game.hand is not None and game.secret is not None:
        hand = view(game.hand, seat).to_dict()
        hand["number"] = game.hand_no
        hand["commitment"] = game.secret.commitment
    return {
        "status": game.status,
        "match": game.match.to_dict(),
        "hand": hand,
    }
