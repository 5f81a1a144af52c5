"""Accessibility of every page, checked with axe-core in Chromium: no serious or critical
violation on the lobby, a table in play, the hand-end score, the match result, the replay
and the help page with the rules and their meld pictures, in Italian and English.

axe-core (npm, pinned in web/package.json) is injected from web/node_modules into each page
(the context bypasses the page's Content-Security-Policy only to let the test inject it).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import DESKTOP, PHONE, PICK_LANG, enter_lobby, settle, version, wait_ready

pytestmark = pytest.mark.xdist_group("e2e")

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
BAD = ("serious", "critical")


def axe_problems(page: Any, where: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: cd web && npm ci")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    out = []
    for v in result["violations"]:
        if v["impact"] in BAD:
            nodes = "; ".join(
                " ".join(n["target"]) + "".join(f" [{c['message']}]" for c in n["any"][:1])
                for n in v["nodes"][:4])
            out.append(f"{where}: {v['id']} ({v['impact']}): {v['help']} at {nodes}")
    return out


def context_for(browser: Any, locale: str, **more: Any) -> Any:
    options = {"viewport": DESKTOP, **more}
    return browser.new_context(locale=locale, bypass_csp=True, **options)


def test_the_lobby_and_a_table_have_no_serious_violation(
        server: ServerProcess, browser: Any) -> None:
    problems: list[str] = []
    for locale, phone in (("it-IT", False), ("en-US", True)):
        ctx = context_for(browser, locale, **(PHONE if phone else {}))
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("[data-testid=quick-play]")
        problems += axe_problems(page, f"lobby, first visit ({locale})")
        enter_lobby(page, server.base, f"Axe{locale[:2]}")
        page.click("details:has([data-testid=create-form]) > summary")
        page.click("[data-testid=more-rules] > summary")  # every rule option's control
        problems += axe_problems(page, f"lobby ({locale})")
        page.click("[data-testid=quick-play]")
        page.wait_for_selector(".hand-card", timeout=30_000)
        wait_ready(page, timeout=90_000)
        problems += axe_problems(page, f"table, my turn ({locale}{', phone' if phone else ''})")
        before = version(page)
        page.click("button[data-action=draw]")
        settle(page, before)
        wait_ready(page)
        page.locator(".hand-card").first.click(position={"x": 7, "y": 30})
        page.click("button[data-action=meld]")  # refused: the toast is checked too
        page.locator("[data-testid=reject]").wait_for()
        problems += axe_problems(page, f"table, a refusal ({locale})")
        ctx.close()
    assert not problems, "\n".join(problems)


def test_the_score_the_result_and_the_replay_have_no_serious_violation(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    token = server.guest("AxeBots")
    table = server.create_table(token, players=4, mode="smazzate", smazzate=1, bot_delay=0.15,
                                public=True, seats=[{"kind": "bot", "level": "basic"}] * 4)
    tid = table["table_id"]
    problems: list[str] = []
    ctx = context_for(browser, "en-US")
    page = ctx.new_page()
    page.goto(f"{server.base}/play/{tid}")
    page.wait_for_selector(".board", timeout=30_000)
    problems += axe_problems(page, "table, watching")
    page.wait_for_selector("[data-testid=score-table]", timeout=180_000)
    problems += axe_problems(page, "hand-end score")
    page.evaluate(PICK_LANG, "it")  # under the dialog
    problems += axe_problems(page, "hand-end score (it)")
    page.click("[data-testid=continue]")
    page.wait_for_selector("[data-testid=verdict]", timeout=30_000)
    problems += axe_problems(page, "match result (it)")
    ctx.close()

    deadline = time.monotonic() + 60
    while server.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' table did not finish"
        time.sleep(0.3)
    for locale in ("en-US", "it-IT"):
        ctx = context_for(browser, locale)
        page = ctx.new_page()
        page.goto(f"{server.base}/replay/{tid}")
        page.wait_for_selector("[data-testid=commitment]", timeout=30_000)
        problems += axe_problems(page, f"replay ({locale})")
        page.click("[data-replay=first]")
        page.wait_for_selector('.replay-frame[data-step="0"]')
        problems += axe_problems(page, f"replay, the deal ({locale})")
        ctx.close()
    assert not problems, "\n".join(problems)


def test_the_help_page_has_no_serious_violation(server: ServerProcess, browser: Any) -> None:
    answer = server.http.get("/help")
    html = answer.headers.get("content-type", "").startswith("text/html")
    if answer.status_code != 200 or not html:
        pytest.skip("this build has no /help page yet")
    problems: list[str] = []
    for locale, phone in (("it-IT", False), ("en-US", False), ("it-IT", True), ("en-US", True)):
        ctx = context_for(browser, locale, **(PHONE if phone else {}))
        page = ctx.new_page()
        page.goto(server.base + "/help")
        page.wait_for_selector("header.top", timeout=30_000)
        page.wait_for_selector("article.rules figure.meld-picture", timeout=30_000)  # loads lazily
        page.wait_for_load_state("networkidle")
        problems += axe_problems(page, f"help ({locale}{', phone' if phone else ''})")
        ctx.close()
    assert not problems, "\n".join(problems)


def test_axe_is_the_pinned_version() -> None:
    package = json.loads((AXE.parents[2] / "package.json").read_text())
    assert package["devDependencies"]["axe-core"] == "4.14.1"
    assert json.loads((AXE.parent / "package.json").read_text())["version"] == "4.14.1"


def test_the_players_pages_the_pad_and_the_club_have_no_serious_violation(
        server: ServerProcess, browser: Any) -> None:
    """The leaderboard (its two selects had no label), a profile, the score pad and the
    club's tournament pages, in both languages."""
    created = server.http.post("/api/accounts", json={"username": "Axe_Player",
                                                      "password": "a long enough password"})
    assert created.status_code in (201, 409), created.text
    problems: list[str] = []
    for locale in ("it-IT", "en-US"):
        ctx = context_for(browser, locale)
        page = ctx.new_page()
        for path, ready in (("/leaderboard", "select[name=period]"),
                            ("/players/Axe_Player", "[data-testid=profile-name]"),
                            ("/pad", "header.top"),
                            ("/tournaments/", "h1")):
            page.goto(server.base + path)
            page.wait_for_selector(ready, timeout=30_000)
            page.wait_for_load_state("networkidle")
            problems += axe_problems(page, f"{path} ({locale})")
        ctx.close()
    assert not problems, "\n".join(problems)
