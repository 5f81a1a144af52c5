"""What one seat (or a spectator) may see of a hand: the only window on it (RULES.md §6.4).

Bots, clients, the research environment and the server all go through
:func:`view`.  It never contains another seat's cards, the stock's cards or
an untaken pozzetto; a pozzetto taken with the discard stays hidden from its
own taker until his partner (in 2 players, his opponent) has discarded.  Once
the hand is over the hands are laid down for counting, so they are shown.

Nor does it tell *which copy* of a face is where.  Each face has two copies (three
packs: three), and at a real table nobody can tell them apart once they are out of sight:
what a seat knows of another hand is a multiset of faces (the faces it saw go in with the
pile, less those it saw come out).  So a view never carries the engine's physical card ids.
Its card ids are *labels* given afresh for each view, from what the view shows alone: walking
the seat's hand, the pozzetto it may look at, the melds, the pile, the hands laid down once
the hand is over and last the cards others are known to hold, the k-th card of a face met
gets that face's k-th copy id (pack 0 first).  A label still names its face (``id % 54``),
ids are unique within a view, and two states a seat cannot tell apart give it equal views,
whichever physical copies lie where (docs/decisions.md, "Which copy").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from burraco.engine.actions import Discard
from burraco.engine.cards import CARD_FACE, CARDS_PER_PACK, FACES, JOKER, card_str
from burraco.engine.melds import Meld
from burraco.engine.state import DRAW_PHASE, OVER, HandState

COPIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(pack * CARDS_PER_PACK + k for pack in range(3)
          for k in ((52, 53) if face == JOKER else (face,)))
    for face in range(FACES))
"""The ids of each face's copies, in the order labels use them (pack 0 first)."""


class Labels:
    """Labels for the cards of one view: the k-th card of a face met gets its k-th copy id."""

    __slots__ = ("ids", "used")

    def __init__(self) -> None:
        self.ids: dict[int, int] = {}
        self.used = [0] * FACES

    def of(self, card: int) -> int:
        """The label of physical ``card`` (the same card keeps its label within the view)."""
        label = self.ids.get(card)
        if label is None:
            face = CARD_FACE[card]
            k = self.used[face]
            self.used[face] = k + 1
            label = COPIES[face][k]
            self.ids[card] = label
        return label

    def fresh(self, face: int) -> int:
        """A label for a card of ``face`` whose copy is not known (a card another seat is
        known to hold)."""
        k = self.used[face]
        self.used[face] = k + 1
        return COPIES[face][k]

    def cards(self, cards: Iterable[int]) -> tuple[int, ...]:
        return tuple([self.of(c) for c in cards])

    def meld(self, meld: Meld) -> Meld:
        return Meld(meld.kind, self.cards(meld.cards), suit=meld.suit, rank=meld.rank,
                    lo=meld.lo, wild=meld.wild)


def _held_labels(faces: list[int], held: tuple[int, ...]) -> tuple[int, ...]:
    """Labels for known ``faces`` among cards the view shows ``held`` (labels already): for
    each face the latest matching card not yet named (what a pickup added comes last)."""
    out: list[int] = []
    taken: set[int] = set()
    for face in faces:
        for label in reversed(held):
            if CARD_FACE[label] == face and label not in taken:
                taken.add(label)
                out.append(label)
                break
    return tuple(out)


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view of a hand.  Card fields hold this view's labels, never physical ids."""

    seat: int | None
    players: int
    rules: str
    dealer: int
    turn: int
    phase: str
    side_of: tuple[int, ...]
    hand: tuple[int, ...]
    """The seat's own playable cards (empty for a spectator)."""
    pozzetto_seen: tuple[int, ...]
    """A pozzetto taken with the discard that its taker may look at but not play yet."""
    hand_counts: tuple[int, ...]
    """Cards held by each seat, a pozzetto taken with the discard included."""
    melds: tuple[tuple[Meld, ...], ...]
    pile: tuple[int, ...]
    """The discard pile, bottom card first: every discard was seen when it was made.  Under
    ``pile_view = "on-turn"`` (§3.1.5) only its top card, except for the player on turn
    before he draws."""
    stock_count: int
    pozzetti_left: int
    pozzetto_taker: tuple[int, ...]
    """Seat that took each side's pozzetto, or -1."""
    known: tuple[tuple[int, ...], ...]
    """Cards each seat took with the pile and has not been seen to play since (public
    knowledge: faces; their labels are the view's own, no copy is named)."""
    barred: int
    """The card just taken from a one-card pile, if the seat is on turn; else -1."""
    pending_counts: tuple[int, ...]
    """Cards of a pozzetto each seat took with the discard and has not played yet."""
    pending_seen: tuple[bool, ...]
    """Whether each such pozzetto may already be looked at by its taker (public: the
    partner's discard is seen by all)."""
    final_turn: bool
    time_left: int
    stall: int
    """Turns in a row begun with a one-card pickup and no meld (§8.3)."""
    turn_single_pickup: bool
    turn_melded: bool
    moves: tuple[tuple[int, str], ...]
    """Public history: (seat, action text) of every action of the hand so far."""
    end_reason: str
    closer: int
    revealed: tuple[tuple[int, ...], ...]
    """Every seat's cards once the hand is over (counted in public); empty before."""
    pile_count: int = -1
    """Cards in the discard pile (-1 when a view was built without it)."""
    pinella_duty: bool = False
    """International (§14.1): the player on turn took a pinella with the pile and may not
    discard before melding it or opening a meld of his own hand cards (public: all saw it)."""

    def visible_cards(self) -> set[int]:
        """Every card label this view uses (unique within the view)."""
        out = set(self.hand) | set(self.pozzetto_seen) | set(self.pile)
        for side in self.melds:
            for meld in side:
                out.update(meld.cards)
        for cards in (*self.known, *self.revealed):
            out.update(cards)
        if self.barred >= 0:
            out.add(self.barred)
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with cards as text (ids kept in ``*_ids`` where order matters)."""
        def cards(ids: tuple[int, ...]) -> list[str]:
            return [card_str(c) for c in ids]

        return {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": self.phase,
            "side_of": list(self.side_of),
            "hand": cards(self.hand),
            "hand_ids": list(self.hand),
            "pozzetto_seen": cards(self.pozzetto_seen),
            "hand_counts": list(self.hand_counts),
            "melds": [[str(m) for m in side] for side in self.melds],
            "pile": cards(self.pile),
            "pile_count": self.pile_count,
            "pinella_duty": self.pinella_duty,
            "stock_count": self.stock_count,
            "pozzetti_left": self.pozzetti_left,
            "pozzetto_taker": list(self.pozzetto_taker),
            "known": [cards(k) for k in self.known],
            "barred": card_str(self.barred) if self.barred >= 0 else None,
            "pending_counts": list(self.pending_counts),
            "final_turn": self.final_turn,
            "time_left": self.time_left,
            "moves": [[seat, text] for seat, text in self.moves],
            "end_reason": self.end_reason or None,
            "closer": self.closer if self.closer >= 0 else None,
            "revealed": [cards(r) for r in self.revealed],
        }


def public_moves(state: HandState) -> tuple[tuple[int, str], ...]:
    """(seat, text) of every action so far; action texts never name a hidden card."""
    out: list[tuple[int, str]] = []
    seat = state.deal.first_player
    for action in state.moves():
        out.append((seat, str(action)))
        if isinstance(action, Discard):
            seat = (seat + 1) % state.players
    return tuple(out)


def view(state: HandState, seat: int | None, *, moves: bool = True) -> View:
    """What ``seat`` may see (``None``: a spectator).

    ``moves=False`` leaves the public history out (empty ``moves``): writing it
    out is most of a view's cost late in a hand, and observations for learning
    do not read it.
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} at a table of {state.players}")
    over = state.phase == OVER
    me = -1 if seat is None else seat
    labels = Labels()
    hand = labels.cards(state.hands[me]) if me >= 0 else ()
    pending_seen: tuple[int, ...] = ()
    if me >= 0 and state.pending_seen[me] and state.pending[me]:
        pending_seen = labels.cards(state.pending[me])
    melds = tuple(tuple([labels.meld(m) for m in side]) for side in state.melds)
    pile_cards = state.pile
    if state.rules.pile_view == "on-turn" and not over and not (
            me == state.turn and state.phase == DRAW_PHASE):
        pile_cards = pile_cards[-1:]  # §3.1.5: only the player about to draw may look through
    pile = labels.cards(pile_cards)
    revealed: tuple[tuple[int, ...], ...] = ()
    if over:
        revealed = tuple(labels.cards(h + p) for h, p in zip(
            state.hands, state.pending, strict=True))
    known: list[tuple[int, ...]] = []
    for other, faces in enumerate(state.known):
        if over:
            known.append(_held_labels(faces, revealed[other]))
        elif other == me:
            known.append(_held_labels(faces, hand))
        else:
            known.append(tuple([labels.fresh(f) for f in faces]))
    counts = tuple(len(h) + len(p) for h, p in zip(state.hands, state.pending, strict=True))
    barred = -1
    if me >= 0 and me == state.turn and state.barred in state.hands[me]:
        barred = labels.of(state.barred)
    return View(
        seat=seat,
        players=state.players,
        rules=state.rules.name,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        side_of=tuple(state.side_of),
        hand=hand,
        pozzetto_seen=pending_seen,
        hand_counts=counts,
        melds=melds,
        pile=pile,
        stock_count=len(state.stock),
        pozzetti_left=len(state.pozzetti),
        pozzetto_taker=tuple(state.pozzetto_taker),
        known=tuple(known),
        barred=barred,
        pending_counts=tuple(len(p) for p in state.pending),
        pending_seen=tuple(state.pending_seen),
        final_turn=state.final_turn,
        time_left=state.time_left,
        stall=state.stall,
        turn_single_pickup=state.turn_single_pickup,
        turn_melded=state.turn_melded,
        moves=public_moves(state) if moves else (),
        end_reason=state.end_reason,
        closer=state.closer,
        revealed=revealed,
        pile_count=len(state.pile),
        pinella_duty=state.pinella_duty,
    )


def hidden_from(state: HandState, seat: int | None) -> set[int]:
    """Physical cards whose face ``seat`` may not see: the stock, untaken pozzetti, the other
    seats' hands (a face known to be held is not a card: which copy is never shown), and a
    pozzetto its taker may not look at yet.  Once the hand is over only the stock and the
    untaken pozzetti stay hidden."""
    hidden = set(state.stock)
    for pozzetto in state.pozzetti:
        hidden.update(pozzetto)
    if state.phase == OVER:
        return hidden
    for other in range(state.players):
        if other != seat:
            hidden.update(state.hands[other])
        if other != seat or not state.pending_seen[other]:
            hidden.update(state.pending[other])
    return hidden
