"""One hand (smazzata) of Burraco: state, turn flow and the rules that apply to it.

RULES.md §3 (turn), §6 (pozzetto), §7 (closing and the engine invariants of
§7.3–7.4) and §8 (other ends of a hand).  ``apply`` either returns a new state
and its events or raises :class:`IllegalActionError` naming the broken rule,
leaving the given state untouched.  ``clone`` is cheap: search bots copy
states thousands of times per decision, so the state is a handful of flat
lists of ints and immutable melds.
"""

from __future__ import annotations

from burraco.engine.actions import Action, Attach, CallTime, Discard, Draw, NewMeld, Pickup
from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, face_str, make_face
from burraco.engine.deal import Deal, check_deal
from burraco.engine.events import (
    Attached,
    Discarded,
    Drew,
    Event,
    HandOver,
    Melded,
    PairsFormed,
    PickedUp,
    PozzettoSeen,
    PozzettoTaken,
    TimeCalled,
)
from burraco.engine.hand import (
    DRAW_PHASE,
    OVER,
    PLAY_PHASE,
    HandBase,
    closing_need,
    closing_ready,
    is_pinella,
)
from burraco.engine.legal import pickup_refusal, pinella_duty_feasible
from burraco.engine.melds import SET, Meld, read_attach, read_meld
from burraco.engine.rules import FIBUR, Rules

__all__ = [  # the phases and the closing test live in hand.py, shared with legal.py
    "DRAW_PHASE", "OVER", "PLAY_PHASE", "STATE_FIELDS", "HandState", "IllegalActionError",
    "closing_need", "closing_ready", "is_pinella",
]

STATE_FIELDS: tuple[str, ...] = (
    "barred", "closer", "deal", "dealer", "end_reason", "final_turn", "hands", "history",
    "known", "meld_counter", "meld_seq", "melds", "mode", "owes_meld", "pending",
    "pending_seen", "phase", "picked", "pile", "pile_from", "pinella_duty", "players",
    "pozzetti", "pozzetto_taker", "rules", "side_of", "stall", "stock", "time_left", "turn",
    "turn_melded", "turn_single_pickup",
)
"""Every field of :class:`HandState` (the class's ``__slots__`` in the pure-Python build; a
compiled class has no ``__slots__`` to read, so code that walks the fields uses this)."""


class IllegalActionError(ValueError):
    """The action breaks a rule; the message says which, for a player."""


class HandState(HandBase):
    """A hand in progress.  Seats are numbered in playing order (§2.3)."""

    __slots__ = (
        "barred", "closer", "deal", "dealer", "end_reason", "final_turn", "hands", "history",
        "known", "meld_counter", "meld_seq", "melds", "mode", "owes_meld", "pending",
        "pending_seen", "phase", "picked", "pile", "pile_from", "pinella_duty", "players",
        "pozzetti", "pozzetto_taker", "rules", "side_of", "stall", "stock", "time_left", "turn",
        "turn_melded", "turn_single_pickup",
)

    rules: Rules
    players: int
    dealer: int
    deal: Deal
    hands: list[list[int]]
    pending: list[list[int]]
    pending_seen: list[bool]
    pozzetti: list[tuple[int, ...]]
    pozzetto_taker: list[int]
    side_of: list[int]
    melds: list[list[Meld]]
    meld_seq: list[list[int]]
    meld_counter: int
    mode: str
    stock: list[int]
    pile: list[int]
    pile_from: list[int]
    known: list[list[int]]
    """Faces (not physical cards) each seat took with the pile and has not been seen to play
    since: what every seat may know of another's hand is a multiset of faces, never which
    copy of a face a player holds (each face has two copies)."""
    turn: int
    phase: str
    barred: int
    final_turn: bool
    stall: int
    turn_single_pickup: bool
    turn_melded: bool
    picked: list[int]
    owes_meld: bool
    pinella_duty: bool
    """International (§14.1): a pinella taken with the pile is still held and no meld of the
    player's own hand cards has been opened this turn, so he may not discard yet."""
    time_left: int
    end_reason: str
    closer: int
    history: tuple[Action, object] | None

    @classmethod
    def start(cls, deal: Deal, rules: Rules = FIBUR) -> HandState:
        """The state before the first turn of ``deal`` (checked for completeness)."""
        rules = rules.for_players(deal.players)
        check_deal(deal, rules)
        return cls._laid_out(deal, rules)

    @classmethod
    def from_position(
        cls, deal: Deal, rules: Rules, *, melds: list[list[Meld]], pozzetto_taker: list[int | None],
        turn: int, phase: str, pile_from: list[int] | None = None,
        pending: list[list[int]] | None = None, pending_seen: list[bool] | None = None,
    ) -> HandState:
        """A mid-hand position: ``deal`` holds what is in hands, pozzetti, stock and pile now.

        Only fixed partnerships (2, 4 and 6 players) can be given as positions.  ``pile_from``
        names the seat that discarded each pile card (-1: the first up-card, the default);
        ``pending`` a pozzetto each seat took with the discard and has not played yet, and
        ``pending_seen`` whether its taker may already look at it (§6.4).
        """
        state = cls._laid_out(deal, rules.for_players(deal.players))
        state.melds = [list(m) for m in melds]
        state.meld_seq = [list(range(len(m))) for m in melds]
        state.pozzetto_taker = [-1 if t is None else t for t in pozzetto_taker]
        state.turn = turn
        state.phase = phase
        if pile_from is not None:
            if len(pile_from) != len(state.pile):
                raise ValueError("pile_from needs one seat (or -1) per pile card")
            state.pile_from = list(pile_from)
        if pending is not None:
            state.pending = [list(p) for p in pending]
            state.pending_seen = list(pending_seen) if pending_seen is not None else [
                False] * state.players
        return state

    @classmethod
    def _laid_out(cls, deal: Deal, rules: Rules) -> HandState:
        state = cls()
        n = deal.players
        state.rules = rules
        state.players = n
        state.dealer = deal.dealer
        state.deal = deal
        state.hands = [list(h) for h in deal.hands]
        state.pending = [[] for _ in range(n)]
        state.pending_seen = [False] * n
        state.pozzetti = list(deal.pozzetti)
        if n in (3, 5):  # everyone alone at first (§13.2, §13.3)
            state.side_of = list(range(n))
            state.mode = "individual" if deal.individual else "solo-then-pairs"
        else:  # fixed partnerships, partners opposite (§2.1, §13.4)
            state.side_of = [seat % (n // 2) if n > 2 else seat for seat in range(n)]
            state.mode = "fixed"
        sides = max(state.side_of) + 1
        state.pozzetto_taker = [-1] * sides
        state.melds = [[] for _ in range(sides)]
        state.meld_seq = [[] for _ in range(sides)]
        state.meld_counter = 0
        state.stock = list(reversed(deal.stock))  # top card at the end of the list
        state.pile = list(deal.pile)
        state.pile_from = [-1] * len(deal.pile)
        state.known = [[] for _ in range(n)]
        state.turn = deal.first_player
        state.phase = DRAW_PHASE
        state.barred = -1
        state.final_turn = False
        state.stall = 0
        state.turn_single_pickup = False
        state.turn_melded = False
        state.picked = []
        state.owes_meld = False
        state.pinella_duty = False
        state.time_left = -1
        state.end_reason = ""
        state.closer = -1
        state.history = None
        if len(state.stock) <= 2:
            state._end("stock")
        return state

    # --- copies and queries ----------------------------------------------------------------

    def clone(self) -> HandState:
        other = HandState()
        other._copy_of(self)
        return other

    def _copy_of(self, src: HandState) -> None:
        """Make this state a copy of ``src`` (lists copied, immutable values shared)."""
        self.rules = src.rules
        self.players = src.players
        self.dealer = src.dealer
        self.deal = src.deal
        self.hands = [h[:] for h in src.hands]
        self.pending = [p[:] for p in src.pending]
        self.pending_seen = src.pending_seen[:]
        self.pozzetti = src.pozzetti[:]
        self.pozzetto_taker = src.pozzetto_taker[:]
        self.side_of = src.side_of[:]
        self.melds = [m[:] for m in src.melds]
        self.meld_seq = [m[:] for m in src.meld_seq]
        self.meld_counter = src.meld_counter
        self.mode = src.mode
        self.stock = src.stock[:]
        self.pile = src.pile[:]
        self.pile_from = src.pile_from[:]
        self.known = [k[:] for k in src.known]
        self.turn = src.turn
        self.phase = src.phase
        self.barred = src.barred
        self.final_turn = src.final_turn
        self.stall = src.stall
        self.turn_single_pickup = src.turn_single_pickup
        self.turn_melded = src.turn_melded
        self.picked = src.picked
        self.owes_meld = src.owes_meld
        self.pinella_duty = src.pinella_duty
        self.time_left = src.time_left
        self.end_reason = src.end_reason
        self.closer = src.closer
        self.history = src.history

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def sides(self) -> int:
        """Number of side slots (some may be empty after 3 or 5 players pair up)."""
        return len(self.melds)

    def live_sides(self) -> list[int]:
        """The sides that have players, in order."""
        return sorted(set(self.side_of))

    def moves(self) -> list[Action]:
        """Every action applied since the deal, in order."""
        out: list[Action] = []
        node = self.history
        while node is not None:
            action, prev = node
            out.append(action)
            node = prev  # type: ignore[assignment]
        out.reverse()
        return out

    def partner_of(self, seat: int) -> int | None:
        side = self.side_of[seat]
        for other in range(self.players):
            if other != seat and self.side_of[other] == side:
                return other
        return None

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if self.side_of[s] == side]

    def has_pozzetto(self, side: int) -> bool:
        return self.pozzetto_taker[side] >= 0

    def all_cards(self) -> list[int]:
        """Every physical card wherever it is (for conservation checks)."""
        out: list[int] = []
        for hand in self.hands:
            out += hand
        for pending in self.pending:
            out += pending
        for pozzetto in self.pozzetti:
            out += pozzetto
        for side in self.melds:
            for meld in side:
                out += meld.cards
        return out + self.stock + self.pile

    # --- applying actions ------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[HandState, list[Event]]:
        """The state after ``action`` and what happened; ``self`` is not changed."""
        state = self.clone()
        events = state.apply_in_place(action)
        return state, events

    def apply_in_place(self, action: Action) -> list[Event]:
        """Apply ``action`` to this state; on an illegal action nothing is changed."""
        if self.phase == OVER:
            raise IllegalActionError("the hand is over")
        events: list[Event] = []
        if isinstance(action, CallTime):
            self._call_time(events)
        elif self.phase == DRAW_PHASE:
            if isinstance(action, Draw):
                self._draw(events)
            elif isinstance(action, Pickup):
                self._pickup(events)
            else:
                raise IllegalActionError(
                    "draw from the stock or take the discard pile first (§3.1)")
        elif isinstance(action, NewMeld):
            self._new_meld(action, events)
        elif isinstance(action, Attach):
            self._attach(action, events)
        elif isinstance(action, Discard):
            self._discard(action, events)
        else:
            raise IllegalActionError("you have already drawn this turn (§3.1)")
        self.history = (action, self.history)
        return events

    def _call_time(self, events: list[Event]) -> None:
        if self.time_left >= 0:
            raise IllegalActionError("time has already been called")
        in_turn = self.phase == PLAY_PHASE
        if self.rules.time_out == "one-more-turn-each":
            self.time_left = self.players + (1 if in_turn else 0)
        else:
            self.time_left = self.players
        events.append(TimeCalled(self.time_left))

    def _draw(self, events: list[Event]) -> None:
        seat = self.turn
        card = self.stock.pop()
        self.hands[seat].append(card)
        events.append(Drew(seat, card))
        self._begin_play(seat, events)
        if len(self.stock) <= 2:
            self.final_turn = True
            if self.rules.last_turn == "stop":
                self._end("stock", events)

    def _pickup(self, events: list[Event]) -> None:
        seat = self.turn
        if not self.pile:
            raise IllegalActionError("the discard pile is empty")
        if self.rules.pile_requires_melded and not self.melds[self.side_of[seat]]:
            raise IllegalActionError("only a side that has melded may take the pile (house rule)")
        if self.partner_wild_in_pile(seat):
            raise IllegalActionError(
                "the pile holds a wild your partner discarded: you may not take it (§13.2)")
        if self.rules.pile_pickup != "free" or self.rules.collected_pinella != "free":
            reason = pickup_refusal(self)
            if reason is not None:
                raise IllegalActionError(reason)
        self._take_pile(seat, events)

    def _take_pile(self, seat: int, events: list[Event]) -> None:
        cards = self.pile
        self.pile = []
        self.pile_from = []
        if len(cards) == 1 and self.rules.single_card_pile_rule:
            self.barred = cards[0]
        self.turn_single_pickup = len(cards) == 1
        self.hands[seat].extend(cards)
        self.known[seat].extend([CARD_FACE[c] for c in cards])
        rules = self.rules
        duty = rules.collected_pinella == "hand-meld-to-keep" and any(
            is_pinella(c) for c in cards)
        if rules.pile_pickup == "must-meld-picked" or duty or rules.pile_use == "from-pile":
            self.picked = list(cards)
        if rules.pile_pickup == "must-meld-picked":
            self.owes_meld = True
        self.pinella_duty = duty
        events.append(PickedUp(seat, tuple(cards)))
        self._begin_play(seat, events)

    def partner_wild_in_pile(self, seat: int) -> bool:
        """3 and 5 players: a wild discarded by the seat's partner lies in the pile (§13.2)."""
        if self.mode != "pairs" or not self.rules.partner_wild_pickup_barred:
            return False
        side = self.side_of[seat]
        return any(
            by != seat and by >= 0 and self.side_of[by] == side and FACE_IS_WILD[CARD_FACE[c]]
            for c, by in zip(self.pile, self.pile_from, strict=True)
        )

    def _begin_play(self, seat: int, events: list[Event]) -> None:
        self.phase = PLAY_PHASE
        pending = self.pending[seat]
        if pending:  # a pozzetto taken with the discard is played after the draw (§6.4)
            if not self.pending_seen[seat]:
                events.append(PozzettoSeen(seat, tuple(pending)))
            self.hands[seat].extend(pending)
            self.pending[seat] = []
            self.pending_seen[seat] = False

    def _take_cards(self, seat: int, faces: tuple[int, ...], *, prefer_barred: bool) -> list[int]:
        """Physical cards of ``faces`` from the seat's hand, or raise.

        Melding uses up the card barred by the one-card-pile rule first and
        discarding uses its twin, so a player holding both is never hindered.
        Otherwise the copy held last in the hand goes (as a discard does), so the
        copies held before it keep their places, and their labels in the seat's view.
        """
        taken: list[int] = []
        hand = self.hands[seat][::-1]
        for face in faces:
            copies = [c for c in hand if CARD_FACE[c] == face and c not in taken]
            if not copies:
                again = "another " if face in faces[: len(taken)] else ""
                raise IllegalActionError(f"you do not hold {again}{face_str(face)}")
            if prefer_barred:  # melding: use up the barred card, then cards owed to a meld
                copies.sort(key=lambda c: (c != self.barred, c not in self.picked))
            elif self.barred in copies:
                copies.remove(self.barred)
                copies.append(self.barred)
            taken.append(copies[0])
        return taken

    def _new_meld(self, action: NewMeld, events: list[Event]) -> None:
        seat = self.turn
        side = self.side_of[seat]
        cards = self._take_cards(seat, action.faces, prefer_barred=True)
        result = read_meld(cards, self.rules)
        if isinstance(result, str):
            raise IllegalActionError(result)
        self._check_owed(cards)
        self._check_meld_allowed(side, result)
        remaining = [c for c in self.hands[seat] if c not in cards]
        melds_after = [*self.melds[side], result]
        self._check_guard(seat, remaining, melds_after)
        duty = self._pinella_duty_after(cards, remaining, new=True)
        backup = self.clone() if duty else None
        self.pinella_duty = duty
        self.hands[seat] = remaining
        self._forget_known(seat, cards)
        self.melds[side] = melds_after
        self.meld_seq[side] = [*self.meld_seq[side], self.meld_counter]
        self.meld_counter += 1
        self.turn_melded = True
        self.owes_meld = False
        events.append(Melded(seat, side, len(melds_after) - 1, result.cards))
        if not remaining:
            self._take_pozzetto(seat, live=True, events=events)
        self._check_duty_feasible(backup)

    def _check_meld_allowed(self, side: int, meld: Meld) -> None:
        rules = self.rules
        if meld.kind == SET and rules.one_set_per_rank:
            for other in self.melds[side]:
                if other.kind == SET and other.rank == meld.rank:
                    name = face_str(make_face(meld.rank, 0))[:-1]
                    raise IllegalActionError(
                        f"your side already has a set of {name}s: attach to it (§4.2.3)")
        if meld.kind != SET and not rules.same_suit_sequences:
            for other in self.melds[side]:
                if other.kind != SET and other.suit == meld.suit:
                    raise IllegalActionError("your side already has a sequence of this suit")

    def _attach(self, action: Attach, events: list[Event]) -> None:
        seat = self.turn
        side = self.side_of[seat]
        melds = self.melds[side]
        if not 0 <= action.meld < len(melds):
            raise IllegalActionError(
                f"your side has no meld {action.meld + 1} (it has {len(melds)})")
        cards = self._take_cards(seat, action.faces, prefer_barred=True)
        result = read_attach(melds[action.meld], cards, self.rules)
        if isinstance(result, str):
            raise IllegalActionError(result)
        self._check_owed(cards)
        remaining = [c for c in self.hands[seat] if c not in cards]
        melds_after = melds[:]
        melds_after[action.meld] = result
        self._check_guard(seat, remaining, melds_after)
        duty = self._pinella_duty_after(cards, remaining, new=False)
        backup = self.clone() if duty else None
        self.pinella_duty = duty
        self.hands[seat] = remaining
        self._forget_known(seat, cards)
        self.melds[side] = melds_after
        self.turn_melded = True
        self.owes_meld = False
        events.append(Attached(seat, side, action.meld, tuple(cards)))
        if not remaining:
            self._take_pozzetto(seat, live=True, events=events)
        self._check_duty_feasible(backup)

    def _check_owed(self, cards: list[int]) -> None:
        """Champion (§14.3): after a pickup the first play must use a card from the pile."""
        if not self.owes_meld:
            return
        if not any(c in self.picked for c in cards):
            raise IllegalActionError(
                "you took the pile: first meld at least one of its cards (§14.3)")

    def _pinella_duty_after(self, cards: list[int], remaining: list[int], *, new: bool) -> bool:
        """International (§14.1, Art. 8): may this play be made while a collected pinella is
        owed, and is it still owed after it?

        A meld of the player's own hand cards lets him keep the pinella; otherwise, until it
        is melded, his plays must use it (the play that meets the duty comes first, as for
        the Champion obligation, so a player is never left without a legal action).
        """
        if not self.pinella_duty:
            return False
        if new and not any(c in self.picked for c in cards):
            return False  # a meld of his own hand cards: the pinella may be kept
        if not any(c in self.picked and is_pinella(c) for c in cards):
            raise IllegalActionError(
                "you took a pinella with the pile: meld it, or open a meld of your own hand "
                "cards, before anything else (§14.1)")
        return any(c in self.picked and is_pinella(c) for c in remaining)

    def _check_duty_feasible(self, backup: HandState | None) -> None:
        """A play that leaves a collected pinella owed must leave a way to meet the duty."""
        if backup is None or not self.pinella_duty:
            return
        if not pinella_duty_feasible(self):
            self._copy_of(backup)
            raise IllegalActionError(
                "after this play you could neither meld the other pinella taken with the pile "
                "nor open a meld of your own hand cards (§14.1)")

    def _forget_known(self, seat: int, cards: list[int]) -> None:
        """The seat was seen to play ``cards``: one known copy of each of their faces goes.

        Faces, not physical cards: which copy left the hand is never known to the others, so
        what they know after the play cannot depend on which copy the engine took.  The last
        occurrence of a face goes (the card a one-card pile just gave, melded first, is last).
        """
        known = self.known[seat]
        for card in cards:
            if not known:
                return
            face = CARD_FACE[card]
            for i in range(len(known) - 1, -1, -1):
                if known[i] == face:
                    del known[i]
                    break

    def _check_guard(self, seat: int, remaining: list[int], melds_after: list[Meld]) -> None:
        """§7.3: after a meld or attachment the player must still be able to end his turn."""
        side = self.side_of[seat]
        if not remaining:
            if self.has_pozzetto(side) or not self.pozzetti:
                raise IllegalActionError(
                    "you cannot end your turn without a card to discard: keep one (§7.2)")
            return
        if len(remaining) > 1:
            return
        last = remaining[0]
        if last == self.barred:
            raise IllegalActionError(
                "your last card would be the one just taken from a one-card pile, "
                "which you may not discard this turn (§3.1.4)")
        wild = FACE_IS_WILD[CARD_FACE[last]]
        if wild and self.rules.wild_discard == "never":
            raise IllegalActionError("your last card would be a wild, which may not be discarded")
        if self.has_pozzetto(side):
            if wild:
                raise IllegalActionError(
                    "you could not close: the closing discard may not be a wild (§7.1)")
            if not closing_ready(melds_after, self.rules):
                raise IllegalActionError(
                    f"you could not close: your side needs {closing_need(self.rules)} (§7.1)")

    def _take_pozzetto(self, seat: int, *, live: bool, events: list[Event]) -> None:
        side = self.side_of[seat]
        pozzetto = self.pozzetti.pop(0)
        self.pozzetto_taker[side] = seat
        if live:
            self.hands[seat] = list(pozzetto)
            self.barred = -1
        else:
            self.pending[seat] = list(pozzetto)
            self.pending_seen[seat] = False
        events.append(PozzettoTaken(seat, side, live, tuple(pozzetto)))
        if self.mode == "solo-then-pairs":
            self._form_pairs(seat, events)

    def _form_pairs(self, solo: int, events: list[Event]) -> None:
        """3 and 5 players: the first to run out plays solo, the others pair up (§13.2–3).

        With 5 players partners are never neighbours (A solo: B–D and C–E).  Each
        pair's melds stay separate melds, numbered in order of creation.
        """
        n = self.players
        others = [(solo + k) % n for k in range(1, n)]
        pairs = [(others[0], others[1])] if n == 3 else [(others[0], others[2]),
                                                         (others[1], others[3])]
        for a, b in pairs:
            keep, gone = min(a, b), max(a, b)
            merged = sorted(
                zip(self.meld_seq[keep] + self.meld_seq[gone], self.melds[keep] + self.melds[gone],
                    strict=True),
                key=lambda pair: pair[0])
            self.meld_seq[keep] = [seq for seq, _ in merged]
            self.melds[keep] = [meld for _, meld in merged]
            self.meld_seq[gone] = []
            self.melds[gone] = []
            self.side_of[gone] = keep
        self.mode = "pairs"
        events.append(PairsFormed(solo, tuple(pairs)))

    def _discard(self, action: Discard, events: list[Event]) -> None:
        seat = self.turn
        side = self.side_of[seat]
        hand = self.hands[seat]
        face = action.face
        if self.owes_meld:
            raise IllegalActionError(
                "you took the pile: meld at least one of its cards before discarding (§14.3)")
        if self.pinella_duty:
            raise IllegalActionError(
                "you took a pinella with the pile: you may keep it only by opening a meld of your "
                "own hand cards; otherwise meld it before discarding (§14.1)")
        card = -1
        for c in hand:
            if CARD_FACE[c] == face and (card < 0 or c != self.barred):
                card = c
        if card < 0:
            raise IllegalActionError(f"you do not hold {face_str(face)}")
        if card == self.barred:
            raise IllegalActionError(
                f"you may not discard the {face_str(face)} you just took from a one-card pile "
                "this turn (§3.1.4)")
        wild = FACE_IS_WILD[face]
        if wild and self.rules.wild_discard == "never":
            raise IllegalActionError("wild cards may not be discarded under these rules")
        closing = False
        if len(hand) == 1 and self.has_pozzetto(side):
            if wild:
                raise IllegalActionError("you cannot close by discarding a wild (§7.1)")
            if not closing_ready(self.melds[side], self.rules):
                raise IllegalActionError(
                    f"you cannot close: your side needs {closing_need(self.rules)} (§7.1)")
            closing = True
        hand.remove(card)
        if not (self.barred in hand and CARD_FACE[self.barred] == face) or \
                self.known[seat].count(face) > 1:
            # but discarding the twin of the card a one-card pile just gave shows both
            # (§3.1.4): everyone knows the card taken is still held, so one stays known
            self._forget_known(seat, [card])
        self.pile.append(card)
        self.pile_from.append(seat)
        events.append(Discarded(seat, card))
        if not hand and not closing:
            if not self.pozzetti:
                raise AssertionError("no pozzetto left for a side without one")
            self._take_pozzetto(seat, live=False, events=events)
        self._end_turn(seat, closing, events)

    def _end_turn(self, seat: int, closing: bool, events: list[Event]) -> None:
        for other in range(self.players):
            if self.pending[other] and not self.pending_seen[other] and other != seat:
                revealer = self.partner_of(other)
                if revealer is None:
                    revealer = (other - 1) % self.players  # 2p: the opponent's discard
                if revealer == seat:
                    self.pending_seen[other] = True
                    events.append(PozzettoSeen(other, tuple(self.pending[other])))
        if closing:
            self.closer = seat
            self._end("closed", events)
            return
        if self.turn_single_pickup and not self.turn_melded:
            self.stall += 1
        else:
            self.stall = 0
        if self.time_left > 0:
            self.time_left -= 1
        if self.rules.stall_rounds and self.stall >= self.rules.stall_rounds * self.players:
            self._end("stall", events)
        elif self.time_left == 0:
            self._end("time", events)
        elif self.final_turn or len(self.stock) <= 2:
            self._end("stock", events)
        else:
            self.turn = (seat + 1) % self.players
            self.phase = DRAW_PHASE
            self.barred = -1
            self.turn_single_pickup = False
            self.turn_melded = False
            self.picked = []
            self.pinella_duty = False

    def _end(self, reason: str, events: list[Event] | None = None) -> None:
        self.phase = OVER
        self.end_reason = reason
        if events is not None:
            events.append(HandOver(reason, self.closer))
