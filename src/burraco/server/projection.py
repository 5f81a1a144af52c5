"""What each seat may see: stored events as frames, and full resyncs.

Stored events are complete (the dealt hands, the drawn card, a pozzetto's
cards, with the engine's physical card ids).  :func:`project` returns the part a
seat (``None``: a spectator) may see, deciding secrecy only through the engine
(``event_shown`` for engine events; the dealt hands are cut down to the seat's
own), and :func:`sync_body` builds a resync from ``view(state, seat)``.  Nothing
else sends game content to a client.

No physical card id leaves: event frames name cards by their text only, and a
sync's ids are the view's labels (docs/protocol.md §2), so no frame tells which
copy of a face moved.
"""

from __future__ import annotations

import json
from typing import Any, get_args

from burraco.engine.cards import card_str
from burraco.engine.events import Event, event_for, event_shown, event_text
from burraco.engine.state import HandState
from burraco.engine.views import view
from burraco.server.game import Game
from burraco.server.running import table_score

ENGINE_EVENTS: dict[str, Any] = {cls.__name__: cls for cls in get_args(Event)}
"""Every engine event class by name (read from the engine's ``Event`` union)."""


def _texts(ids: list[int]) -> list[str]:
    return [card_str(c) for c in ids]


def project(kind: str, payload: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it, cards as text; ``None``: nothing."""
    cls = ENGINE_EVENTS.get(kind)
    if cls is not None:
        return event_shown(_engine_event(cls, payload), seat)
    if kind == "HandStarted":
        out = {"type": kind, **{k: v for k, v in payload.items() if k not in ("hands", "pile")}}
        out["pile_text"] = _texts(payload["pile"])
        if seat is not None:
            out["cards_text"] = _texts(payload["hands"][seat])
        return out
    if kind == "HintGiven":  # the hint names cards of the hand: only its seat reads it
        if seat == payload["seat"]:
            return {"type": kind, **payload}
        return {"type": kind, "seat": payload["seat"], "count": payload["count"]}
    if kind == "Undone":
        out = {"type": kind, **{k: v for k, v in payload.items()
                                if k not in ("hand", "meld_ids", "action")}}
        if seat == payload["seat"]:
            out["action"] = payload["action"]
            out["hand_text"] = _texts(payload["hand"])
        return out
    return {"type": kind, **payload}


def frames_for(version: int, kind: str, payload: dict[str, Any],
               seats: set[int | None]) -> dict[int | None, str]:
    """The frame text of one event for each of ``seats``, each version encoded once.

    Same answers as :func:`project` seat by seat; engine events are cut by
    ``event_for`` once per seat and equal results share one JSON encoding (``event_text``).
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
        found = encoded.get(shown)
        if found is None:
            found = encoded[shown] = frame(version, None if shown is None else event_text(shown))
        out[seat] = found
    return out


def _engine_event(cls: Any, payload: dict[str, Any]) -> Any:
    """The engine event back from its stored form (lists become tuples, nested ones too)."""
    return cls(**{k: _frozen(v) for k, v in payload.items()})


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


_PER_SEAT = frozenset({"HandStarted", "Undone", "HintGiven"})
"""Server events whose content depends on the seat (see :func:`project`)."""


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
        hand = hand_body(game.hand, seat, number=game.hand_no,
                         commitment=game.secret.commitment, held=game.hand_no in game.held,
                         protocol=protocol)
    return {
        "status": game.status,
        "match": game.match.to_dict(),
        "hand": hand,
    }


def hand_body(state: HandState, seat: int | None, *, number: int, commitment: str,
              held: bool = False, protocol: int = 2) -> dict[str, Any]:
    """A sync's ``hand``: the seat's view as JSON, the hand's number and commitment.

    ``held``: the deal group's other tables may still hold these cards, so the hands laid
    down are not shown (§9.1).
    """
    hand = view(state, seat).to_dict()
    hand["number"] = number
    hand["commitment"] = commitment
    if held:
        hand["revealed"] = []
    if protocol >= 2:
        hand["table_score"] = table_score(state)
    return hand
