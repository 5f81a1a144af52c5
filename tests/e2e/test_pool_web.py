"""Play with people: the lobby's matchmaking card against a real ``burraco serve``.

* Two people (two browser contexts, guests: casual) press Play at once with the same choices,
  each is told "Found!" and both land on one table, each at a seat of their own, and the match
  starts.
* A wait shows its clock ticking, the rating window and how many wait in the pool; Cancel
  leaves the pool at once (``GET /api/pool`` says not queued), and the card comes back.
* Two accounts meet in a rated pool; a guest cannot pick rated and is told why; a refusal
  (a rated pool this server has not: one hand) is shown in the card in the player's words.

Screenshots of the card and of the waiting panel on a phone (390×844) and a desktop
(1280×800) go to ``artifacts/screenshots/pool-*.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import DESKTOP, PHONE, table_id

pytestmark = pytest.mark.xdist_group("e2e")

PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-pool")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def lobby(
    browser: Any,
    server: ServerProcess,
    *,
    phone: bool,
    locale: str = "en-GB",
    guest: dict[str, str] | None = None,
) -> tuple[Any, Any]:
    """A fresh browser at the lobby (as ``guest`` when given), the pool's card shown."""
    options = dict(PHONE) if phone else {"viewport": DESKTOP}
    context = browser.new_context(locale=locale, **options)
    if guest is not None:
        context.add_init_script(
            f"localStorage.setItem('burraco:guest', {json.dumps(json.dumps(guest))})"
        )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(server.base + "/")
    page.locator("[data-testid=pool-play]").wait_for()
    return context, page


def choose(
    page: Any, *, format: str, form: str, rated: str = "casual", bots: str | None = None
) -> None:
    page.select_option("select[name=pool-format]", format)
    page.select_option("select[name=pool-form]", form)
    page.select_option("select[name=pool-rated]", rated)
    if bots is not None:
        page.select_option("select[name=pool-bots]", bots)


def pool_state(page: Any) -> dict[str, Any]:
    """``GET /api/pool`` as this page's player (its saved token)."""
    return page.evaluate("""async () => {
      const guest = JSON.parse(localStorage.getItem('burraco:guest'));
      const r = await fetch('/api/pool', { headers: { authorization: 'Bearer ' + guest.token } });
      return await r.json();
    }""")


def no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide[0] <= wide[1], wide


def account(server: ServerProcess, username: str) -> dict[str, str]:
    made = server.http.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert made.status_code == 201, made.text
    server.http.cookies.clear()
    body = made.json()
    return {"guest_id": body["player_id"], "nickname": body["username"], "token": body["token"]}


def test_two_people_press_play_at_once_and_meet_at_one_table(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    phone_ctx, phone = lobby(browser, server, phone=True)
    desk_ctx, desk = lobby(browser, server, phone=False)
    # the card: the defaults (to 1005, two players, casual, bots after 45 s); rated is for accounts
    assert phone.locator("select[name=pool-format]").input_value() == "1005"
    assert phone.locator("select[name=pool-form]").input_value() == "2"
    assert phone.locator("select[name=pool-bots]").input_value() == "45"
    assert phone.locator("select[name=pool-rated] option[value=rated]").is_disabled()
    assert "need an account" in phone.locator("#pool-why").text_content()
    # the card and the bots' quick start both in sight on a phone's first screen
    for page, height in ((phone, PHONE["viewport"]["height"]), (desk, DESKTOP["height"])):
        for testid in ("pool-play", "quick-play"):
            box = page.locator(f"[data-testid={testid}]").bounding_box()
            assert box and box["y"] + box["height"] <= height, (testid, box)
        no_sideways_scroll(page)
    phone.screenshot(path=str(screenshots / "pool-card-phone.png"))
    desk.screenshot(path=str(screenshots / "pool-card-desktop.png"))

    for page in (phone, desk):
        choose(page, format="hand", form="2", bots="never")
    phone.click("[data-testid=pool-play]")
    desk.click("[data-testid=pool-play]")
    # "Found!", then the seat
    phone.locator("[data-testid=pool-waiting][data-phase=matched]").wait_for(timeout=30_000)
    assert phone.locator("#pool-title").text_content() == "Found! Seating you…"
    phone.screenshot(path=str(screenshots / "pool-found-phone.png"))
    for page in (phone, desk):
        page.wait_for_url("**/play/**", timeout=30_000)
    assert table_id(phone) == table_id(desk)
    # each at a seat of their own: the match starts, each holds a hand
    for page in (phone, desk):
        page.wait_for_selector(".hand-card", timeout=30_000)
    seats = {
        page.evaluate(
            "() => Object.keys(JSON.parse(localStorage.getItem("
            f"'burraco:table:{table_id(page)}')).seats)[0]"
        )
        for page in (phone, desk)
    }
    assert seats == {"0", "1"}, seats
    assert pool_state(phone)["state"] == "matched"
    # the choices are remembered
    phone.goto(server.base + "/")
    phone.locator("[data-testid=pool-play]").wait_for()
    assert phone.locator("select[name=pool-format]").input_value() == "hand"
    assert phone.locator("select[name=pool-bots]").input_value() == "never"
    assert not phone.errors and not desk.errors, phone.errors + desk.errors
    phone_ctx.close()
    desk_ctx.close()


def test_a_wait_shows_its_clock_window_and_count_and_cancel_leaves_the_pool(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    phone_ctx, phone = lobby(browser, server, phone=True)
    desk_ctx, desk = lobby(browser, server, phone=False)
    # four players in pairs, people only: two people wait for two more
    for page in (phone, desk):
        choose(page, format="2005", form="4", bots="never")
    phone.click("[data-testid=pool-play]")
    panel = phone.locator("[data-testid=pool-waiting]")
    panel.wait_for()
    assert "To 2005 points" in panel.locator("[data-testid=pool-what]").text_content()
    assert phone.locator("[data-testid=pool-window]").text_content() == "Rating range: ±100"
    phone.wait_for_function(
        "() => document.querySelector('[data-testid=pool-count]')?.textContent"
        " === '1 player waiting'"
    )
    assert phone.locator("[data-testid=pool-bots]").text_content() == "People only"
    first = phone.locator("[data-testid=pool-waited]").text_content()
    phone.wait_for_function(
        "(t) => document.querySelector('[data-testid=pool-waited]').textContent !== t",
        arg=first,
        timeout=5_000,
    )
    desk.click("[data-testid=pool-play]")
    desk.locator("[data-testid=pool-waiting]").wait_for()
    for page in (phone, desk):
        page.wait_for_function(
            "() => document.querySelector('[data-testid=pool-count]')?.textContent"
            " === '2 players waiting'",
            timeout=10_000,
        )
    assert pool_state(desk)["state"] == "waiting"
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "pool-waiting-phone.png"))
    desk.screenshot(path=str(screenshots / "pool-waiting-desktop.png"))
    # after 20 s the window widens
    phone.wait_for_function(
        "() => document.querySelector('[data-testid=pool-window]').textContent"
        " === 'Rating range: ±300'",
        timeout=30_000,
    )

    # Cancel: out at once, the card back (with the same choices), the other sees one fewer
    phone.click("[data-testid=pool-cancel]")
    phone.locator("[data-testid=pool-card]").wait_for(timeout=1_000)
    assert phone.locator("select[name=pool-form]").input_value() == "4"
    phone.wait_for_function(
        """async () => {
      const guest = JSON.parse(localStorage.getItem('burraco:guest'));
      const r = await fetch('/api/pool', { headers: { authorization: 'Bearer ' + guest.token } });
      return (await r.json()).state === 'none';
    }""",
        timeout=5_000,
    )
    desk.wait_for_function(
        "() => document.querySelector('[data-testid=pool-count]')?.textContent"
        " === '1 player waiting'",
        timeout=10_000,
    )
    # in another language, the same panel
    desk.select_option("select[name=lang]", "it")
    desk.wait_for_function("() => document.documentElement.lang === 'it'")
    assert desk.locator("[data-testid=pool-count]").text_content() == "1 giocatore in attesa"
    assert desk.locator("[data-testid=pool-cancel]").text_content() == "Annulla"
    desk.click("[data-testid=pool-cancel]")
    desk.locator("[data-testid=pool-card]").wait_for(timeout=1_000)
    assert pool_state(desk)["state"] == "none"
    assert not phone.errors and not desk.errors, phone.errors + desk.errors
    phone_ctx.close()
    desk_ctx.close()


def test_another_tab_shows_the_wait_and_a_closed_page_leaves_the_pool(
    server: ServerProcess, browser: Any
) -> None:
    context, first = lobby(browser, server, phone=True)
    choose(first, format="505", form="4", bots="never")
    first.click("[data-testid=pool-play]")
    first.locator("[data-testid=pool-waiting]").wait_for()
    token = json.loads(first.evaluate("() => localStorage.getItem('burraco:guest')"))["token"]
    # the same player in a second tab: the wait, not a second join
    second = context.new_page()
    second.goto(server.base + "/")
    second.locator("[data-testid=pool-waiting][data-phase=waiting]").wait_for()
    assert (
        "To 505 points · 4 players · Casual"
        in second.locator("[data-testid=pool-what]").text_content()
    )
    # a page closed while waiting leaves the pool: no table waits for someone gone
    first.close(run_before_unload=True)
    deadline = time.monotonic() + 15  # well before the 45 s a silent player is dropped after
    while (
        server.http.get("/api/pool", headers={"authorization": f"Bearer {token}"}).json()["state"]
        != "none"
    ):
        assert time.monotonic() < deadline, "still in the pool after the page closed"
        time.sleep(0.2)
    note = second.locator("[data-testid=pool-note]")
    note.wait_for(timeout=10_000)
    assert (
        note.text_content()
        == "You are no longer waiting in the pool: press Find players to join again."
    )
    context.close()


def test_registering_while_waiting_ends_the_guest_s_wait(
    server: ServerProcess, browser: Any
) -> None:
    context, page = lobby(browser, server, phone=True)
    choose(page, format="505", form="4", bots="never")
    page.click("[data-testid=pool-play]")
    page.locator("[data-testid=pool-waiting][data-phase=waiting]").wait_for()
    guest = json.loads(page.evaluate("() => localStorage.getItem('burraco:guest')"))
    page.click("[data-testid=tab-register]")
    page.fill("section.panel.account input[name=username]", "Pool_Newcomer")
    page.fill("section.panel.account input[name=password]", PASSWORD)
    page.click("[data-testid=account-submit]")
    page.locator("[data-testid=pool-card]").wait_for(timeout=10_000)
    assert (
        page.locator("[data-testid=pool-note]")
        .text_content()
        .startswith("You are no longer waiting")
    )
    assert not page.locator("select[name=pool-rated] option[value=rated]").is_disabled()
    account_token = json.loads(page.evaluate("() => localStorage.getItem('burraco:guest')"))[
        "token"
    ]
    assert account_token != guest["token"]
    for token in (guest["token"], account_token):
        state = server.http.get("/api/pool", headers={"authorization": f"Bearer {token}"})
        assert state.status_code != 200 or state.json()["state"] == "none", state.text
    assert not page.errors, page.errors
    context.close()


def test_the_card_in_italian_on_a_phone(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    context, page = lobby(browser, server, phone=True, locale="it-IT")
    assert page.locator("#pool-title").text_content() == "Gioca con altre persone"
    assert page.locator("[data-testid=pool-play]").text_content() == "Trova giocatori"
    assert page.locator("select[name=pool-form] option").all_text_contents() == [
        "2 giocatori",
        "4, a coppie",
    ]
    box = page.locator("[data-testid=quick-play]").bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    no_sideways_scroll(page)
    page.screenshot(path=str(screenshots / "pool-card-phone-it.png"))
    context.close()


def test_accounts_meet_in_a_rated_pool_and_refusals_are_named(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    one = account(server, "Pool_Ada")
    two = account(server, "Pool_Bo")
    ctx_one, page_one = lobby(browser, server, phone=True, guest=one)
    ctx_two, page_two = lobby(browser, server, phone=False, guest=two, locale="it-IT")
    # a rated pool the server has not (one hand is below the rated minimum): named in the card
    choose(page_one, format="hand", form="2", rated="rated")
    assert page_one.locator("select[name=pool-bots]").is_disabled()
    assert page_one.locator("#pool-why").text_content().startswith("Rated: people only")
    page_one.click("[data-testid=pool-play]")
    error = page_one.locator("[data-testid=pool-error]")
    error.wait_for()
    assert error.text_content() == "Rated games here are longer: pick a longer length."
    page_one.screenshot(path=str(screenshots / "pool-error-phone.png"))
    assert page_one.locator("[data-testid=pool-card]").count() == 1
    # a choice changed clears it; then both play rated, three hands in victory points
    for page in (page_one, page_two):
        choose(page, format="vp3", form="2", rated="rated")
    assert error.count() == 0
    page_one.click("[data-testid=pool-play]")
    page_two.click("[data-testid=pool-play]")
    for page in (page_one, page_two):
        page.wait_for_url("**/play/**", timeout=30_000)
    assert table_id(page_one) == table_id(page_two)
    state = pool_state(page_one)
    assert state["state"] == "matched" and state["match"]["rated"] is True
    assert sorted(state["match"]["players"]) == ["Pool_Ada", "Pool_Bo"]
    assert not page_one.errors and not page_two.errors
    ctx_one.close()
    ctx_two.close()
