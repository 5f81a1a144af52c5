"""The score pad end to end, on a phone-sized page (390×844) in Debian's Chromium.

A 4-player match to 2005 is entered hand by hand, some sides as numbers and some card by
card, with the network cut once the lobby has loaded; every total on the page is checked against
the engine's own ``score_side`` for the same melds and cards.  A slip (two sides closing, card
points that are not a multiple of 5) is refused with its reasons and nothing changes; a hand
is corrected and the totals follow; the winner is announced.  The sheet's share link opens
read-only in a fresh page, and the print view keeps the sheet only.  Screenshots in English and
Italian go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import pick_lang

from burraco.engine.cards import parse_faces
from burraco.engine.melds import burraco_type, meld_from_faces
from burraco.engine.rules import FIBUR
from burraco.engine.scoring import Pozzetto, half_up, score_side
from burraco.engine.vp import vp_for_scores

pytestmark = pytest.mark.xdist_group("e2e")

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
NAMES = ["Anna", "Bruno", "Carlo", "Dora"]  # NS: Anna & Carlo, EW: Bruno & Dora


@dataclass
class Side:
    melds: list[str]
    hand: str = ""
    closed: bool = False
    took: bool = True
    by_cards: bool = False

    def engine_total(self, anybody: bool) -> int:
        melds = [meld_from_faces(parse_faces(m)) for m in self.melds]
        status: Pozzetto = "taken" if self.took else "missing" if anybody else "nobody"
        return score_side(melds, parse_faces(self.hand) if self.hand else [], closed=self.closed,
                          pozzetto=status, rules=FIBUR).total

    def kinds(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for text in self.melds:
            kind = burraco_type(meld_from_faces(parse_faces(text)))
            if kind:
                counts[kind] = counts.get(kind, 0) + 1
        return counts

    def points(self) -> tuple[int, int]:
        melds = sum(meld_from_faces(parse_faces(m)).points for m in self.melds)
        hand = -score_side([], parse_faces(self.hand), closed=False, pozzetto="taken").hand \
            if self.hand else 0
        return melds, hand


CLEAN = "4C 5C 6C 7C 8C 9C 10C"
CLEAN_HIGH = "8H 9H 10H JH QH KH AH"
SEMI = "3S JK 5S 6S 7S 8S 9S 10S JS"
DIRTY = "5H 6H JK 8H 9H 10H JH"
SET = "KD KH KS"
HANDS: list[tuple[Side, Side]] = [
    (Side([CLEAN, SEMI, SET, "AD AC AS"], "3S 9D", closed=True),
     Side([DIRTY, "QD KD AD", "7C 7D 7S"], "7H 8S QS", by_cards=True)),
    (Side(["3H 4H 5H", "9S 9C 9D 9H"], "JK 2C 5D KC", took=False, by_cards=True),
     Side([CLEAN_HIGH, CLEAN, "JD JC JH"], "4D", closed=True)),
    (Side([CLEAN_HIGH, DIRTY, SEMI, "QC QD QH QS 2H"], "", closed=True, by_cards=True),
     Side(["6D 7D 8D", "AH AD AS"], "KS KC 10D 9C 3C", took=False)),
    (Side([CLEAN, CLEAN_HIGH, SEMI, "KC KD KH JK"], "6C", closed=True),
     Side(["QS KS AS", "5C 5D 5S"], "8C 8D 9H 2S JK", took=False)),
]
# the correction: hand 2's EW cards left in hand were misread (4D, then 4D 5S)
CORRECTED = Side([CLEAN_HIGH, CLEAN, "JD JC JH"], "4D 5S", closed=True)


def fill_side(page: Any, index: int, side: Side) -> None:
    box = page.locator(f"fieldset.pad-side[data-side='{index}']")
    melds, hand = side.points()
    if side.by_cards:
        box.locator("button[data-mode=cards]").click()
        box.locator("textarea[name=meldCards]").fill("\n".join(side.melds))
        box.locator("input[name=handCards]").fill(side.hand)
        # the pad reads each meld as the engine does and counts its burraco itself
        read = box.locator(".pad-read li").evaluate_all("els => els.map(e => e.dataset.type)")
        expected = [burraco_type(meld_from_faces(parse_faces(m))) or "" for m in side.melds]
        assert read == expected
    else:
        box.locator("button[data-mode=number]").click()
        box.locator("input[name=melds]").fill(str(melds))
        box.locator("input[name=hand]").fill(str(hand) if hand else "")
        for kind, count in side.kinds().items():
            stepper = box.locator(f".stepper[data-kind='{kind}']")
            while int(stepper.locator("output").text_content() or 0) < count:
                stepper.locator("button[data-step='1']").click()
    took = box.locator("input[name=took]")
    if took.is_checked() != side.took:
        took.click()
    closed = box.locator("input[name=closed]")
    if closed.is_checked() != side.closed:
        closed.click()


def totals_on_page(page: Any) -> list[int]:
    return [int(x) for x in page.locator(".pad-totals .points").evaluate_all(
        "els => els.map(e => e.dataset.total)")]


def expected_totals(hands: list[tuple[Side, Side]]) -> list[int]:
    ns = ew = 0
    for a, b in hands:
        anybody = a.took or b.took
        ns += a.engine_total(anybody)
        ew += b.engine_total(anybody)
    return [ns, ew]


def test_a_whole_match_to_2005_on_a_phone(server: ServerProcess, browser: Any,
                                          screenshots: Path) -> None:
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.base + "/")
    page.wait_for_load_state("networkidle")  # the lobby fetches the pad while it is online
    context.set_offline(True)  # from here on the pad needs no network
    page.click("a[href='/pad/']")
    page.wait_for_selector(".pad a[href='/pad/new']")
    page.click("a[href='/pad/new']")
    page.click("button[data-players='4']")
    for i, name in enumerate(NAMES):
        page.fill(f"input[name=name{i}]", name)
    assert page.locator("select[name=target]").input_value() == "2005"
    page.locator("form.pad-setup button[type=submit]").click()
    page.wait_for_selector(".pad-sheet")
    assert "Dora deals hand 1" in page.locator(".pad-dealer").text_content()

    played: list[tuple[Side, Side]] = []
    for number, (ns, ew) in enumerate(HANDS, start=1):
        page.click("button[data-action=enter]")
        fill_side(page, 0, ns)
        fill_side(page, 1, ew)
        if number == 2:
            # two slips at once: EW's closing ticked on NS too, and 123 card points
            page.locator("fieldset.pad-side[data-side='0'] input[name=closed]").click()
            page.locator("fieldset.pad-side[data-side='1'] input[name=melds]").fill("123")
            page.click("button[data-action=save]")
            alert = page.locator(".pad-refused").text_content() or ""
            assert "Only one side can close a hand (§7.1)" in alert
            assert "123 is not a multiple of 5" in alert
            assert "A side that closed has taken its pozzetto (§7.1)" in alert
            page.screenshot(path=str(screenshots / "scorepad-refused-en.png"), full_page=True)
            assert totals_on_page(page) == expected_totals(played)  # nothing changed
            page.locator("fieldset.pad-side[data-side='0'] input[name=closed]").click()
            melds = page.locator("fieldset.pad-side[data-side='1'] input[name=melds]")
            melds.fill(str(ew.points()[0]))
        if number == 1:
            page.screenshot(path=str(screenshots / "scorepad-hand-en.png"), full_page=True)
        page.click("button[data-action=save]")
        page.wait_for_selector(f"tr[data-hand='{number}']")
        played.append((ns, ew))
        assert totals_on_page(page) == expected_totals(played), f"after hand {number}"
        dealer = int(page.locator(".pad-dealer").get_attribute("data-dealer"))
        assert dealer == (3 + number) % 4  # Dora dealt the first, then Anna, Bruno, Carlo (§2.3)
        if number == 3:
            # the correction: hand 2's EW hand held one more card
            page.click("button[data-correct='2']")
            page.wait_for_selector("form.pad-hand")
            box = page.locator("fieldset.pad-side[data-side='1']")
            box.locator("input[name=hand]").fill(str(CORRECTED.points()[1]))
            page.click("button[data-action=save]")
            page.wait_for_selector("form.pad-hand", state="detached")
            played[1] = (played[1][0], CORRECTED)
            assert totals_on_page(page) == expected_totals(played), "after the correction"

    totals = expected_totals(played)
    assert totals[0] >= 2005 > totals[1], totals
    winner = page.locator(".pad-winner")
    assert winner.get_attribute("data-winner") == "0"
    assert f"Winner: Anna & Carlo, with {totals[0]}!" in (winner.text_content() or "")
    assert not page.locator("button[data-action=enter]").count()
    page.screenshot(path=str(screenshots / "scorepad-winner-en.png"), full_page=True)
    pick_lang(page, "it")
    italian = page.locator(".pad-winner").text_content() or ""
    assert f"Vittoria di Anna & Carlo con {totals[0]}!" in italian
    page.screenshot(path=str(screenshots / "scorepad-winner-it.png"), full_page=True)
    page.click("button[data-correct='1']")
    page.screenshot(path=str(screenshots / "scorepad-hand-it.png"), full_page=True)
    page.click("form.pad-hand button[type=button]:not([data-mode]):not([data-step])")

    # the share link, read only, in a fresh page; then the print view
    context.set_offline(False)
    page.click("button[data-action=share]")
    link = page.locator(".pad-share a.share-link").get_attribute("href")
    assert link and "/pad/view#s1." in link
    viewer = browser.new_context(**PHONE, locale="it-IT").new_page()
    viewer.goto(link)
    viewer.wait_for_selector(".pad-sheet")
    assert totals_on_page(viewer) == totals
    assert not viewer.locator("button[data-action=enter], button[data-correct]").count()
    assert "Vittoria di Anna & Carlo" in (viewer.locator(".pad-winner").text_content() or "")
    viewer.emulate_media(media="print")
    assert not viewer.locator("header.top").is_visible()
    viewer.screenshot(path=str(screenshots / "scorepad-print-it.png"), full_page=True)
    viewer.context.close()

    # the finished game is in the history, kept across a reload
    page.goto(server.base + "/pad/")
    page.wait_for_selector(".pad-list")
    history = page.locator("section.panel").nth(2)
    assert history.locator(".pad-row").count() == 1
    assert "Anna & Carlo" in (history.text_content() or "")
    assert not errors, errors
    context.close()


def enter_hand(page: Any, sides: list[Side], solo: int | None = None) -> None:
    page.click("button[data-action=enter]")
    if solo is not None:
        page.select_option("select[name=solo]", str(solo))
    for index, side in enumerate(sides):
        fill_side(page, index, side)
    count = page.locator("tr[data-hand]").count()
    page.click("button[data-action=save]")
    page.wait_for_selector(f"tr[data-hand='{count + 1}']")


def new_game(page: Any, base: str, names: list[str], *, smazzate: int | None = None) -> None:
    page.goto(base + "/pad/new")
    page.click(f"button[data-players='{len(names)}']")
    for i, name in enumerate(names):
        page.fill(f"input[name=name{i}]", name)
    if smazzate:
        page.locator("input[name=mode]").nth(1).check()
        page.select_option("select[name=smazzate]", str(smazzate))
    page.locator("form.pad-setup button[type=submit]").click()
    page.wait_for_selector(".pad-sheet")


def test_three_players_and_a_match_with_victory_points(server: ServerProcess, browser: Any,
                                                       screenshots: Path) -> None:
    context = browser.new_context(**PHONE, locale="it-IT")
    page = context.new_page()
    # three players: Bruno runs out first and plays alone, Anna and Carlo share half (§13.2)
    new_game(page, server.base, ["Anna", "Bruno", "Carlo"])
    assert "a 1505" in (page.locator(".pad-sheet").text_content() or "")
    solo = Side([CLEAN, SET], "", closed=True)
    pair = Side(["3H 4H 5H", "9S 9C 9D 9H"], "JK 5D", took=False, by_cards=True)
    enter_hand(page, [solo, pair], solo=1)
    pair_total = pair.engine_total(True)
    assert totals_on_page(page) == [half_up(pair_total), solo.engine_total(True),
                                    half_up(pair_total)]
    page.screenshot(path=str(screenshots / "scorepad-three-it.png"), full_page=True)

    # two players, three hands with victory points (§11.2)
    new_game(page, server.base, ["Nord", "Sud"], smazzate=3)
    hands = [
        (Side([CLEAN, SET], "", closed=True), Side(["QD KD AD", "7C 7D 7S"], "8S", took=False)),
        (Side(["QD KD AD"], "KS KC", took=False), Side([SEMI, "JD JC JH"], "", closed=True)),
        (Side([CLEAN_HIGH, DIRTY], "", closed=True), Side(["6D 7D 8D"], "AH 2S", took=False)),
    ]
    for ns, ew in hands:
        enter_hand(page, [ns, ew])
    mp = expected_totals(hands)
    assert totals_on_page(page) == mp
    vp = vp_for_scores(mp[0], mp[1], 3)
    shown = page.locator(".pad-totals .vp").all_text_contents()
    assert shown == [f"{vp[0]} VP", f"{vp[1]} VP"]
    assert not page.locator("button[data-action=enter]").count()  # three hands: the match is over
    page.screenshot(path=str(screenshots / "scorepad-vp-it.png"), full_page=True)
    # the last hand deleted: the match is open again, the totals are those of two hands
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button[data-action=drop]")
    page.wait_for_selector("button[data-action=enter]")
    assert totals_on_page(page) == expected_totals(hands[:2])
    context.close()
