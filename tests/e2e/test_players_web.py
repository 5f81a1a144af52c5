"""The players in the browser: register, a rated match against a bot, the profile with the
match and the rating plot, oneself on the leaderboard, both languages, logging out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import (
    DESKTOP,
    PHONE,
    hand_ended,
    play_simple_turn,
    table_id,
    wait_ready,
    watch_frames,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose rated matches may be one hand long (``--rated-min-target 1``; the
    default is 505): the test plays its rated match's one hand in the browser."""
    folder: Path = tmp_path_factory.mktemp("e2e-players")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1"])
    process.start()
    yield process
    process.stop()


def recorded(server: ServerProcess, name: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = server.http.get(f"/api/players/{name}").json()
        if body.get("recent"):
            return dict(body)
        assert time.monotonic() < deadline, body
        time.sleep(0.2)


def register_in_browser(page: Any, server: ServerProcess, username: str) -> Any:
    """Register ``username`` through the lobby's form; the account panel that shows."""
    page.goto(server.base + "/")
    page.click("[data-testid=tab-register]")
    page.fill(".account-form input[name=username]", username)
    page.fill(".account-form input[name=password]", "a long enough password")
    page.click("[data-testid=account-submit]")
    account = page.locator("[data-testid=account]")
    account.wait_for(timeout=20_000)
    return account


def test_register_play_rated_see_profile_and_leaderboard(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = watch_frames(context.new_page())
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    account = register_in_browser(page, server, "Browser_Ada")
    assert "Logged in as Browser_Ada" in account.text_content()
    bots = page.locator("[data-testid=bot-ratings]")
    bots.wait_for()
    assert "expert" in bots.text_content() and "4 players (pairs)" in bots.text_content()
    daily = page.locator("[data-testid=daily]")
    daily.wait_for()
    assert "Daily duplicate" in daily.text_content()
    assert page.locator("[data-testid=daily-4]").text_content() == "Play: 4 players (pairs)"
    page.screenshot(path=str(screenshots / "players-lobby.png"), full_page=True)

    # a rated table of four (a bot partner against two bots), to one hand (target 1): the
    # person plays a quarter of the turns
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", "4")
    for seat in (1, 2, 3):
        page.select_option(f"select[name=seat{seat}]", "bot")
        page.select_option(f"select[name=level{seat}]", "basic")
    page.select_option("select[name=format]", "target")
    page.fill("input[name=target]", "1")
    page.click("[data-testid=more-rules] > summary")
    page.fill("input[name=bot_delay]", "0")
    page.check("input[name=rated]")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".dialog .copy-link")
    page.click(".dialog a.button.primary")
    page.wait_for_selector(".hand-card", timeout=30_000)
    tid = table_id(page)
    turn = 0
    while True:
        wait_ready(page, timeout=120_000)
        if hand_ended(page):
            break
        play_simple_turn(page, turn)
        turn += 1
        assert turn < 120, "the hand did not end"
    page.click("[data-testid=continue]")
    page.locator("[data-testid=verdict]").wait_for(timeout=30_000)

    body = recorded(server, "Browser_Ada")
    assert body["recent"][0]["table_id"] == tid and body["recent"][0]["rated"]
    page.goto(f"{server.base}/players/Browser_Ada")
    page.locator("[data-testid=matches] li").first.wait_for(timeout=20_000)
    assert page.locator("[data-testid=profile-name]").text_content() == "Player Browser_Ada"
    assert page.locator("[data-testid=rating-plot]").count() == 1
    row = page.locator("[data-testid=matches] li").first
    text = row.text_content()
    assert "rated" in text and "with bot basic vs bot basic, bot basic" in text
    assert row.locator("a", has_text="hand 1").get_attribute("href") == f"/replay/{tid}?hand=1"
    page.screenshot(path=str(screenshots / "players-profile.png"), full_page=True)

    page.goto(f"{server.base}/leaderboard?players=4&period=week")
    mine = page.locator("[data-testid=my-rank]")
    mine.wait_for(timeout=20_000)
    assert "My rank: 1" in mine.text_content()
    assert page.locator("[data-testid=board] tr.me").text_content().startswith("1Browser_Ada")
    page.screenshot(path=str(screenshots / "players-leaderboard.png"), full_page=True)
    page.click("[data-testid=to-lobby]")  # a named way back to the lobby
    page.locator("[data-testid=daily]").wait_for(timeout=20_000)

    # the same pages in Italian, for someone not logged in
    italian = browser.new_context(viewport=DESKTOP, locale="it-IT")
    other = italian.new_page()
    other.goto(f"{server.base}/players/browser_ada")
    other.locator("[data-testid=matches] li").first.wait_for(timeout=20_000)
    assert other.locator("h2", has_text="Partite finite").count() == 1
    first = other.locator("[data-testid=matches] li").first.text_content()
    assert "valida per la classifica" in first
    other.screenshot(path=str(screenshots / "players-profile-it.png"), full_page=True)
    italian.close()

    # the lobby, the profile and the board in both languages, at desktop and phone sizes,
    # logged in (the screenshots are looked at)
    session = context.storage_state()
    for locale, lang in (("en-US", "en"), ("it-IT", "it")):
        for size, device in (("desktop", {"viewport": DESKTOP}), ("phone", PHONE)):
            view = browser.new_context(locale=locale, storage_state=session, **device)
            shot = view.new_page()
            shot.on("pageerror", lambda exc: errors.append(str(exc)))
            for name, path, ready in (
                    ("lobby", "/", "[data-testid=daily]"),
                    ("profile", "/players/Browser_Ada", "[data-testid=matches] li"),
                    ("leaderboard", "/leaderboard?players=4&period=week",
                     "[data-testid=my-rank]")):
                shot.goto(server.base + path)
                shot.locator(ready).first.wait_for(timeout=20_000)
                shot.screenshot(path=str(screenshots / f"players-{name}-{lang}-{size}.png"),
                                full_page=True)
            width = shot.evaluate("document.documentElement.scrollWidth")
            assert width <= device["viewport"]["width"], f"{lang} {size}: scrolls sideways"
            view.close()

    # logging out brings the forms back; the session no longer works
    page.goto(server.base + "/")
    page.click("[data-testid=logout]")
    page.locator("[data-testid=tab-login]").wait_for()
    assert page.locator("[data-testid=account]").count() == 0
    assert not errors, errors
    context.close()


def test_a_late_answer_to_the_lobby_check_does_not_undo_a_logout(
        server: ServerProcess, browser: Any) -> None:
    """The lobby checks the saved session (GET /api/me) as it loads; a player who logs out
    before that answer arrives stays logged out when it does."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    register_in_browser(page, server, "Late_Answer")

    held: list[Any] = []
    page.route("**/api/me", lambda route: held.append(route))
    page.goto(server.base + "/")
    page.locator("[data-testid=logout]").wait_for()
    deadline = time.monotonic() + 20
    while not held:  # the lobby's check (the account panel asks too) is on its way
        assert time.monotonic() < deadline, "the lobby did not check the session"
        page.wait_for_timeout(50)
    answers = [route.fetch() for route in held]  # answered while the session was alive
    assert all(answer.status == 200 for answer in answers)
    page.click("[data-testid=logout]")
    page.locator("[data-testid=tab-login]").wait_for(timeout=20_000)
    for route, answer in zip(held, answers, strict=True):
        route.fulfill(response=answer)  # ... and delivered only now
    page.wait_for_timeout(500)
    assert page.locator("[data-testid=tab-login]").is_visible()
    assert page.locator("[data-testid=account]").count() == 0
    assert "Late_Answer" not in page.evaluate("JSON.stringify(localStorage)")
    assert not errors, errors
    context.close()
