"""One hand of Burraco as OpenSpiel plays it: chance deals the deck card by card, then the
engine plays.  Pure Python (the engine and the research catalog); :mod:`burraco.openspiel.game`
wraps it in OpenSpiel's classes.

The history is a list of integers, OpenSpiel's: first a chance node choosing the dealer
(``0 … players-1``), then one chance node per card of the deck choosing its *face* (``0 …
52``, each face weighted by its copies still undealt), top of the deck first, then the
players' catalog ids (:mod:`burraco.env.catalog`).  When the last card is dealt the deck order
is dealt exactly as :func:`burraco.engine.deal.deal_from_order` deals a real table's (the cut,
the pozzetti, eleven cards each, the up-card, the stock), and the k-th copy of a face met in
the deck order is that face's k-th physical card.  Chance therefore speaks faces only: no
history names which copy of a face lies where.

A table is cheap to copy (:meth:`Table.clone`, which ``copy.deepcopy`` uses: OpenSpiel clones a
Python state by deep-copying its attributes) and pickles as its history, replayed on loading
(OpenSpiel serializes a Python state by pickling its attributes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from burraco.engine.actions import Action, Draw, Pickup
from burraco.engine.cards import CARD_FACE, FACE_POINTS, FACES, JOKER, face_str, free_card
from burraco.engine.deal import Deal, deal_from_order
from burraco.engine.events import Event
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.env import masks
from burraco.env.catalog import describe

PLAYER_COUNTS = (2, 4)
"""Fixed partnerships only: 3 and 5 players change sides mid-hand, 5 and 6 play three packs."""
MAX_MOVES = 5000
"""Player actions after which a hand that never ended stops with every return 0 (the research
environment's ``max_steps``; no preset's hand comes near: the stall rule ends them)."""
REWARD_SCALE = 1000.0
"""Returns are score leads over this, as the research environment's ``reward="score"``."""


def table_rules(players: int, preset: str) -> Rules:
    """The preset's rules at a table of ``players`` (2 or 4)."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"python_burraco is for 2 or 4 players, not {players!r}")
    return Rules.preset(preset).for_players(players)


def copies_of(rules: Rules) -> tuple[int, ...]:
    """Copies of each face in the deck."""
    packs = rules.packs
    return tuple((2 * packs if rules.jokers else 0) if f == JOKER else packs
                 for f in range(FACES))


def utility_bound(rules: Rules) -> float:
    """A bound on any return's size: every card's points, a burraco bonus for every seven
    cards, the closing bonus and the pozzetto penalty, over :data:`REWARD_SCALE`."""
    copies = copies_of(rules)
    points = sum(FACE_POINTS[f] * copies[f] for f in range(FACES))
    bonus = max([200, *(value for _, value in rules.bonuses)])
    cards = sum(copies)
    worst = points + (cards // 7) * bonus + rules.closing_bonus + rules.pozzetto_penalty
    return 2 * worst / REWARD_SCALE


@dataclass(slots=True)
class Step:
    """One player action as it happened: who, the id, what the engine reported, the face on
    top of the pile before it (-1: none), and the faces it took out of what the others knew
    the actor held (``known``: a play of a card taken with the pile)."""

    seat: int
    action: int
    events: tuple[Event, ...]
    top: int
    known: tuple[int, ...]
    texts: list[str | None] = field(default_factory=list)
    """Each seat's line for this step in its information state, made when first asked."""


class Table:
    """The hand: dealing by chance, then the engine's state, and the steps played."""

    __slots__ = ("_legal", "copies", "dealer", "history", "left", "max_moves", "moves", "order",
                 "players", "pos_of", "preset", "rules", "size", "state", "steps")

    def __init__(self, players: int, preset: str = "fibur", max_moves: int = MAX_MOVES) -> None:
        self.players = players
        self.preset = preset
        self.rules = table_rules(players, preset)
        self.max_moves = max_moves
        self.copies = copies_of(self.rules)
        self.size = sum(self.copies)
        self.left = list(self.copies)
        self.order: list[int] = []
        """Faces dealt so far, top of the deck first."""
        self.dealer = -1
        self.state: HandState | None = None
        self.pos_of: dict[int, int] = {}
        """Deck position of every physical card (set when the deal is complete)."""
        self.history: list[int] = []
        self.steps: list[Step] = []
        self.moves = 0
        self._legal: dict[int, Action] | None = None

    # --- copies --------------------------------------------------------------------------

    def clone(self) -> Table:
        other = Table.__new__(Table)
        other.players = self.players
        other.preset = self.preset
        other.rules = self.rules
        other.max_moves = self.max_moves
        other.copies = self.copies
        other.size = self.size
        other.left = self.left[:]
        other.order = self.order[:]
        other.dealer = self.dealer
        other.state = None if self.state is None else self.state.clone()
        other.pos_of = self.pos_of  # never changed once the deal is made
        other.history = self.history[:]
        other.steps = self.steps[:]  # steps are never changed, only added
        other.moves = self.moves
        other._legal = self._legal  # read-only; replaced, never changed, by an action
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        return (replayed, (self.players, self.preset, self.max_moves, tuple(self.history)))

    # --- where the hand is ---------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        return self.state is None

    @property
    def hand(self) -> HandState:
        """The engine's state (every card): for the rules and for oracles, never for a seat."""
        if self.state is None:
            raise ValueError("the cards are still being dealt")
        return self.state

    def is_terminal(self) -> bool:
        state = self.state
        return state is not None and (state.is_over or self.moves >= self.max_moves)

    def current_player(self) -> int:
        """The seat on turn; -1 at a chance node, -4 once the hand is over (OpenSpiel's ids)."""
        if self.state is None:
            return -1
        if self.is_terminal():
            return -4
        return self.state.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state is not None:
            raise ValueError("the deal is complete: no chance node")
        if self.dealer < 0:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        remaining = self.size - len(self.order)
        return [(f, n / remaining) for f, n in enumerate(self.left) if n]

    def legal_ids(self) -> dict[int, Action]:
        """The legal actions of the seat on turn by catalog id (empty at chance and the end)."""
        if self._legal is None:
            self._legal = {} if self.state is None or self.is_terminal() \
                else masks.legal_ids(self.state)
        return self._legal

    def action_text(self, player: int, action: int) -> str:
        """A player's catalog id as action text; a chance outcome as the dealer (before he is
        drawn) or the face dealt."""
        if player >= 0:
            return describe(action)
        if self.dealer < 0:
            return f"dealer {action}"
        return f"deal {face_str(action)}"

    # --- acting --------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        action = int(action)
        if self.state is None:
            self._deal(action)
        else:
            self._play(action)
        self.history.append(action)

    def _deal(self, outcome: int) -> None:
        if self.dealer < 0:
            if not 0 <= outcome < self.players:
                raise ValueError(f"no seat {outcome} to deal")
            self.dealer = outcome
            return
        if not 0 <= outcome < FACES or not self.left[outcome]:
            raise ValueError(f"no card of face {outcome} is left to deal")
        self.left[outcome] -= 1
        self.order.append(outcome)
        if len(self.order) == self.size:
            self._lay_out()

    def _lay_out(self) -> None:
        used: set[int] = set()
        cards: list[int] = []
        for face in self.order:
            card = free_card(face, used, self.rules.packs)
            if card is None:  # pragma: no cover - the chance outcomes never allow it
                raise AssertionError(f"no copy of face {face} left")
            used.add(card)
            cards.append(card)
        self.pos_of = {card: position for position, card in enumerate(cards)}
        deal = deal_from_order(cards, players=self.players, dealer=self.dealer, rules=self.rules)
        self.state = HandState.start(deal, self.rules)
        self._legal = None

    def _play(self, action: int) -> None:
        if self.is_terminal():
            raise ValueError("the hand is over")
        chosen = self.legal_ids().get(action)
        if chosen is None:
            raise ValueError(f"action {action} ({describe(action)}) is not legal now")
        state = self.state
        assert state is not None
        seat = state.turn
        top = CARD_FACE[state.pile[-1]] if state.pile else -1
        before = state.known[seat][:] if _plays(chosen) else None
        events = state.apply_in_place(chosen)
        known: tuple[int, ...] = ()
        if before is not None:
            left = state.known[seat][:]
            gone = []
            for face in before:
                if face in left:
                    left.remove(face)
                else:
                    gone.append(face)
            known = tuple(gone)
        self.steps.append(Step(seat, action, tuple(events), top, known))
        self.moves += 1
        self._legal = None

    # --- the end -------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Each seat's return: its side's hand score minus the other side's, over 1000 (0 before
        the end, for a hand the rules deal again, and for one stopped at ``max_moves``)."""
        state = self.state
        if state is None or not state.is_over:
            return [0.0] * self.players
        result = hand_result(state)
        if result.redeal:
            return [0.0] * self.players
        totals = result.totals  # by side: 0 and 1 (fixed partnerships)
        return [(totals[side] - totals[1 - side]) / REWARD_SCALE
                for side in (state.side_of[seat] for seat in range(self.players))]

    def __str__(self) -> str:
        """Every card, for debugging and for OpenSpiel's equality checks (never for a seat)."""
        if self.state is None:
            dealt = " ".join(face_str(f) for f in self.order)
            return f"dealer {self.dealer}; dealt {len(self.order)}/{self.size}: {dealt}"
        state = self.state
        lines = [f"dealer {self.dealer}; seat {state.turn} to {state.phase}; move {self.moves}"]
        for seat, cards in enumerate(state.hands):
            lines.append(f"hand {seat}: {_faces(cards)}"
                         + (f" | pending {_faces(state.pending[seat])}" if state.pending[seat]
                            else ""))
        for side, melds in enumerate(state.melds):
            lines.append(f"melds {side}: " + (" / ".join(str(m) for m in melds) or "-"))
        lines.append(f"pile: {_faces(state.pile)}")
        lines.append(f"stock: {_faces(state.stock[::-1])}")
        for pozzetto in state.pozzetti:
            lines.append(f"pozzetto: {_faces(pozzetto)}")
        lines.append(f"known: {state.known}; takers {state.pozzetto_taker}")
        if state.is_over:
            lines.append(f"over: {state.end_reason}; returns {self.returns()}")
        return "\n".join(lines)


def _plays(action: Action) -> bool:
    return not isinstance(action, Draw | Pickup)


def _faces(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(face_str(CARD_FACE[c]) for c in cards) or "-"


def replayed(players: int, preset: str, max_moves: int, history: tuple[int, ...]) -> Table:
    """The table after ``history`` (how a pickled table loads)."""
    table = Table(players, preset, max_moves)
    for action in history:
        table.apply(action)
    return table


def deck_layout(table: Table) -> Deal:
    """Where each deck position went in the deal: a :class:`Deal` of positions, not cards."""
    return deal_from_order(list(range(table.size)), players=table.players, dealer=table.dealer,
                           rules=table.rules)


__all__ = ["MAX_MOVES", "PLAYER_COUNTS", "REWARD_SCALE", "Step", "Table", "copies_of",
           "deck_layout", "replayed", "table_rules", "utility_bound"]
