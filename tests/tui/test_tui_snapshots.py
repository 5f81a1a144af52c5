"""The screen at 80×24 and 120×40, compared with stored text snapshots.

Text, not SVG: the characters a terminal shows do not depend on fonts or on the
machine, so the comparison cannot flake; colour is not needed to read the table
(the cursor is reversed, a selection bracketed).  The deals are seeded and the
bots seeded, so the screens are exact.  After a deliberate change of the screen,
``BURRACO_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_tui_snapshots.py`` rewrites them.
"""

from __future__ import annotations

import asyncio
import difflib
import os
from pathlib import Path

import pytest
from pilot import choose, play_by_keys, screen_text, wait_for

from burraco.tui.app import BurracoApp
from burraco.tui.i18n import Words
from burraco.tui.keys import Settings
from burraco.tui.offline import OfflineDriver

SNAPSHOTS = Path(__file__).with_name("snapshots")


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("BURRACO_UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        if not os.environ.get("BURRACO_UPDATE_SNAPSHOTS"):
            pytest.fail(f"{path.name} did not exist: written, check it and commit it")
        return
    stored = path.read_text(encoding="utf-8").rstrip("\n")
    if stored != text:
        diff = "\n".join(difflib.unified_diff(stored.splitlines(), text.splitlines(),
                                              "stored", "now", lineterm=""))
        pytest.fail(f"the screen differs from {path.name}:\n{diff}")


async def screen_after(size: tuple[int, int], turns: int, *, lang: str = "en",
                       players: int = 4) -> str:
    words = Words(lang)
    driver = OfflineDriver(players=players, bots=["basic"], seed=42, words=words, bot_delay=0)
    app = BurracoApp(driver, words=words, settings=Settings())
    async with app.run_test(size=size) as pilot:
        played = 0
        while True:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            if played == turns:
                break
            action = choose(app.last.legal)
            if action.startswith("discard"):
                played += 1
            await play_by_keys(pilot, app, action)
        await pilot.press("d", "right", "space")  # drawn, a card selected, the cursor on it
        await pilot.pause(0.2)
        return screen_text(app)


@pytest.mark.parametrize(("size", "turns", "lang"), [
    ((80, 24), 6, "en"), ((120, 40), 3, "en"), ((80, 24), 6, "it"), ((80, 24), 6, "es"),
    ((80, 24), 6, "ro"), ((80, 24), 6, "sl")])
def test_the_screen(size: tuple[int, int], turns: int, lang: str) -> None:
    text = asyncio.run(screen_after(size, turns, lang=lang))
    lines = text.splitlines()
    assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
    check_snapshot(f"offline-{size[0]}x{size[1]}-{lang}", text)
