"""A director's evening in the real browser, against a real ``burraco serve``.

Create a tournament, register pairs, start a round, enter a wrong and then a right result,
see the standings, open the players' page.  Chromium is Debian's ``/usr/bin/chromium``
driven by Playwright (never a downloaded browser); screenshots go to
``artifacts/screenshots/tournament-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"

pytestmark = pytest.mark.xdist_group("e2e")


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    yield context.new_page()
    context.close()


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"tournament-{name}.png"), full_page=True)


def test_director_flow_in_the_browser(server: ServerProcess, page: Any) -> None:
    page.goto(f"{server.base}/tournaments/")
    page.get_by_label("Name").fill("Torneo di burraco a coppie")
    page.get_by_label("Schedule").fill("mitchell:2,danish:1")
    shot(page, "1-create")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/tournaments/torneo-di-burraco-a-coppie/?ok=created")

    page.locator("textarea[name=pairs]").fill("Rossi / Bianchi\nVerdi / Neri\nGialli\nBlu")
    page.get_by_role("button", name="Register").click()
    assert page.locator("#notice").inner_text().startswith("registered 4 pair(s)")
    assert page.locator("#pairs li").count() == 4
    shot(page, "2-registered")

    page.get_by_role("button", name="Start round 1").click()
    assert "round 1 (mitchell) started" in page.locator("#notice").inner_text()
    rows = page.locator("#round-1 tr[data-table]")
    assert rows.count() == 2
    assert "1 Rossi / Bianchi" in rows.nth(0).inner_text()
    assert "3 Gialli" in rows.nth(0).inner_text()
    shot(page, "3-round-started")

    first = page.locator("#round-1 tr[data-table='1']")
    first.get_by_label("NS MP").fill("1234")
    first.get_by_label("EW MP").fill("900")
    first.locator("form").evaluate("f => f.noValidate = true")  # let the server judge it
    first.get_by_role("button", name="save").click()
    error = page.locator("#error").inner_text()
    assert "round 1, table 1: the NS score 1234 is not a multiple of 5" in error
    assert page.locator("#round-1 tr.done").count() == 0, "a refused result changes nothing"
    shot(page, "4-refused-result")

    first = page.locator("#round-1 tr[data-table='1']")
    first.get_by_label("NS MP").fill("1200")
    first.get_by_label("EW MP").fill("900")
    first.get_by_role("button", name="save").click()
    assert "VP 13–7" in page.locator("#notice").inner_text()
    second = page.locator("#round-1 tr[data-table='2']")
    second.get_by_label("NS MP").fill("-150")
    second.get_by_label("EW MP").fill("410")
    second.get_by_role("button", name="save").click()
    assert page.locator("#round-1 tr.done").count() == 2

    standings = page.locator("#standings tr[data-pair]")
    assert standings.count() == 4
    top = standings.nth(0).inner_text()
    assert "Blu" in top and "15" in top and "+560" in top
    assert page.get_by_role("button", name="Start round 2").is_visible()
    shot(page, "5-standings")

    page.goto(f"{server.base}/tournaments/torneo-di-burraco-a-coppie/standings")
    assert page.locator("#round-1 tr[data-table]").count() == 2
    assert page.locator("form").count() == 0, "the players' page changes nothing"
    shot(page, "6-players-page")

    answer = server.http.get("/api/tournaments/torneo-di-burraco-a-coppie").json()
    assert answer["standings"][0]["pair"] == 4
    assert [r["vp"] for r in answer["results"]] == [[13, 7], [5, 15]]


def test_team_and_individual_events_in_the_browser(server: ServerProcess, page: Any) -> None:
    """§11.4: a team match is entered as its two tables' sheets; an individual round pairs
    players for that round only."""
    page.goto(f"{server.base}/tournaments/")
    page.get_by_label("Name").fill("Coppa dei circoli")
    page.get_by_label("Event").select_option("teams")
    page.get_by_label("Schedule").fill("roundrobin")
    page.get_by_role("button", name="Create").click()
    assert "needs the team VP table" in page.locator("#error").inner_text()
    page.get_by_label("Name").fill("Coppa dei circoli")
    page.get_by_label("Event").select_option("teams")
    page.get_by_label("Schedule").fill("roundrobin")
    page.get_by_label("VP table").fill("club-teams:100,300,500,700,900,1100,1300,1500,1700,2000")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/tournaments/coppa-dei-circoli/?ok=created")
    page.locator("textarea[name=pairs]").fill(
        "Roma: Rossi / Bianchi / Verdi / Neri\nMilano: Gialli / Blu / Rosa / Viola\n"
        "Napoli: Ferri / Conti / Greco / Russo\nTorino: Costa / Fontana / Rizzi / Galli")
    page.get_by_role("button", name="Register").click()
    assert page.locator("#notice").inner_text().startswith("registered 4 team(s)")
    page.get_by_role("button", name="Start round 1").click()
    match = page.locator("#round-1 tr[data-table='1']")
    assert "home NS, away EW" in page.content()
    match.get_by_label("table 1 home MP").fill("800")
    match.get_by_label("table 1 away MP").fill("300")
    match.get_by_label("table 2 home MP").fill("700")
    match.get_by_label("table 2 away MP").fill("600")
    match.get_by_role("button", name="save").click()
    assert "MP 1500 – 900, VP 13–7" in page.locator("#notice").inner_text()
    assert "800–300 + 700–600" in page.locator("#round-1 tr[data-table='1']").inner_text()
    top = page.locator("#standings tr[data-pair]").nth(0).inner_text()
    assert "Roma" in top and "13" in top
    shot(page, "7-team-event")

    page.goto(f"{server.base}/tournaments/")
    page.get_by_label("Name").fill("Individuale del lunedì")
    page.get_by_label("Event").select_option("individual")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/?ok=created")
    page.locator("textarea[name=pairs]").fill("Anna\nBruno\nCarla\nDario\nElena")
    page.get_by_role("button", name="Register").click()
    page.get_by_role("button", name="Start round 1").click()
    row = page.locator("#round-1 tr[data-table='1']").inner_text()
    assert row.count("&") == 2, "each line is two players partnered for this round"
    assert "Bye: player" in page.content()
    shot(page, "8-individual-event")


def test_a_phone_sends_a_negative_total(server: ServerProcess, page: Any) -> None:
    """The browser's own checks let a total below 0 through, and stop an absurd one."""
    http = server.http
    answer = http.post("/tournaments/", data={"name": "Serata in negativo",
                                               "schedule": "mitchell:1"})
    tid = answer.headers["location"].split("/")[2]
    http.post(f"/tournaments/{tid}/pairs", data={"pairs": "A\nB\nC\nD"})
    http.post(f"/tournaments/{tid}/rounds")
    row = http.get(f"/api/tournaments/{tid}/table-links").json()["tables"][0]
    page.goto(f"{row['ns']}?lang=en")
    page.locator("input[name=ns_mp]").fill("-150")
    page.locator("input[name=ew_mp]").fill("900")
    assert page.locator("#entry").evaluate("f => f.checkValidity()")
    page.locator("input[name=ns_mp]").fill("-99995")
    assert not page.locator("#entry").evaluate("f => f.checkValidity()"), "absurd: stopped"
    page.locator("input[name=ns_mp]").fill("-150")
    page.locator("#entry button[type=submit]").click()
    page.wait_for_load_state()
    assert "Received: −150 – 900" in page.locator("#notice").inner_text()
