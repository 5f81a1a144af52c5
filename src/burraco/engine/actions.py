"""Atomic actions and their text form (RULES.md §3; records use the same text).

One action is one decision: ``draw``, ``pickup``, ``meld 5H 6H 7H``,
``attach 2 8H`` (the side's 2nd meld, 1-based, in order of creation),
``discard KD``.  Taking the pozzetto is automatic and never an action.
``time`` is the referee's time call (§8.2): recorded, never offered as legal.

>>> str(parse_action("meld 7h 5H 6H"))
'meld 5H 6H 7H'
>>> parse_action("attach 2 8H") == Attach(1, (parse_face("8H"),))
True
"""

from __future__ import annotations

from dataclasses import dataclass

from burraco.engine.cards import CardParseError, Face, face_str, parse_face, sort_key


class ActionParseError(ValueError):
    """An action's text could not be read; the message names what was wrong."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pickup:
    """Take the whole discard pile."""

    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class NewMeld:
    """Open a new meld with these faces (kept sorted, so equal melds compare equal)."""

    faces: tuple[Face, ...]

    def __str__(self) -> str:
        return "meld " + " ".join(face_str(f) for f in self.faces)


@dataclass(frozen=True, slots=True)
class Attach:
    """Attach faces to the side's meld ``meld`` (0-based here, 1-based in text)."""

    meld: int
    faces: tuple[Face, ...]

    def __str__(self) -> str:
        return f"attach {self.meld + 1} " + " ".join(face_str(f) for f in self.faces)


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card, ending the turn."""

    face: Face

    def __str__(self) -> str:
        return "discard " + face_str(self.face)


@dataclass(frozen=True, slots=True)
class CallTime:
    """The referee calls time: a last round follows (§8.2)."""

    def __str__(self) -> str:
        return "time"


Action = Draw | Pickup | NewMeld | Attach | Discard | CallTime

DRAW = Draw()
PICKUP = Pickup()
CALL_TIME = CallTime()


def sorted_faces(faces: list[Face] | tuple[Face, ...]) -> tuple[Face, ...]:
    return tuple(sorted(faces, key=sort_key))


def new_meld(faces: list[Face] | tuple[Face, ...]) -> NewMeld:
    return NewMeld(sorted_faces(faces))


def attach(meld: int, faces: list[Face] | tuple[Face, ...]) -> Attach:
    return Attach(meld, sorted_faces(faces))


def parse_action(text: str) -> Action:
    """Read an action's text; raise :class:`ActionParseError` naming the problem."""
    words = text.split()
    if not words:
        raise ActionParseError("empty action")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb in ("draw", "pickup", "time"):
            if args:
                raise ActionParseError(f"{verb!r} takes no cards, got {' '.join(args)!r}")
            simple: dict[str, Action] = {"draw": DRAW, "pickup": PICKUP, "time": CALL_TIME}
            return simple[verb]
        if verb == "meld":
            if not args:
                raise ActionParseError("'meld' needs cards, e.g. 'meld 5H 6H 7H'")
            return new_meld([parse_face(a) for a in args])
        if verb == "attach":
            if len(args) < 2 or not args[0].isdigit() or int(args[0]) < 1:
                raise ActionParseError(
                    "'attach' needs a meld number (1-based) and cards, e.g. 'attach 2 8H'")
            return attach(int(args[0]) - 1, [parse_face(a) for a in args[1:]])
        if verb == "discard":
            if len(args) != 1:
                raise ActionParseError("'discard' needs exactly one card, e.g. 'discard KD'")
            return Discard(parse_face(args[0]))
    except CardParseError as exc:
        raise ActionParseError(f"{text.strip()!r}: {exc}") from exc
    raise ActionParseError(
        f"unknown action {words[0]!r} (use draw, pickup, meld, attach, discard)")
