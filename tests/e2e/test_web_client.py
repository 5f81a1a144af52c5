"""The browser client end to end: Debian's Chromium driven by Playwright against ``burraco serve``.

* A newcomer picks a nickname, creates a table with three bots through the form and plays a
  whole hand through the page: clicks and drags (draw, take the pile, meld, attach, discard,
  undo), until the hand-end score and the match result; then opens its replay, whose deal
  commitment the page checks, and downloads the record.
* Two people in two browser contexts share a table (the second joins by the invite link):
  every WebSocket frame each page receives and the page's DOM at every turn are checked
  against the engine's hidden set for that seat, so neither ever holds a card of the other's
  hand, the stock or an untaken pozzetto.  One page is reloaded mid-hand and carries on; the
  language follows the browser and the switch, engine reasons included.
* A finished table's replay, in a fresh browser, move by move.

Screenshots (lobby, a table mid-hand on a desktop and on a phone, the hand-end score, the
replay) are saved to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, leaks, states_by_version

pytestmark = pytest.mark.xdist_group("e2e")

DESKTOP = {"width": 1280, "height": 800}
def pick_lang(page: Any, code: str) -> None:
    """Pick a language in the header's menu, as a person does, and wait until the page shows
    it (a language's catalog loads on its first use)."""
    page.select_option("select[name=lang]", code)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=code)


#: Picks a language in the header's switch (a select), as a script: under an open dialog too;
#: resolves once the page shows the language (its catalog loads on first use) and has drawn.
PICK_LANG = """(code) => {
  const select = document.querySelector("select[name=lang]");
  select.value = code;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return new Promise((done) => {
    const check = () => document.documentElement.lang === code
      ? requestAnimationFrame(() => done()) : requestAnimationFrame(check);
    check();
  });
}"""
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}

READY = """() => {
  const root = document.querySelector('.table-page');
  if (!root) return false;
  if (document.querySelector('[data-testid=score-table], [data-testid=verdict]')) return true;
  const legal = document.getElementById('legal-actions');
  return root.classList.contains('my-turn') && root.dataset.pending === '' && !!legal
    && legal.dataset.version === root.dataset.version
    && root.dataset.synced === root.dataset.version;
}"""

SNAPSHOT = """() => {
  const root = document.querySelector('.table-page');
  return [root ? Number(root.dataset.synced) : -1, document.body.innerHTML];
}"""


# --- helpers ----------------------------------------------------------------------------------

def enter_lobby(page: Any, base: str, nickname: str) -> None:
    page.goto(base + "/")
    # a newcomer plays under a generated nickname at once; these players pick their own
    page.click("[data-testid=change-nickname]")
    page.fill("input[name=nickname]", nickname)
    page.click("form.nickname button[type=submit]")
    page.wait_for_selector("[data-testid=quick-play]")
    # the guest is made by the server: wait until the page holds it
    page.wait_for_function("(n) => JSON.parse(localStorage.getItem('burraco:guest') || 'null')"
                           "?.nickname === n", arg=nickname)


def hand_ended(page: Any) -> bool:
    return bool(page.locator("[data-testid=score-table]").count())


def wait_ready(page: Any, timeout: float = 60_000) -> None:
    page.wait_for_function(READY, timeout=timeout)


def legal_actions(page: Any) -> list[str]:
    return list(json.loads(page.locator("#legal-actions").text_content()))


def version(page: Any) -> int:
    return int(page.locator(".table-page").get_attribute("data-version"))


def phase(page: Any) -> str:
    return str(page.locator(".table-page").get_attribute("data-phase"))


def hand_cards(page: Any) -> list[tuple[str, str]]:
    """(id, face) of every card in the hand, in the order shown."""
    return [tuple(x) for x in page.locator(".hand-card").evaluate_all(
        "els => els.map(e => [e.dataset.id, e.dataset.face])")]


def ids_for(page: Any, faces: list[str]) -> list[str]:
    cards = hand_cards(page)
    out: list[str] = []
    for face in faces:
        cid = next(c for c, f in cards if f == face and c not in out)
        out.append(cid)
    return out


def card(page: Any, cid: str) -> Any:
    return page.locator(f'.hand-card[data-id="{cid}"]')


def click_card(page: Any, cid: str) -> None:
    """One tap on a hand card, which selects or unselects it exactly once."""
    target = card(page, cid)
    was = target.get_attribute("aria-pressed")
    # cards overlap to the right: the left edge of each is always visible
    target.click(position={"x": 7, "y": 30})
    # a busy machine may paint the tap a moment after the click returns; a lost tap, or one
    # counted twice, leaves the card as it was and fails here
    page.wait_for_function(
        "([cid, was]) => document.querySelector(`.hand-card[data-id=\"${cid}\"]`)"
        "?.getAttribute('aria-pressed') !== was", arg=[cid, was], timeout=10_000)


def drag(page: Any, source: Any, target: Any, *, at_left: bool = False) -> None:
    """A real pointer drag: press, move in steps, release (once no card is still flying)."""
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running')")
    # as a player scrolls to a meld above the screen first (the hand stays: it is sticky), and
    # not to where the sticky header or hand would cover it
    target.evaluate("(e) => e.scrollIntoView({ block: 'center' })")
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b, "drag source or target not on the page"
    for box, what in ((a, source), (b, target)):
        x, y = box["x"] + (7 if at_left and what is source else box["width"] / 2), \
            box["y"] + box["height"] / 2
        assert page.evaluate("([x, y, e]) => e.contains(document.elementFromPoint(x, y))",
                             [x, y, what.element_handle()]), \
            f"drag from {a} to {b}: {what} is covered at {x},{y}: {diagnosis(page)}"
    x = a["x"] + (7 if at_left else a["width"] / 2)
    page.mouse.move(x, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    # as a hand follows its eyes: if the page moved the target meanwhile, go where it is now
    now = target.bounding_box()
    if now and (abs(now["x"] - b["x"]) > 2 or abs(now["y"] - b["y"]) > 2):
        page.mouse.move(now["x"] + now["width"] / 2, now["y"] + now["height"] / 2, steps=2)
    page.mouse.up()
    DRAGS[id(page)] = f"from {a} to {b}, then {now}"


DIAGNOSIS = """() => {
  const root = document.querySelector('.table-page');
  const buttons = {};
  for (const b of document.querySelectorAll('.actions button[data-action]'))
    buttons[b.dataset.action] = b.disabled ? 'disabled' : 'enabled';
  return {
    data: root ? { ...root.dataset } : null,
    classes: root ? root.className : null,
    hand: [...document.querySelectorAll('.hand-card')].map(
      (e) => `${e.dataset.id}:${e.dataset.face}`
        + (e.getAttribute('aria-pressed') === 'true' ? '*' : '')),
    buttons,
    legal: document.getElementById('legal-actions')?.textContent ?? null,
    toast: document.querySelector('.toast, .nudge')?.textContent ?? null,
    dragging: document.body.classList.contains('dragging'),
    pointer: window.__pointerLog ?? null,
    text: document.body.innerText.slice(0, 600),
  };
}"""


SENT: dict[int, list[str]] = {}
DRAGS: dict[int, str] = {}


POINTER_LOG = """(() => {
  const log = [];
  window.__pointerLog = log;
  const name = (el) => !(el instanceof Element) ? String(el) :
    `${el.tagName.toLowerCase()}.${el.className}${el.dataset?.id ? '#' + el.dataset.id : ''}` +
    `${el.dataset?.drop ? '[' + el.dataset.drop + ']' : ''}`;
  for (const type of ['pointerdown', 'pointerup', 'pointercancel', 'click']) {
    window.addEventListener(type, (e) => {
      const hit = document.elementFromPoint(e.clientX, e.clientY);
      log.push(`${type} ${Math.round(e.clientX)},${Math.round(e.clientY)} on ${name(e.target)}` +
        ` hit ${name(hit?.closest('[data-drop]') ?? hit)}`);
      if (log.length > 12) log.shift();
    }, { capture: true });
  }
})();"""


def watch_frames(page: Any) -> Any:
    """Keep the frames the page sends on its WebSockets and its last pointer events, for a
    failure's diagnosis."""
    sent = SENT.setdefault(id(page), [])
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    page.add_init_script(POINTER_LOG)
    return page


def diagnosis(page: Any) -> str:
    """What the page shows and last sent, for a failure's message: a timed-out wait says why."""
    try:
        shown = json.dumps(page.evaluate(DIAGNOSIS))
    except Exception as exc:  # the page itself may be what broke
        shown = f"(no diagnosis: {exc})"
    return (f"{shown}; last frames sent: {SENT.get(id(page), ['(not watched)'])[-4:]}; "
            f"last drag: {DRAGS.get(id(page))}")


@contextmanager
def explained(page: Any, what: str) -> Iterator[None]:
    """A Playwright wait that times out fails with ``what`` and what the page showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        yield
    except PlaywrightTimeout:
        raise AssertionError(f"{what}: {diagnosis(page)}") from None


def press(page: Any, action: str, timeout: float = 15_000) -> None:
    """Click an action button once it is enabled; if it never is, say what the page showed."""
    selector = f"button[data-action={action}]"
    with explained(page, f"{action} stayed disabled"):
        page.wait_for_selector(f"{selector}:not([disabled])", timeout=timeout)
    page.click(selector)


def shown(page: Any, selector: str, timeout: float = 30_000) -> None:
    """Wait for ``selector`` on the page; if it never shows, say what the page showed."""
    with explained(page, f"{selector} never showed"):
        page.wait_for_selector(selector, timeout=timeout)


def answered(page: Any, before: int, timeout: float = 30_000) -> None:
    """Wait until a command sent at version ``before`` was answered (applied and shown, or
    refused); if it never is, say what the page showed."""
    with explained(page, f"no answer to the command sent at version {before}"):
        page.wait_for_function(
            """(before) => {
              const root = document.querySelector('.table-page');
              if (document.querySelector('[data-testid=reject]')) return true;
              return root && root.dataset.pending === '' && Number(root.dataset.version) > before
                && root.dataset.synced === root.dataset.version;
            }""", arg=before, timeout=timeout)


def settle(page: Any, before: int, timeout: float = 30_000) -> None:
    """Wait until a legal command sent at version ``before`` was applied and its events shown."""
    answered(page, before, timeout)
    reject = page.locator("[data-testid=reject]")
    if reject.count():
        raise AssertionError(f"the server refused a legal move: {reject.text_content()}")


def melds_of_mine(page: Any) -> int:
    return page.locator(".side.mine .meld").count()


def table_id(page: Any) -> str:
    match = re.search(r"/play/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def create_table_with_form(page: Any, *, players: int, seats: list[str], level: str = "basic",
                           public: bool = True) -> None:
    """Fill the create-table form: seat kinds, one hand, bots without a thinking pause."""
    page.click("details:has([data-testid=create-form]) > summary")
    page.select_option("select[name=players]", str(players))
    for i, kind in enumerate(seats):
        page.select_option(f"select[name=seat{i}]", kind)
        if kind == "bot":
            page.select_option(f"select[name=level{i}]", level)
    page.select_option("select[name=format]", "hands:1")
    page.click("[data-testid=more-rules] > summary")
    page.fill("input[name=bot_delay]", "0")
    if not public:
        page.check("input[name=private]")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".dialog .copy-link")


# --- a whole hand against three bots ----------------------------------------------------------

def play_turn(page: Any, turn: int, did: dict[str, int]) -> None:
    """Play one turn through the page, alternating clicks and drags."""
    legal = legal_actions(page)
    before = version(page)
    pile = page.locator("[data-testid=pile]")
    if "draw" in legal:
        if turn == 0:
            drag(page, page.locator("[data-testid=stock]"), page.locator(".hand"))
            did["drag-draw"] += 1
        elif "pickup" in legal and did["pickup"] == 0 and turn >= 2:
            drag(page, pile, page.locator(".hand"))
            did["pickup"] += 1
        else:
            page.click("button[data-action=draw]")
        settle(page, before)
        wait_ready(page)
        if hand_ended(page):
            return
    for _ in range(4):
        legal = legal_actions(page)
        melds = [a for a in legal if a.startswith("meld ")]
        attaches = [a for a in legal if a.startswith("attach ")]
        if not melds and not attaches:
            break
        before = version(page)
        if melds:
            faces = max(melds, key=len).split()[1:]
            ids = ids_for(page, faces)
            for cid in ids:
                click_card(page, cid)
            if did["meld"] % 2 == 0:
                press(page, "meld")
            else:
                drag(page, card(page, ids[0]), page.locator("[data-drop=newmeld]"), at_left=True)
            did["meld"] += 1
        else:
            words = attaches[0].split()
            index, faces = int(words[1]) - 1, words[2:]
            ids = ids_for(page, faces)
            for cid in ids[1:]:
                click_card(page, cid)
            if len(ids) > 1:
                click_card(page, ids[0])
            drag(page, card(page, ids[0]), page.locator(f'[data-drop="meld:{index}"]'),
                 at_left=True)
            did["attach"] += 1
        settle(page, before)
        wait_ready(page)
        if hand_ended(page):
            return
        if did["meld"] == 1 and did["undo"] == 0 and page.locator(
                "button[data-action=undo]:not([disabled])").count():
            count = melds_of_mine(page)
            before = version(page)
            page.click("button[data-action=undo]")
            settle(page, before)
            wait_ready(page)
            assert melds_of_mine(page) == count - 1, "undo did not take the meld back"
            did["undo"] += 1
    legal = legal_actions(page)
    discards = [a for a in legal if a.startswith("discard ")]
    assert discards, f"no discard offered: {legal}"
    face = discards[-1].split()[1]
    (cid,) = ids_for(page, [face])
    before = version(page)
    if turn % 2 == 0:
        drag(page, card(page, cid), page.locator("[data-drop=pile]"), at_left=True)
        did["drag-discard"] += 1
    else:
        click_card(page, cid)
        press(page, "discard")
    settle(page, before)


def test_a_newcomer_plays_a_whole_hand_against_three_bots(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = watch_frames(context.new_page())
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # a first visit opens at the page's top with the Play button in sight and no form to fill
    # (the newcomer has a generated nickname); picking one's own is one tap away
    page.goto(server.base + "/")
    play = page.locator("[data-testid=quick-play]")
    play.wait_for()
    box = play.bounding_box()
    assert box and box["y"] + box["height"] <= DESKTOP["height"], box
    assert page.evaluate("scrollY") == 0
    assert "Player " in page.locator(".hello").text_content()
    page.click("[data-testid=change-nickname]")
    page.wait_for_function("() => document.activeElement?.getAttribute('name') === 'nickname'")
    page.keyboard.type("Ada")
    assert page.input_value("input[name=nickname]") == "Ada"
    page.click("form.nickname button[type=submit]")
    page.wait_for_selector("[data-testid=quick-play]")
    # the guest is made by the server: wait until the page holds it
    page.wait_for_function("(n) => JSON.parse(localStorage.getItem('burraco:guest') || 'null')"
                           "?.nickname === n", arg="Ada")
    assert page.locator("h1").first.text_content() == "Burraco"
    page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)

    create_table_with_form(page, players=4, seats=["human", "bot", "bot", "bot"])
    page.click(".dialog a.button.primary")
    page.wait_for_selector(".hand-card", timeout=30_000)
    assert page.locator(".player").count() == 4

    did = dict.fromkeys(("drag-draw", "pickup", "meld", "attach", "undo", "drag-discard"), 0)
    turn = 0
    shot = False
    while True:
        wait_ready(page, timeout=120_000)
        if hand_ended(page):
            break
        if turn == 3 and phase(page) == "draw" and not shot:
            page.screenshot(path=str(screenshots / "table-desktop.png"))
            phone = browser.new_context(storage_state=context.storage_state(), **PHONE)
            small = phone.new_page()
            small.goto(page.url)
            small.wait_for_selector(".hand-card", timeout=30_000)
            small.wait_for_timeout(400)
            small.screenshot(path=str(screenshots / "table-phone.png"))
            phone.close()
            shot = True
        play_turn(page, turn, did)
        turn += 1
        assert turn < 80, "the hand did not end"

    # the hand is over: the score of RULES.md §9 for each side, then the match result
    table = page.locator("[data-testid=score-table]")
    assert table.locator("th", has_text="Cards in melds").count() == 1
    assert table.locator("td[data-total]").count() == 2
    page.screenshot(path=str(screenshots / "hand-end.png"))
    page.click("[data-testid=continue]")
    verdict = page.locator("[data-testid=verdict]")
    verdict.wait_for(timeout=30_000)
    assert verdict.text_content()
    assert turn >= 3 and did["drag-discard"] >= 1 and did["drag-draw"] == 1, did

    # its replay: the page checks the deal commitment, also against the one it saw live
    tid = table_id(page)
    page.click(".match-over a.button:not(.primary)")
    page.wait_for_selector("[data-testid=commitment]")
    assert page.locator("[data-check=ok]").count() == 1
    assert page.locator("[data-live=ok]").count() == 1
    with page.expect_download() as download:
        page.click("[data-testid=download]")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "burraco-record" and len(record["moves"]) > 10
    assert record["commitment"]["salt"] and tid
    assert not errors, errors
    context.close()


# --- two people at one table ------------------------------------------------------------------

def play_simple_turn(page: Any, turn: int | None = None, *, melds: int = 1) -> None:
    """Draw by a click (unless the turn has drawn already), open the longest meld there is, up
    to ``melds`` times, by clicks, and discard: by a drag on odd turns, else by clicks."""
    if "draw" in legal_actions(page):
        before = version(page)
        page.click("button[data-action=draw]")
        settle(page, before)
        wait_ready(page)
        if hand_ended(page):
            return
    for _ in range(melds):
        offered = [a for a in legal_actions(page) if a.startswith("meld ")]
        if not offered:
            break
        before = version(page)
        faces = max(offered, key=len).split()[1:]
        for cid in ids_for(page, faces):
            click_card(page, cid)
        chosen = page.locator(".hand-card.selected").evaluate_all(
            "els => els.map(e => e.dataset.face)")
        assert sorted(chosen) == sorted(faces), (chosen, faces)
        press(page, "meld")
        settle(page, before)
        wait_ready(page)
        if hand_ended(page):
            return
    face = [a for a in legal_actions(page) if a.startswith("discard ")][-1].split()[1]
    (cid,) = ids_for(page, [face])
    before = version(page)
    if turn is not None and turn % 2:
        drag(page, card(page, cid), page.locator("[data-drop=pile]"), at_left=True)
    else:
        click_card(page, cid)
        press(page, "discard")
    settle(page, before)


def whose_turn(pages: list[Any], timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.evaluate(READY):
                return page
        time.sleep(0.05)
    raise TimeoutError("neither page is on turn")


def frame_versions(frames: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """Each received frame with the version the page was at when it arrived."""
    out = []
    current = 0
    for text in frames:
        data = json.loads(text)
        if "v" in data and "t" not in data:
            current = data["v"]
        elif data.get("t") == "sync" or (data.get("t") == "hello_ok"
                                         and data.get("catch_up") == "none"):
            current = data["version"]
        out.append((current, data))
    return out


def test_two_people_at_one_table_see_only_their_own_cards(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    # Ada's browser speaks English, Bice's Italian: each page follows its browser
    ada_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    bice_ctx = browser.new_context(viewport={"width": 900, "height": 800}, locale="it-IT")
    ada, bice = watch_frames(ada_ctx.new_page()), watch_frames(bice_ctx.new_page())
    frames: dict[int, list[str]] = {0: [], 1: []}
    snapshots: dict[int, list[tuple[int, str]]] = {0: [], 1: []}
    for seat, page in ((0, ada), (1, bice)):
        page.on("websocket", lambda ws, seat=seat: ws.on(
            "framereceived", lambda payload, seat=seat: frames[seat].append(payload)))

    enter_lobby(ada, server.base, "Ada")
    create_table_with_form(ada, players=2, seats=["human", "human"], public=False)
    invite = ada.locator(".dialog .copy-link input").first.input_value()
    assert "/play/" in invite and "seat=1" in invite
    ada.click(".dialog a.button.primary")
    ada.wait_for_selector(".waiting")

    bice.goto(invite)
    assert bice.locator("form.nickname h2").text_content() == "Scegli un soprannome"
    bice.fill("input[name=nickname]", "Bice")
    bice.click("form.nickname button[type=submit]")
    for page in (ada, bice):
        page.wait_for_selector(".hand-card", timeout=30_000)
    assert bice.locator("button[data-action=draw]").text_content() == "Pesca"
    assert ada.locator("button[data-action=draw]").text_content() == "Draw"
    tid = table_id(ada)

    def snapshot() -> None:
        for seat, page in ((0, ada), (1, bice)):
            synced, html = page.evaluate(SNAPSHOT)
            snapshots[seat].append((synced, html.replace(tid, "TABLE")))

    for turn in range(10):
        snapshot()
        page = whose_turn([ada, bice])
        if hand_ended(page):
            break
        if turn == 3:
            # Ada switches to Italian and back
            pick_lang(ada, "it")
            assert ada.locator("button[data-action=draw]").text_content() == "Pesca"
            pick_lang(ada, "en")
            assert ada.locator("button[data-action=draw]").text_content() == "Draw"
            # a refused meld comes back with the engine's reason in the page's language
            pick_lang(page, "it")
            before = version(page)
            page.click("button[data-action=draw]")
            settle(page, before)
            wait_ready(page)
            click_card(page, hand_cards(page)[0][0])
            press(page, "meld")
            toast = page.locator("[data-testid=reject]")
            toast.wait_for()
            assert toast.text_content() == "Un gioco richiede almeno tre carte"
            pick_lang(page, "en")
            assert toast.text_content() == "A meld needs at least three cards"
            toast.click()
            page.click("button[data-action=clear]")  # a refusal keeps the selection
            if page is bice:
                pick_lang(page, "it")
            face = [a for a in legal_actions(page) if a.startswith("discard ")][-1].split()[1]
            (cid,) = ids_for(page, [face])
            before = version(page)
            click_card(page, cid)
            press(page, "discard")
            settle(page, before)
            continue
        if turn == 5:
            # reconnection: the other player reloads the page in the middle of the hand
            other = bice if page is ada else ada
            held = sorted(f for _, f in hand_cards(other))
            other.reload()
            shown(other, ".hand-card")
            other.wait_for_function(
                "() => document.querySelector('.table-page').dataset.synced !== '-1'")
            assert sorted(f for _, f in hand_cards(other)) == held
            assert other.locator(".player .dot.off").count() == 0
        play_simple_turn(page, turn)
        snapshot()
    ada.screenshot(path=str(screenshots / "table-two-players.png"))

    # every frame and every snapshot against the engine's hidden set, seat by seat
    states = states_by_version(server.db_url, tid)
    checked = 0
    for seat in (0, 1):
        for at, data in frame_versions(frames[seat]):
            problems = leaks(data, states.get(at), seat)
            assert not problems, f"seat {seat} frame at version {at}: {problems} in {data}"
            checked += 1
        for synced, html in snapshots[seat]:
            problems = leaks({"html": html}, states.get(synced), seat)
            assert not problems, f"seat {seat} page at version {synced}: {problems}"
    assert checked > 50 and all(len(s) >= 10 for s in snapshots.values())
    ada_ctx.close()
    bice_ctx.close()


# --- a replay ---------------------------------------------------------------------------------

def test_a_finished_table_replays_move_by_move(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    token = server.guest("Replayer")
    table = server.create_table(token, players=4, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "bot", "level": "basic"}] * 4)
    tid = table["table_id"]
    deadline = time.monotonic() + 120
    while server.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' table did not finish"
        time.sleep(0.3)

    context = browser.new_context(viewport=DESKTOP, locale="it-IT")
    page = context.new_page()
    page.goto(f"{server.base}/replay/{tid}")
    page.wait_for_selector("[data-testid=commitment]")
    assert page.locator("[data-check=ok]").count() == 1
    assert page.locator("[data-live]").count() == 0  # this browser did not watch it live
    page.click("[data-replay=first]")
    assert page.locator("[data-testid=replay-step]").text_content() == "La distribuzione"
    # at the deal every hand is shown in full: 4 × 11 cards, then move by move
    assert page.locator(".replay-hand .card-face").count() == 44
    for step in range(1, 4):
        page.click("[data-replay=next]")
        assert page.locator(".replay-frame").get_attribute("data-step") == str(step)
        assert page.locator("[data-testid=replay-move]").text_content()
    page.click("[data-replay=last]")
    page.wait_for_selector("[data-testid=score-table]")
    page.screenshot(path=str(screenshots / "replay.png"), full_page=True)
    context.close()
