"""The first minute: one tap from a first visit to a dealt hand, and a table form in a player's
words.

Before, a newcomer on a phone met a nickname form and found the Play button about 1,300 px
down the page, below four panels; the creation form listed the presets by their internal ids
and asked for some options as JSON text.  Now a first visit opens on Play (the newcomer plays
under a generated nickname), and the form names the presets, offers the short formats first
and folds every other option under "More rules", each with a control of its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, stored
from test_web_client import DESKTOP, PHONE, enter_lobby, table_id


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-first-minute")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_a_first_visit_on_a_phone_plays_with_one_tap(
        server: ServerProcess, browser: Any, locale: str, screenshots: Path) -> None:
    context = browser.new_context(**PHONE, locale=locale)
    page = context.new_page()
    page.goto(server.base + "/")
    play = page.locator("[data-testid=quick-play]")
    play.wait_for()
    # in sight without scrolling, with no form before it
    box = play.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    assert page.locator("input[name=nickname]").count() == 0
    generated = "Giocatore " if locale == "it-IT" else "Player "
    assert generated in page.locator(".hello").text_content()
    page.screenshot(path=str(screenshots / f"first-visit-phone-{locale[:2]}.png"))
    # the choices are remembered: a two-player game to 505 at a fast pace
    page.select_option("select[name=quick-players]", "2")
    page.select_option("select[name=quick-format]", "505")
    page.select_option("select[name=quick-pace]", "fast")
    play.click()
    page.wait_for_selector(".hand-card", timeout=30_000)
    info = stored(server.db_url, table_id(page))["info"]
    config = info["config"]
    assert config["players"] == 2 and config["mode"] == "free" and config["target"] == 505
    assert config["bot_delay"] == 0.5 and config["casual"] is True
    guest = json.loads(page.evaluate("() => localStorage.getItem('burraco:guest')"))
    assert guest["nickname"].startswith(generated.strip())
    page.goto(server.base + "/")
    page.locator("[data-testid=quick-play]").wait_for()
    assert page.locator("select[name=quick-players]").input_value() == "2"
    assert page.locator("select[name=quick-format]").input_value() == "505"
    assert guest["nickname"] in page.locator(".hello").text_content()
    context.close()


def test_the_table_form_names_the_rules_and_types_no_json(
        server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    enter_lobby(page, server.base, "Former")
    page.click("details:has([data-testid=create-form]) > summary")
    rules = page.locator("select[name=rules] option").all_text_contents()
    assert "FIBur International" in rules and "Burraco Champion" in rules
    assert not any("-" in r and r == r.lower() for r in rules), rules  # no internal ids
    formats = page.locator("select[name=format] option").all_text_contents()
    assert formats[:2] == ["One hand", "To 505 points"], formats
    assert page.locator("select[name=format]").input_value() == "hands:1"
    # every other option is folded, and none of them is a field for JSON
    more = page.locator("[data-testid=more-rules]")
    assert not more.evaluate("el => el.open")
    page.click("[data-testid=more-rules] > summary")
    texts = page.locator("[data-testid=create-form] input[type=text], "
                         "[data-testid=create-form] textarea")
    for value in texts.evaluate_all("els => els.map(e => e.value)"):
        assert not value.strip().startswith(("[", "{")), value
    # the International code's sets: aces and threes only, as boxes; its bonuses as numbers
    page.select_option("select[name=rules]", "fibur-international")
    ticked = page.locator("[data-option=set_ranks] input:checked").evaluate_all(
        "els => els.map(e => e.name)")
    assert ticked == ["opt-set_ranks-1", "opt-set_ranks-3"], ticked
    assert page.locator("input[name=opt-bonuses-clean]").input_value() == "200"
    assert page.locator("input[name=opt-bonuses-semi-clean]").input_value() == ""
    # a change made with the boxes reaches the table: sets of aces, threes and kings
    page.check("input[name=opt-set_ranks-13]")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat1]", "bot")
    page.select_option("select[name=pace]", "slow")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".dialog .copy-link")
    page.click(".dialog a.button.primary")
    page.wait_for_selector(".hand-card", timeout=30_000)
    info = stored(server.db_url, table_id(page))["info"]
    config = info["config"]
    assert config["rules"] == "fibur-international"
    assert config["options"] == {"set_ranks": [1, 3, 13]}, config["options"]
    assert config["bot_delay"] == 1.6 and config["smazzate"] == 1
    context.close()
