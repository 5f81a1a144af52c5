"""Play with a friend as partner: the lobby's matchmaking card and the bell, against a real
``burraco serve``.

* Two friends: A, on a phone, picks four players and B as partner in the card and presses Find
  players; A's card shows the invitation sent with its time left. B's lobby shows the
  invitation in the card and in the bell; B declines in the card, and A is told. A invites
  again; B accepts from the bell, and both cards show the wait, each naming the other as
  partner.
* Two more accounts queue alone in the same pool (through the API): the four are matched, A
  and B land on one table, at seats across (0 and 2, or 1 and 3).
* A refusal naming the partner (a friend already in an invitation) is shown under the field.

Screenshots of the invitation sent, the invitation received, the bell and the wait on a
phone (390×844), and of the wait on a desktop (1280×800), go to
``artifacts/screenshots/pool-party-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from people_harness import account, bearer, befriend, serve
from people_harness import fits as fits_controls
from people_harness import open_as as open_page
from test_web_client import DESKTOP, table_id

pytestmark = pytest.mark.xdist_group("e2e")

fits = partial(fits_controls, controls=".pool button, .pool .button, .pool select, "
               "[data-testid=bell], .bell-panel button")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "e2e-pool-parties")


def where(server: ServerProcess, who: dict[str, str]) -> dict[str, Any]:
    answer = server.http.get("/api/pool", headers=bearer(who))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def open_as(browser: Any, server: ServerProcess, who: dict[str, str], *, phone: bool) -> Any:
    """A fresh browser at the lobby as ``who``, the pool's card (or its panel) shown."""
    page = open_page(browser, who, phone=phone)
    page.goto(server.base + "/")
    page.locator("[data-testid=pool-card], [data-testid=pool-waiting]").first.wait_for()
    return page


def test_two_friends_queue_as_partners_and_sit_across(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    ada, bea = account(server, "Party_Ada"), account(server, "Party_Bea")
    cleo, dino = account(server, "Party_Cleo"), account(server, "Party_Dino")
    befriend(server, ada, bea)
    befriend(server, ada, cleo)
    a = open_as(browser, server, ada, phone=True)

    # two players: no partner to pick; four: the friends, or alone (the default)
    assert a.locator("select[name=pool-partner]").count() == 0
    a.select_option("select[name=pool-format]", "hand")
    a.select_option("select[name=pool-form]", "4")
    a.select_option("select[name=pool-bots]", "never")
    partner = a.locator("select[name=pool-partner]")
    a.locator("select[name=pool-partner] option[value=Party_Bea]").wait_for(state="attached")
    assert partner.input_value() == ""
    assert partner.locator("option").all_text_contents() == [
        "Queue alone",
        "Party_Bea",
        "Party_Cleo",
    ]
    assert a.locator("label", has=partner).text_content().startswith("Partner (a friend)")
    partner.select_option("Party_Bea")
    fits(a)
    a.screenshot(path=str(screenshots / "pool-party-card-phone.png"), full_page=True)

    # Find players: the invitation sent, its minute ticking down, Cancel
    a.click("[data-testid=pool-play]")
    a.locator("[data-testid=pool-waiting][data-phase=inviting]").wait_for()
    assert a.locator("#pool-title").text_content() == "Waiting for Party_Bea to accept"
    assert a.locator("[data-testid=pool-what]").text_content() == "One hand · 4 players · Casual"
    left = a.locator("[data-testid=pool-left]").text_content()
    assert left in ("1:00", "0:59", "0:58"), left
    a.wait_for_function(
        "(t) => document.querySelector('[data-testid=pool-left]').textContent !== t",
        arg=left,
        timeout=5_000,
    )
    assert where(server, ada)["state"] == "inviting"
    fits(a)
    a.screenshot(path=str(screenshots / "pool-party-inviting-phone.png"))

    # while it is open, inviting B elsewhere is refused, under the partner's field
    c = open_as(browser, server, cleo, phone=True)
    c.select_option("select[name=pool-form]", "4")
    c.locator("select[name=pool-partner] option[value=Party_Ada]").wait_for(state="attached")
    c.select_option("select[name=pool-partner]", "Party_Ada")
    c.click("[data-testid=pool-play]")
    refusal = c.locator("[data-testid=pool-partner-error]")
    refusal.wait_for()
    assert refusal.text_content().startswith("Your friend is busy")
    assert c.locator("select[name=pool-partner]").get_attribute("aria-describedby") == (
        "pool-partner-error"
    )
    fits(c)
    c.screenshot(path=str(screenshots / "pool-party-refused-phone.png"))
    c.context.close()

    # B's lobby: the invitation in the card (Accept, Decline, its time left) and in the bell
    b = open_as(browser, server, bea, phone=True)
    b.locator("[data-testid=pool-waiting][data-phase=invited]").wait_for()
    assert (
        b.locator("[data-testid=pool-invited]").text_content()
        == "Party_Ada invites you to play as partners: One hand · 4 players · Casual"
    )
    assert b.locator("[data-testid=pool-accept]").text_content() == "Accept"
    assert b.locator("[data-testid=pool-decline]").text_content() == "Decline"
    fits(b)
    b.screenshot(path=str(screenshots / "pool-party-invited-phone.png"))
    b.locator("[data-testid=bell-count]").wait_for()
    b.click("[data-testid=bell]")
    item = b.locator(".bell-panel li[data-kind=party_invite]")
    item.wait_for()
    assert "Party_Ada invites you to play as partners" in item.text_content()
    fits(b)
    b.screenshot(path=str(screenshots / "pool-party-bell-phone.png"))

    # B declines in the card: the card is back for B (the bell empty), and A is told
    b.keyboard.press("Escape")
    b.click("[data-testid=pool-decline]")
    b.locator("[data-testid=pool-card]").wait_for()
    b.locator("[data-testid=bell-count]").wait_for(state="detached", timeout=10_000)
    note = a.locator("[data-testid=pool-note]")
    note.wait_for(timeout=10_000)
    assert note.text_content() == (
        "Party_Bea did not accept: the invitation was declined or ran out."
    )
    assert where(server, ada)["state"] == "none"

    # A invites again (the partner still picked); B's lobby, opened again, shows it
    assert a.locator("select[name=pool-partner]").input_value() == "Party_Bea"
    a.click("[data-testid=pool-play]")
    a.locator("[data-testid=pool-waiting][data-phase=inviting]").wait_for()
    b.reload()
    b.locator("[data-testid=pool-waiting][data-phase=invited]").wait_for()
    b.locator("[data-testid=bell-count]").wait_for()
    b.click("[data-testid=bell]")
    item = b.locator(".bell-panel li[data-kind=party_invite]")
    item.wait_for()

    # B accepts from the bell (which closes): both wait together, each naming the other
    item.locator("[data-testid=notice-accept]").click()
    b.locator("[data-testid=bell-panel]").wait_for(state="detached")
    for page, mate in ((a, "Party_Bea"), (b, "Party_Ada")):
        page.locator("[data-testid=pool-waiting][data-phase=waiting]").wait_for(timeout=10_000)
        page.wait_for_function(
            "(text) => document.querySelector('[data-testid=pool-partner]')?.textContent"
            " === text",
            arg=f"With {mate}",
            timeout=10_000,
        )
    b.wait_for_function(
        "() => document.querySelector('[data-testid=pool-count]')?.textContent"
        " === '2 players waiting'",
        timeout=10_000,
    )
    assert b.locator("[data-testid=bell-count]").count() == 0
    state = where(server, ada)
    assert state["state"] == "waiting" and state["partner"] == "Party_Bea", state
    for page in (a, b):
        fits(page)
    a.screenshot(path=str(screenshots / "pool-party-waiting-phone.png"))
    b.set_viewport_size(DESKTOP)
    fits(b)
    b.screenshot(path=str(screenshots / "pool-party-waiting-desktop.png"))

    # two more queue alone in the same pool: the four are matched, the friends across
    for who in (cleo, dino):
        joined = server.http.post(
            "/api/pool",
            headers=bearer(who),
            json={"format": "hand", "form": "4", "rated": False, "bots_after": None},
        )
        assert joined.status_code == 200, joined.text
    for page in (a, b):
        page.wait_for_url("**/play/**", timeout=30_000)
    assert table_id(a) == table_id(b)
    seats = {where(server, who)["match"]["seat"] for who in (ada, bea)}
    assert seats in ({0, 2}, {1, 3}), seats
    others = [where(server, who)["match"] for who in (cleo, dino)]
    assert {m["table"] for m in others} == {table_id(a)}
    assert {m["seat"] for m in others} == {0, 1, 2, 3} - seats
    assert not a.errors and not b.errors, a.errors + b.errors
    a.context.close()
    b.context.close()
