"""A rated table whose creator closed the "table is ready" dialog does not start without them
(an opponent who joins is told whom the match waits for), and a creator cancels a table
nobody else joined from its waiting room (docs/protocol.md, "A match waits for its players").

Found by hand: the creator closed the dialog with ×, an opponent joined, the match started
and a stand-in lost it for the creator, who lost rating and got a wait for an abandonment.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_players_web import register_in_browser
from test_web_client import DESKTOP, PHONE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-arrival")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1"])
    process.start()
    yield process
    process.stop()


def create_rated_two(page: Any) -> None:
    """The lobby's creation form: a rated table of two people, to one point."""
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat1]", "human")
    page.select_option("select[name=format]", "target")
    page.fill("input[name=target]", "1")
    page.check("input[name=rated]")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".dialog .copy-link")


def status(server: ServerProcess, table_id: str) -> str:
    return str(server.http.get(f"/api/tables/{table_id}").json()["status"])


def test_a_rated_match_waits_for_the_creator_who_closed_the_dialog(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    creator = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = creator.new_page()
    register_in_browser(page, server, "Wait_Cleo")
    create_rated_two(page)
    links = [box.input_value() for box in page.locator(".dialog .copy-link input").all()]
    invite = next(link for link in links if "seat=1" in link)
    table_id = invite.split("/play/")[1].split("?")[0]
    page.click("[data-testid=dialog-close]")  # the trap: not "Go to the table"

    opponent = browser.new_context(**PHONE, locale="it-IT")
    other = opponent.new_page()
    register_in_browser(other, server, "Wait_Dan")
    other.goto(invite)
    awaited = other.locator("[data-awaited]")
    awaited.wait_for(timeout=20_000)
    assert "Wait_Cleo" in awaited.text_content()
    time.sleep(3)  # the match would have started at once, and a stand-in taken Cleo's seat
    assert status(server, table_id) == "waiting"
    assert other.locator(".hand-card").count() == 0
    other.screenshot(path=str(screenshots / "table-awaiting-creator-it.png"))

    page.goto(f"{server.base}/play/{table_id}")  # Cleo comes to the table: the match starts
    page.wait_for_selector(".hand-card", timeout=30_000)
    other.wait_for_selector(".hand-card", timeout=30_000)
    assert status(server, table_id) == "playing"
    for context in (creator, opponent):
        context.close()


def test_a_creator_cancels_a_table_from_its_waiting_room(
        server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    register_in_browser(page, server, "Cancel_Eve")
    create_rated_two(page)
    page.click(".dialog a.button.primary")  # to the table
    cancel = page.locator("[data-cancel-table]")
    cancel.wait_for(timeout=20_000)
    table_id = page.url.split("/play/")[1].split("?")[0]
    cancel.click()
    page.wait_for_url(f"{server.base}/", timeout=20_000)
    assert server.http.get(f"/api/tables/{table_id}").status_code == 404
    context.close()
