"""Small traps of the lobby, each found by hand: a returning player's login answered "this
username is taken" (the form stayed on Register after logging out), and "casual" and "rated"
could both be ticked (rated silently won)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_players_web import register_in_browser
from test_web_client import DESKTOP, enter_lobby


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-lobby-friction")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def test_after_logging_out_the_form_offers_logging_in_again(
        server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    register_in_browser(page, server, "Return_Gio")
    page.click("[data-testid=logout]")
    page.locator("[data-testid=tab-login]").wait_for()
    assert page.locator("[data-testid=tab-login]").get_attribute("aria-selected") == "true"
    page.fill(".account-form input[name=username]", "Return_Gio")
    page.fill(".account-form input[name=password]", "a long enough password")
    page.click("[data-testid=account-submit]")
    account = page.locator("[data-testid=account]")
    account.wait_for(timeout=20_000)
    assert "Logged in as Return_Gio" in account.text_content()
    context.close()


def test_casual_and_rated_exclude_each_other(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    register_in_browser(page, server, "Form_Ida")
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", "2")
    casual, rated = page.locator("input[name=casual]"), page.locator("input[name=rated]")
    casual.check()
    rated.check()
    assert rated.is_checked() and not casual.is_checked()
    casual.check()
    assert casual.is_checked() and not rated.is_checked()
    context.close()


def test_a_live_rated_match_in_the_lobby_offers_no_dead_button(
        server: ServerProcess, browser: Any) -> None:
    """Found by hand: the lobby offered Watch and Replay for a rated match in progress, and
    Watch then said the link "may be mistyped" (rated matches are shown once they are over)."""
    owner = server.http.post("/api/accounts", json={"username": "Rated_Owner",
                                                    "password": "a long enough password"})
    assert owner.status_code == 201, owner.text
    table = server.create_table(owner.json()["token"], players=2, rated=True, creator_seat=0,
                                seats=[{"kind": "human"}, {"kind": "human"}])
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    enter_lobby(page, server.base, "Looker")
    row = page.locator(f"[data-table='{table['table_id']}']")
    row.wait_for(timeout=20_000)
    assert row.locator("[data-rated-live]").count() == 1
    assert row.locator("a", has_text="Watch").count() == 0
    assert row.locator("a", has_text="Replay").count() == 0
    context.close()
