"""The "this hand" panel and protocol 2's deltas in the browser (docs/protocol.md §15).

A page holds seat 0 of a table with three bots; a second connection of the same guest and
seat (over a real WebSocket, as a second tab would) plays the seat's moves, so the page only
watches its own seat change.  Then, at 1280×800 and at 390×844, in English and Italian:

* the panel shows each side's points on the table exactly as the server scores them
  (``table_score`` of a ``sync``), each seat's last discard, the pile's count, and the other
  side's melds, one chip each, in view on the phone without scrolling;
* the page never asked for a ``sync`` (its hello brought one): every move came as a delta.
"""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import pick_lang
from websockets.asyncio.client import connect

from burraco.bench.server import choose

pytestmark = pytest.mark.xdist_group("e2e")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

COUNT_SYNCS = """() => {
  window.__syncs = 0;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string' && data.includes('"t":"sync"')) window.__syncs += 1;
    return send.call(this, data);
  };
}"""


async def _play_seat(url: str, seat_token: str, guest: str) -> dict[str, Any]:
    """Play seat 0 until both sides have melded and everyone discarded; the final sync.

    On each turn this connection first asks for a sync (to see whether to stop), then acts.
    """
    rng = random.Random(5)
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"t": "hello", "seat": 0, "seat_token": seat_token,
                                  "guest": guest, "legal": True, "protocol": 2}))
        version, acted, asked = 0, -1, -1
        legal: dict[str, Any] | None = None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if "v" in message and "t" not in message:
                version = message["v"]
            elif message.get("t") == "sync" and asked != message["version"]:
                version = message["version"]  # the hello's
            elif message.get("t") == "legal" and message["version"] == version > acted:
                if asked != version:
                    legal, asked = message, version
                    await ws.send('{"t":"sync"}')
            elif message.get("t") == "sync" and message["version"] == asked == version:
                hand = message["hand"]
                discarded = {s for s, m in hand["moves"] if m.startswith("discard ")}
                if hand["phase"] == "over" or (all(hand["melds"]) and len(discarded) == 4
                                               and hand["phase"] == "draw"):
                    return dict(message)
                assert legal is not None
                acted = version
                await ws.send(json.dumps({"t": "act", "id": f"p{version}", "v": version,
                                          "action": choose(legal["actions"], rng)}))


def test_the_hand_at_a_glance(server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.add_init_script(f"({COUNT_SYNCS})()")
    page = context.new_page()
    page.goto(server.base + "/")
    page.click("[data-testid=change-nickname]")
    page.fill("input[name=nickname]", "Ada")
    with page.expect_response(lambda r: r.url.endswith("/api/guests")) as made:
        page.click("form.nickname button[type=submit]")  # the lobby shows quick-play before it
    guest = made.value.json()["token"]
    table = server.create_table(guest, players=4, creator_seat=0, bot_delay=0.05, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"},
        {"kind": "bot", "level": "basic"}])
    page.goto(table["seats"][0]["invite"])
    page.wait_for_selector("[data-testid=standing]", timeout=60_000)
    assert page.evaluate("() => window.__syncs") == 0  # counting; the hello brought the sync

    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
        sync = pool.submit(asyncio.run, _play_seat(
            server.ws_url(table["table_id"]), table["seats"][0]["token"], guest)).result(600)
    hand = sync["hand"]
    page.wait_for_function(
        """(v) => { const r = document.querySelector('.table-page');
                    return r && r.dataset.version === String(v)
                      && r.dataset.synced === String(v); }""",
        arg=sync["version"], timeout=60_000)
    assert page.evaluate("() => window.__syncs") == 0, "the page asked for a sync after a move"

    def check(lang: str) -> None:
        for side, score in enumerate(hand["table_score"]):
            shown = page.locator(f"[data-standing-side='{side}'] [data-points]")
            assert shown.get_attribute("data-points") == str(score["total"])
            assert str(score["total"]) in shown.text_content()
        last = {seat: None for seat in range(4)}
        for seat, move in hand["moves"]:
            if move.startswith("discard "):
                last[seat] = move.split()[1]
        for seat, card in last.items():
            assert page.locator(f"[data-last-discard='{seat}']").get_attribute("data-card") == (
                card or "")
        assert page.locator("[data-pile-count]").get_attribute("data-pile-count") == str(
            hand["pile_count"])
        theirs = page.locator("[data-their-melds='1'] .chip")
        assert theirs.count() == len(hand["melds"][1])
        assert [theirs.nth(i).get_attribute("data-text") for i in range(theirs.count())] == \
            hand["melds"][1]
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page.set_viewport_size(size)
            page.evaluate("() => window.scrollTo(0, 0)")
            box = page.locator("[data-their-melds='1']").bounding_box()
            assert box is not None and box["y"] + box["height"] <= size["height"], (
                f"the other side's melds are out of view at {name}: {box}")
            page.screenshot(path=str(screenshots / f"standing-{name}-{lang}.png"))

    check("en")
    pick_lang(page, "it")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert "in tavola" in page.locator("[data-testid=standing]").text_content()
    check("it")
    context.close()
