"""The referee commands' logic: check a meld, score a side, convert MP to VP, replay a record.

Argument parsing lives in :mod:`burraco.cli`; this module turns already-parsed
arguments into an :class:`Outcome` (exit code, one JSON value or some text for
stdout, a message for stderr) so that every case can be tested in-process.

Exit codes, the contract scripts rely on:

* 0 — the answer (a valid meld, a score, VP, a legal record, rules);
* 1 — the input is readable but breaks a rule (invalid meld or attachment,
  impossible score, illegal move in a record, no VP table for that match);
* 2 — the input cannot be read (a card token, a number, a malformed record);
  the message names the token or field.

Cards are written as in RULES.md §0.1; a table meld may carry its wild's role
(``5H 6H JK(=7H) 8H``).

>>> check_meld(["5H JK", "6H", "7H"]).payload["arrangement"]
'JK(=4H) 5H 6H 7H'
>>> vp(3, "55").payload
{'vp': [11, 9]}
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from burraco.engine.cards import JOKER, CardParseError, face_str, parse_face
from burraco.engine.melds import (
    Meld,
    MeldError,
    burraco_bonus,
    burraco_type,
    ids_for_faces,
    make_meld,
    parse_meld,
    read_attach,
)
from burraco.engine.records import RecordError, replay, state_summary
from burraco.engine.rules import FIBUR, PRESET_NOTES, PRESETS, Rules
from burraco.engine.scoring import Pozzetto, score_side
from burraco.engine.vp import victory_points, vp_table
from burraco.locale import pgettext_in

OK = 0
INVALID = 1
UNREADABLE = 2

POZZETTO_STATES: tuple[Pozzetto, ...] = ("taken", "missing", "nobody")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command prints and returns."""

    code: int
    payload: Any = None
    """One JSON value for stdout (printed on one line), or ``None``."""
    text: str | None = None
    """Plain text for stdout (``rules`` without ``--json``), or ``None``."""
    error: str | None = None
    """A message for stderr, or ``None``."""


class Unreadable(ValueError):
    """Input that cannot be read (exit 2); the message names the token or field."""


# --- card tokens ----------------------------------------------------------------------------

_TOKEN = re.compile(r"^(?P<card>[^()=]+)(?:\(=(?P<role>[^()=]+)\))?$")


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    face: int
    role: int | None


def _tokens(words: Sequence[str]) -> list[_Token]:
    """Split words on spaces and commas and read each card, with its wild role if written."""
    out = []
    for word in words:
        for text in word.replace(",", " ").split():
            match = _TOKEN.match(text)
            if match is None:
                raise Unreadable(f"cannot read card {text!r}: write cards like 7H, 10D, JK "
                                 "or a wild with its role like JK(=7H)")
            try:
                face = parse_face(match["card"])
                role = parse_face(match["role"]) if match["role"] is not None else None
            except CardParseError as exc:
                message = str(exc) if exc.token == text else f"cannot read card {text!r}: {exc}"
                raise Unreadable(message) from None
            out.append(_Token(text, face, role))
    return out


def _read(where: str, text: str) -> list[_Token]:
    try:
        return _tokens([text])
    except Unreadable as exc:
        raise Unreadable(f"{where}: {exc}") from None


def _plain(tokens: list[_Token], where: str) -> list[int]:
    """Faces of tokens that must not carry a wild role (hands, cards to attach)."""
    for token in tokens:
        if token.role is not None:
            raise Unreadable(
                f"{where}: {token.text!r} takes no wild role; write {face_str(token.face)}")
    return [t.face for t in tokens]


def _normal_text(tokens: list[_Token]) -> str:
    return " ".join(
        face_str(t.face) + (f"(={face_str(t.role)})" if t.role is not None else "") for t in tokens
    )


def _copies_problem(faces: Sequence[int], rules: Rules) -> str | None:
    """The packs hold ``packs`` copies of a face and ``2 × packs`` jokers."""
    for face, count in Counter(faces).items():
        limit = 2 * rules.packs if face == JOKER else rules.packs
        if count > limit:
            return (f"{count} copies of {face_str(face)} named, but {rules.packs} packs "
                    f"hold only {limit}")
    return None


def _table_meld(tokens: list[_Token], rules: Rules) -> Meld:
    """A meld as written on the table (wild roles honoured), or :class:`MeldError`."""
    problem = _copies_problem([t.face for t in tokens], rules)
    if problem is not None:
        raise MeldError(problem)
    return parse_meld(_normal_text(tokens), rules)


# --- meld -----------------------------------------------------------------------------------

def meld_report(meld: Meld, rules: Rules = FIBUR) -> dict[str, Any]:
    """The JSON description of a legal meld."""
    return {
        "valid": True,
        "kind": meld.kind,
        "arrangement": str(meld),
        "wilds": meld.wild_count,
        "burraco": burraco_type(meld, rules),
        "card_points": meld.points,
        "bonus": burraco_bonus(meld, rules),
    }


def _invalid(reason: str) -> Outcome:
    return Outcome(INVALID, {"valid": False, "reason": reason})


def check_meld(cards: Sequence[str], *, onto: str | None = None, rules: Rules = FIBUR) -> Outcome:
    """``burraco meld``: is this a legal new meld, or a legal attachment ``onto`` a table meld?

    A new meld of plain cards gets the canonical arrangement (§4.3.5: a free
    wild goes low); one written with a wild role is checked as written.
    """
    try:
        tokens = _tokens(cards)
        if not tokens:
            raise Unreadable("no cards given")
        if onto is None:
            return _check_new(tokens, rules)
        table = _tokens([onto])
        if not table:
            raise Unreadable("--onto: no cards given for the table meld")
        added = _plain(tokens, "cards to attach")
    except Unreadable as exc:
        return Outcome(UNREADABLE, error=str(exc))
    try:
        meld = _table_meld(table, rules)
    except MeldError as exc:
        return _invalid(f"the table meld {onto.strip()!r} is invalid: {exc}")
    problem = _copies_problem([*meld.faces(), *added], rules)
    if problem is not None:
        return _invalid(problem)
    result = read_attach(meld, ids_for_faces(added, avoid=meld.cards), rules)
    if isinstance(result, str):
        return _invalid(result)
    return Outcome(OK, meld_report(result, rules))


def _check_new(tokens: list[_Token], rules: Rules) -> Outcome:
    faces = [t.face for t in tokens]
    try:
        if any(t.role is not None for t in tokens):
            meld = _table_meld(tokens, rules)
        else:
            problem = _copies_problem(faces, rules)
            if problem is not None:
                return _invalid(problem)
            meld = make_meld(ids_for_faces(faces), rules)
    except MeldError as exc:
        return _invalid(str(exc))
    return Outcome(OK, meld_report(meld, rules))


# --- score ----------------------------------------------------------------------------------

def score(
    melds: str, hand: str, *, closed: bool, pozzetto: str, unplayed: str = "",
    rules: Rules = FIBUR,
) -> Outcome:
    """``burraco score``: one side's score for a hand (§9).

    ``melds`` separates the side's melds with ``/``; ``hand`` holds the cards
    left in both partners' hands; ``unplayed`` a pozzetto taken but never played.
    """
    if pozzetto not in POZZETTO_STATES:
        return Outcome(UNREADABLE, error=f"--pozzetto: {pozzetto!r} is not one of "
                                         f"{', '.join(POZZETTO_STATES)}")
    status: Pozzetto = POZZETTO_STATES[POZZETTO_STATES.index(pozzetto)]
    try:
        written = [] if not melds.strip() else [part.strip() for part in melds.split("/")]
        meld_tokens = []
        for k, text in enumerate(written, 1):
            if not text:
                raise Unreadable(f"--melds: meld {k} is empty (melds are separated by '/')")
            try:
                meld_tokens.append(_tokens([text]))
            except Unreadable as exc:
                raise Unreadable(f"--melds: meld {k}: {exc}") from None
        hand_faces = _plain(_read("--hand", hand), "--hand")
        unplayed_faces = _plain(_read("--unplayed", unplayed), "--unplayed")
    except Unreadable as exc:
        return Outcome(UNREADABLE, error=str(exc))
    table: list[Meld] = []
    for k, (text, tokens) in enumerate(zip(written, meld_tokens, strict=True), 1):
        try:
            table.append(_table_meld(tokens, rules))
        except MeldError as exc:
            return Outcome(INVALID, error=f"--melds: meld {k} {text!r} is invalid: {exc}")
    every = [f for m in table for f in m.faces()] + hand_faces + unplayed_faces
    problem = _copies_problem(every, rules)
    if problem is not None:
        return Outcome(INVALID, error=f"{problem} (melds, hand and unplayed pozzetto together)")
    try:
        side = score_side(table, hand_faces, closed=closed, pozzetto=status,
                          unplayed=unplayed_faces, rules=rules)
    except ValueError as exc:
        return Outcome(INVALID, error=str(exc))
    return Outcome(OK, side.to_dict())


# --- vp -------------------------------------------------------------------------------------

def vp(hands: int, diff: str, *, rules: Rules = FIBUR) -> Outcome:
    """``burraco vp``: (winner, loser) VP for the MP difference of a match of ``hands`` (§11.2)."""
    try:
        points = int(diff)
    except ValueError:
        return Outcome(UNREADABLE, error=f"DIFF: {diff!r} is not a whole number of MP")
    if points < 0:
        return Outcome(UNREADABLE, error=f"DIFF: {points} is negative; give the winner's "
                                         "MP minus the loser's")
    if points % 5:
        return Outcome(UNREADABLE, error=f"DIFF: {points} is not a multiple of 5 "
                                         "(every score is, RULES.md §11.2)")
    try:
        vp_table(hands, rules)
    except ValueError as exc:
        return Outcome(INVALID, error=str(exc))
    return Outcome(OK, {"vp": list(victory_points(points, hands, rules))})


# --- replay ---------------------------------------------------------------------------------

def replay_text(text: str, *, rules_name: str | None = None, source: str = "-") -> Outcome:
    """``burraco replay``: replay a record and report the final state, or the first bad move.

    ``rules_name`` replaces the record's preset (the record's own options still apply).
    """
    where = "stdin" if source == "-" else source
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Outcome(UNREADABLE, error=f"{where}: not a JSON record: {exc}")
    if not isinstance(data, dict):
        return Outcome(UNREADABLE, error=f"{where}: a record is a JSON object")
    if rules_name is not None:
        data = {**data, "rules": rules_name}
    try:
        return _replayed(data)
    except RecordError as exc:
        return Outcome(UNREADABLE, error=f"{where}: {exc}")
    except (ValueError, TypeError, KeyError) as exc:  # e.g. an option of the wrong type
        return Outcome(UNREADABLE, error=f"{where}: malformed record: {exc}")


def _replayed(data: dict[str, Any]) -> Outcome:
    played = replay(data)
    if not played.ok:
        index = played.error_index if played.error_index is not None else played.moves_applied
        move = data["moves"][index]
        reason = played.error or "illegal move"
        prefix = f"move {index + 1} {move!r}: "
        return Outcome(INVALID, {
            "valid": False, "index": index, "move": move,
            "reason": reason.removeprefix(prefix),
        })
    result = played.result()  # scoring reads options a record may have garbled: inside the try
    return Outcome(OK, {
        "valid": True,
        "moves": played.moves_applied,
        "state": state_summary(played.state),
        "result": result.to_dict() if result is not None else None,
    })


# --- rules ----------------------------------------------------------------------------------

def rules_list(*, as_json: bool = False) -> Outcome:
    """``burraco rules list``: every preset name."""
    names = sorted(PRESETS)
    if as_json:
        return Outcome(OK, names)
    return Outcome(OK, text="\n".join(names))


def rules_show(name: str = "fibur", *, as_json: bool = False, lang: str = "en") -> Outcome:
    """``burraco rules show``: every option of a preset, its value and RULES.md section; the
    text in ``lang`` (the JSON stays in English, the language of its fields)."""
    try:
        rules = Rules.preset(name)
    except ValueError as exc:
        return Outcome(UNREADABLE, error=str(exc))
    values = rules.to_dict()
    options = [
        {"name": option, "value": _jsonable(values[option]), "section": section, "doc": doc}
        for option, section, doc in Rules.options()
    ]
    note = PRESET_NOTES.get(name, "")
    if as_json:
        return Outcome(OK, {"preset": name, "note": note, "options": options})
    width = max(len(o["name"]) for o in options)
    said = pgettext_in(lang, f"presetNote.{name}", note) if note else ""
    lines = [pgettext_in(lang, "referee.preset", "preset {name}").format(name=name)
             + (f": {said}" if said else "")]
    for o in options:
        value = o["value"] if isinstance(o["value"], str) else json.dumps(o["value"])
        english = str(o["doc"])  # a variable: the extractor takes only literals
        doc = pgettext_in(lang, f"optionDoc.{o['name']}", english)
        lines.append(f"{o['name']:<{width}}  {value}  [{o['section']}] {doc}")
    return Outcome(OK, text="\n".join(lines))


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value
