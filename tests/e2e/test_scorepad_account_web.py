"""The score pad saved to the account, in Debian's Chromium against a real server.

A player logs in from the lobby, starts a game on the pad and enters a hand; in a fresh
browser context (no local storage of the first) the same player logs in again and finds the
sheet with its hand and totals.  A hand entered there with the network cut stays in the
browser and reaches the account once the network is back.  Logged out, the pad keeps its
sheets in the browser only, as it always did.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess
from test_scorepad import PHONE, Side, enter_hand, new_game, totals_on_page

pytestmark = pytest.mark.xdist_group("e2e")

PASSWORD = "a long enough password"


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/")
    page.click("[data-testid=tab-login]")
    page.fill(".account-form input[name=username]", username)
    page.fill(".account-form input[name=password]", PASSWORD)
    page.click("[data-testid=account-submit]")
    page.locator("[data-testid=account]").wait_for(timeout=20_000)


def account_sheets(server: ServerProcess, token: str, hands: int,
                   timeout: float = 15) -> list[dict[str, Any]]:
    """The account's sheets once the first one holds ``hands`` hands."""
    deadline = time.monotonic() + timeout
    while True:
        sheets = httpx.get(f"{server.base}/api/me/scorepad",
                           headers={"authorization": f"Bearer {token}"}).json()["sheets"]
        if sheets and len(sheets[0]["sheet"]["hands"]) == hands:
            return list(sheets)
        if time.monotonic() > deadline:
            raise AssertionError(f"the account holds {sheets!r}, not a sheet of {hands} hands")
        time.sleep(0.2)


def test_a_sheet_follows_the_account_to_a_fresh_browser(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    created = httpx.post(f"{server.base}/api/accounts",
                         json={"username": "Pad_Player", "password": PASSWORD})
    assert created.status_code == 201, created.text
    token = created.json()["token"]
    errors: list[str] = []

    first = browser.new_context(**PHONE, locale="en-US")
    page = first.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, server.base, "Pad_Player")
    new_game(page, server.base, ["Anna", "Bruno"])
    enter_hand(page, [Side(["4C 5C 6C 7C 8C 9C 10C", "KD KH KS"], closed=True),
                      Side(["QD KD AD", "7C 7D 7S", "5H 6H 7H"], "7H 8S")])
    totals = totals_on_page(page)
    sheet_id = page.url.rstrip("/").rsplit("/", 1)[1]
    stored = account_sheets(server, token, hands=1)
    assert [s["id"] for s in stored] == [sheet_id]
    assert stored[0]["sheet"]["names"] == ["Anna", "Bruno"]
    page.goto(server.base + "/pad/")
    note = page.locator("[data-testid=pad-storage]").text_content() or ""
    assert "saved to your account Pad_Player" in note
    first.close()

    # a fresh browser: nothing in its storage; logged in, the pad brings the sheet
    second = browser.new_context(**PHONE, locale="en-US")
    page = second.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, server.base, "Pad_Player")
    page.goto(server.base + "/pad/")
    row = page.locator(f"li.pad-row[data-sheet='{sheet_id}']")
    row.wait_for(timeout=15_000)
    assert "Anna – Bruno" in (row.text_content() or "")
    page.screenshot(path=str(screenshots / "scorepad-account-list.png"), full_page=True)
    row.locator("a").click()
    page.wait_for_selector("tr[data-hand='1']")
    assert totals_on_page(page) == totals
    # the same page reloaded opens from the browser's own copy at once
    page.reload()
    page.wait_for_selector("tr[data-hand='1']")

    # offline: the hand is kept in the browser, and goes up when the network is back
    second.set_offline(True)
    enter_hand(page, [Side(["3H 4H 5H"], "JK", took=False), Side(["9S 9C 9D"], took=False)])
    assert len(account_sheets(server, token, hands=1)[0]["sheet"]["hands"]) == 1
    second.set_offline(False)
    assert account_sheets(server, token, hands=2)[0]["id"] == sheet_id
    page.screenshot(path=str(screenshots / "scorepad-account-sheet.png"), full_page=True)
    second.close()

    # logged out (a guest's browser), the pad keeps its sheets here only, as before
    guest = browser.new_context(**PHONE, locale="en-US")
    page = guest.new_page()
    page.goto(server.base + "/pad/")
    assert page.locator("[data-testid=pad-storage]").text_content() == "Kept in this browser."
    assert page.locator("li.pad-row").count() == 0
    new_game(page, server.base, ["Carla", "Dino"])
    assert len(account_sheets(server, token, hands=2)) == 1
    guest.close()
    assert not errors, errors
