"""Game records and positions as JSON (format documented in docs/record-format.md).

A record is the deal plus the moves in text, so it replays to the same state;
a position is a mid-hand snapshot to start from.  Reading never trusts the
file: every problem raises :class:`RecordError` naming the field at fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from burraco import __version__
from burraco.engine.actions import Action, ActionParseError, parse_action
from burraco.engine.cards import (
    CARDS_PER_PACK,
    CardParseError,
    card_face,
    card_str,
    free_card,
    parse_face,
)
from burraco.engine.deal import PLAYER_COUNTS, Deal, DealError, check_deal, deal_seeded
from burraco.engine.melds import Meld, MeldError, parse_meld
from burraco.engine.result import HandResult, hand_result
from burraco.engine.rules import PRESETS, Rules
from burraco.engine.state import DRAW_PHASE, PLAY_PHASE, HandState, IllegalActionError

FORMAT = "burraco-record"
GAME_FORMAT = "burraco-game"
VERSION = 2
READABLE_VERSIONS = (1, 2)
"""1: the first format; 2 adds a position's ``pile_from`` (who discarded each pile card) and
``pending_pozzetti`` / ``pending_seen`` (a pozzetto taken with the discard, not yet played)."""


class RecordError(ValueError):
    """A record or position file is malformed; the message names the field."""


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of replaying a record: the last good state, and the first bad move if any."""

    state: HandState
    moves_applied: int
    error_index: int | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def result(self) -> HandResult | None:
        return hand_result(self.state) if self.state.is_over else None


# --- reading -------------------------------------------------------------------------------

def rules_from_record(data: dict[str, Any]) -> Rules:
    name = data.get("rules", "fibur")
    if not isinstance(name, str) or name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise RecordError(f"rules: unknown preset {name!r} (known: {known})")
    rules = PRESETS[name]
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("options: expected an object of rule options")
    values = {k: _tupled(v) for k, v in options.items()}
    defaults = rules.to_dict()
    for key, value in values.items():
        if key in defaults and not _same_kind(value, defaults[key]):
            kind = type(defaults[key]).__name__.replace("tuple", "list")
            raise RecordError(f"options.{key}: expected {kind}, got {value!r}")
    try:
        rules = rules.with_options(**values)
    except TypeError as exc:
        raise RecordError(f"options: {exc}") from None
    return rules


def _same_kind(value: Any, default: Any) -> bool:
    """An option's value has the type of its default (a compiled ``Rules`` enforces it; the
    pure one would fail later, less clearly)."""
    if default is None or value is None:
        return True  # the optional options (set_ranks)
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    return isinstance(value, type(default))


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def _cards(value: Any, where: str) -> list[int]:
    """Faces of a list of card texts (or one space-separated string)."""
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where}: expected a list of cards like [\"7H\", \"JK\"]")
    try:
        return [parse_face(v) for v in value]
    except CardParseError as exc:
        raise RecordError(f"{where}: {exc}") from None


class _Ids:
    """Hands out physical ids for faces, pack 0 first, each id once."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.used: set[int] = set()

    def take(self, face: int, where: str) -> int:
        card = free_card(face, self.used, self.rules.packs)
        if card is None:
            raise RecordError(f"{where}: more copies of {card_str(face)} than the packs hold")
        self.used.add(card)
        return card

    def many(self, faces: list[int], where: str) -> list[int]:
        return [self.take(f, where) for f in faces]


def _players(data: dict[str, Any], allowed: tuple[int, ...] = PLAYER_COUNTS) -> int:
    players = data.get("players", 4)
    if not isinstance(players, int) or players not in allowed:
        counts = ", ".join(str(n) for n in allowed)
        raise RecordError(f"players: {players!r} is not supported ({counts})")
    return players


def deal_from_record(data: dict[str, Any], rules: Rules) -> Deal:
    players = _players(data)
    rules = rules.for_players(players)
    dealer = data.get("dealer", players - 1)
    if not isinstance(dealer, int) or not 0 <= dealer < players:
        raise RecordError(f"dealer: {dealer!r} is not a seat of {players} players")
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise RecordError("deal: expected {\"seed\": N} or explicit hands, pozzetti, stock, pile")
    if "hands" not in deal:
        seed = deal.get("seed")
        if not isinstance(seed, int):
            raise RecordError("deal: give a \"seed\" (an integer) or the explicit cards")
        individual = deal.get("individual", False)
        if not isinstance(individual, bool):
            raise RecordError("deal.individual: expected true or false")
        return deal_seeded(seed, players=players, dealer=dealer, rules=rules,
                           individual=individual)
    ids = deal.get("card_ids")
    if ids is not None:
        return _deal_from_ids(deal, ids, players, dealer, rules)
    taker = _Ids(rules)
    hands = deal.get("hands")
    pozzetti = deal.get("pozzetti")
    if not isinstance(hands, list) or len(hands) != players:
        raise RecordError(f"deal.hands: expected {players} hands")
    if not isinstance(pozzetti, list):
        raise RecordError("deal.pozzetti: expected a list of pozzetti, top first")
    hand_ids = [tuple(taker.many(_cards(h, f"deal.hands[{i}]"), f"deal.hands[{i}]"))
                for i, h in enumerate(hands)]
    pozzetto_ids = [tuple(taker.many(_cards(p, f"deal.pozzetti[{i}]"), f"deal.pozzetti[{i}]"))
                    for i, p in enumerate(pozzetti)]
    stock = tuple(taker.many(_cards(deal.get("stock", []), "deal.stock"), "deal.stock"))
    pile = tuple(taker.many(_cards(deal.get("pile", []), "deal.pile"), "deal.pile"))
    result = Deal(players, dealer, tuple(hand_ids), tuple(pozzetto_ids), stock, pile,
                  seed=deal.get("seed") if isinstance(deal.get("seed"), int) else None)
    _check(result, rules)
    return result


def _deal_from_ids(
    deal: dict[str, Any], ids: Any, players: int, dealer: int, rules: Rules,
) -> Deal:
    def seq(value: Any, where: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise RecordError(f"deal.card_ids.{where}: expected a list of card ids")
        return tuple(value)

    if not isinstance(ids, dict):
        raise RecordError("deal.card_ids: expected an object like deal with ids")
    result = Deal(
        players, dealer,
        tuple(seq(h, f"hands[{i}]") for i, h in enumerate(ids.get("hands", []))),
        tuple(seq(p, f"pozzetti[{i}]") for i, p in enumerate(ids.get("pozzetti", []))),
        seq(ids.get("stock", []), "stock"), seq(ids.get("pile", []), "pile"),
        seed=deal.get("seed") if isinstance(deal.get("seed"), int) else None,
    )
    _check(result, rules)
    faces_written = [_cards(h, f"deal.hands[{i}]") for i, h in enumerate(deal["hands"])]
    faces_ids = [[card_face(c) for c in h] for h in result.hands]
    if faces_written != faces_ids:
        raise RecordError("deal.card_ids: the ids do not match the cards written in deal.hands")
    return result


def _check(deal: Deal, rules: Rules) -> None:
    try:
        check_deal(deal, rules)
    except DealError as exc:
        raise RecordError(f"deal: {exc}") from None


def position_state(data: dict[str, Any], rules: Rules) -> HandState:
    """A mid-hand state from a record's ``position`` object."""
    pos = data["position"]
    if not isinstance(pos, dict):
        raise RecordError("position: expected an object")
    players = _players(data, (2, 4, 6))
    rules = rules.for_players(players)
    sides = 2 if players == 2 else players // 2
    dealer = data.get("dealer", players - 1)
    if not isinstance(dealer, int) or not 0 <= dealer < players:
        raise RecordError(f"dealer: {dealer!r} is not a seat of {players} players")
    taker = _Ids(rules)
    hands = pos.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise RecordError(f"position.hands: expected {players} hands")
    hand_ids = [taker.many(_cards(h, f"position.hands[{i}]"), f"position.hands[{i}]")
                for i, h in enumerate(hands)]
    melds_data = pos.get("melds", [[] for _ in range(sides)])
    if not isinstance(melds_data, list) or len(melds_data) != sides:
        raise RecordError(f"position.melds: expected one list of melds per side ({sides})")
    melds: list[list[Meld]] = []
    for side, side_melds in enumerate(melds_data):
        if not isinstance(side_melds, list):
            raise RecordError(f"position.melds[{side}]: expected a list of melds")
        built = []
        for k, text in enumerate(side_melds):
            where = f"position.melds[{side}][{k}]"
            if not isinstance(text, str):
                raise RecordError(f"{where}: expected a meld like \"5H 6H JK(=7H)\"")
            try:
                meld = parse_meld(text, rules)
            except (MeldError, CardParseError) as exc:
                raise RecordError(f"{where}: {exc}") from None
            cards = tuple(taker.take(card_face(c), where) for c in meld.cards)
            built.append(Meld(meld.kind, cards, suit=meld.suit, rank=meld.rank, lo=meld.lo,
                              wild=meld.wild))
        melds.append(built)
    pozzetti = [tuple(taker.many(_cards(p, f"position.pozzetti[{i}]"), f"position.pozzetti[{i}]"))
                for i, p in enumerate(pos.get("pozzetti", []))]
    stock = taker.many(_cards(pos.get("stock", []), "position.stock"), "position.stock")
    pile = taker.many(_cards(pos.get("pile", []), "position.pile"), "position.pile")
    taken = pos.get("pozzetto_taker", [None] * sides)
    if not isinstance(taken, list) or len(taken) != sides or not all(
            t is None or (isinstance(t, int) and 0 <= t < players) for t in taken):
        raise RecordError("position.pozzetto_taker: expected a seat or null for each side")
    turn = pos.get("turn", (dealer + 1) % players)
    if not isinstance(turn, int) or not 0 <= turn < players:
        raise RecordError(f"position.turn: {turn!r} is not a seat")
    phase = pos.get("phase", DRAW_PHASE)
    if phase not in (DRAW_PHASE, PLAY_PHASE):
        raise RecordError("position.phase: expected \"draw\" or \"play\"")
    if len(pozzetti) + sum(t is not None for t in taken) != sides:
        raise RecordError(f"position: pozzetti left plus pozzetti taken must make {sides}")
    pile_from = _pile_from(pos, len(pile), players)
    pending = _pending(pos, taker, players, taken, hand_ids, sides, turn, phase)
    pending_seen = _pending_seen(pos, pending, turn, players)
    if sorted(taker.used) != _all_ids(rules):
        missing = sorted(set(_all_ids(rules)) - taker.used)
        raise RecordError(f"position: {len(missing)} cards missing, e.g. {card_str(missing[0])}")
    # a fresh state from a neutral deal, then the position laid over it
    deal = Deal(players, dealer, tuple(tuple(h) for h in hand_ids), tuple(pozzetti),
                tuple(stock), tuple(pile))
    state = HandState.from_position(
        deal, rules, melds=melds, pozzetto_taker=taken, turn=turn, phase=phase,
        pile_from=pile_from, pending=pending, pending_seen=pending_seen)
    barred = pos.get("barred")
    if barred is not None:
        face = _cards([barred], "position.barred")[0]
        match = [c for c in state.hands[turn] if card_face(c) == face]
        if phase != PLAY_PHASE or not match:
            raise RecordError("position.barred: must be a card in the hand of the seat to play")
        state.barred = match[0]
    return state


def _pile_from(pos: dict[str, Any], size: int, players: int) -> list[int]:
    """Who discarded each pile card (version 2); null (and every card of a version 1
    position) is no seat's discard: the dealer's first up-card, or not known."""
    value = pos.get("pile_from")
    if value is None:
        return [-1] * size
    if not isinstance(value, list) or len(value) != size or not all(
            v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < players)
            for v in value):
        raise RecordError(
            f"position.pile_from: expected one seat (or null for the first up-card) for each of "
            f"the {size} pile cards")
    return [-1 if v is None else v for v in value]


def _pending(
    pos: dict[str, Any], taker: _Ids, players: int, taken: list[int | None],
    hands: list[list[int]], sides: int, turn: int, phase: str,
) -> list[list[int]]:
    """Pozzetti taken with the discard and not yet played, one list per seat (version 2)."""
    value = pos.get("pending_pozzetti")
    if value is None:
        return [[] for _ in range(players)]
    if not isinstance(value, list) or len(value) != players:
        raise RecordError(f"position.pending_pozzetti: expected one list per seat ({players})")
    out: list[list[int]] = []
    for seat, cards in enumerate(value):
        where = f"position.pending_pozzetti[{seat}]"
        faces = [] if cards is None else _cards(cards, where)
        if faces:
            side = seat % sides if players > 2 else seat
            if taken[side] != seat:
                raise RecordError(
                    f"{where}: seat {seat} holds a pozzetto taken with the discard, so "
                    f"position.pozzetto_taker[{side}] must be {seat}")
            if phase == PLAY_PHASE and seat == turn:
                raise RecordError(
                    f"{where}: the seat on turn has drawn, so his pozzetto is in his hand")
            if hands[seat]:
                raise RecordError(
                    f"{where}: a seat that took its pozzetto with the discard holds no other "
                    "card until its next turn")
        out.append(taker.many(faces, where))
    return out


def _pending_seen(
    pos: dict[str, Any], pending: list[list[int]], turn: int, players: int,
) -> list[bool]:
    """Whether each taker may already look at his pending pozzetto (§6.4); by default only
    when his own turn has come round again."""
    value = pos.get("pending_seen")
    if value is None:
        return [bool(cards) and seat == turn for seat, cards in enumerate(pending)]
    if not isinstance(value, list) or len(value) != players or not all(
            isinstance(v, bool) for v in value):
        raise RecordError("position.pending_seen: expected true or false for each seat")
    if any(seen and not cards for seen, cards in zip(value, pending, strict=True)):
        raise RecordError("position.pending_seen: true only for a seat with a pending pozzetto")
    return list(value)


def _all_ids(rules: Rules) -> list[int]:
    cards = list(range(rules.packs * CARDS_PER_PACK))
    return cards if rules.jokers else [c for c in cards if c % CARDS_PER_PACK < 52]


def start_state(data: dict[str, Any]) -> HandState:
    """The state a record's moves start from (its position, else its deal)."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {fmt!r}")
    version = data.get("version", VERSION)
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        readable = " and ".join(str(v) for v in READABLE_VERSIONS)
        raise RecordError(f"version: {version!r} is not supported (this engine reads {readable})")
    rules = rules_from_record(data)
    if data.get("position") is not None:
        return position_state(data, rules)
    return HandState.start(deal_from_record(data, rules), rules)


def moves_from_record(data: dict[str, Any]) -> list[str]:
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("moves: expected a list of action texts like \"draw\"")
    return moves


def replay(data: dict[str, Any]) -> Replay:
    """Replay a record; stop at the first unreadable or illegal move."""
    state = start_state(data)
    moves = moves_from_record(data)
    for index, text in enumerate(moves):
        try:
            action: Action = parse_action(text)
            state.apply_in_place(action)
        except (ActionParseError, IllegalActionError) as exc:
            return Replay(state, index, index, f"move {index + 1} {text!r}: {exc}")
    return Replay(state, len(moves))


# --- writing -------------------------------------------------------------------------------

def record_of(state: HandState, *, seats: list[str] | None = None) -> dict[str, Any]:
    """The record of a hand from its deal to now (finished or not)."""
    deal = state.deal
    faces = {
        "hands": [[card_str(c) for c in h] for h in deal.hands],
        "pozzetti": [[card_str(c) for c in p] for p in deal.pozzetti],
        "stock": [card_str(c) for c in deal.stock],
        "pile": [card_str(c) for c in deal.pile],
    }
    ids = {
        "hands": [list(h) for h in deal.hands],
        "pozzetti": [list(p) for p in deal.pozzetti],
        "stock": list(deal.stock),
        "pile": list(deal.pile),
    }
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "engine": __version__,
        "rules": state.rules.name,
        "options": _options_diff(state.rules, state.players),
        "players": state.players,
    }
    if seats is not None:
        out["seats"] = seats
    out["dealer"] = state.dealer
    out["deal"] = {**({"seed": deal.seed} if deal.seed is not None else {}),
                   **({"individual": True} if deal.individual else {}), **faces,
                   "card_ids": ids}
    out["moves"] = [str(a) for a in state.moves()]
    return out


def position_of(state: HandState) -> dict[str, Any]:
    """A position record (version 2) of a hand in progress: its ``moves`` start from now.

    Only fixed partnerships (2, 4, 6 players) and a state between actions of the draw or play
    phase can be written; a card just taken from a one-card pile is written as ``barred``.
    """
    if state.mode != "fixed":
        raise ValueError("only fixed partnerships (2, 4 or 6 players) can be written as a position")
    if state.is_over:
        raise ValueError("the hand is over: write its record instead")
    if state.owes_meld or state.pinella_duty:
        raise ValueError(
            "the player owes a meld for the pile he took: write the position before the pickup "
            "or once the meld is made")

    def texts(cards: list[int] | tuple[int, ...]) -> list[str]:
        return [card_str(c) for c in cards]

    barred = state.barred if state.phase == PLAY_PHASE and state.barred in state.hands[
        state.turn] else -1
    return {
        "format": FORMAT,
        "version": VERSION,
        "engine": __version__,
        "rules": state.rules.name,
        "options": _options_diff(state.rules, state.players),
        "players": state.players,
        "dealer": state.dealer,
        "position": {
            "hands": [texts(h) for h in state.hands],
            "melds": [[str(m) for m in side] for side in state.melds],
            "pozzetti": [texts(p) for p in state.pozzetti],
            "pozzetto_taker": [t if t >= 0 else None for t in state.pozzetto_taker],
            "pending_pozzetti": [texts(p) for p in state.pending],
            "pending_seen": list(state.pending_seen),
            "stock": texts(state.stock[::-1]),
            "pile": texts(state.pile),
            "pile_from": [s if s >= 0 else None for s in state.pile_from],
            "turn": state.turn,
            "phase": state.phase,
            "barred": card_str(barred) if barred >= 0 else None,
        },
        "moves": [],
    }


def _options_diff(rules: Rules, players: int) -> dict[str, Any]:
    base = PRESETS.get(rules.name)
    if base is None:
        return {}
    base = base.for_players(players)
    mine, theirs = rules.to_dict(), base.to_dict()
    return {k: _listed(v) for k, v in mine.items() if theirs[k] != v}


def _listed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listed(v) for v in value]
    return value


def state_summary(state: HandState) -> dict[str, Any]:
    """The full state as JSON (for referees: everything, nothing hidden)."""
    out: dict[str, Any] = {
        "players": state.players,
        "rules": state.rules.name,
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": state.turn,
        "hands": [[card_str(c) for c in h] for h in state.hands],
        "pending_pozzetti": [[card_str(c) for c in p] for p in state.pending],
        "melds": [[str(m) for m in side] for side in state.melds],
        "pile": [card_str(c) for c in state.pile],
        "stock_count": len(state.stock),
        "pozzetti_left": len(state.pozzetti),
        "pozzetto_taker": [t if t >= 0 else None for t in state.pozzetto_taker],
        "side_of": list(state.side_of),
        "mode": state.mode,
        "moves": len(state.moves()),
    }
    if state.is_over:
        result = hand_result(state)
        out["end"] = result.to_dict()
    return out
