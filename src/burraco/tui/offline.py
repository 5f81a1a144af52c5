"""Offline play: you at seat 0, bots at the others, the engine in this process.

The screen gets ``view(state, 0)`` and, on your turn, the legal actions; the
bots get their own views, exactly as ``burraco play`` gives them.  Bots move
on the event loop after a short pause so a person can follow them, and think
in a worker thread so the screen never freezes.  The table is casual: an undo
rebuilds the hand from its deal and all moves but the last (a play that took
the pozzetto in diretta cannot be undone: its cards have been seen).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path

from burraco.bots.base import Bot, make_bot
from burraco.engine.actions import Action, ActionParseError, Attach, NewMeld, parse_action
from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.match import FreePlayMatch
from burraco.engine.records import record_of
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState, IllegalActionError
from burraco.engine.views import view
from burraco.tui.driver import Notify
from burraco.tui.i18n import Words
from burraco.tui.model import Refusal, SideResult, Table, from_view

ME = 0


def score_names(words: Words, players: int) -> tuple[str, ...]:
    """Who keeps a score: each side (a seat alone at 3 and 5 players)."""
    names = [words.seat_name(s, players) for s in range(players)]
    names[ME] = words("you")
    if players in (3, 5):
        return tuple(names)
    sides = 2 if players in (2, 4) else 3
    return tuple("+".join(names[s] for s in range(side, players, sides)) for side in range(sides))


class OfflineDriver:
    """A match against bots in-process (free play to the rules' target)."""

    def __init__(self, *, players: int = 4, bots: list[str] | None = None,
                 rules: Rules | None = None, seed: int | None = None, words: Words,
                 bot_delay: float = 0.6, save_dir: Path | None = None) -> None:
        if players not in (2, 3, 4, 5, 6):
            raise ValueError(f"--players: 2 to 6, not {players}")
        levels = bots or ["advanced"]
        if len(levels) == 1:
            levels = levels * (players - 1)
        if len(levels) != players - 1:
            raise ValueError(
                f"--bots: give one level, or {players - 1} (one per other seat), "
                f"not {len(levels)}")
        self.rules = (rules or Rules.preset("fibur")).for_players(players)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.bots: list[Bot | None] = [None] + [
            make_bot(level, seed=self.seed + seat, rules=self.rules)
            for seat, level in enumerate(levels, start=1)]
        self.levels = ["", *levels]
        self.players = players
        self.words = words
        self.bot_delay = bot_delay
        self.save_dir = save_dir
        self.saved: list[Path] = []
        self.match = FreePlayMatch(players=players, rules=self.rules)
        self.number = 0
        self.state = self._deal()
        self.refusal: Refusal | None = None
        self.result: tuple[SideResult, ...] = ()
        self.redeal = False
        self._notify: Notify = lambda: None
        self._bot_task: asyncio.Task[None] | None = None
        self._closed = False

    # --- the table as seat 0 sees it ------------------------------------------------------

    def names(self) -> tuple[str, ...]:
        names = []
        for seat in range(self.players):
            if seat == ME:
                names.append(self.words("you"))
            else:
                names.append(f"{self.words.seat_name(seat, self.players)} "
                             f"({self.words.level(self.levels[seat].partition(':')[0])})")
        return tuple(names)

    def table(self) -> Table:
        state = self.state
        legal: tuple[str, ...] = ()
        if not state.is_over and state.turn == ME:
            legal = tuple(str(a) for a in legal_actions(state))
        table = from_view(view(state, ME), kind="offline", rules=self.rules, names=self.names(),
                          legal=legal)
        status = table.status
        if self.match.finished:
            status = "finished"
        return table.with_(
            status=status, hand_number=self.number, refusal=self.refusal,
            can_undo=self._undoable() is None, score_names=score_names(self.words, self.players),
            scores=self.match.scores, target=self.match.target, result=self.result,
            redeal=self.redeal, winner=self.match.winner, match_over=self.match.finished,
            extra={"seed": self.seed, "saved": str(self.saved[-1]) if self.saved else ""})

    # --- the flow of the match --------------------------------------------------------------

    def _deal(self) -> HandState:
        self.number += 1
        deal = deal_seeded(self.seed + 1000 * self.number, players=self.players,
                           dealer=self.match.dealer, rules=self.rules,
                           individual=self.match.individual)
        return HandState.start(deal, self.rules)

    async def start(self, notify: Notify) -> None:
        self._notify = notify
        self._wake_bots()
        notify()

    def _wake_bots(self) -> None:
        if self._closed or self.state.is_over or self.state.turn == ME:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._bots_play())
            self._bot_task.add_done_callback(self._bots_stopped)

    def _bots_stopped(self, task: asyncio.Task[None]) -> None:
        """A bot that fails is a defect: say so on the screen instead of freezing silently."""
        if task.cancelled() or task.exception() is None:
            return
        self.refusal = Refusal("internal_error", f"a bot failed: {task.exception()!r}")
        self._notify()

    async def _bots_play(self) -> None:
        while not self._closed and not self.state.is_over and self.state.turn != ME:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state = self.state
            seat = state.turn
            bot = self.bots[seat]
            assert bot is not None
            legal = legal_actions(state)
            seen = view(state, seat)
            action = await asyncio.to_thread(bot.act, seen, legal)
            if action not in legal:
                raise RuntimeError(f"bot at seat {seat} chose an illegal {action}")
            if self.state is not state:  # the table moved on meanwhile (never, but be safe)
                continue
            self.state.apply_in_place(action)
            self._after_move()
            self._notify()

    def _after_move(self) -> None:
        if not self.state.is_over:
            return
        result = hand_result(self.state)
        self.result = tuple(
            SideResult(seats=seats, melds=s.melds, bonuses=s.bonuses, closing=s.closing,
                       pozzetto=s.pozzetto, hand=s.hand, total=s.total)
            for seats, s in zip(result.side_seats, result.sides, strict=True))
        self.redeal = result.redeal
        if self.save_dir is not None:
            self._save()
        if not result.redeal:
            per_seat = self.players in (3, 5)
            self.match = self.match.record_hand(
                result.seat_totals if per_seat else result.totals)

    def _save(self) -> None:
        """Write the finished hand's record, for `burraco tui --replay` and `burraco replay`."""
        assert self.save_dir is not None
        path = self.save_dir / f"burraco-{self.seed}-hand-{self.number}.json"
        try:
            self.save_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record_of(self.state, seats=list(self.names()))),
                            encoding="utf-8")
        except OSError as exc:
            self.refusal = Refusal("storage_error", f"{path}: {exc}")
            return
        self.saved.append(path)

    async def act(self, action: str) -> None:
        self.refusal = None
        state = self.state
        if state.is_over:
            self.refusal = Refusal("not_playing", self.words("hand_over"))
        elif state.turn != ME:
            self.refusal = Refusal("not_your_turn", self.words("not_your_turn"))
        else:
            try:
                state.apply_in_place(parse_action(action))
            except ActionParseError as exc:
                self.refusal = Refusal("bad_action", str(exc))
            except IllegalActionError as exc:
                self.refusal = Refusal("illegal_action", str(exc))
            else:
                self._after_move()
                self._wake_bots()
        self._notify()

    def _undoable(self) -> str | None:
        """Why an undo is refused now, or None when it may be done."""
        state = self.state
        if state.is_over or state.turn != ME or state.phase != "play":
            return "you have not drawn yet"
        moves = state.moves()
        if not moves or not isinstance(moves[-1], NewMeld | Attach):
            return "no meld or attachment of yours since the draw"
        before = self._rebuilt(moves[:-1])
        if before.pozzetto_taker != state.pozzetto_taker:
            return "that play took the pozzetto, whose cards have been seen"
        return None

    def _rebuilt(self, moves: Sequence[Action]) -> HandState:
        state = HandState.start(self.state.deal, self.rules)
        for move in moves:
            state.apply_in_place(move)
        return state

    async def undo(self) -> None:
        why = self._undoable()
        if why is not None:
            code = "nothing_to_undo" if "pozzetto" not in why else "undo_not_allowed"
            self.refusal = Refusal(code, why)
        else:
            self.refusal = None
            self.state = self._rebuilt(self.state.moves()[:-1])
        self._notify()

    async def forward(self) -> None:
        if not self.state.is_over or self.match.finished:
            return
        self.result = ()
        self.redeal = False
        self.refusal = None
        self.state = self._deal()
        self._wake_bots()
        self._notify()

    async def back(self) -> None:
        return None

    async def switch_seat(self) -> None:
        return None

    async def jump(self, at: int) -> None:
        return None

    async def close(self) -> None:
        self._closed = True
        if self._bot_task is not None:
            self._bot_task.cancel()
