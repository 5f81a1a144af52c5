"""A record (docs/record-format.md) move by move, forward and back, seen from any seat.

Every state of the hand is rebuilt once by the engine from the deal and the
moves; the screen shows ``view(state, seat)`` of the seat chosen (tab cycles
through the seats and a spectator), so stepping back and forth is instant.
A record that breaks a rule is shown up to the last legal move, with the
engine's reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from burraco.engine.actions import ActionParseError, parse_action
from burraco.engine.records import RecordError, moves_from_record, rules_from_record, start_state
from burraco.engine.result import hand_result
from burraco.engine.state import HandState, IllegalActionError
from burraco.engine.views import view
from burraco.tui.driver import Notify
from burraco.tui.i18n import Words
from burraco.tui.model import Refusal, SideResult, Table, from_view


def load_record(path: Path) -> dict[str, Any]:
    """The record's JSON, or a :class:`RecordError` naming the file and what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]  # one hand of GET /api/tables/{id}/hands
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return data


class ReplayDriver:
    def __init__(self, data: dict[str, Any], *, words: Words, seat: int | None = 0) -> None:
        self.words = words
        self.rules = rules_from_record(data)
        state = start_state(data)
        self.players = state.players
        self.states: list[HandState] = [state.clone()]
        self.error: Refusal | None = None
        for index, text in enumerate(moves_from_record(data)):
            try:
                state.apply_in_place(parse_action(text))
            except (ActionParseError, IllegalActionError) as exc:
                self.error = Refusal("illegal_action", f"move {index + 1} {text!r}: {exc}")
                break
            self.states.append(state.clone())
        seats = data.get("seats")
        self.seat_names = tuple(str(s) for s in seats) if isinstance(seats, list) and len(
            seats) == self.players else tuple(
            words.seat_name(s, self.players) for s in range(self.players))
        self.at = 0
        self.seat = seat if seat is None or 0 <= seat < self.players else 0
        self._notify: Notify = lambda: None

    @property
    def moves(self) -> int:
        return len(self.states) - 1

    def table(self) -> Table:
        state = self.states[self.at]
        table = from_view(view(state, self.seat), kind="replay", rules=self.rules,
                          names=self.seat_names)
        result: tuple[SideResult, ...] = ()
        if state.is_over:
            r = hand_result(state)
            result = tuple(SideResult(seats=seats, melds=s.melds, bonuses=s.bonuses,
                                      closing=s.closing, pozzetto=s.pozzetto, hand=s.hand,
                                      total=s.total)
                           for seats, s in zip(r.side_seats, r.sides, strict=True))
        refusal = self.error if self.at == self.moves else None
        return table.with_(replay_at=(self.at, self.moves), result=result, refusal=refusal,
                           score_names=(), scores=())

    async def start(self, notify: Notify) -> None:
        self._notify = notify
        notify()

    async def act(self, action: str) -> None:
        return None

    async def undo(self) -> None:
        return None

    async def forward(self) -> None:
        self.at = min(self.moves, self.at + 1)
        self._notify()

    async def back(self) -> None:
        self.at = max(0, self.at - 1)
        self._notify()

    async def jump(self, at: int) -> None:
        self.at = max(0, min(self.moves, at))
        self._notify()

    async def switch_seat(self) -> None:
        order: list[int | None] = [*range(self.players), None]
        self.seat = order[(order.index(self.seat) + 1) % len(order)]
        self._notify()

    async def close(self) -> None:
        return None

