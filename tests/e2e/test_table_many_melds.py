"""The whole table in view when it is full: eight melds a side and a long pile, at a phone's
390×844 and a laptop's 1280×800.

Two people play a real hand (both seats driven over the table's WebSocket, as two players'
phones would, with a plan that makes many small melds: wait for a long pile, take it, meld
every three-card meld there is, never attach) while seat 0's own page is open in Chromium.
When both sides have eight melds and the pile holds at least twelve cards, play stops and the
page is measured: the hand panel, both meld areas, the stock, the pile, the pozzetti and the
players' badges lie inside the viewport and overlap nothing (tests/e2e/test_table_layout.py
measures the same turn after turn of ordinary hands).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import Client, ServerProcess
from test_table_layout import layout_problems
from test_web_client import DESKTOP, PHONE, enter_lobby

MELDS = 8
PILE = 12


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-many-melds")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


class Table:
    """What both seats have seen: melds per side and the pile's length, from the events."""

    def __init__(self) -> None:
        self.melds = [0, 0]
        self.pile = 0
        self.over = False

    def read(self, event: dict[str, Any] | None) -> None:
        kind = (event or {}).get("type")
        if kind == "HandStarted":
            self.pile = len(event["pile_text"]) if event else 0  # type: ignore[index]
        elif kind == "Discarded":
            self.pile += 1
        elif kind == "PickedUp":
            self.pile = 0
        elif kind == "Melded":
            self.melds[event["side"]] += 1  # type: ignore[index]
        elif kind in ("HandOver", "HandEnded"):
            self.over = True

    def done(self) -> bool:
        return min(self.melds) >= MELDS and self.pile >= PILE


async def caught_up(clients: list[Client]) -> None:
    """Every connection has read up to the newest version any of them has seen."""
    top = max(c.version for c in clients)
    for client in clients:
        while client.version < top:
            await client.recv(30)


async def play_many_melds(clients: list[Client], table: Table) -> None:
    """Both seats play until the table is full (or the hand ends, which fails the test)."""
    seen = 0
    while True:
        await caught_up(clients)
        first = clients[0]
        while seen < first.version:
            seen += 1
            table.read(first.events.get(seen))
        if table.over or table.done():
            return
        mover = next((c for c in clients if c.legal is not None
                      and c.legal["version"] == c.version and c.legal["actions"]), None)
        if mover is None:  # the legal frame of the seat on turn is on its way
            for client in clients:
                with contextlib.suppress(TimeoutError):
                    await client.recv(0.3)
            continue
        actions = mover.legal["actions"]  # type: ignore[index]
        side = mover.seat % 2  # type: ignore[operator]
        wanting = table.melds[side] < MELDS
        if "draw" in actions:
            take = wanting and "pickup" in actions and table.pile >= 10
            action = "pickup" if take else "draw"
        else:
            small = sorted(a for a in actions if a.startswith("meld ") and len(a.split()) == 4)
            discards = [a for a in actions if a.startswith("discard ")]
            action = small[0] if wanting and small else discards[-1]
        answer = await mover.act(action)
        assert answer["t"] == "ack", answer


@pytest.mark.parametrize(("size", "locale"), [("phone", "it-IT"), ("desktop", "en-US")])
def test_eight_melds_a_side_and_a_long_pile_stay_in_view(
        server: ServerProcess, browser: Any, screenshots: Path, size: str, locale: str) -> None:
    options = PHONE if size == "phone" else {"viewport": DESKTOP}
    viewport = options["viewport"]
    context = browser.new_context(**options, locale=locale)
    page = context.new_page()
    enter_lobby(page, server.base, f"Full{size[:2]}")
    ada = json.loads(page.evaluate("() => localStorage.getItem('burraco:guest')"))["token"]
    bob = server.guest("Bob")
    table = server.create_table(ada, players=2, mode="smazzate", smazzate=1, casual=True,
                                creator_seat=0, seats=[{"kind": "human"}, {"kind": "human"}])
    tid, token = table["table_id"], table["seats"][0]["token"]
    page.goto(f"{server.base}/play/{tid}?seat=0&token={token}")
    page.wait_for_selector(".panel.waiting, .hand-card")
    seen = Table()
    failure: list[BaseException] = []

    async def drive() -> None:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        await one.connect()
        await two.connect()
        try:
            await asyncio.wait_for(play_many_melds([one, two], seen), 240)
        finally:
            await one.close()
            await two.close()

    def run() -> None:
        try:
            asyncio.run(drive())
        except BaseException as exc:  # reported by the test below
            failure.append(exc)

    # in a thread of its own: Playwright's sync API holds this thread's event loop
    worker = threading.Thread(target=run)
    worker.start()
    worker.join(300)
    assert not failure, repr(failure[0])
    assert seen.done(), (seen.melds, seen.pile, "the hand ended first" if seen.over else "")
    # the page shows what the table holds, then is measured
    page.wait_for_function(
        "(n) => document.querySelectorAll('.melds-area.them .meld').length >= n"
        " && document.querySelectorAll('.melds-area.us .meld').length >= n", arg=MELDS,
        timeout=30_000)
    problems = layout_problems(page, viewport)
    page.screenshot(path=str(screenshots / f"table-full-{size}-{locale[:2]}.png"))
    cards = page.locator(".hand-card").count()
    assert not problems, "; ".join(problems) + f" (a hand of {cards} cards)"
    context.close()
