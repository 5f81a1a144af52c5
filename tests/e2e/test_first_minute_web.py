"""The first minute and the phone table, in Chromium against a real ``burraco serve``.

* A rated match that is over and gone from the server's memory is listed among the finished
  games with its player's name (not an "open seat"), its end date and its final score.
* A daily set played through offers its results, not "Continue", and the results show the
  player's points deal by deal.

Screenshots at 390×844 in both languages go to ``artifacts/screenshots/first-minute-*``.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess
from players_harness import bearer, play_out, register
from test_web_client import PHONE

pytestmark = pytest.mark.xdist_group("e2e")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Rated matches of one hand (``--rated-min-target 1``), finished tables retired from
    memory at once (``--finished-table-seconds 0``: the lobby must then read them from the
    database) and a daily set of one deal played by bots without a pause."""
    folder: Path = tmp_path_factory.mktemp("e2e-first-minute")
    saved = {k: os.environ.get(k) for k in ("BURRACO_DAILY_HANDS", "BURRACO_DAILY_BOT_DELAY")}
    os.environ.update(BURRACO_DAILY_HANDS="1", BURRACO_DAILY_BOT_DELAY="0")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--rated-min-target", "1", "--finished-table-seconds", "0"])
    try:
        process.start()
        yield process
    finally:
        process.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def play_seat(server: ServerProcess, token: str, table: dict[str, Any]) -> None:
    """Play seat 0 of ``table`` (scripted) until its match is over (in a thread of its own:
    Playwright's loop runs in this one)."""
    async def main() -> None:
        client = Client(server, table, 0, guest=token)
        assert (await client.connect())["t"] == "hello_ok"
        await play_out(client)
        await client.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result(timeout=300)


def eventually(probe: Any, what: str, timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.fixture(scope="module")
def ugo(server: ServerProcess) -> dict[str, Any]:
    """An account that played one rated match (public, against a bot) to its end."""
    account = register(server, "Attesa_Ugo")
    table = httpx.post(f"{server.base}/api/tables", headers=bearer(account["token"]), json={
        "players": 2, "rated": True, "creator_seat": 0, "public": True, "target": 1,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}], "bot_delay": 0})
    assert table.status_code == 201, table.text
    created = table.json()
    play_seat(server, account["token"], created)
    eventually(lambda: httpx.get(f"{server.base}/api/players/Attesa_Ugo").json()["history"],
               "Ugo's rated match was not recorded")
    return {**account, "table": created["table_id"]}


def signed_in(browser: Any, account: dict[str, Any] | None,
              locale: str) -> tuple[Any, list[str]]:
    """A phone's page where ``account`` is logged in (its session kept as the client keeps
    it; ``None``: a visitor), and the page's script errors."""
    ctx = browser.new_context(**{**PHONE, "locale": locale})
    if account is not None:
        guest = {"guest_id": account["player_id"], "nickname": account["username"],
                 "token": account["token"]}
        ctx.add_init_script(
            f"localStorage.setItem('burraco:guest', {json.dumps(json.dumps(guest))});")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


# --- 8: the finished games --------------------------------------------------------------------

def test_a_finished_rated_match_is_listed_with_its_player_its_date_and_its_score(
        server: ServerProcess, browser: Any, ugo: dict[str, Any], screenshots: Path) -> None:
    table = ugo["table"]
    # gone from the server's memory: the list reads it from the database
    listed = eventually(lambda: next((x for x in httpx.get(f"{server.base}/api/tables").json()
                                      ["tables"] if x["id"] == table and x["seats"] is None),
                                     None), "the finished table stayed in memory")
    scores = httpx.get(f"{server.base}/api/tables/{table}").json()["match"]["scores"]
    for locale, ended in (("it-IT", "Finita il"), ("en-GB", "Ended")):
        page, errors = signed_in(browser, None, locale)
        page.goto(server.base + "/")
        row = page.locator(f"li[data-table='{table}']")
        row.wait_for(timeout=20_000)
        seats = row.locator(".seat-chip").all_text_contents()
        assert any("Attesa_Ugo" in s for s in seats), seats
        assert not any("open seat" in s or "posto libero" in s for s in seats), seats
        finished = row.locator("[data-finished-at]").text_content() or ""
        assert finished.startswith(ended) and time.strftime("%Y") in finished, finished
        score = row.locator("[data-final-score]").text_content() or ""
        assert all(str(s) in score for s in scores) and "Attesa_Ugo" in score, score
        row.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"first-minute-finished-{locale}.png"))
        assert not errors, errors
        page.context.close()
    assert listed.get("scores") == scores, listed


# --- 18: the daily panel ----------------------------------------------------------------------

def test_a_daily_set_played_offers_its_results_deal_by_deal(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    eva = register(server, "Daily_Eva")
    entered = httpx.post(f"{server.base}/api/daily/2", headers=bearer(eva["token"]))
    assert entered.status_code == 201, entered.text
    play_seat(server, eva["token"], entered.json())
    board = eventually(lambda: (lambda r: r.json() if r.status_code == 200 else None)(
        httpx.get(f"{server.base}/api/daily/2/board", headers=bearer(eva["token"]))),
        "Eva's board stayed hidden")
    for locale, results, forbidden in (("it-IT", "Risultati: 2 giocatori", "Continua"),
                                       ("en-GB", "Results: 2 players", "Continue")):
        page, errors = signed_in(browser, eva, locale)
        page.goto(server.base + "/")
        button = page.locator("[data-testid=daily-2]")
        button.wait_for(timeout=20_000)
        assert button.text_content() == results
        assert forbidden not in (page.locator("[data-testid=daily]").text_content() or "")
        button.click()
        mine = page.locator("[data-testid=daily-mine] tr[data-hand='1'] td")
        mine.first.wait_for(timeout=20_000)
        cells = mine.all_text_contents()
        assert cells[0] == "1" and cells[1] == str(board["mine"][0]["points"]), cells
        assert page.url == server.base + "/", "the finished table was opened again"
        page.locator("[data-testid=daily]").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"first-minute-daily-{locale}.png"))
        assert not errors, errors
        page.context.close()
