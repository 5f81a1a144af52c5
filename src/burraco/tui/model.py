"""What the terminal shows: one value built from a seat's view, whoever drives the table.

Offline and in a replay it is built from the engine's :class:`View`
(:func:`from_view`); online from the server's ``sync``, which is the same view
as JSON (:func:`from_sync`).  Either way it holds only what the seat may see:
the screen cannot show a card that is not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from burraco.engine.cards import card_str, parse_face
from burraco.engine.melds import MeldError, burraco_type, parse_meld
from burraco.engine.rules import Rules
from burraco.engine.views import View


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused command: the protocol's code and the reason, which cites RULES.md."""

    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class SideResult:
    seats: tuple[int, ...]
    melds: int
    bonuses: int
    closing: int
    pozzetto: int
    hand: int
    total: int


@dataclass(frozen=True, slots=True)
class Table:
    """Everything the screen draws (card fields hold physical ids; piles and melds text)."""

    kind: str
    """``offline``, ``online``, ``watch`` or ``replay``."""
    seat: int | None
    """The seat whose view this is (None: a spectator)."""
    players: int = 4
    names: tuple[str, ...] = ()
    side_of: tuple[int, ...] = ()
    status: str = "waiting"
    """``waiting`` (seats open), ``playing``, ``over`` (a hand just ended), ``finished``."""
    hand_number: int = 0
    dealer: int = 0
    turn: int = 0
    phase: str = "draw"
    hand: tuple[int, ...] = ()
    pozzetto_seen: tuple[int, ...] = ()
    hand_counts: tuple[int, ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    burraco: tuple[tuple[str | None, ...], ...] = ()
    """Each meld's burraco type (clean, semi-clean, dirty, ...) or None."""
    pile: tuple[str, ...] = ()
    stock_count: int = 0
    pozzetti_left: int = 0
    pozzetto_taker: tuple[int, ...] = ()
    final_turn: bool = False
    moves: tuple[tuple[int, str], ...] = ()
    revealed: tuple[tuple[int, ...], ...] = ()
    end_reason: str = ""
    closer: int = -1
    legal: tuple[str, ...] = ()
    """This seat's legal actions when it is on turn (the engine's texts)."""
    can_undo: bool = False
    online: tuple[bool | None, ...] = ()
    """Connection of each seat (None: in-process, always there)."""
    standin: tuple[str | None, ...] = ()
    clock_seat: int | None = None
    clock_deadline: float | None = None
    """Seconds since the epoch when the turn clock runs out."""
    score_names: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()
    target: int | None = None
    result: tuple[SideResult, ...] = ()
    redeal: bool = False
    winner: int | None = None
    """The match's winner (a side, or a seat at 3 and 5 players) once it is over."""
    link: str = ""
    """Online: ``connecting``, ``open``, ``reconnecting``, ``refused``."""
    link_error: str = ""
    refusal: Refusal | None = None
    notice: str = ""
    replay_at: tuple[int, int] | None = None
    """(moves applied, moves in the record) in a replay."""
    version: int = 0
    synced: int = -1
    """Online: the version of the view shown (a sync follows each burst of events)."""
    casual: bool = True
    match_over: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.status == "playing" and self.turn == self.seat \
            and bool(self.legal)

    def with_(self, **changes: Any) -> Table:
        return replace(self, **changes)


def meld_types(melds: tuple[tuple[str, ...], ...], rules: Rules | None) -> tuple[
        tuple[str | None, ...], ...]:
    """Each meld's burraco type, read back from its text with the table's rules."""
    out = []
    for side in melds:
        kinds: list[str | None] = []
        for text in side:
            kind: str | None = None
            if rules is not None:
                try:
                    kind = burraco_type(parse_meld(text, rules), rules)
                except (MeldError, ValueError):
                    kind = "burraco" if len(text.split()) >= 7 else None
            elif len(text.split()) >= 7:
                kind = "burraco"
            kinds.append(kind)
        out.append(tuple(kinds))
    return tuple(out)


def from_view(seen: View, *, kind: str, rules: Rules | None, names: tuple[str, ...],
              legal: tuple[str, ...] = (), **extra: Any) -> Table:
    """The screen's value from an engine view (offline and replays)."""
    melds = tuple(tuple(str(m) for m in side) for side in seen.melds)
    status = "over" if seen.phase == "over" else "playing"
    return Table(
        kind=kind, seat=seen.seat, players=seen.players, names=names,
        side_of=seen.side_of, status=status, dealer=seen.dealer, turn=seen.turn,
        phase=seen.phase, hand=seen.hand, pozzetto_seen=seen.pozzetto_seen,
        hand_counts=seen.hand_counts, melds=melds, burraco=meld_types(melds, rules),
        pile=tuple(card_str(c) for c in seen.pile), stock_count=seen.stock_count,
        pozzetti_left=seen.pozzetti_left, pozzetto_taker=seen.pozzetto_taker,
        final_turn=seen.final_turn, moves=seen.moves, revealed=seen.revealed,
        end_reason=seen.end_reason, closer=seen.closer, legal=legal,
        online=(None,) * seen.players, standin=(None,) * seen.players, **extra)


def rules_of_config(config: dict[str, Any]) -> Rules | None:
    """The table's rules from its config (preset, options, target), or None if unknown."""
    try:
        options = {k: tuple(v) if isinstance(v, list) else v
                   for k, v in dict(config.get("options") or {}).items()}
        rules = Rules.preset(str(config.get("rules", "fibur"))).with_options(**options)
        if config.get("target"):
            rules = rules.with_options(target=int(config["target"]))
        return rules.for_players(int(config.get("players", 4)))
    except (ValueError, TypeError):
        return None


def hand_ids(hand: dict[str, Any]) -> tuple[int, ...]:
    """The seat's cards as ids (the sync gives both ids and text)."""
    ids = hand.get("hand_ids")
    if isinstance(ids, list):
        return tuple(int(c) for c in ids)
    return tuple(parse_face(t) for t in hand.get("hand", []))


def result_of(result: dict[str, Any] | None) -> tuple[SideResult, ...]:
    if not result:
        return ()
    out = []
    for side in result.get("sides", []):
        out.append(SideResult(
            seats=tuple(side.get("seats", ())), melds=int(side.get("melds", 0)),
            bonuses=int(side.get("bonuses", 0)), closing=int(side.get("closing", 0)),
            pozzetto=int(side.get("pozzetto", 0)), hand=int(side.get("hand", 0)),
            total=int(side.get("total", 0))))
    return tuple(out)
