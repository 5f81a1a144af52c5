"""An open event's state as JSON and back (what ``online_events.state`` stores).

>>> from burraco.meet.events import EventSpec, open_event, register
>>> state = register(open_event(EventSpec("Hourly", 100.0, "arena", "2", minutes=30)),
...                  [("ada", 1500.0)], 50.0)
>>> from_json(to_json(state)) == state
True
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from burraco.meet.events import (
    Bye,
    Entrant,
    EventError,
    EventSpec,
    EventState,
    Game,
    Result,
)

FORMAT = 1
"""The stored shape's version."""


def spec_json(spec: EventSpec) -> dict[str, Any]:
    return asdict(spec)


def spec_from_json(data: dict[str, Any]) -> EventSpec:
    """The spec of ``data`` (checked field by field: :class:`EventError` names the first
    wrong one; unknown fields are refused)."""
    if not isinstance(data, dict):
        raise EventError("spec", "an event is a JSON object")
    known = {f.name for f in fields(EventSpec)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise EventError(unknown[0], "no such field of an event")
    for name in ("name", "starts", "kind", "form"):
        if name not in data:
            raise EventError(name, "this field is required")
    return EventSpec(**data)


def _result(data: dict[str, Any] | None) -> Result | None:
    if data is None:
        return None
    points, vp = data["points"], data["vp"]
    return Result(data["winner"],
                  (int(points[0]), int(points[1])) if points is not None else None,
                  (int(vp[0]), int(vp[1])) if vp is not None else None,
                  tuple(data["absent"]), float(data["at"]))


def to_json(state: EventState) -> dict[str, Any]:
    return {
        "format": FORMAT, "spec": spec_json(state.spec), "phase": state.phase,
        "round": state.round, "started": state.started, "finished": state.finished,
        "entrants": [asdict(e) for e in state.entrants],
        "games": [{"id": g.id, "round": g.round, "sides": list(g.sides), "started": g.started,
                   "result": asdict(g.result) if g.result is not None else None}
                  for g in state.games],
        "byes": [asdict(b) for b in state.byes],
    }


def from_json(data: dict[str, Any]) -> EventState:
    if data.get("format") != FORMAT:
        raise EventError("format", f"a stored event of format {data.get('format')!r}")
    return EventState(
        spec_from_json(data["spec"]), data["phase"],
        tuple(Entrant(e["id"], tuple(e["accounts"]), float(e["rating"]),
                      float(e["registered"]), bool(e["joined"]), bool(e["withdrawn"]),
                      int(e["missed"])) for e in data["entrants"]),
        tuple(Game(g["id"], int(g["round"]), (g["sides"][0], g["sides"][1]),
                   float(g["started"]), _result(g["result"])) for g in data["games"]),
        tuple(Bye(int(b["round"]), b["entrant"]) for b in data["byes"]),
        int(data["round"]), data["started"], data["finished"])
