"""The players' page on a 390×844 phone: it fits the screen, no sideways scrolling.

A real ``burraco serve`` and Debian's ``/usr/bin/chromium``: seven pairs with long names
(one sits out), a round with its results, then the players' page in both languages.
"""

from __future__ import annotations

from typing import Any

import pytest
from harness import ServerProcess

PHONE = {"width": 390, "height": 844}
PAIRS = ["Bartolomeo Rossi / Bianchi", "Verdi / Neri", "Gialli / Azzurri Carlo",
         "Ferri / Conti", "Greco / Russo", "Costa / Fontana", "Esposito / Romano"]

pytestmark = pytest.mark.xdist_group("e2e")



def test_the_players_page_fits_a_phone(server: ServerProcess, browser: Any) -> None:
    director = browser.new_context(viewport={"width": 1280, "height": 900})
    desk = director.new_page()
    desk.goto(f"{server.base}/tournaments/?lang=en")
    desk.get_by_label("Name").fill("Serata del giovedì al circolo")
    desk.get_by_label("Schedule").fill("danish:3")
    desk.get_by_role("button", name="Create").click()
    desk.wait_for_url("**/?ok=created")
    tid = desk.url.split("/tournaments/")[1].split("/")[0]
    base = f"{server.base}/tournaments/{tid}"
    desk.locator("textarea[name=pairs]").fill("\n".join(PAIRS))
    desk.get_by_role("button", name="Register").click()
    desk.get_by_role("button", name="Start round 1").click()
    desk.wait_for_load_state()
    rows = desk.locator("table.round tr[data-table]")
    for k in range(rows.count()):
        row = desk.locator("table.round tr[data-table]").nth(k)
        row.locator("input[name=ns_mp]").fill(str(1650 - 300 * k))
        row.locator("input[name=ew_mp]").fill(str(-150 + 100 * k))
        row.locator("button[type=submit]").click()
        desk.wait_for_load_state()
    director.close()

    phones = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = phones.new_page()
    for lang in ("it", "en"):
        phone.goto(f"{base}/standings?lang={lang}")
        assert phone.locator("#standings tr[data-pair]").count() == len(PAIRS)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the players' page ({lang}) is {width} px wide"
    phones.close()
