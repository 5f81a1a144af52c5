"""A whole 8-pair club evening in Italian with every accident, in the real browser.

Against a real ``burraco serve`` on a real SQLite file, Debian's Chromium: the director
(1280×900, Italian) registers nine pairs and removes a no-show before round 1, prints the
wall and one set of table cards, plays three Mitchell rounds and a Danish final of 3
smazzate (RULES.md §11.2, §11.4), with the phones (390×844) entering the results from the
evening's table cards; after round 1 two late pairs arrive (one opens a table with the
movement drawn again, the other takes its empty place), a pair is renamed; in round 2 the
clock gives its 5-minute warning and time is called (RULES.md §8.2, FIBur Art. 15): one
table enters a match cut short by time, another gets an arbitral score; after round 2 one
pair withdraws in each mode.  No two pairs meet twice; every page and PDF of the evening is
in Italian (none of the catalogs' English on it); screenshots go to
``artifacts/screenshots/accidents-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess
from test_tournament_languages import english_in, needs_pdftotext, pdf_text, printed, visible

from burraco.tournament.paper import KINDS

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}
ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}
PAIRS = ["Rossi / Bianchi", "Verdi / Neri", "Gialli / Blu", "Assenti / Mai", "Ferri / Conti",
         "Greco / Russo", "Costa / Fontana", "Ricci / Marino", "Bruno / Galli"]
WAIT = 30_000

pytestmark = pytest.mark.xdist_group("e2e")


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"accidents-{name}.png"), full_page=True)


def italian(page: Any, name: str) -> None:
    """The page shows none of the catalogs' English."""
    assert page.locator("html").get_attribute("lang") == "it", name
    assert english_in(visible(page.content())) == [], name


def submit(desk: Any, form: str) -> str:
    desk.locator(f"#{form} button[type=submit]").click()
    desk.wait_for_load_state()
    notice = desk.locator("#notice")
    assert notice.count(), desk.locator("#error").all_inner_texts()
    return str(notice.inner_text())


def state(http: httpx.Client, tid: str) -> dict[str, Any]:
    answer = http.get(f"/api/tournaments/{tid}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def round_link(http: httpx.Client, evening_link: str) -> str:
    """Where a table card's link leads while a round is played: that round's table page
    (the address's path)."""
    answer = http.get(evening_link, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"])


def phone_entry(http: httpx.Client, link: str, ns: int, ew: int, **extra: str) -> None:
    answer = http.post(link, data={"ns_mp": str(ns), "ew_mp": str(ew), "lang": "it", **extra},
                       follow_redirects=True)
    assert answer.status_code == 200, answer.text


def score(round_number: int, table: int) -> tuple[int, int]:
    ns = 400 + 135 * ((round_number * 7 + table * 3) % 9)
    ew = 300 + 110 * ((round_number * 5 + table * 4) % 8)
    return ns - ns % 5, ew - ew % 5


def test_an_italian_evening_with_every_accident(server: ServerProcess, browser: Any,
                                                tmp_path: Path) -> None:
    needs_pdftotext()
    http = httpx.Client(base_url=server.base, headers=ITALIAN)
    director = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    desk = director.new_page()
    desk.goto(f"{server.base}/tournaments/")
    desk.locator("#create input[name=name]").fill("Giovedì – Circolo del Burraco")
    desk.locator("#create input[name=schedule]").fill("mitchell:3,danish:1")
    desk.locator("#create button[type=submit]").click()
    desk.wait_for_url("**/?ok=*")
    tid = desk.url.split("/tournaments/")[1].split("/")[0]
    base = f"{server.base}/tournaments/{tid}"
    desk.locator("textarea[name=pairs]").fill("\n".join(PAIRS))
    submit(desk, "register")
    assert desk.locator("#pairs li").count() == 9

    # a no-show, before round 1: the pairs after it move up a number
    desk.locator("#remove select[name=pair]").select_option("4")
    assert "Assenti" in submit(desk, "remove")
    assert [p["name"] for p in state(http, tid)["pairs"]][3] == "Ferri / Conti"
    italian(desk, "director before round 1")
    shot(desk, "01-director-registered")

    # the wall and one set of table cards, before round 1
    desk.goto(f"{base}/wall")
    italian(desk, "wall")
    shot(desk, "02-wall")
    cards = http.get(f"/tournaments/{tid}/pdf/table-cards?lang=it")
    assert cards.status_code == 200 and cards.headers["content-type"] == "application/pdf"
    cards_text = pdf_text(cards.content, tmp_path)
    assert "/evening/" in cards_text and english_in(printed(cards_text)) == []
    evening = http.get(f"/api/tournaments/{tid}/evening-links").json()["tables"]
    card = {row["table"]: {"ns": row["ns"], "ew": row["ew"]} for row in evening}
    assert sorted(card) == [1, 2, 3, 4]

    big = browser.new_context(viewport=SCREEN, locale="it-IT")
    screen = big.new_page()
    phones = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                 locale="it-IT")
    phone = phones.new_page()

    def start(number: int, minutes: str = "33") -> list[dict[str, Any]]:
        desk.goto(f"{base}/")
        desk.locator("#start button").click()
        desk.wait_for_load_state()
        desk.locator("#clock-form input[name=minutes]").fill(minutes)
        submit(desk, "clock-form")
        played = state(http, tid)["round"]
        assert played["number"] == number
        return list(played["tables"])

    def play(number: int, tables: list[dict[str, Any]], skip: set[int] = frozenset()) -> None:
        for table in tables:
            if table["table"] in skip:
                continue
            ns, ew = score(number, table["table"])
            links = card.get(table["table"])
            if links is None:  # a table opened for late pairs: its round links
                row = next(r for r in http.get(f"/api/tournaments/{tid}/table-links").json()[
                    "tables"] if r["table"] == table["table"])
                targets = [row["ns"], row["ew"]]
            else:
                targets = [round_link(http, links[side]) for side in ("ns", "ew")]
            for target in targets:
                phone_entry(http, target, ns, ew)

    # round 1: a phone opens its table card, the others enter by the same links
    tables = start(1)
    phone.goto(card[1]["ns"])
    phone.wait_for_url("**/table/**")
    italian(phone, "phone round 1")
    shot(phone, "03-phone-round-1")
    play(1, tables)
    screen.goto(f"{base}/screen")
    italian(screen, "big screen after round 1")
    shot(screen, "04-screen-round-1")

    # two late pairs after round 1: a new table with the movement drawn again, then the
    # empty place of that table
    desk.goto(f"{base}/")
    desk.locator("#late input[name=pair]").fill("Tardi / Sempre")
    desk.locator("#late select[name=mode]").select_option("bye")
    desk.locator("#late button[type=submit]").click()
    desk.wait_for_load_state()
    assert "tavolo" in desk.locator("#error").inner_text().lower()  # no empty place: refused
    assert len(state(http, tid)["pairs"]) == 8
    desk.locator("#late input[name=pair]").fill("Tardi / Sempre")
    desk.locator("#late select[name=mode]").select_option("redraw")
    submit(desk, "late")
    desk.locator("#late input[name=pair]").fill("Ultimi / Arrivati")
    desk.locator("#late select[name=mode]").select_option("bye")
    submit(desk, "late")
    desk.locator("#rename select[name=pair]").select_option("2")
    desk.locator("#rename input[name=name]").fill("Verdi / Neri Lombardi")
    submit(desk, "rename")
    italian(desk, "director after the late pairs")
    shot(desk, "05-director-late-pairs")
    ranked = {s["pair"]: s for s in state(http, tid)["standings"]}
    assert ranked[9]["absent"] == 1 and ranked[9]["vp"] == 6

    # round 2: five tables; the clock's last five minutes, then time is called
    tables = start(2, minutes="5")
    assert len(tables) == 5
    phone.goto(server.base + round_link(http, card[1]["ns"]))
    assert phone.locator("#clock-warning").is_visible()
    italian(phone, "phone with the warning")
    shot(phone, "06-phone-warning")
    screen.goto(f"{base}/screen")
    assert screen.locator("#clock-warning").is_visible()
    shot(screen, "07-screen-warning")
    desk.goto(f"{base}/")
    submit(desk, "time-form")
    phone.goto(server.base + round_link(http, card[1]["ns"]))
    assert phone.locator("#timeout").is_visible()
    italian(phone, "phone after time was called")
    shot(phone, "08-phone-time-out")
    # table 1 was cut short after two smazzate: the NS phone ticks the box
    phone.locator("details summary").click()
    for k, (ns_part, ew_part) in enumerate(((450, -100), (300, 200)), start=1):
        phone.locator(f"input[name=h{k}_ns]").fill(str(ns_part))
        phone.locator(f"input[name=h{k}_ew]").fill(str(ew_part))
    phone.locator("input[name=ns_mp]").fill("750")
    phone.locator("input[name=ew_mp]").fill("100")
    phone.locator("input[name=timed_out]").check()
    shot(phone, "09-phone-cut-short")
    phone.locator("#entry button[type=submit]").click()
    phone.wait_for_load_state()
    assert phone.locator("#notice").is_visible()
    phone_entry(http, round_link(http, card[1]["ew"]), 750, 100)
    # table 2: a pair did not sit down in time, the director gives 14–6
    desk.goto(f"{base}/")
    desk.locator("#arbitral input[name=table]").fill("2")
    desk.locator("#arbitral input[name=ns_vp]").fill("14")
    desk.locator("#arbitral input[name=ew_vp]").fill("6")
    submit(desk, "arbitral")
    play(2, tables, skip={1, 2})
    results = {(r["round"], r["table"]): r for r in state(http, tid)["results"]}
    assert results[2, 1]["hands"] == [[450, -100], [300, 200]]
    assert results[2, 2]["source"] == "arbitral" and results[2, 2]["vp"] == [14, 6]

    # after round 2 one pair withdraws in each mode
    for pair, mode in (("5", "byes"), ("7", "reseat")):
        desk.goto(f"{base}/")
        desk.locator("#withdraw select[name=pair]").select_option(pair)
        desk.locator("#withdraw select[name=mode]").select_option(mode)
        submit(desk, "withdraw")
    play(3, start(3))
    play(4, start(4))
    final = state(http, tid)
    assert final["status"] == "finished"
    met: set[frozenset[int]] = set()
    for r in final["results"]:
        if r["round"] <= 3:
            pairing = frozenset((r["ns"], r["ew"]))
            assert pairing not in met, f"{sorted(pairing)} met twice"
            met.add(pairing)
    assert {5, 7}.isdisjoint({p for r in final["results"] if r["round"] >= 3
                              for p in (r["ns"], r["ew"])})

    # every page and paper of the evening, in Italian
    for path, name in ((f"{base}/", "10-director-final"), (f"{base}/standings", "11-players"),
                       (f"{base}/screen", "12-screen-final"), (f"{base}/print", "13-print"),
                       (f"{base}/wall", "14-wall-final"), (f"{base}/register", "15-register")):
        desk.goto(path)
        italian(desk, path)
        shot(desk, name)
    text = visible(http.get(f"/tournaments/{tid}/").text)
    assert re.search(r"arbitrale", text) and "Verdi / Neri Lombardi" in text
    for kind in KINDS:
        if kind == "deals":
            continue
        paper = http.get(f"/tournaments/{tid}/pdf/{kind}?lang=it&round=3")
        assert paper.status_code == 200, (kind, paper.text[:300])
        assert english_in(printed(pdf_text(paper.content, tmp_path))) == [], kind
    for name in ("federation.csv", "standings.csv", "results.csv"):
        assert http.get(f"/tournaments/{tid}/{name}").status_code == 200
    director.close()
    big.close()
    phones.close()
