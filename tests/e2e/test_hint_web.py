"""A hint at a casual table, as a player asks for it: "what would the expert do", shown in
words above the hand, counted in the log; no Hint button at a table that is not casual."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import PHONE, enter_lobby, legal_actions


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-hint")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_a_hint_says_the_experts_move_in_words(
        server: ServerProcess, browser: Any, locale: str, screenshots: Path) -> None:
    context = browser.new_context(**PHONE, locale=locale)
    page = context.new_page()
    enter_lobby(page, server.base, f"Hint{locale[:2]}")
    page.select_option("select[name=quick-players]", "2")
    page.click("[data-testid=quick-play]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=60_000)
    button = page.locator("button[data-action=hint]")
    button.wait_for()
    assert button.is_enabled()
    page.wait_for_selector("#legal-actions", state="attached")
    assert "draw" in legal_actions(page)
    button.click()
    suggestion = page.locator("[data-testid=suggestion]")
    suggestion.wait_for(timeout=30_000)
    words = suggestion.text_content()
    # the first decision of a turn: draw or take the pile, said in the page's language
    if locale == "it-IT":
        assert "L'esperto farebbe:" in words
        assert "pescare dal tallone" in words or "raccogliere gli scarti" in words
    else:
        assert "The expert would:" in words
        assert "draw from the stock" in words or "take the pile" in words
    assert not button.is_enabled(), "a second hint for the same position"
    said = "consiglio" if locale == "it-IT" else "hint"
    assert any(said in line for line in page.locator(".log li").all_text_contents())
    page.screenshot(path=str(screenshots / f"hint-{locale[:2]}.png"))
    # following it moves the table on: the suggestion goes, the button comes back next turn
    page.click("button[data-action=draw]" if "pescare" in words or "draw from" in words
               else "button[data-action=pickup]")
    suggestion.wait_for(state="detached", timeout=30_000)
    context.close()


def test_no_hint_button_at_a_table_that_is_not_casual(
        server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    enter_lobby(page, server.base, "Strict")
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=seat1]", "bot")
    page.uncheck("input[name=casual]")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".dialog .copy-link")
    page.click(".dialog a.button.primary")
    page.wait_for_selector(".hand-card", timeout=30_000)
    assert page.locator("button[data-action=hint]").count() == 0
    context.close()
