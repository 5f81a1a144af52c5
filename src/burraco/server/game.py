"""A table's game as a pure value: the match lifecycle on top of ``HandState``.

:class:`Game` holds the match, the hand in play and who holds each seat.  Its
methods never change it: each returns a :class:`Step` with the next game and
the :class:`TableEvent` list that led there, or raises :class:`GameError`
with a stable code and the engine's reason.  The table actor stores a step's
events before it adopts the step, so a failed write leaves the game as it was;
recovery replays the stored commands through the same methods, taking each
hand's deck from the database instead of the shuffler (:data:`DealSource`).

A table of a deal group (``grouped``: duplicate play) is dealt by
:func:`group_deal` and keeps each hand's reveal back (``held``) when the hand
ends: other tables of the group may still be playing those cards.  The hub
releases it later with :meth:`Game.reveal`, a ``DealRevealed`` event.

Events carry everything (the dealt hands too); ``projection`` decides what each
seat may see of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from burraco.engine.actions import Action, Attach, CallTime, Discard, Draw, NewMeld, Pickup
from burraco.engine.deal import deal_from_order
from burraco.engine.events import event_to_dict
from burraco.engine.legal import legal_actions
from burraco.engine.match import FreePlayMatch, TournamentMatch, scorers
from burraco.engine.records import record_of
from burraco.engine.result import HandResult, hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import PLAY_PHASE, HandState, IllegalActionError
from burraco.engine.vp import vp_table
from burraco.server.commitment import DealSecret
from burraco.server.rules_bounds import deal_cut
from burraco.server.table_config import TableConfig

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"

DealSource = Callable[[int, Rules, int], DealSecret]
"""``(hand number, rules, cut) -> DealSecret``: the shuffler live, the database in recovery."""


def fresh_deal(number: int, rules: Rules, cut: int) -> DealSecret:
    """The live deal source: a CSPRNG order and salt for every hand."""
    del number
    return DealSecret.fresh(rules=rules, cut=cut)


def group_deal(group_secret: bytes) -> DealSource:
    """The deal source of a deal group's tables: hand n's order from the group's secret."""
    def deal(number: int, rules: Rules, cut: int) -> DealSecret:
        return DealSecret.grouped(group_secret, number, rules=rules, cut=cut)

    return deal


class GameError(Exception):
    """A command cannot be applied; ``code`` is stable (docs/protocol.md), ``reason`` human."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class TableEvent:
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Holder:
    guest_id: str
    nickname: str
    arrived: bool = True
    """The holder has come to the table once (a connection of theirs joined).  A seat taken
    for its creator when the table is made is not: the match waits for them (a stand-in
    never plays a match for someone who never sat down)."""


# --- the match ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TableMatch:
    """Free play to a target, or a fixed number of smazzate (VP when a table exists, §11.2).

    Scores are per side, or per seat at 3 and 5 players (``burraco.engine.match.scorers``).
    """

    mode: str
    players: int
    rules: Rules
    target: int | None
    smazzate: int | None
    hands: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def new(cls, config: TableConfig, rules: Rules) -> TableMatch:
        match = cls(config.mode, config.players, rules, config.target, config.smazzate)
        match._free()  # raises ValueError for settings the engine's matches refuse
        match._engine()
        return match

    def _free(self) -> FreePlayMatch:
        return FreePlayMatch(self.players, self.rules, self.hands)

    def _engine(self) -> FreePlayMatch | TournamentMatch | None:
        if self.mode == "free":
            return self._free()
        if self.players in (2, 4) and self._has_vp_table():
            assert self.smazzate is not None
            return TournamentMatch(self.smazzate, self.rules, self.hands, self.players)
        return None

    def _has_vp_table(self) -> bool:
        try:
            vp_table(self.smazzate or 0, self.rules)
        except (ValueError, KeyError):
            return False
        return True

    @property
    def per_seat(self) -> bool:
        """3 and 5 players keep a score per seat (§13.2–13.3); the others per side."""
        return scorers(self.players) == self.players and self.players > 2

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(sum(h[k] for h in self.hands) for k in range(scorers(self.players)))

    @property
    def dealer(self) -> int:
        return self._free().dealer

    @property
    def individual(self) -> bool:
        """3 and 5 players: the next hand is dealt with everyone alone (§13.2–13.3)."""
        return self._free().individual

    @property
    def finished(self) -> bool:
        engine = self._engine()
        if engine is not None:
            return engine.finished
        return len(self.hands) == self.smazzate

    @property
    def winner(self) -> int | None:
        """Side (or seat, per ``per_seat``) that won once finished; ``None``: not yet, or a tie."""
        engine = self._engine()
        if isinstance(engine, FreePlayMatch):
            return engine.winner
        if not self.finished:
            return None
        points = engine.vp if isinstance(engine, TournamentMatch) else self.scores
        best = max(points)
        return points.index(best) if points.count(best) == 1 else None

    @property
    def vp(self) -> tuple[int, ...] | None:
        engine = self._engine()
        return engine.vp if isinstance(engine, TournamentMatch) else None

    def record_hand(self, result: HandResult) -> TableMatch:
        totals = result.seat_totals if self.per_seat else result.totals
        return replace(self, hands=(*self.hands, tuple(totals)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "target": self.target, "smazzate": self.smazzate,
            "hands": [list(h) for h in self.hands], "scores": list(self.scores),
            "vp": list(self.vp) if self.vp is not None else None,
            "finished": self.finished, "winner": self.winner,
        }


# --- the game ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Step:
    game: Game
    events: list[TableEvent]
    started: tuple[int, DealSecret, int, bool] | None = None
    """A hand begun in this step: (number, its secret deal, its dealer, dealt individual)."""
    ended: tuple[int, dict[str, Any], dict[str, Any]] | None = None
    """A hand finished in this step: (number, result, record)."""
    revealed: int | None = None
    """A held hand whose reveal this step published (deal groups)."""
    final: HandState | None = None
    """The hand as its last action left it, when the step ended it (the next deal replaces it
    in ``game``): what the protocol's event deltas show before the next hand's."""


@dataclass(frozen=True, slots=True)
class Game:
    """A table's game.  ``hand`` is never changed in place: every step clones it."""

    config: TableConfig
    rules: Rules
    match: TableMatch
    status: str = WAITING
    holders: tuple[Holder | None, ...] = ()
    hand_no: int = 0
    hand: HandState | None = None
    secret: DealSecret | None = None
    version: int = 0
    grouped: bool = False
    """The table belongs to a deal group: the reveal of a hand that ends is held back."""
    held: tuple[int, ...] = ()
    """Hands over whose reveal is held until the group's other tables have played them."""
    hints: tuple[int, ...] = ()
    """Hints given to each seat in the match so far (casual tables; empty: none yet)."""
    hand_hints: tuple[tuple[int, int, str], ...] = ()
    """The hints of the hand being played: (seat, moves played before it, the action)."""

    @classmethod
    def new(cls, config: TableConfig, *, grouped: bool = False) -> Game:
        rules = config.rules_value()
        return cls(config, rules, TableMatch.new(config, rules),
                   holders=(None,) * config.players, grouped=grouped)

    # --- queries ------------------------------------------------------------------------------

    def may_start(self) -> bool:
        """Every human seat is held, and each holder has come to the table once."""
        return all(h is not None and h.arrived for s, h in enumerate(self.holders)
                   if not self.config.is_bot(s))

    def awaited(self) -> list[int]:
        """The held human seats whose holder has not come to the table yet."""
        return [s for s, h in enumerate(self.holders) if h is not None and not h.arrived]

    @property
    def turn(self) -> int | None:
        """Seat to act, or ``None`` when nobody may (waiting, between or after hands)."""
        if self.status != PLAYING or self.hand is None or self.hand.is_over:
            return None
        return self.hand.turn

    def turn_key(self) -> tuple[int, int] | None:
        """Identifies the current turn: (hand, discards so far); ``None`` when nobody is on turn."""
        if self.turn is None or self.hand is None:
            return None
        return (self.hand_no, sum(1 for m in self.hand.moves() if isinstance(m, Discard)))

    def may_undo(self, seat: int) -> bool:
        """Would :meth:`undo` take back the seat's last play? Sent with every ``legal`` frame.

        Cheap: the hand is replayed only when the seat holds exactly a pozzetto's cards, the
        one case where the last play may have taken the pozzetto (which is never undone).
        """
        hand = self.hand
        if not self.config.casual or hand is None or self.turn != seat or hand.history is None:
            return False
        if hand.phase != PLAY_PHASE or not isinstance(hand.history[0], NewMeld | Attach):
            return False
        held = sorted(hand.hands[seat])
        if not any(held == sorted(p) for p in hand.deal.pozzetti):
            return True
        return _before_last_move(hand).pozzetto_taker == hand.pozzetto_taker

    def undoable(self, seat: int) -> list[Action]:
        """The seat's melds and attachments since its draw, oldest first."""
        hand = self.hand
        if hand is None or self.turn != seat or hand.phase != PLAY_PHASE:
            return []
        moves = hand.moves()
        return [m for m in moves[_last_draw(moves) + 1:] if isinstance(m, NewMeld | Attach)]

    def trial_deal(self, deal: DealSource) -> None:
        """Deal a first hand and drop it: raises for settings the engine cannot play."""
        self._deal_next([], deal, None)

    # --- commands -----------------------------------------------------------------------------

    def open(self, deal: DealSource) -> Step:
        """Version 1: the table exists; play starts at once if no human seat is open."""
        events = [TableEvent("TableOpened", {"config": self.config.to_dict()})]
        game = replace(self, version=self.version + 1)
        if game.may_start():
            return game._start_match(events, deal)
        return Step(game, events)

    def claim(self, seat: int, guest_id: str, nickname: str, deal: DealSource, *,
              arrived: bool = True) -> Step:
        """``guest_id`` takes ``seat``; ``arrived=False``: taken for them (the creator's seat at
        creation), the match waiting until they come (:meth:`arrive`)."""
        if not 0 <= seat < self.config.players:
            raise GameError("no_such_seat", f"no seat {seat} at a table of {self.config.players}")
        if self.config.is_bot(seat):
            raise GameError("bot_seat", f"seat {seat} is played by a bot")
        holder = self.holders[seat]
        if holder is not None:
            code = "already_holder" if holder.guest_id == guest_id else "seat_taken"
            raise GameError(code, f"seat {seat} is held by {holder.nickname}")
        holders = list(self.holders)
        holders[seat] = Holder(guest_id, nickname, arrived)
        game = replace(self, holders=tuple(holders), version=self.version + 1)
        events = [TableEvent("SeatTaken", {"seat": seat, "nickname": nickname})]
        if game.status == WAITING and game.may_start():
            return game._start_match(events, deal)
        return Step(game, events)

    def arrive(self, seat: int, deal: DealSource) -> Step:
        """The holder of ``seat``, whose seat was taken for them, came to the table: the match
        starts if they were the last one awaited."""
        holder = self.holders[seat] if 0 <= seat < len(self.holders) else None
        if holder is None or holder.arrived:
            raise GameError("not_awaited", f"seat {seat} is not waiting for its holder")
        holders = list(self.holders)
        holders[seat] = replace(holder, arrived=True)
        game = replace(self, holders=tuple(holders), version=self.version + 1)
        events = [TableEvent("SeatTaken", {"seat": seat, "nickname": holder.nickname})]
        if game.status == WAITING and game.may_start():
            return game._start_match(events, deal)
        return Step(game, events)

    def act(self, seat: int, action: Action, deal: DealSource) -> Step:
        hand = self._hand_for(seat)
        if isinstance(action, CallTime):
            raise GameError("forbidden_action", "time is called by the referee, not a player")
        try:
            after, engine_events = hand.apply(action)
        except IllegalActionError as exc:
            raise GameError("illegal_action", str(exc)) from None
        events = [TableEvent(type(e).__name__, engine_payload(e)) for e in engine_events]
        game = replace(self, hand=after, version=self.version + len(events))
        if after.is_over:
            return game._end_hand(events, deal)
        return Step(game, events)

    def time_out(self, seat: int, action: Action, deal: DealSource) -> Step:
        """The turn clock of ``seat`` ran out: a ``TimedOut`` event says so, then the server's
        move for the seat (``action``, the clock's choice) follows as if played."""
        if self.hand is None or self.hand.turn != seat:
            raise GameError("not_your_turn", f"seat {seat} is not on turn")
        marked = replace(self, version=self.version + 1)
        step = marked.act(seat, action, deal)
        return replace(step, events=[TableEvent("TimedOut", {"seat": seat}), *step.events])

    def may_hint(self, seat: int) -> HandState:
        """The hand a hint for ``seat`` would be thought on; :class:`GameError` when none may be
        given now (not a casual table, not the seat's turn, this position's hint given)."""
        if not self.config.casual:
            raise GameError("hint_not_allowed", "hints are given at casual tables only")
        hand = self._hand_for(seat)
        moves = len(hand.moves())
        for given in self.hand_hints:
            if given[0] == seat and given[1] == moves:
                raise GameError("hint_given", f"the hint for this position: {given[2]}")
        return hand

    def hint(self, seat: int, action: Action) -> Step:
        """A hint for ``seat``'s turn at a casual table: ``action``, the expert's choice from the
        seat's view.  Counted for the match and written into the hand's record."""
        hand = self.may_hint(seat)
        moves = len(hand.moves())
        if action not in legal_actions(hand):
            raise GameError("illegal_action", f"{action} is not legal now")
        counts = list(self.hints or (0,) * self.config.players)
        counts[seat] += 1
        game = replace(self, hints=tuple(counts), version=self.version + 1,
                       hand_hints=(*self.hand_hints, (seat, moves, str(action))))
        return Step(game, [TableEvent("HintGiven", {"seat": seat, "action": str(action),
                                                     "count": counts[seat]})])

    def undo(self, seat: int) -> Step:
        """Take back the seat's last meld or attachment since its draw (casual tables)."""
        if not self.config.casual:
            raise GameError("undo_not_allowed", "undo is not allowed at tournament tables")
        hand = self._hand_for(seat)
        if hand.phase != PLAY_PHASE:
            raise GameError("nothing_to_undo", "you have not drawn yet")
        moves = hand.moves()
        if not self.undoable(seat) or not isinstance(moves[-1], NewMeld | Attach):
            raise GameError("nothing_to_undo", "no meld or attachment of yours since the draw")
        before = _before_last_move(hand)
        if before.pozzetto_taker != hand.pozzetto_taker:
            raise GameError("undo_not_allowed",
                            "that play took the pozzetto, whose cards have been seen")
        side = hand.side_of[seat]
        payload = {
            "seat": seat, "side": side, "action": str(moves[-1]),
            "melds": [str(m) for m in before.melds[side]],
            "meld_ids": [list(m.cards) for m in before.melds[side]],
            "hand": list(before.hands[seat]),
            "hand_counts": [len(h) + len(p) for h, p in zip(before.hands, before.pending,
                                                               strict=True)],
        }
        return Step(replace(self, hand=before, version=self.version + 1),
                    [TableEvent("Undone", payload)])

    def reveal(self, number: int, reveal: dict[str, Any]) -> Step:
        """Publish the held reveal of hand ``number`` (every table of the group has played it)."""
        if number not in self.held:
            raise GameError("not_held", f"hand {number}'s reveal is not held at this table")
        held = tuple(n for n in self.held if n != number)
        return Step(replace(self, held=held, version=self.version + 1),
                    [TableEvent("DealRevealed", {"number": number, "reveal": reveal})],
                    revealed=number)

    # --- lifecycle ----------------------------------------------------------------------------

    def _hand_for(self, seat: int) -> HandState:
        if self.status != PLAYING or self.hand is None or self.hand.is_over:
            raise GameError("not_playing", "no hand is being played at this table")
        if not 0 <= seat < self.config.players:
            raise GameError("no_such_seat", f"no seat {seat} at a table of {self.config.players}")
        if seat != self.hand.turn:
            raise GameError("not_your_turn", f"it is seat {self.hand.turn}'s turn, not {seat}'s")
        return self.hand

    def _start_match(self, events: list[TableEvent], deal: DealSource) -> Step:
        game = replace(self, status=PLAYING)
        return game._deal_next(events, deal, None)

    def _deal_next(self, events: list[TableEvent], deal: DealSource,
                   ended: tuple[int, dict[str, Any], dict[str, Any]] | None) -> Step:
        number = self.hand_no + 1
        players, dealer, individual = self.config.players, self.match.dealer, \
            self.match.individual
        secret = deal(number, self.rules, deal_cut(players, self.rules, individual))
        dealt = deal_from_order(list(secret.order), players=players, dealer=dealer,
                                rules=self.rules, cut=secret.cut, individual=individual)
        hand = HandState.start(dealt, self.rules)
        payload = {
            "number": number, "dealer": dealer, "turn": hand.turn,
            "commitment": secret.commitment,
            "hands": [list(h) for h in dealt.hands], "pile": list(dealt.pile),
            "stock_count": len(dealt.stock), "pozzetti": [len(p) for p in dealt.pozzetti],
            "side_of": list(hand.side_of), "individual": individual,
            "scores": list(self.match.scores),
        }
        events = [*events, TableEvent("HandStarted", payload)]
        game = replace(self, hand_no=number, hand=hand, secret=secret,
                       version=self.version + 1)
        return Step(game, events, started=(number, secret, dealer, individual), ended=ended)

    def _end_hand(self, events: list[TableEvent], deal: DealSource) -> Step:
        assert self.hand is not None and self.secret is not None
        result = hand_result(self.hand)
        match = self.match if result.redeal else self.match.record_hand(result)
        record = record_of(self.hand, seats=self._seat_names())
        reveal = {**self.secret.reveal(), "players": self.config.players,
                  "dealer": self.hand.dealer, "individual": self.hand.deal.individual}
        record["commitment"] = reveal
        if self.hand_hints:  # the moves asked about: the record shows where hints were taken
            record["hints"] = [{"seat": s, "move": m, "action": a} for s, m, a in self.hand_hints]
        payload = {
            "number": self.hand_no, "result": result.to_dict(), "totals": list(result.totals),
            "redeal": result.redeal, "scores": list(match.scores), "reveal": reveal,
        }
        held = self.held
        if self.grouped:  # the deck is the group's: shown once every table has played it
            payload["reveal"] = None
            payload["reveal_held"] = True
            held = (*held, self.hand_no)
        events = [*events, TableEvent("HandEnded", payload)]
        game = replace(self, match=match, held=held, version=self.version + 1, hand_hints=())
        ended = (self.hand_no, result.to_dict(), record)
        if match.finished:
            over = {"winner": match.winner, "scores": list(match.scores),
                    "vp": list(match.vp) if match.vp is not None else None,
                    "hands": len(match.hands)}
            if any(self.hints):
                over["hints"] = list(self.hints)
            events.append(TableEvent("MatchOver", over))
            return Step(replace(game, status=FINISHED, version=game.version + 1), events,
                        ended=ended, final=self.hand)
        return replace(game._deal_next(events, deal, ended), final=self.hand)

    def _seat_names(self) -> list[str]:
        names = []
        for seat, holder in enumerate(self.holders):
            spec = self.config.seats[seat]
            names.append(f"bot:{spec.level}" if spec.kind == "bot" else
                         holder.nickname if holder else f"seat {seat}")
        return names

    # --- snapshots ----------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """What recovery needs besides the current hand's deal and later commands."""
        snap = {
            "status": self.status, "hand_no": self.hand_no, "version": self.version,
            "hands": [list(h) for h in self.match.hands],
            "holders": [[h.guest_id, h.nickname] if h else None for h in self.holders],
        }
        if self.grouped:
            snap["held"] = list(self.held)
        if any(self.hints):
            snap["hints"] = list(self.hints)
        return snap

    @classmethod
    def from_snapshot(cls, config: TableConfig, snap: dict[str, Any],
                      secret: DealSecret | None, *, grouped: bool = False) -> Game:
        """The game at a snapshot; ``secret`` is the deal of hand ``snap['hand_no']``."""
        game = cls.new(config, grouped=grouped)
        match = replace(game.match, hands=tuple((a, b) for a, b in snap["hands"]))
        holders = tuple(Holder(h[0], h[1]) if h else None for h in snap["holders"])
        hand = None
        if secret is not None and snap["hand_no"] > 0 and snap["status"] == PLAYING:
            dealt = deal_from_order(list(secret.order), players=config.players,
                                    dealer=match.dealer, rules=game.rules, cut=secret.cut,
                                    individual=match.individual)
            hand = HandState.start(dealt, game.rules)
        return replace(game, match=match, status=snap["status"], holders=holders,
                       hand_no=snap["hand_no"], hand=hand, secret=secret,
                       version=snap["version"], held=tuple(snap.get("held", ())),
                       hints=tuple(snap.get("hints", ())))


def _before_last_move(hand: HandState) -> HandState:
    """The hand as it was before its last move, replayed from the deal."""
    before = HandState.start(hand.deal, hand.rules)
    for move in hand.moves()[:-1]:
        before.apply_in_place(move)
    return before


def _last_draw(moves: list[Action]) -> int:
    for index in range(len(moves) - 1, -1, -1):
        if isinstance(moves[index], Draw | Pickup):
            return index
    return -1


ONE_SEAT = ("you hold another seat of this rated table: a person plays one seat of a rated "
            "match")


def holds_another_seat(holders: tuple[Holder | None, ...], seat: int | None,
                       guest_id: str) -> bool:
    """Does ``guest_id`` hold a seat of the table other than ``seat``?"""
    return any(h is not None and h.guest_id == guest_id
               for s, h in enumerate(holders) if s != seat)


def engine_payload(event: Any) -> dict[str, Any]:
    """An engine event as stored: its fields, physical ids and all (never sent as is)."""
    data = event_to_dict(event)
    del data["type"]
    return data
