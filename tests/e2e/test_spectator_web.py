"""A spectator's view: the table in the height of what it shows, a move log that says what it
will hold when it opens mid-hand, buttons of the table's size, and a notice when the players
move on to a new match.

Before: the log was an empty box, the board stretched to the window with the stock and pile
pushed down out of sight, and after "Play again" the spectator was left at a finished table
with nothing said.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import Client, ServerProcess
from test_web_client import DESKTOP


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-spectator")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def test_a_spectator_sees_the_table_the_log_and_where_the_players_went(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    ada = server.guest("Ada")
    bot = {"kind": "bot", "level": "basic"}
    table = server.create_table(
        ada, players=4, mode="smazzate", smazzate=1, public=True, casual=True, creator_seat=0,
        seats=[{"kind": "human"}, bot, bot, bot], bot_delay=0.2, grace_seconds=0,
        standin="basic")
    tid = table["table_id"]

    async def arrive_and_leave() -> None:
        # Ada sits down once (the match starts), then leaves: a stand-in plays her seat
        client = Client(server, table, 0, guest=ada)
        await client.connect()
        await client.until(lambda f: f.get("t") == "sync")
        await client.close()

    # in a thread of its own: Playwright's sync API holds this thread's event loop
    worker = threading.Thread(target=lambda: asyncio.run(arrive_and_leave()))
    worker.start()
    worker.join(60)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.base}/play/{tid}?watch={table['watch_token']}")
    page.wait_for_selector(".table-view.spectator")
    # the log has a line from the start: what it will hold
    assert page.locator(".log li").count() >= 1
    # the board is the height of what it shows: the stock and the pile are in sight
    for selector in ("[data-testid=stock]", "[data-testid=pile]"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= DESKTOP["height"], (selector, box)
    # the table's switches are of the table's size, not oversized
    for height in page.locator(".table-prefs button").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)"):
        assert height <= 40, height
    page.screenshot(path=str(screenshots / "spectator-desktop-en.png"))

    deadline = time.monotonic() + 240
    while server.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the match never finished"
        time.sleep(1)
    answer = server.http.post(f"/api/tables/{tid}/rematch",
                              headers={"authorization": f"Bearer {ada}"})
    assert answer.status_code in (200, 201), answer.text
    moved = page.locator("[data-testid=moved-on]")
    moved.wait_for(timeout=30_000)
    assert "Ada" in moved.text_content()
    link = moved.locator("a")
    assert link.get_attribute("href") == f"/play/{answer.json()['table_id']}"
    context.close()
