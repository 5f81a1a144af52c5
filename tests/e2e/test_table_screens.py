"""Whole hands in Chromium at 1280×800 and on a 390×844 phone, every screen shot in both
languages into ``tests/e2e/screens/`` (not committed), and what a newcomer tripped over
checked on the way:

* the lobby names the tables this browser keeps, files a finished private game under the
  finished games (no "Open" on it), and shows a new public table without Refresh;
* at the table: the score header puts the viewer's side first at an odd seat; a card dropped
  on the pile before drawing, or the pile clicked with nothing to do, says why (and opens no
  preview); a refused meld keeps the selection; the hand's cards overlap only as the row
  needs; on the phone a raised card never covers the hint and the pozzetto status shows;
  after a reload the move log is there;
* the score dialog opens at its top; the match-over dialog closes (the language switch is
  reachable) and reopens, names the replay as the lobby does, and no "last round" is left;
  the replay shows no empty "pozzetti not taken" heading;
* an unknown address gets the app's not-found page; a bad or stale invite one clear message
  and the way back to the lobby.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import (
    DESKTOP,
    PHONE,
    PICK_LANG,
    click_card,
    drag,
    enter_lobby,
    hand_cards,
    hand_ended,
    pick_lang,
    play_simple_turn,
    settle,
    shown,
    table_id,
    version,
    wait_ready,
    watch_frames,
)

pytestmark = pytest.mark.xdist_group("e2e")

SCREENS = Path(__file__).resolve().parent / "screens"
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
SIZES = {"desktop": {"viewport": DESKTOP}, "phone": PHONE}


def shoot(page: Any, size: str, name: str, *, full: bool = False) -> None:
    """The screen as it is, in English and in Italian (switched by the page's own buttons)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    for step, lang in enumerate(("en", "it", "en")):
        page.evaluate(PICK_LANG, lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        if step < 2:  # the last step only switches back
            page.evaluate(NEXT_FRAME)
            page.screenshot(path=str(SCREENS / f"{size}-{name}-{lang}.png"), full_page=full)


def create_private_table(page: Any, *, seat: int) -> None:
    """The form: four players, bots everywhere but ``seat``, one hand, no thinking pause."""
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", "4")
    for i in range(4):
        page.select_option(f"select[name=seat{i}]", "human" if i == seat else "bot")
    page.check("input[name=mine]")
    page.select_option("select[name=format]", "hands:1")
    page.click("[data-testid=more-rules] > summary")
    page.fill("input[name=bot_delay]", "0")
    page.check("input[name=private]")


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom}; })"))


def check_hand_fits(page: Any, size: str) -> None:
    # measured where the cards rest: a card still flying in from the stock is not in its row
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running')")
    cards = boxes(page, ".hand-card")
    row = boxes(page, ".hand")[0]
    assert len(cards) >= 11
    first_row = [c for c in cards if abs(c["y"] - cards[0]["y"]) < 4]
    steps = [b["x"] - a["x"] for a, b in itertools.pairwise(first_row)]
    width = cards[0]["width"]
    if size == "desktop":
        # half the row was empty with the old fixed overlap: now every card shows whole
        assert min(steps) >= width, (steps, width, row)
    else:
        assert min(steps) >= 0.3 * width
        assert first_row[-1]["x"] + width <= row["x"] + row["width"] + 1


def check_phone_hint_and_pozzetti(page: Any) -> None:
    (cid, _face), *_ = hand_cards(page)
    click_card(page, cid)
    page.wait_for_selector(f'.hand-card.selected[data-id="{cid}"]')
    page.wait_for_function(
        "(id) => { const e = document.querySelector(`.hand-card[data-id=\"${id}\"]`);"
        " return getComputedStyle(e).transform !== 'none'; }", arg=cid)
    page.evaluate("() => new Promise((r) => setTimeout(r, 250))")  # the raise's transition
    raised = boxes(page, ".hand-card.selected")[0]
    hint = boxes(page, ".my-hand .hint")[0]
    assert raised["y"] >= hint["bottom"] - 0.5, (raised, hint)
    click_card(page, cid)
    page.wait_for_selector(".hand-card.selected", state="detached")
    assert page.locator("[data-pozzetto-side]").first.is_visible()


def first_turn_checks(page: Any, size: str) -> None:
    """At the first draw: the header's order, a drop on the pile, then after drawing the pile's
    click, a refused meld, the hand's overlap (and the phone's hint and pozzetto status)."""
    first = page.locator(".score-line .score").first
    assert "mine" in (first.get_attribute("class") or ""), "the viewer's side is not first"
    (cid, _), *_ = hand_cards(page)
    drag(page, page.locator(f'.hand-card[data-id="{cid}"]'), page.locator("[data-drop=pile]"),
         at_left=True)
    page.wait_for_selector("[data-testid=nudge]")
    assert "Draw first" in page.locator("[data-testid=nudge]").text_content()
    before = version(page)
    page.click("button[data-action=draw]")
    settle(page, before)
    wait_ready(page)
    if hand_ended(page):
        return
    page.click("[data-testid=pile]")
    page.wait_for_function("() => document.querySelector('[data-testid=nudge]')"
                           "?.textContent.includes('Select one card')")
    assert page.locator("[data-testid=pile-all]").count() == 0, "the pile's click opened a preview"
    page.evaluate(PICK_LANG, "it")
    assert "Scegli una carta" in page.locator("[data-testid=nudge]").text_content()
    page.evaluate(PICK_LANG, "en")
    check_hand_fits(page, size)
    if size == "phone":
        check_phone_hint_and_pozzetti(page)
    # a refused meld: one card is no meld; the selection stays to be fixed
    (cid, _), *_ = hand_cards(page)
    click_card(page, cid)
    page.click("button[data-action=meld]")
    page.wait_for_selector("[data-testid=reject]")
    assert page.locator(".hand-card.selected").count() == 1, "the refusal cleared the selection"
    # the refusal covers no button (it covered Sort by suit and Clear on a phone, Undo on a
    # desktop): it sits where the hint was, above the hand
    refusal = boxes(page, ".refusal:has([data-testid=reject])")[0]
    for button in boxes(page, ".actions button"):
        apart = (refusal["x"] + refusal["width"] <= button["x"] or button["x"] + button["width"]
                 <= refusal["x"] or refusal["bottom"] <= button["y"]
                 or button["bottom"] <= refusal["y"])
        assert apart, (refusal, button)
    shoot(page, size, "refusal")
    page.click("[data-testid=reject]")
    page.click("button[data-action=clear]")
    page.wait_for_selector(".hand-card.selected", state="detached")
    wait_ready(page)


def after_the_hand(page: Any, size: str) -> None:
    dialog = page.locator(".dialog.hand-end")
    dialog.wait_for()
    assert dialog.evaluate("d => d.scrollTop") == 0, "the score dialog opened scrolled down"
    top = page.locator("[data-testid=score-table]").bounding_box()
    assert top and top["y"] < page.viewport_size["height"], "the score table is out of view"
    mine = page.locator("[data-testid=score-table] thead th").nth(1).get_attribute("class")
    assert "mine" in (mine or ""), "the viewer's side is not the score's first column"
    shoot(page, size, "score")
    page.click("[data-testid=continue]")
    page.wait_for_selector("[data-testid=verdict]", timeout=30_000)
    assert page.locator(".hint .final").count() == 0, "the last-round warning outlived the match"
    shoot(page, size, "match-over")
    page.evaluate(PICK_LANG, "it")
    assert page.locator(".match-over a.button:not(.primary)").text_content() == "Rivedi"
    page.evaluate(PICK_LANG, "en")
    page.click("[data-testid=dialog-close]")
    pick_lang(page, "it")  # a real pick: nothing covers the switch now
    pick_lang(page, "en")
    page.click("[data-testid=match-show]")
    page.click(".match-over a.button:not(.primary)")
    page.wait_for_selector("[data-testid=commitment]")
    if page.locator("[data-replay=last]:not([disabled])").count():
        page.click("[data-replay=last]")
    page.wait_for_selector("[data-testid=score-table]")
    for heading in page.locator(".replay-table h4").all():
        if "Pozzetti" in (heading.text_content() or ""):
            assert heading.locator("xpath=..").locator(".card-face").count() > 0
    shoot(page, size, "replay", full=True)


def lobby_checks(page: Any, server: ServerProcess, size: str, tid: str) -> None:
    page.goto(server.base + "/")
    finished = page.locator(f'section.panel:has(h2:text-is("Finished games")) [data-table="{tid}"]')
    finished.wait_for(timeout=30_000)
    assert finished.locator("a", has_text="Open").count() == 0
    assert page.locator(f'[data-testid=my-tables] [data-table="{tid}"]').count() == 0
    # a public table someone else creates shows by itself
    other = server.guest(f"Host{size}")
    created = server.create_table(other, players=2, mode="smazzate", smazzate=1, public=True,
                                  seats=[{"kind": "human"}, {"kind": "human"}])
    # the old lobby read the list every 10 s: 9 s is less than one of its periods
    page.wait_for_selector(f'[data-table="{created["table_id"]}"]', timeout=9_000)
    shoot(page, size, "lobby", full=True)


def not_found_and_bad_links(browser: Any, server: ServerProcess, size: str) -> None:
    context = browser.new_context(locale="en-US", **SIZES[size])
    context.set_default_timeout(60_000)
    page = context.new_page()
    response = page.goto(server.base + "/no/such/page")
    assert response is not None and response.status == 404
    page.wait_for_selector("[data-testid=not-found]")
    shoot(page, size, "not-found")
    page.click("[data-testid=not-found] a[href='/']")
    page.wait_for_selector("[data-testid=quick-play]")

    # an unknown table, then a stale invite to a real one: one message, the way back
    page.goto(server.base + "/play/no-such-table")
    page.wait_for_selector("[data-testid=bad-link]")
    assert page.locator(".panel.waiting").count() == 0
    host = server.guest("Stale")
    real = server.create_table(host, players=2, mode="smazzate", smazzate=1,
                               seats=[{"kind": "human"}, {"kind": "human"}])
    page.goto(f"{server.base}/play/{real['table_id']}?seat=1&token=stale-token")
    page.fill("input[name=nickname]", "Late")
    page.click("form.nickname button[type=submit]")
    page.wait_for_selector("[data-testid=bad-link]")
    assert page.locator(".panel.waiting").count() == 0
    assert page.locator(".banner.error, [data-testid=reject]").count() == 0, "shown twice"
    shoot(page, size, "bad-invite")
    page.click("[data-testid=bad-link] a[href='/']")
    page.wait_for_selector("[data-testid=quick-play]")
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_whole_hand_every_screen_both_languages(
        server: ServerProcess, browser: Any, size: str) -> None:
    started = time.monotonic()
    context = browser.new_context(locale="en-US", **SIZES[size])
    context.set_default_timeout(60_000)  # the machine may be busy: wait, never race
    page = watch_frames(context.new_page())
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    enter_lobby(page, server.base, f"Ada{size}")
    seat = 0 if size == "desktop" else 1  # an odd seat: "Us" must still come first
    create_private_table(page, seat=seat)
    shoot(page, size, "create", full=True)
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
        if turn == 0:
            first_turn_checks(page, size)
        elif turn == 2:
            page.reload()
            # the context's patience for a busy machine; a hand that never shows says why
            shown(page, ".hand-card", timeout=60_000)
            wait_ready(page)
            assert page.locator(".log li").count() > 3, "the move log is empty after a reload"
            shoot(page, size, "table")
        if not hand_ended(page):
            play_simple_turn(page, melds=3)
        turn += 1
        assert turn < 80, "the hand did not end"
    after_the_hand(page, size)
    lobby_checks(page, server, size, tid)
    context.close()
    not_found_and_bad_links(browser, server, size)
    assert not errors, errors
    print(f"{size}: {turn} turns, {time.monotonic() - started:.0f} s")
