"""Friends, challenges, the bell and clubs in the browser, against a real ``burraco serve``.

* Two accounts: A follows B from the friends page, B follows back from theirs, and each then
  sees the other among their friends (with presence).
* A challenges B from the friends page, sees it among the challenges sent, withdraws it and
  sends it again; B's bell shows the challenge, B accepts and is taken to
  the table; A's bell says the challenge was accepted and takes A to the same table.
* A founds a club by invitation and invites B; B joins from the bell; the club page lists both,
  and its leaderboard section.

Screenshots on a phone (390×844, A) and a desktop (1280×800, B) go to
``artifacts/screenshots/social-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from people_harness import account, open_bell, serve, visit
from people_harness import fits as fits_controls
from people_harness import open_as as open_page
from test_web_client import DESKTOP, table_id

pytestmark = pytest.mark.xdist_group("e2e")

fits = partial(fits_controls, controls=".social main button, .social main .button, "
               "[data-testid=bell], .bell-panel button")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "e2e-social")


def open_as(browser: Any, server: ServerProcess, who: dict[str, str], *, phone: bool) -> Any:
    return open_page(browser, who, phone=phone)


def test_friends_challenge_and_club(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    ada, bea = account(server, "ada_social"), account(server, "bea_social")
    a = open_as(browser, server, ada, phone=True)
    b = open_as(browser, server, bea, phone=False)

    # the lobby links to the friends page; A follows B by username
    a.goto(server.base + "/")
    a.click("[data-testid=friends-link]")
    a.locator("main h1", has_text="Friends").wait_for()
    a.fill("input[name=follow]", "bea_social")
    a.click("[data-testid=follow-submit]")
    a.locator("[data-testid=following] li[data-person=bea_social]").wait_for()

    # B sees A among the followers, and follows back
    visit(b, server, "/friends")
    b.locator("[data-testid=followers] li[data-person=ada_social] [data-action=follow]").click()
    b.locator("[data-testid=friends] li[data-person=ada_social]").wait_for()
    # ... and A now has B as a friend, online (B's page asked the server just now)
    visit(a, server, "/friends")
    friend = a.locator("[data-testid=friends] li[data-person=bea_social]")
    friend.wait_for()
    assert a.locator("[data-testid=following] li").count() == 0
    friend.locator("[data-presence=friends\\.online]").wait_for(timeout=30_000)
    fits(a)
    a.screenshot(path=str(screenshots / "social-friends-phone.png"), full_page=True)
    fits(b)
    b.screenshot(path=str(screenshots / "social-friends-desktop.png"), full_page=True)

    # A challenges B: one hand, casual
    friend.locator("[data-action=challenge]").click()
    a.select_option("select[name=challenge-format]", "hand")
    a.select_option("select[name=challenge-rated]", "casual")
    a.screenshot(path=str(screenshots / "social-challenge-phone.png"))
    a.click("[data-testid=challenge-send]")
    a.locator("[data-testid=friends-note]", has_text="Challenge sent").wait_for()
    # the challenge is listed as sent, with its time left; A withdraws it and sends it again
    sent = a.locator("[data-testid=sent-challenges] li[data-state=open]")
    sent.wait_for()
    assert "bea_social" in sent.text_content() and "waiting for an answer" in sent.text_content()
    fits(a)
    a.screenshot(path=str(screenshots / "social-sent-phone.png"), full_page=True)
    sent.locator("[data-action=withdraw]").click()
    a.locator("[data-testid=sent-challenges] li[data-state=withdrawn]").wait_for()
    friend.locator("[data-action=challenge]").click()
    a.select_option("select[name=challenge-format]", "hand")
    a.click("[data-testid=challenge-send]")
    a.locator("[data-testid=sent-challenges] li[data-state=open]").wait_for()

    # B's bell shows it (at once when the lobby opens); B accepts and goes to the table
    b.goto(server.base + "/")
    item = open_bell(b, "challenge")
    assert "ada_social" in item.text_content()
    b.screenshot(path=str(screenshots / "social-bell-desktop.png"))
    item.locator("[data-testid=notice-accept]").click()
    b.wait_for_url("**/play/**", timeout=30_000)

    # A's bell (asking often while the challenge waits) takes A to the same table
    accepted = open_bell(a, "challenge_accepted")
    fits(a)
    a.screenshot(path=str(screenshots / "social-bell-phone.png"))
    accepted.locator("[data-testid=notice-go]").click()
    a.wait_for_url("**/play/**", timeout=30_000)
    assert table_id(a) == table_id(b)
    for page in (a, b):
        page.wait_for_selector(".hand-card", timeout=30_000)

    # A founds a club by invitation and invites B
    visit(a, server, "/clubs")
    a.locator("[data-testid=found-form]").evaluate("f => f.closest('details').open = true")
    a.fill("input[name=club-name]", "Green Baize Friends")
    a.fill("textarea[name=club-description]", "Thursday evenings, two tables.")
    a.check("input[name=club-public][value=invitation]")
    fits(a)
    a.screenshot(path=str(screenshots / "social-clubs-phone.png"), full_page=True)
    a.click("[data-testid=found-submit]")
    a.wait_for_url("**/clubs/green-baize-friends")
    a.locator("[data-testid=my-role]", has_text="founder").wait_for()
    a.fill("input[name=invite]", "bea_social")
    a.click("[data-testid=invite-submit]")
    a.locator("[data-testid=pending] li[data-person=bea_social]").wait_for()

    # B joins from the bell, and lands on the club's page
    b.goto(server.base + "/")
    invite = open_bell(b, "club_invite")
    assert "Green Baize Friends" in invite.text_content()
    invite.locator("[data-testid=notice-join]").click()
    b.wait_for_url("**/clubs/green-baize-friends")
    b.locator("[data-testid=members] li[data-person=ada_social][data-role=founder]").wait_for()
    b.locator("[data-testid=members] li[data-person=bea_social][data-role=member]").wait_for()
    b.locator("[data-testid=club-leaderboard] .club-board[data-form='4']").wait_for()
    # the club's room: both members here now (each page asks), no club tournament yet
    b.locator("[data-testid=club-here] li[data-person=bea_social]").wait_for()
    b.locator("[data-testid=club-events]", has_text="No tournament of the club").wait_for()
    assert b.locator("[data-testid=club-evening]").count() == 0  # an admin's part only
    fits(b)
    b.screenshot(path=str(screenshots / "social-club-desktop.png"), full_page=True)

    # the founder's view: both members, B with "Make admin" and "Remove"
    visit(a, server, "/clubs/green-baize-friends")
    row = a.locator("[data-testid=members] li[data-person=bea_social]")
    row.locator("[data-action=make-admin]").wait_for()
    assert a.locator("[data-testid=members] li").count() == 2
    assert a.locator("[data-testid=club-leaderboard]").is_visible()
    a.locator("[data-testid=club-here] li[data-person=bea_social]").wait_for()
    a.locator("[data-testid=club-evening]", has_text="has not linked them").wait_for()
    a.locator("[data-testid=club-schedule]").wait_for()
    fits(a)
    a.screenshot(path=str(screenshots / "social-club-phone.png"), full_page=True)
    assert not a.errors and not b.errors, a.errors + b.errors
    a.context.close()
    b.context.close()


def test_a_guest_is_told_to_log_in(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.base + "/friends")
    page.locator("[data-testid=accounts-only]").wait_for()
    assert page.locator("[data-testid=bell]").count() == 0
    page.close()
