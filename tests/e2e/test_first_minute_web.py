"""The first minute and the phone table, in Chromium against a real ``burraco serve``.

* A rated match that is over and gone from the server's memory is listed among the finished
  games with its player's name (not an "open seat"), its end date and its final score.
* A daily set played through offers its results, not "Continue", and the results show the
  player's points deal by deal.
* An Italian page says in Italian why rated play waits (lobby and profile) and which burraco a
  player made (the profile); a language chosen in the lobby holds on ``/tournaments/`` reached
  without the lobby's link, whose seed is not called "Seme" (a suit, at a card table).
* The moves are read aloud with the cards in words; the pozzetti's status reads "Our
  pozzetto: not taken yet"; the rating plot has dates; the manifest is in one language.

Screenshots at 390×844 in both languages go to ``artifacts/screenshots/first-minute-*``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess
from players_harness import bearer, play_out, register
from sqlalchemy import create_engine, insert, update
from test_web_client import PHONE, READY, enter_lobby, pick_lang, play_simple_turn

from burraco.accounts.models import PenaltyRow, PlayerStatRow

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


# --- 5: English on Italian pages --------------------------------------------------------------

def test_an_italian_page_says_why_rated_play_waits(
        server: ServerProcess, browser: Any, ugo: dict[str, Any], screenshots: Path) -> None:
    engine = create_engine(server.db_url)
    now = time.time()
    with engine.begin() as conn:  # as an abandonment leaves it (test_players_rated.py)
        conn.execute(insert(PenaltyRow).values(player_id=ugo["player_id"], table_id="gone",
                                               reason="left", at=now, until=now + 3600))
    engine.dispose()
    for locale, reason, english in (
            ("it-IT", "una partita a punteggio abbandonata", "left a rated match"),
            ("en-GB", "a rated match left without coming back", None)):
        page, errors = signed_in(browser, ugo, locale)
        page.goto(server.base + "/")
        wait = page.locator("[data-testid=account] .error")
        wait.wait_for(timeout=20_000)
        said = wait.text_content() or ""
        assert reason in said, said
        assert english is None or english not in said, said
        page.screenshot(path=str(screenshots / f"first-minute-wait-{locale}.png"))
        page.goto(server.base + "/players/Attesa_Ugo")
        page.locator("[data-testid=profile-name]").wait_for(timeout=20_000)
        said = page.locator("main p.error").text_content() or ""
        assert reason in said, said
        assert english is None or english not in said, said
        assert not errors, errors
        page.context.close()


def test_the_profile_names_the_kinds_of_burraco_in_the_pages_language(
        server: ServerProcess, browser: Any, ugo: dict[str, Any], screenshots: Path) -> None:
    engine = create_engine(server.db_url)
    with engine.begin() as conn:  # the match played may have made no burraco: say it made some
        conn.execute(update(PlayerStatRow).where(PlayerStatRow.player_id == ugo["player_id"])
                     .values(burraco={"clean": 1, "semi-clean": 2, "dirty": 3}))
    engine.dispose()
    for locale, wanted, unwanted in (("it-IT", ("pulito 1", "semipulito 2", "sporco 3"),
                                      ("clean", "dirty")),
                                     ("en-GB", ("clean 1", "semi-clean 2", "dirty 3"), ())):
        page, errors = signed_in(browser, ugo, locale)
        page.goto(server.base + "/players/Attesa_Ugo")
        page.locator("table.stats").wait_for(timeout=20_000)
        kinds = page.locator("table.stats tr", has_text="Burraco").text_content() or ""
        assert all(w in kinds for w in wanted) and not any(u in kinds for u in unwanted), kinds
        page.screenshot(path=str(screenshots / f"first-minute-profile-{locale}.png"),
                        full_page=True)
        assert not errors, errors
        page.context.close()


def test_the_language_chosen_in_the_lobby_holds_on_the_tournament_pages(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    ctx = browser.new_context(**{**PHONE, "locale": "en-US"})
    page = ctx.new_page()
    page.goto(server.base + "/")
    pick_lang(page, "it")
    # typed, or followed from anywhere but the lobby's own link: no ?lang= in the address
    page.goto(server.base + "/tournaments/")
    assert page.locator("html").get_attribute("lang") == "it"
    assert page.locator("h1").text_content() == "Tornei"
    assert "Numero del sorteggio" in (page.locator("form#create").text_content() or "")
    page.screenshot(path=str(screenshots / "first-minute-tournaments-it.png"), full_page=True)
    # and back: English chosen on the tournament pages holds in the lobby too
    page.goto(server.base + "/tournaments/?lang=en")
    assert "Draw number (seed)" in (page.locator("form#create").text_content() or "")
    ctx2 = browser.new_context(**{**PHONE, "locale": "it-IT"})
    ctx2.add_cookies(ctx.cookies())
    lobby = ctx2.new_page()
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#tournaments-link")
    assert lobby.locator("html").get_attribute("lang") == "en"
    assert lobby.locator("#tournaments-link").text_content() == "Tournaments"
    ctx2.close()
    ctx.close()


def test_the_tournaments_seed_is_not_called_a_suit(server: ServerProcess, browser: Any) -> None:
    """"Seme" is a suit at a card table: the number the draws come from is named as such."""
    ctx = browser.new_context(**{**PHONE, "locale": "it-IT"})
    page = ctx.new_page()
    page.goto(server.base + "/tournaments/?lang=it")
    seed = page.locator("label", has=page.locator("input[name=seed]"))
    assert seed.text_content().strip() == "Numero del sorteggio"
    assert "Seme" not in (page.locator("main").text_content() or "")
    page.goto(server.base + "/tournaments/?lang=en")
    assert seed.text_content().strip() == "Draw number (seed)"
    ctx.close()


# --- 19: the table read aloud, the pozzetti, the plot, the manifest ---------------------------

SUITS = re.compile("[♥♦♣♠]")

ANNOUNCED_DISCARD = """() => {
  const said = document.querySelector('[data-testid=announcer]')?.textContent ?? '';
  if (/ ha scartato /.test(said)) return said;
  const root = document.querySelector('.table-page');
  const legal = document.getElementById('legal-actions');
  return root && root.classList.contains('my-turn') && legal
    && legal.dataset.version === root.dataset.version ? 'MY TURN' : null;
}"""


def quick_table(browser: Any, server: ServerProcess, nickname: str) -> tuple[Any, list[str]]:
    """A phone in Italian at a quick table (the player and a bot partner against two bots)."""
    ctx = browser.new_context(**{**PHONE, "locale": "it-IT"})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    enter_lobby(page, server.base, nickname)
    page.click("[data-testid=quick-play]")
    page.wait_for_selector(".hand-card", timeout=30_000)
    return page, errors


def test_the_pozzetti_say_whose_they_are(server: ServerProcess, browser: Any,
                                         screenshots: Path) -> None:
    page, errors = quick_table(browser, server, "Pozzo")
    pozzetti = page.locator("[data-pozzetto-side]").all_text_contents()
    assert pozzetti == ["Il nostro pozzetto: non ancora preso",
                        "Il loro pozzetto: non ancora preso"], pozzetti
    page.screenshot(path=str(screenshots / "first-minute-table-it-IT.png"))
    pick_lang(page, "en")
    pozzetti = page.locator("[data-pozzetto-side]").all_text_contents()
    assert pozzetti == ["Our pozzetto: not taken yet",
                        "Their pozzetto: not taken yet"], pozzetti
    page.screenshot(path=str(screenshots / "first-minute-table-en.png"))
    assert not errors, errors
    page.context.close()


def test_the_moves_are_read_with_the_cards_in_words(server: ServerProcess, browser: Any) -> None:
    page, errors = quick_table(browser, server, "Lettore")
    said = ""
    for _ in range(6):
        said = page.wait_for_function(ANNOUNCED_DISCARD, timeout=90_000).json_value()
        if said != "MY TURN":
            break
        page.wait_for_function(READY, timeout=30_000)
        play_simple_turn(page)
    assert " ha scartato " in said, said
    assert not SUITS.search(said), f"cards read as symbols: {said!r}"
    assert re.search(r"ha scartato (\S+ di (cuori|quadri|fiori|picche)|jolly)", said), said
    # the log shows the symbols and gives screen readers the words
    shown = page.locator(".log li [aria-hidden=true]").all_text_contents()
    read = page.locator(".log li .sr-only").all_text_contents()
    assert len(read) == len(shown) > 0, (shown, read)
    assert any(SUITS.search(s) for s in shown), shown
    assert not any(SUITS.search(s) for s in read), read
    assert not errors, errors
    page.context.close()


def test_the_rating_plot_is_dated(server: ServerProcess, browser: Any, ugo: dict[str, Any],
                                  screenshots: Path) -> None:
    for locale, month in (("it-IT", ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago",
                                     "set", "ott", "nov", "dic")),
                          ("en-GB", ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
                                     "Sept", "Oct", "Nov", "Dec"))):
        page, errors = signed_in(browser, ugo, locale)
        page.goto(server.base + "/players/Attesa_Ugo")
        plot = page.locator("[data-testid=rating-plot]")
        plot.wait_for(timeout=20_000)
        dates = plot.locator("text.plot-date").all_text_contents()
        assert dates and all(time.strftime("%Y") in d for d in dates), dates
        assert any(m in d for d in dates for m in month), dates
        points = plot.locator("circle title").all_text_contents()
        assert points and all(time.strftime("%Y") in p for p in points), points
        assert time.strftime("%Y") in (plot.get_attribute("aria-label") or "")
        plot.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"first-minute-plot-{locale}.png"))
        assert not errors, errors
        page.context.close()


def test_the_manifest_speaks_one_language(server: ServerProcess) -> None:
    manifest = server.http.get("/manifest.webmanifest").json()
    assert manifest["lang"] == "it"
    description = manifest["description"]
    assert "regole" in description and not re.search(r"\b(the|rules|play|against)\b",
                                                      description, re.I), description
