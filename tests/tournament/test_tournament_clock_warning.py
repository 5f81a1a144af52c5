"""The round clock's 5-minute warning and the time-out it leads to (RULES.md §8.2, §11.6).

With 5 minutes or less left the phones, the big screen and the director's desk say so (as
served, and by their script as the time passes, without reloading), and the big screen
beeps once (WebAudio); when the time is up the warning gives way to the time-out of FIBur
Art. 15 spelled out: one last lap, no closing bonus if nobody closes in it, no new
smazzata, the match scored on the smazzate played.  Against a real ``burraco serve``; the
pages' own clocks are Playwright's, run forward (nothing waits for minutes).
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from evening_harness import SIX, create, ok
from harness import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}
WAIT = 30_000
# Every beep the page plays, counted: a real AudioContext whose oscillators say when they
# start (the page's own code is untouched).
COUNT_BEEPS = """
window.beeps = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...args) => { window.beeps += 1; return start(...args); };
    return tone;
  }
};
"""


def evening(server: ServerProcess, name: str, minutes: str) -> tuple[str, str]:
    """A round in play with its clock started; the id and table 1's NS link."""
    tid = create(server, name, "mitchell:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    ok(server, tid, "rounds")
    ok(server, tid, "clock", minutes=minutes)
    rows = server.http.get(f"/api/tournaments/{tid}/table-links").json()["tables"]
    return tid, str(rows[0]["ns"])


def element(page: httpx.Response, name: str) -> re.Match[str]:
    found = re.search(rf"<p [^>]*id='{name}'[^>]*>(.*?)</p>", page.text, re.S)
    assert found, page.text[:3000]
    return found


def test_five_minutes_left_as_served(server: ServerProcess) -> None:
    tid, link = evening(server, "Ultimi minuti", "5")
    phone = server.http.get(link + "?lang=en")
    screen = server.http.get(f"/tournaments/{tid}/screen?lang=en")
    desk = server.http.get(f"/tournaments/{tid}/?lang=en")
    for page in (phone, screen, desk):
        warning = element(page, "clock-warning")
        assert warning.group(1) == "5 minutes left" and " hidden" not in warning.group(0)
        assert " hidden" in element(page, "timeout").group(0)
        assert "<script src='/tournaments/clock-warning.js' defer>" in page.text
    assert "data-beep" in element(screen, "clock-warning").group(0), "the big screen beeps"
    assert "data-beep" not in element(phone, "clock-warning").group(0), "the phones do not"
    assert server.http.get(f"/tournaments/{tid}/screen.json").json()["clock"]["warning"]
    script = server.http.get("/tournaments/clock-warning.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "AudioContext" in script.text

    ok(server, tid, "clock", minutes="33")  # restarted: no warning yet
    assert " hidden" in element(server.http.get(link + "?lang=en"), "clock-warning").group(0)
    assert not server.http.get(f"/tournaments/{tid}/screen.json").json()["clock"]["warning"]

    ok(server, tid, "clock/time")
    for page in (server.http.get(link + "?lang=en"),
                 server.http.get(f"/tournaments/{tid}/screen?lang=en")):
        assert " hidden" in element(page, "clock-warning").group(0), "time-out instead"
        rule = unescape(element(page, "timeout").group(1))
        assert "the player on turn finishes his turn and every player plays one more turn" \
            in rule
        assert "If nobody closes in it, the smazzata ends without the closing bonus" in rule
        assert "No new smazzata is dealt: the match is scored on the smazzate played." in rule
    italian = server.http.get(f"/tournaments/{tid}/screen?lang=it").text
    assert "Ultimo giro" in unescape(element_text(italian, "timeout"))


def element_text(html: str, name: str) -> str:
    found = re.search(rf"id='{name}'[^>]*>(.*?)</p>", html, re.S)
    assert found
    return found.group(1)


def test_the_warning_comes_and_goes_on_the_phone_and_the_big_screen(server: ServerProcess,
                                                                     browser: Any) -> None:
    tid, link = evening(server, "Avviso dei cinque minuti", "6")
    phones = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    big = browser.new_context(viewport=SCREEN)
    big.add_init_script(COUNT_BEEPS)
    for context in (phones, big):
        context.clock.install()
    phone = phones.new_page()
    phone.goto(f"{link}?lang=en")
    screen = big.new_page()
    screen.goto(f"{server.base}/tournaments/{tid}/screen?lang=en")
    for page in (phone, screen):
        assert page.locator("#clock-warning").is_hidden(), "6 minutes left: not yet"
        assert page.locator("#timeout").is_hidden()
    assert screen.evaluate("window.beeps") == 0

    for page in (phone, screen):  # a minute on: 5 minutes left, on the page by itself
        page.clock.fast_forward("01:01")
        page.locator("#clock-warning").wait_for(state="visible", timeout=WAIT)
        assert page.locator("#clock-warning").inner_text() == "5 minutes left"
        assert page.locator("#timeout").is_hidden()
    screen.wait_for_function("window.beeps === 1", timeout=WAIT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "clock-warning-phone-en.png"), full_page=True)
    screen.screenshot(path=str(SCREENSHOTS / "clock-warning-screen-en.png"))
    screen.clock.fast_forward("00:30")
    assert screen.evaluate("window.beeps") == 1, "one beep per clock"
    screen.reload()  # the big screen reloads on every result: it does not beep again
    screen.locator("#clock-warning").wait_for(state="visible", timeout=WAIT)
    screen.clock.fast_forward("00:05")
    assert screen.evaluate("window.beeps") == 0

    for page in (phone, screen):  # the time is up: the time-out takes the warning's place
        page.clock.fast_forward("06:00")
        page.locator("#timeout").wait_for(state="visible", timeout=WAIT)
        assert page.locator("#clock-warning").is_hidden()
        assert "No new smazzata is dealt" in page.locator("#timeout").inner_text()
    phones.close()
    big.close()
