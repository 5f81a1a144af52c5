"""Avatars in the browser: a player registers, picks an avatar in the lobby's account panel
(with the mouse, then with the arrow keys) and on their own profile, sees it in the profile's
header and on their badge at a table, where a guest shows the guests' silhouette and each bot
its level's robot; the picker has no serious or critical axe-core finding, in both languages,
at a phone's 390×844 and a desktop's 1280×800."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from harness import ServerProcess
from test_players_web import register_in_browser
from test_web_axe import axe_problems
from test_web_client import DESKTOP, PHONE, enter_lobby


def saved(page: Any) -> str:
    """The avatar the picker says it kept (waits for the status line)."""
    page.locator("[data-testid=avatar-status].saved").wait_for(timeout=20_000)
    return str(page.locator("[data-testid=avatar-picker] input:checked").get_attribute(
        "data-avatar"))


def token_of(page: Any) -> str:
    return str(page.evaluate("JSON.parse(localStorage.getItem('burraco:guest')).token"))


def server_avatar(server: ServerProcess, token: str) -> str:
    me = httpx.get(f"{server.base}/api/me", headers={"authorization": f"Bearer {token}"})
    return str(me.json()["avatar"])


def badges(page: Any) -> dict[str, str]:
    """Each badge's name and the avatar drawn on it, once every seat shows one."""
    page.wait_for_function("""() => {
      const seats = [...document.querySelectorAll('.players .player')];
      return seats.length > 0 && seats.every((li) => li.querySelector('img.avatar'));
    }""", timeout=20_000)
    return dict(page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '.players .player')].map((li) => [li.querySelector('.name').textContent,
      li.querySelector('img.avatar').dataset.avatar]))"""))


def test_pick_an_avatar_and_see_it_on_the_profile_and_at_the_table(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    account = register_in_browser(page, server, "Avatar_Ada")
    token = token_of(page)
    first = server_avatar(server, token)
    assert account.locator("img.avatar").get_attribute("data-avatar") == first

    # the lobby's account panel: open the picker, click a picture, then walk with the keys
    toggle = page.locator("[data-testid=account] [data-testid=change-avatar]")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    picker = page.locator("[data-testid=avatar-picker]")
    assert picker.locator("input[type=radio]").count() == 16
    assert picker.locator("input:checked").get_attribute("data-avatar") == first
    assert not (problems := axe_problems(page, "lobby, avatar picker (en)")), problems
    choice = "penguin" if first != "penguin" else "owl"
    picker.locator(f"label:has(input[data-avatar={choice}])").click()
    assert saved(page) == choice and server_avatar(server, token) == choice
    assert account.locator("p img.avatar").get_attribute("data-avatar") == choice
    assert "Saved: " in page.locator("[data-testid=avatar-status]").text_content()
    page.screenshot(path=str(screenshots / "avatars-lobby-picker-desktop.png"), full_page=True)

    picker.locator("input:checked").focus()  # the arrow keys move and pick, as in any group
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    order = page.evaluate("""() => [...document.querySelectorAll(
      '[data-testid=avatar-picker] input')].map((i) => i.dataset.avatar)""")
    expected = order[(order.index(choice) + 2) % len(order)]
    assert saved(page) == expected and server_avatar(server, token) == expected

    # the own profile: the header shows it; the picker there changes it too
    page.goto(f"{server.base}/players/Avatar_Ada")
    header = page.locator("[data-testid=profile-name] img.avatar")
    header.wait_for(timeout=20_000)
    assert header.get_attribute("data-avatar") == expected
    assert page.locator("[data-testid=profile-name]").text_content() == "Player Avatar_Ada"
    page.click("[data-testid=change-avatar]")
    page.locator("[data-testid=avatar-picker] label:has(input[data-avatar=fox])").click()
    assert saved(page) == "fox"
    assert header.get_attribute("data-avatar") == "fox"
    assert not (problems := axe_problems(page, "own profile, avatar picker (en)")), problems
    page.reload()
    page.locator("[data-testid=profile-name] img.avatar[data-avatar=fox]").wait_for()
    page.screenshot(path=str(screenshots / "avatars-profile-desktop.png"), full_page=True)

    # a table: the account, a guest and two bots, each with their picture on their badge
    table = server.create_table(token, players=4, bot_delay=10, creator_seat=0, seats=[
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "expert"}])
    page.goto(table["seats"][0]["invite"])
    guest_context = browser.new_context(**PHONE, locale="it-IT", bypass_csp=True)
    guest = guest_context.new_page()
    guest.on("pageerror", lambda exc: errors.append(str(exc)))
    enter_lobby(guest, server.base, "Gina")
    guest.goto(table["seats"][1]["invite"])
    guest.wait_for_selector(".hand-card", timeout=30_000)
    page.wait_for_selector(".hand-card", timeout=30_000)
    seen = {"Avatar_Ada": "fox", "Gina": "guest", "Bot 3 (random)": "bot-random",
            "Bot 4 (expert)": "bot-expert"}
    assert badges(page) == seen
    assert badges(guest) == {"Avatar_Ada": "fox", "Gina": "guest",
                             "Bot 3 (casuale)": "bot-random", "Bot 4 (esperto)": "bot-expert"}
    for view, size in ((page, DESKTOP), (guest, PHONE["viewport"])):
        box = view.locator(".player.me img.avatar").bounding_box()
        assert box is not None and 18 <= box["width"] <= 32 and box["width"] == box["height"], box
        assert view.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.locator(".players").screenshot(path=str(screenshots / "avatars-badges-desktop.png"))
    guest.locator(".players").screenshot(path=str(screenshots / "avatars-badges-phone.png"))
    page.screenshot(path=str(screenshots / "avatars-table-desktop.png"))
    guest.screenshot(path=str(screenshots / "avatars-table-phone.png"))
    guest_context.close()
    assert not errors, errors
    context.close()


def test_the_picker_on_a_phone_in_italian(server: ServerProcess, browser: Any,
                                         screenshots: Path) -> None:
    context = browser.new_context(**PHONE, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    register_in_browser(page, server, "Avatar_Bea")
    page.click("[data-testid=account] [data-testid=change-avatar]")
    picker = page.locator("[data-testid=avatar-picker]")
    picker.wait_for()
    assert picker.locator("legend").text_content() == "Il tuo avatar"
    assert picker.locator("img[alt=Riccio]").count() == 1
    assert not (problems := axe_problems(page, "lobby, avatar picker (it, phone)")), problems
    # four a row, each big enough to tap, nothing off the side of the screen
    boxes = [picker.locator("label").nth(k).bounding_box() for k in range(5)]
    assert all(b is not None and b["width"] >= 44 for b in boxes), boxes
    assert len({round(b["y"]) for b in boxes[:4]}) == 1 and boxes[4]["y"] > boxes[0]["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    # a picture other than the one the account shows already (its default may be the hedgehog)
    current = picker.locator("input:checked").get_attribute("data-avatar")
    choice, name = ("hedgehog", "Riccio") if current != "hedgehog" else ("owl", "Gufo")
    picker.locator(f"label:has(input[data-avatar={choice}])").click()
    assert saved(page) == choice
    assert page.locator("[data-testid=avatar-status]").text_content() == f"Salvato: {name}."
    page.screenshot(path=str(screenshots / "avatars-lobby-picker-phone.png"), full_page=True)
    assert not errors, errors
    context.close()
