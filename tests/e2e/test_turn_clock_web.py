"""The turn clock as a player meets it: it does not run before they sit down, it shows as a
ring around the seconds left, the player's turn is a badge that cannot be missed, and a
time-out leaves a line in the log before the moves the table made for them.

Before: arriving from the "table is ready" dialog, a player found 6 of 10 seconds left; the
countdown was small red text; a time-out drew and discarded with nothing in the log but
"Ada draws", "Ada discards", as if Ada had played.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import PHONE, enter_lobby, table_id


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-turn-clock")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def create_with_clock(page: Any, seconds: int) -> None:
    """The lobby's form: two players, a bot opposite, one hand, ``seconds`` a turn."""
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat1]", "bot")
    page.click("[data-testid=more-rules] > summary")
    page.fill("input[name=turn_seconds]", str(seconds))
    page.fill("input[name=bot_delay]", "0")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".dialog .copy-link")


def my_turn(page: Any, timeout: float = 30_000) -> None:
    page.wait_for_selector("[data-testid=your-turn]", timeout=timeout)


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_the_clock_waits_for_the_player_then_rings_and_a_time_out_is_logged(
        server: ServerProcess, browser: Any, locale: str, screenshots: Path) -> None:
    context = browser.new_context(**PHONE, locale=locale)
    page = context.new_page()
    enter_lobby(page, server.base, f"Clock{locale[:2]}")
    create_with_clock(page, 12)
    link = page.locator(".dialog .copy-link input").first.input_value()
    tid = link.split("/play/")[1].split("?")[0]
    # the dialog stays open a while: the match has not started, so no clock runs
    page.wait_for_timeout(4_000)
    assert server.http.get(f"/api/tables/{tid}").json()["status"] == "waiting"
    page.click(".dialog a.button.primary")
    assert table_id(page) == tid
    my_turn(page)
    ring = page.locator(".player.turn [role=timer]")
    ring.wait_for()
    # full time at the first sight of the player's own turn (a bot's turn may come first)
    assert int(ring.get_attribute("data-left")) >= 9
    badge = page.locator("[data-testid=your-turn]")
    size = float(badge.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert size >= 16, size
    page.screenshot(path=str(screenshots / f"turn-clock-{locale[:2]}.png"))
    # the player does nothing: the table draws and discards for them, and says so first
    said = "Time ran out for" if locale == "en-GB" else "Tempo scaduto per"
    page.wait_for_function(
        "(said) => [...document.querySelectorAll('.log li')]"
        ".some((li) => li.textContent.includes(said))",
        arg=said, timeout=40_000)
    # then the draw made for them (its line may come a moment after the notice's)
    drew = "drew" if locale == "en-GB" else "pescato"
    page.wait_for_function(
        "([said, drew]) => { const lines = [...document.querySelectorAll('.log li')]"
        ".map((li) => li.textContent); const at = lines.findIndex((l) => l.includes(said));"
        " return at >= 0 && lines.slice(at + 1).some((l) => l.includes(drew)); }",
        arg=[said, drew], timeout=30_000)
    lines = page.locator(".log li").all_text_contents()
    at = next(i for i, line in enumerate(lines) if said in line)
    assert f"Clock{locale[:2]}" in lines[at]
    assert drew in lines[at + 1], lines
    context.close()
