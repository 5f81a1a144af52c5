"""Online tournaments in the browser, against a real ``burraco serve``.

* The lobby links to the tournaments; an account schedules one with the form (a start in the
  past is refused, and the form says so by the field), a two-player Swiss of one round, one
  hand, starting in 30 seconds, and lands on its page; joins there.
* A second account joins from the list.
* At the start each entrant's page shows the button to their table; one sits down with it,
  the other from the bell; both are at the same table, and the hands are dealt.
* A guest finds the list from the lobby, and is told that joining takes an account.

Screenshots on a phone (390×844, A) and a desktop (1280×800, B) go to
``artifacts/screenshots/events-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from people_harness import account, open_as, serve, visit
from people_harness import fits as fits_controls
from test_web_client import table_id

pytestmark = pytest.mark.xdist_group("e2e")

fits = partial(fits_controls, controls=".events main button, .events main .button, "
               ".events main select, .events main input")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "e2e-events")


def test_a_tournament_from_the_form_to_the_table(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    ada, bea = account(server, "ada_events"), account(server, "bea_events")
    a = open_as(browser, ada, phone=True)
    b = open_as(browser, bea, phone=False)

    # the lobby links to the tournaments (the server's regular ones are listed)
    a.goto(server.base + "/")
    a.click("[data-testid=events-link]")
    a.locator("main h1", has_text="Online tournaments").wait_for()
    a.locator("[data-testid=upcoming-events] li.event-row").first.wait_for()

    # the form: a start in the past is refused, by its field
    a.locator("[data-testid=create-form]").evaluate("f => f.closest('details').open = true")
    a.fill("input[name=event-name]", "Friday Swiss")
    a.select_option("select[name=event-kind]", "swiss")
    a.fill("input[name=event-rounds]", "1")
    a.select_option("select[name=event-form]", "2")
    a.select_option("select[name=event-format]", "hand")
    a.fill("input[name=event-date]", "2020-01-02")
    a.fill("input[name=event-time]", "20:30")
    a.click("[data-testid=create-submit]")
    a.locator("[data-field-error=starts]", has_text="30 days").wait_for()
    fits(a)
    a.screenshot(path=str(screenshots / "events-form-phone.png"), full_page=True)

    # ... and one starting in 30 seconds is scheduled: its page opens
    a.select_option("select[name=event-start]", "30")
    a.click("[data-testid=create-submit]")
    a.wait_for_url("**/events/*")
    event_id = a.url.rsplit("/", 1)[-1]
    page = a.locator("[data-testid=event-page][data-phase=open]")
    page.wait_for()
    assert "Friday Swiss" in a.locator("main h1").text_content()
    a.locator("[data-testid=countdown]", has_text="in 0:").wait_for()
    a.click("[data-testid=event-join]")
    a.locator("[data-testid=my-panel] [data-testid=event-leave]").wait_for()
    a.locator("[data-testid=entrants] li").first.wait_for()

    # B joins from the list
    visit(b, server, "/events")
    row = b.locator(f"li.event-row[data-event='{event_id}']")
    row.locator("[data-testid=event-join]").click()
    row.locator("[data-testid=registered]").wait_for()
    row.locator(".event-count", has_text="2 entrants").wait_for()
    fits(b)
    b.screenshot(path=str(screenshots / "events-list-desktop.png"), full_page=True)
    visit(a, server, "/events")
    a.locator(f"li.event-row[data-event='{event_id}'] [data-testid=registered]").wait_for()
    fits(a)
    a.screenshot(path=str(screenshots / "events-list-phone.png"), full_page=True)

    # the event's page before the start
    visit(a, server, f"/events/{event_id}")
    a.locator("[data-testid=entrants] li").nth(1).wait_for()
    assert a.locator("[data-testid=entrants] li").count() == 2
    fits(a)
    a.screenshot(path=str(screenshots / "events-open-phone.png"), full_page=True)
    visit(b, server, f"/events/{event_id}")

    # at the start both are shown the way to their table
    for who in (a, b):
        who.locator("[data-testid=sit-down]").wait_for(timeout=45_000)
    a.locator("[data-testid=event-page][data-phase=running]").wait_for()
    b.locator("[data-testid=standings] tr[data-entrant]").first.wait_for()
    assert "Round 1 of 1" in b.locator("[data-testid=event-status]").text_content()
    a.locator("[data-testid=standings]").wait_for()
    a.locator("[data-testid=games] li").first.wait_for()
    fits(a)
    a.screenshot(path=str(screenshots / "events-running-phone.png"), full_page=True)
    fits(b)
    b.screenshot(path=str(screenshots / "events-running-desktop.png"), full_page=True)

    # B's bell says so too (it asks at once when a page opens)
    b.reload()
    b.locator("[data-testid=bell-count]").wait_for(timeout=30_000)
    b.click("[data-testid=bell]")
    item = b.locator(".bell-panel li[data-kind=event_game]")
    item.wait_for(timeout=30_000)
    assert "Friday Swiss" in item.text_content()
    b.screenshot(path=str(screenshots / "events-bell-desktop.png"))

    # A sits down with the button, B from the bell: the same table, and the hand is dealt
    a.click("[data-testid=sit-down]")
    a.wait_for_url("**/play/**", timeout=30_000)
    item.locator("[data-testid=notice-sit]").click()
    b.wait_for_url("**/play/**", timeout=30_000)
    assert table_id(a) == table_id(b)
    for who in (a, b):
        who.wait_for_selector(".hand-card", timeout=30_000)
    assert not a.errors and not b.errors, a.errors + b.errors
    a.context.close()
    b.context.close()


def test_a_guest_finds_the_list_and_is_told_to_log_in(
    server: ServerProcess, browser: Any
) -> None:
    page = open_as(browser, None, phone=True)
    page.goto(server.base + "/")
    page.click("[data-testid=events-link-lobby]")
    page.locator("main h1", has_text="Online tournaments").wait_for()
    page.locator("main", has_text="Tournaments are scheduled and joined by accounts").wait_for()
    assert page.locator("[data-testid=create-form]").count() == 0
    assert page.locator("[data-testid=bell]").count() == 0
    fits(page)
    assert not page.errors, page.errors
    page.context.close()
