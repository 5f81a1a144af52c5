"""Help and company in the browser: the rules page, the guided hand, quick messages, mute,
"Play again" and the invitation's text, in Debian's Chromium against ``burraco serve``.

* The help page shows the players' rules in English and Italian with an anchor for every
  section a refusal cites; a refusal's ``§3.1.4`` at the table is a link that opens that
  section (the page itself: ``test_web_rules_page.py``).
* A newcomer starts the guided hand from the lobby and follows its hints to the close.
* Two people in two browser contexts send each other quick messages; one mutes the other, and
  the mute is remembered after a reload.
* After the match both press "Play again" and land at the same new table, each in their seat.
* An invited player reads who invites them to which table, seat and partner.

Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from harness import Client, ServerProcess
from test_web_client import (
    DESKTOP,
    PHONE,
    answered,
    click_card,
    ids_for,
    pick_lang,
    table_id,
    version,
)

pytestmark = pytest.mark.xdist_group("e2e")


def enter_lobby(page: Any, base: str, nickname: str) -> dict[str, Any]:
    """Pick a nickname in the lobby; returns the guest the page keeps."""
    page.goto(base + "/")
    page.click("[data-testid=change-nickname]")
    page.fill("input[name=nickname]", nickname)
    page.click("form.nickname button[type=submit]")
    page.wait_for_selector("[data-testid=lobby-tutorial]")
    # the lobby may show before the new guest is kept: wait for it
    page.wait_for_function("() => localStorage.getItem('burraco:guest') !== null")
    return dict(json.loads(page.evaluate("() => localStorage.getItem('burraco:guest')")))


def act_with_cards(page: Any, faces: list[str], button: str | None = None,
                   meld: int | None = None) -> None:
    """Select ``faces`` in the hand, then press a button or tap one of my melds."""
    page.wait_for_function("() => document.querySelector('.table-page').dataset.pending === ''")
    for cid in ids_for(page, faces):
        click_card(page, cid)
    before = version(page)
    if button is not None:
        page.click(f"button[data-action={button}]")
    else:
        page.click(f".side.mine .meld[data-meld='{meld}']")
    answered(page, before)
    reject = page.locator("[data-testid=reject]")
    assert not reject.count(), reject.text_content()


MY_TURN = "() => document.querySelector('.table-page').classList.contains('my-turn')"


def marked(anchor: str) -> str:
    """A condition: the help page marked the section ``anchor`` as the one asked for."""
    return f"() => document.getElementById('{anchor}')?.classList.contains('target')"


def step(page: Any) -> str:
    return str(page.locator("[data-tutorial-step]").get_attribute("data-tutorial-step"))


def wait_step(page: Any, name: str) -> None:
    page.wait_for_selector(f"[data-tutorial-step={name}]", timeout=30_000)


# --- help --------------------------------------------------------------------------------------

def test_the_help_page_shows_the_rules_in_both_languages_with_an_anchor_per_cited_section(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    page.goto(server.base + "/help/#rule-3-1-4")
    item = page.locator(".rules #rule-3-1-4")
    item.wait_for()
    assert item.text_content() == "A pile of only one card"
    page.wait_for_function(marked("rule-3-1-4"))
    assert page.locator("#how-to-play").count() == 1
    assert page.locator(".toc a[href='#rule-6']").text_content() == "6. The pozzetto"
    page.screenshot(path=str(screenshots / "help-en.png"))
    pick_lang(page, "it")
    page.wait_for_selector("article.rules[data-lang=it]")
    assert page.locator(".rules #rule-3-1-4").text_content() == "Scarti di una sola carta"
    assert page.locator("h1").text_content() == "Aiuto"
    assert page.locator(".toc a[href='#rule-6']").text_content() == "6. Il pozzetto"
    page.screenshot(path=str(screenshots / "help-it.png"))
    # the rules page answers without the trailing slash too, and /rules is the same page
    page.goto(server.base + "/rules#rule-7-1")
    page.wait_for_function(marked("rule-7-1"))
    context.close()


def test_a_refusal_links_its_section_of_the_rules(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    enter_lobby(page, server.base, "Curious")
    page.click("[data-testid=lobby-tutorial]")
    page.wait_for_selector(".hand-card", timeout=30_000)
    wait_step(page, "draw")
    # the tutorial's up-card is a lone 2♣: take it, then try to discard it at once (§3.1.4)
    page.wait_for_function(MY_TURN)
    before = version(page)
    page.click("button[data-action=pickup]")
    answered(page, before)
    (cid,) = ids_for(page, ["2C"])
    click_card(page, cid)
    page.click("button[data-action=discard]")
    toast = page.locator("[data-testid=reject]")
    toast.wait_for()
    link = toast.locator("a.rule-ref")
    assert link.text_content() == "§3.1.4" and link.get_attribute("href") == "/help/#rule-3-1-4"
    page.screenshot(path=str(screenshots / "refusal-rule-link.png"))
    link.click()
    page.wait_for_url(re.compile(r"/help/#rule-3-1-4$"))
    page.wait_for_function(marked("rule-3-1-4"))
    assert page.evaluate("() => { const r = document.getElementById('rule-3-1-4')"
                         ".getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")
    context.close()


# --- the guided hand -----------------------------------------------------------------------------

@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_guided_hand_walks_a_newcomer_to_the_close(
        server: ServerProcess, browser: Any, screenshots: Path, viewport: str) -> None:
    options: dict[str, Any] = {"viewport": DESKTOP} if viewport == "desktop" else dict(PHONE)
    context = browser.new_context(locale="it-IT" if viewport == "phone" else "en-US", **options)
    page = context.new_page()
    page.goto(server.base + "/help/")
    page.click("[data-testid=start-tutorial]")  # a newcomer with no nickname yet
    page.wait_for_selector(".hand-card", timeout=30_000)
    wait_step(page, "draw")
    page.screenshot(path=str(screenshots / f"tutorial-draw-{viewport}.png"))
    page.wait_for_function(MY_TURN)
    before = version(page)
    page.click("[data-action=draw]")
    answered(page, before)
    wait_step(page, "meld")
    act_with_cards(page, ["4H", "5H", "6H", "7H", "8H"], button="meld")
    wait_step(page, "attach")
    act_with_cards(page, ["9H", "10H"], meld=0)
    wait_step(page, "pozzetto")
    page.screenshot(path=str(screenshots / f"tutorial-pozzetto-{viewport}.png"))
    act_with_cards(page, ["KC", "KD", "KS"], button="meld")
    act_with_cards(page, ["JH", "QH"], meld=0)
    wait_step(page, "close")
    page.screenshot(path=str(screenshots / f"tutorial-close-{viewport}.png"))
    for faces in (["3S", "4S", "5S", "6S"], ["7C", "7D", "7S"], ["9D", "9C", "9S"]):
        act_with_cards(page, faces, button="meld")
    act_with_cards(page, ["4D"], button="discard")
    wait_step(page, "done")
    page.wait_for_selector("[data-testid=score-table]")
    page.screenshot(path=str(screenshots / f"tutorial-done-{viewport}.png"))
    context.close()


# --- company -----------------------------------------------------------------------------------

def two_players(server: ServerProcess, browser: Any, **settings: Any) -> tuple[Any, ...]:
    """Ada (English) and Bice (Italian) at a new two-seat table, each by an invite link."""
    ada_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    bice_ctx = browser.new_context(viewport=DESKTOP, locale="it-IT")
    ada, bice = ada_ctx.new_page(), bice_ctx.new_page()
    frames: list[dict[str, Any]] = []  # what Bice's page receives
    bice.on("websocket", lambda ws: ws.on("framereceived",
                                          lambda p: frames.append(json.loads(p))))
    ada_guest = enter_lobby(ada, server.base, "Ada")
    bice_guest = enter_lobby(bice, server.base, "Bice")
    table = server.create_table(ada_guest["token"], players=2, public=False,
                                seats=[{"kind": "human"}, {"kind": "human"}], **settings)
    for page, seat in ((ada, 0), (bice, 1)):
        page.goto(table["seats"][seat]["invite"])
    for page in (ada, bice):
        page.wait_for_selector(".hand-card", timeout=30_000)
    return ada_ctx, bice_ctx, ada, bice, table, ada_guest, bice_guest, frames


def test_quick_messages_reach_the_other_player_who_may_mute_them(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    ada_ctx, bice_ctx, ada, bice, table, _, _, frames = two_players(server, browser)
    ada.click("[data-testid=quick-bar] summary")
    ada.click("[data-quick=well_played]")
    said = bice.locator("[data-testid=quick-feed] li[data-said=well_played]")
    said.wait_for()
    assert said.text_content() == "Ada: Ben giocato!"
    mine = ada.locator("[data-testid=quick-feed] li[data-said=well_played]")
    mine.wait_for()
    assert mine.text_content() == "You: Well played!"
    bice.screenshot(path=str(screenshots / "quick-message-it.png"))
    # Bice mutes Ada: the next message arrives but is not shown
    bice.click("[data-testid=quick-bar] summary")
    bice.click("[data-mute='0']")
    assert bice.locator("[data-mute='0']").get_attribute("aria-pressed") == "true"
    ada.click("[data-quick=thanks]")
    ada.locator("[data-testid=quick-feed] li[data-said=thanks]").wait_for()
    for _ in range(300):  # the frame reaches Bice's page (a condition, polled)
        if any(f.get("t") == "quick" and f.get("msg") == "thanks" for f in frames):
            break
        bice.wait_for_timeout(100)
    assert any(f.get("t") == "quick" and f.get("msg") == "thanks" for f in frames), \
        "the muted message did not reach the page at all"
    assert bice.locator("[data-testid=quick-feed] li[data-said=thanks]").count() == 0
    # the mute is remembered for this table after a reload
    bice.reload()
    bice.wait_for_selector(".hand-card", timeout=30_000)
    bice.click("[data-testid=quick-bar] summary")
    assert bice.locator("[data-mute='0']").get_attribute("aria-pressed") == "true"
    assert table_id(bice) == table["table_id"]
    ada_ctx.close()
    bice_ctx.close()


async def play_out(server: ServerProcess, table: dict[str, Any], guests: list[str]) -> None:
    """Both seats draw and discard over their own connections until the match is over."""
    clients = [Client(server, table, seat, guest=guest) for seat, guest in enumerate(guests)]
    for client in clients:
        await client.connect()

    def over(client: Client) -> bool:
        return any(isinstance(e, dict) and e.get("type") == "MatchOver"
                   for e in client.events.values())

    async def play(client: Client) -> None:
        while not over(client):
            try:
                legal = await client.my_turn(timeout=2)
            except TimeoutError:
                continue
            action = "draw" if "draw" in legal["actions"] else next(
                a for a in reversed(legal["actions"]) if a.startswith("discard "))
            await client.act(action)

    await asyncio.gather(*(play(c) for c in clients))
    for client in clients:
        await client.close()


def test_play_again_lands_both_players_at_one_new_table(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    ada_ctx, bice_ctx, ada, bice, table, ada_guest, bice_guest, _ = two_players(
        server, browser, mode="smazzate", smazzate=1, bot_delay=0)
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        pool.submit(asyncio.run, play_out(server, table, [ada_guest["token"],
                                                          bice_guest["token"]])).result(300)
    for page in (ada, bice):
        continue_button = page.locator("[data-testid=continue]")
        continue_button.wait_for(timeout=30_000)
        continue_button.click()
        page.wait_for_selector("[data-testid=play-again]")
    ada.screenshot(path=str(screenshots / "play-again-en.png"))
    ada.click("[data-testid=play-again]")
    ada.wait_for_url(re.compile(r"/play/(?!" + re.escape(table["table_id"]) + r")[^/?#]+$"))
    new_id = table_id(ada)
    # Bice is told who asked, and takes her own seat there
    offer = bice.locator("[data-testid=rematch-offer]")
    offer.wait_for()
    assert offer.text_content() == "Ada vuole giocare ancora con gli stessi giocatori e bot."
    bice.screenshot(path=str(screenshots / "play-again-offer-it.png"))
    bice.click("[data-testid=play-again]")
    bice.wait_for_url(re.compile(r"/play/" + re.escape(new_id) + r"$"))
    for page, seat in ((ada, "0"), (bice, "1")):
        page.wait_for_selector(".hand-card", timeout=30_000)
        page.wait_for_function(
            f"() => document.querySelector('.table-page').dataset.seat === '{seat}'")
        assert page.locator(".table-page").get_attribute("data-status") == "playing"
    ada_ctx.close()
    bice_ctx.close()


def test_an_invited_player_reads_who_invites_them_where(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    marco = server.guest("Marco")
    table = server.create_table(marco, players=4, public=False, creator_seat=0,
                                seats=[{"kind": "human"}, {"kind": "human"},
                                       {"kind": "bot", "level": "basic"}, {"kind": "human"}])
    short = table["table_id"][:8]
    for locale, expected in (
            ("en-US", f"Marco invites you to table {short}, seat 4 · partner: seat 2 (free) · "
                      "against Marco, Bot 3 ("),
            ("it-IT", f"Marco ti invita al tavolo {short}, posto 4 · compagno: posto 2 (libero) "
                      "· contro Marco, Bot 3 (")):
        context = browser.new_context(viewport=DESKTOP, locale=locale)
        page = context.new_page()
        page.goto(table["seats"][3]["invite"])
        note = page.locator("[data-testid=invite-note]")
        note.wait_for()
        assert note.text_content().startswith(expected), note.text_content()
        assert page.locator("form.nickname").count() == 1  # the nickname comes next
        page.screenshot(path=str(screenshots / f"invite-{locale[:2]}.png"))
        context.close()
