"""Feedback and keyboard play at a table, in Chromium against a real ``burraco serve``.

A newcomer plays against three bots: when the turn comes the title says so and the turn
chime is counted; the hand is one Tab stop that the arrow keys walk; the card drawn flies in
from the stock and stays marked until the discard; every move is said in the live region (in
English, then Italian); a discard made from the keyboard leaves the focus in the hand. The
sound switch and the four-colour deck are remembered across a reload, and with
``prefers-reduced-motion`` no card flies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import (
    DESKTOP,
    PHONE,
    click_card,
    enter_lobby,
    hand_ended,
    ids_for,
    legal_actions,
    pick_lang,
    settle,
    version,
    wait_ready,
)

pytestmark = pytest.mark.xdist_group("e2e")

FOCUSED = """() => { const e = document.activeElement;
  return e ? [e.className, e.dataset.id ?? null] : null; }"""


def quick_table(browser: Any, base: str, nickname: str, **context: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(**{"viewport": DESKTOP, "locale": "en-US", **context})
    page = ctx.new_page()
    enter_lobby(page, base, nickname)
    page.click("[data-testid=quick-play]")
    page.wait_for_selector(".hand-card", timeout=30_000)
    return ctx, page


def my_turn_to_draw(page: Any) -> None:
    wait_ready(page, timeout=90_000)
    assert not hand_ended(page)
    assert "draw" in legal_actions(page)


def test_the_turn_the_moves_and_the_hand_from_the_keyboard(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    ctx, page = quick_table(browser, server.base, "Keys")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    my_turn_to_draw(page)
    # the title and the chime say it is my turn
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert int(page.evaluate("() => document.documentElement.dataset.turnAlerts ?? '0'")) >= 1

    # one Tab stop in the hand; the arrow keys walk it
    cards = page.locator(".hand-card")
    assert cards.count() == 11
    assert page.locator('.hand-card[tabindex="0"]').count() == 1
    assert page.locator('.hand-card[tabindex="-1"]').count() == 10
    page.locator("button[data-action=draw]").focus()
    page.keyboard.press("Shift+Tab")
    cls, _ = page.evaluate(FOCUSED)
    assert "hand-card" in cls, cls
    page.keyboard.press("Tab")  # one Tab leaves the whole hand
    assert page.evaluate("() => document.activeElement.dataset.action") == "draw"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED)[1] == cards.last.get_attribute("data-id")
    page.keyboard.press("ArrowLeft")
    second_last = cards.nth(9).get_attribute("data-id")
    assert page.evaluate(FOCUSED)[1] == second_last
    assert page.locator('.hand-card[tabindex="0"]').get_attribute("data-id") == second_last

    # draw: the new card flies in from the stock and is marked; the move is announced
    held = {cid for cid, _ in (tuple(x) for x in cards.evaluate_all(
        "els => els.map(e => [e.dataset.id, e.dataset.face])"))}
    before = version(page)
    page.locator("button[data-action=draw]").focus()
    page.keyboard.press("Enter")
    settle(page, before)
    wait_ready(page)
    marked = page.locator(".hand-card[data-fresh]")
    assert marked.count() == 1
    assert marked.get_attribute("data-id") not in held
    assert "just taken" in (marked.get_attribute("aria-label") or "")
    page.wait_for_function(
        "() => Number(document.querySelector('.table-page').dataset.flights ?? 0) > 0")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announcer]').textContent.includes('Keys drew')")
    page.screenshot(path=str(screenshots / "table-fresh-card.png"))

    # a press on a card selects it even when the row moves away before the release (a frame
    # that re-lays the table): the browser sends that click to a parent, the tap still counts;
    # and a plain click selects and unselects exactly once
    first = cards.first.get_attribute("data-id")
    shifted = page.locator(f'.hand-card[data-id="{first}"]')
    box = shifted.bounding_box()
    assert box
    page.mouse.move(box["x"] + 7, box["y"] + 30)
    page.mouse.down()
    page.evaluate("() => { document.querySelector('.hand').style.marginTop = '180px'; }")
    page.mouse.up()
    page.evaluate("() => { document.querySelector('.hand').style.marginTop = ''; }")
    assert shifted.get_attribute("aria-pressed") == "true"
    click_card(page, first)
    assert shifted.get_attribute("aria-pressed") == "false"
    click_card(page, first)
    assert shifted.get_attribute("aria-pressed") == "true"
    page.click("button[data-action=clear]")
    assert page.locator('.hand-card[aria-pressed="true"]').count() == 0

    # discard from the keyboard: Space selects, Enter on Discard; focus stays in the hand
    face = next(a for a in legal_actions(page) if a.startswith("discard ")).split()[1]
    (cid,) = ids_for(page, [face])
    page.locator(f'.hand-card[data-id="{cid}"]').focus()
    page.keyboard.press("Space")
    assert page.locator(f'.hand-card[data-id="{cid}"]').get_attribute("aria-pressed") == "true"
    before = version(page)
    page.locator("button[data-action=discard]").focus()
    page.keyboard.press("Enter")
    settle(page, before)
    page.wait_for_function("() => document.activeElement?.classList.contains('hand-card')",
                           timeout=15_000)
    assert page.locator(".hand-card[data-fresh]").count() == 0, "the mark outlived the discard"
    assert page.locator('.hand-card[tabindex="0"]').count() == 1
    page.wait_for_function(
        "() => !document.title.startsWith('●')", timeout=30_000)

    # the bots' moves are announced too, in the page's language
    pick_lang(page, "it")
    page.wait_for_function(
        """() => / (ha pescato|ha raccolto|ha scartato|ha calato|ha attaccato)/
             .test(document.querySelector('[data-testid=announcer]').textContent)""",
        timeout=60_000)
    pick_lang(page, "en")
    assert not errors, errors
    ctx.close()


def test_sound_and_four_colours_are_remembered_and_reduced_motion_is_respected(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    ctx, page = quick_table(browser, server.base, "Quiet", reduced_motion="reduce", locale="it-IT",
                            **PHONE)
    sound = page.locator("[data-pref=sound]")
    four = page.locator("[data-pref=four-colour]")
    assert sound.get_attribute("aria-pressed") == "true"
    assert four.get_attribute("aria-pressed") == "false"
    sound.click()
    four.click()
    assert sound.get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector(".hand-card", timeout=30_000)
    assert page.locator("[data-pref=sound]").get_attribute("aria-pressed") == "false"
    assert page.locator("[data-pref=four-colour]").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
    srcs = page.locator(".hand-card img").evaluate_all("els => els.map(e => e.getAttribute('src'))")
    faces = page.locator(".hand-card").evaluate_all("els => els.map(e => e.dataset.face)")
    for face, src in zip(faces, srcs, strict=True):
        recoloured = face[-1] in "DC" and face != "JK"
        assert ("/cards/4c/" in src) == recoloured, (face, src)

    # muted: the turn still comes (title), without the chime; reduced motion: nothing flies
    my_turn_to_draw(page)
    page.wait_for_function("() => document.title.startsWith('● Tocca a te')")
    assert int(page.evaluate("() => document.documentElement.dataset.turnAlerts ?? '0'")) >= 1
    assert page.evaluate("() => document.documentElement.dataset.sounds ?? '0'") == "0"
    before = version(page)
    page.click("button[data-action=draw]")
    settle(page, before)
    wait_ready(page)
    assert page.locator(".hand-card[data-fresh]").count() == 1
    page.screenshot(path=str(screenshots / "table-four-colour-phone.png"), full_page=True)
    flights = page.evaluate("() => document.querySelector('.table-page').dataset.flights ?? '0'")
    assert flights == "0"
    assert page.evaluate("() => document.getAnimations().length") == 0
    ctx.close()


def test_without_reduced_motion_the_chime_is_played(server: ServerProcess, browser: Any) -> None:
    ctx, page = quick_table(browser, server.base, "Loud")
    my_turn_to_draw(page)
    page.wait_for_function("() => Number(document.documentElement.dataset.sounds ?? 0) >= 1")
    ctx.close()


def test_a_drag_at_the_edge_scrolls_and_a_press_the_page_moved_still_counts(
        server: ServerProcess, browser: Any) -> None:
    # a short window: the table is taller than the screen, and the hand stays at the bottom
    ctx, page = quick_table(browser, server.base, "Edge", viewport={"width": 1280, "height": 560})
    my_turn_to_draw(page)
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 100")
    start = page.evaluate("() => window.scrollY")
    before = version(page)
    box = page.locator(".hand-card").first.bounding_box()
    assert box
    page.mouse.move(box["x"] + 7, box["y"] + 30)
    page.mouse.down()
    page.mouse.move(box["x"] + 200, 300, steps=4)
    assert page.evaluate("() => window.scrollY") == start, "the page scrolled away from the edge"
    page.mouse.move(box["x"] + 200, 6, steps=4)  # held at the top edge: the page scrolls up
    page.wait_for_function("() => window.scrollY === 0", timeout=10_000)
    page.mouse.move(box["x"] + 200, 300, steps=2)
    at = page.evaluate("() => window.scrollY")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.scrollY") == at, "the page went on scrolling off the edge"
    page.mouse.up()  # released on no target: nothing is played
    assert version(page) == before and page.locator(".hand-card").count() == 11
    assert "draw" in legal_actions(page)

    # a press on Draw that slides away is no press; one that the page moved off the button
    # (a frame that re-lays the table between press and release) is one draw, not two
    draw = page.locator("button[data-action=draw]")
    box = draw.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 60, steps=4)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert version(page) == before and "draw" in legal_actions(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => { document.querySelector('.actions').style.marginLeft = '300px'; }")
    page.mouse.up()
    page.evaluate("() => { document.querySelector('.actions').style.marginLeft = ''; }")
    settle(page, before)
    wait_ready(page)
    assert page.locator(".hand-card").count() == 12 and "draw" not in legal_actions(page)
    assert page.locator("[data-testid=reject]").count() == 0
    ctx.close()
