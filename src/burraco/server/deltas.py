"""Protocol 2's event deltas: what a command changed in each seat's ``sync``, sent with its events.

A protocol-2 client keeps the state of its last ``sync`` and applies the ``d`` of event frames
to it; after a frame with a ``d`` it holds exactly what a ``sync`` at that version would give,
without asking for one (docs/protocol.md §15).  A delta is the difference of two sync bodies
(:func:`burraco.server.projection.sync_body`), so it shows nothing the seat's view does not:
secrecy stays the engine's.

Where the deltas go: the last frame of every command carries one (``{}`` when nothing the seat
sees changed), and a command that ends a hand carries a second on its ``HandEnded`` frame (the
ended hand as it was left, cards laid down), before the next deal replaces it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from burraco.server.game import Game, Step
from burraco.server.projection import sync_body
from burraco.server.protocol import dumps

Body = dict[str, Any]
APPENDED = ("pile", "moves")
"""Hand fields that usually grow at the end: sent as ``FIELD_add`` (the new tail)."""


def checkpoints(before: Game, step: Step) -> list[tuple[int, Game]]:
    """``(event offset, the game as of that event)`` for each event frame that carries a delta."""
    last = len(step.events) - 1
    if step.final is not None:
        ended = next(i for i, e in enumerate(step.events) if e.kind == "HandEnded")
        if ended < last:  # the next deal (or the match's end) follows
            mid = replace(before, hand=step.final, match=step.game.match, held=step.game.held,
                          hand_no=before.hand_no, secret=before.secret)
            return [(ended, mid), (last, step.game)]
    return [(last, step.game)]


def delta(old: Body, new: Body) -> Body:
    """What turns sync body ``old`` into ``new`` (fields missing from the delta are unchanged)."""
    out: Body = {}
    if old["status"] != new["status"]:
        out["status"] = new["status"]
    if old["match"] != new["match"]:
        out["match"] = new["match"]
    before, after = old["hand"], new["hand"]
    if after is None:
        if before is not None:
            out["hand"] = None
    elif before is None or before["number"] != after["number"]:
        out["hand"] = after
    else:
        patch = hand_patch(before, after)
        if patch:
            out["h"] = patch
    return out


def hand_patch(old: Body, new: Body) -> Body:
    """The changed fields of a hand's view: whole values, or a tail, or single melds."""
    out: Body = {}
    for key, value in new.items():
        was = old.get(key)
        if was == value:
            continue
        if key in APPENDED and isinstance(was, list) and value[:len(was)] == was:
            out[f"{key}_add"] = value[len(was):]
        elif key == "melds" and (changed := meld_changes(was, value)) is not None:
            out["melds_set"] = changed
        else:
            out[key] = value
    return out


def meld_changes(old: Any, new: list[list[str]]) -> list[list[Any]] | None:
    """``[side, index, text]`` of each meld made or grown; ``None`` when one went (an undo)."""
    if not isinstance(old, list) or len(old) != len(new):
        return None
    changes: list[list[Any]] = []
    for side, (was, now) in enumerate(zip(old, new, strict=True)):
        if len(now) < len(was):
            return None
        changes.extend([side, index, text] for index, text in enumerate(now)
                       if index >= len(was) or was[index] != text)
    return changes


class DeltaMaker:
    """Builds each seat's deltas for a command; remembers the last body per seat (by version).

    Views are the costly part: the body a seat had after the previous command is kept, so
    each command costs one new view per seat and checkpoint.  Only seats a protocol-2
    connection holds now are kept (:meth:`keep`): a table its clients left keeps no views.
    """

    def __init__(self) -> None:
        self._last: dict[int | None, tuple[int, Body]] = {}

    def body(self, game: Game, seat: int | None) -> Body:
        known = self._last.get(seat)
        if known is not None and known[0] == game.version:
            return known[1]
        return sync_body(game, seat, 2)

    def for_step(self, before: Game, step: Step,
                 seats: set[int | None]) -> dict[int, dict[int | None, str]]:
        """Per event offset, the delta's JSON text for each of ``seats``."""
        self.keep(seats)
        out: dict[int, dict[int | None, str]] = {}
        points = checkpoints(before, step)
        for seat in seats:
            prev = self.body(before, seat)
            for offset, game in points:
                body = sync_body(game, seat, 2)
                out.setdefault(offset, {})[seat] = dumps(delta(prev, body))
                prev = body
            self._last[seat] = (step.game.version, prev)
        return out

    def keep(self, seats: set[int | None]) -> None:
        """Forget the bodies of seats not in ``seats`` (a seat met again costs one view more)."""
        for seat in self._last.keys() - seats:
            del self._last[seat]

    def forget(self) -> None:
        self._last.clear()


def with_delta(frame_text: str, delta_text: str) -> str:
    """An encoded event frame with ``"d"`` added (frames are compact JSON objects)."""
    return f'{frame_text[:-1]},"d":{delta_text}}}'
