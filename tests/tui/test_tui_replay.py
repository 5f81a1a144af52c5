"""A record stepped through forward and back, from every seat's view (docs/record-format.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from pilot import screen_text

from burraco.arena.runner import play_hand
from burraco.audit.faces import view_problems
from burraco.bots.base import make_bot
from burraco.engine.cards import CARD_FACE
from burraco.engine.deal import deal_seeded
from burraco.engine.records import record_of
from burraco.engine.state import HandState
from burraco.tui.app import BurracoApp
from burraco.tui.i18n import Words
from burraco.tui.keys import Settings
from burraco.tui.replay import ReplayDriver, load_record


def recorded_hand(tmp_path: Path) -> tuple[Path, HandState]:
    state = play_hand(HandState.start(deal_seeded(9, players=4)),
                      [make_bot("basic", seed=s) for s in range(4)])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record_of(state, seats=["Anna", "Bruno", "Carla", "Dario"])))
    return path, state


def test_a_record_forward_and_back(tmp_path: Path) -> None:
    path, final = recorded_hand(tmp_path)
    moves = final.moves()
    words = Words("en")
    driver = ReplayDriver(load_record(path), words=words, seat=0)
    app = BurracoApp(driver, words=words, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert f"move 0/{len(moves)}" in screen_text(app)
            await pilot.press("n", "n", "n")
            assert app.last.replay_at == (3, len(moves))
            assert "Anna" in screen_text(app) and f"move 3/{len(moves)}" in screen_text(app)
            state = driver.states[3]
            assert sorted(CARD_FACE[c] for c in app.last.hand) == sorted(
                CARD_FACE[c] for c in state.hands[0])
            assert not view_problems(state, 0)
            await pilot.press("b")
            assert app.last.replay_at == (2, len(moves))
            await pilot.press("tab")  # Bruno's view: his cards, none of Anna's
            assert app.last.seat == 1
            assert sorted(CARD_FACE[c] for c in app.last.hand) == sorted(
                CARD_FACE[c] for c in driver.states[2].hands[1])
            assert not view_problems(driver.states[2], 1)
            await pilot.press("end", "n")
            assert app.last.replay_at == (len(moves), len(moves))
            assert app.last.status == "over"
            text = screen_text(app)
            assert "Hand over" in text and "melds" in text  # the score sheet (RULES.md §9)
            assert "d draw" not in text
            assert all(key in text for key in ("n next", "b back", "end last move", "tab seat"))
            assert "end end" not in text
            await pilot.press("home")
            assert app.last.replay_at == (0, len(moves))
            await pilot.press("q")  # no question in a replay
        assert app.return_code == 0

    asyncio.run(main())


def test_a_record_with_an_illegal_move_stops_there_with_the_reason(tmp_path: Path) -> None:
    path, _ = recorded_hand(tmp_path)
    data = json.loads(path.read_text())
    data["moves"] = [*data["moves"][:2], "discard JK", *data["moves"][3:]]
    driver = ReplayDriver(data, words=Words("en"))
    assert driver.moves == 2
    assert driver.error is not None and "move 3 'discard JK'" in driver.error.reason
