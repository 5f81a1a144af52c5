"""The replay page's analysis in the browser: pick a seat, watch the progress bar, read the
marks and jump to a marked move."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import STATIC
from harness import ServerProcess

pytestmark = pytest.mark.xdist_group("e2e")
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    if not (STATIC / "index.html").is_file():
        pytest.fail("the web client is not built: run ./scripts/test")
    folder: Path = tmp_path_factory.mktemp("e2e-analysis")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--analysis-level", "advanced", "--analysis-samples", "3"])
    process.start()
    yield process
    process.stop()


def test_the_replay_page_analyses_a_seat_with_a_progress_bar(
        quick_server: ServerProcess, browser: Any, screenshots: Path) -> None:
    server = quick_server
    token = server.guest("Analyst")
    table = server.create_table(token, players=2, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "bot", "level": "random"},
                                       {"kind": "bot", "level": "basic"}])
    tid = table["table_id"]
    deadline = time.monotonic() + 120
    while server.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' table did not finish"
        time.sleep(0.3)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.base}/replay/{tid}")
    page.wait_for_selector("[data-testid=analysis]")
    page.select_option("[data-testid=analysis-seat]", "0")  # the random bot: it errs
    page.click("[data-testid=analysis-start]")
    page.wait_for_selector("[data-testid=analysis-progress] progress")
    assert "Analysing:" in (page.locator("[data-testid=analysis-progress]").text_content() or "")
    page.wait_for_selector("[data-testid=analysis-summary]", timeout=240_000)
    summary = page.locator("[data-testid=analysis-summary]").text_content() or ""
    assert "decisions" in summary and "marked" in summary
    marks = page.locator(".analysis-marks li")
    assert marks.count() > 0
    move = marks.first.get_attribute("data-move")
    marks.first.locator("button").click()
    assert page.locator(".replay-frame").get_attribute("data-step") == move
    assert "better" in (marks.first.text_content() or "")
    page.screenshot(path=str(screenshots / "replay-analysis.png"), full_page=True)
    context.close()
