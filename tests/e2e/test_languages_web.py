"""Every page of the browser app in each of the five languages (issue: languages on catalogs).

The pages are walked in Chromium, once per language picked in the header's menu: the lobby,
a table mid-hand with a refusal shown, a finished match's replay, a profile, the leaderboard,
the score pad and the players' rules. On each, the page's text must hold no phrase of another
language's catalog that is not also a phrase of this language's (an English button left on an
Italian page, a Spanish word on a Slovenian one). Phrases are the literal runs of the
catalogs' messages (placeholders cut out) of at least two words and twelve letters, so "Bot",
"OK" or a name never count; a phrase of the language's own rules page is its own (the rules
keep Italian names such as "scala completa", as the players do). Screenshots of the lobby and
the table in each language go to the screenshots folder.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from harness import ServerProcess
from test_web_client import PHONE, PICK_LANG, click_card, hand_cards, wait_ready

pytestmark = pytest.mark.xdist_group("e2e")

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("it", "en", "es", "ro", "sl")
#: Words shared by several languages' catalogs that still read as one language's phrase.
SHARED = re.compile(r"^[\W\d_]*$")


def _pieces(text: str) -> list[str]:
    """The literal runs of an ICU message: placeholders and plural branches cut out."""
    plain = re.sub(r"\{[^{}]*\{[^{}]*\}[^{}]*\}", "\n", text)  # one level of nesting
    plain = re.sub(r"\{[^{}]*\}", "\n", plain)
    runs = [run.strip(" .,:;!?()«»\"'–-…") for run in re.split(r"[\n{}#]", plain)]
    return [run for run in runs if len(run) >= 12 and " " in run and not SHARED.match(run)]


def _messages(club: bool = False) -> dict[str, list[str]]:
    """Each language's browser messages (en.json for English, the .po's msgstr otherwise), or
    with ``club`` the club pages' (context ``tournament.*``)."""
    catalogs = ROOT / "src" / "burraco" / "locale"
    with (catalogs / "burraco.pot").open("rb") as handle:
        template = read_po(handle)
    if club:
        found = {"en": [str(m.id) for m in template
                        if m.id and (m.context or "").startswith("tournament.")]}
    else:
        english = json.loads((ROOT / "web" / "src" / "locales" / "en.json").read_text())
        found = {"en": list(english.values())}
    for lang in LANGS:
        if lang == "en":
            continue
        with (catalogs / lang / "LC_MESSAGES" / "burraco.po").open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        found[lang] = [str(m.string) for m in catalog if m.id and isinstance(m.string, str)
                       and m.string and ((m.context or "").startswith("tournament.") if club
                                         else "icu-format" in m.flags)]
    return found


def foreign_phrases(club: bool = False) -> dict[str, list[str]]:
    """For each language, the phrases of the other languages that are not its own."""
    messages = _messages(club)
    # a language's own words: its catalog and its players' rules (which keep some Italian
    # names, "scala completa", as the players do)
    rules = ROOT / "web" / "src" / "help" / "rules"
    own = {lang: "\n".join(texts) + (rules / f"{lang}.md").read_text().replace("*", "")
           for lang, texts in messages.items()}
    out: dict[str, list[str]] = {}
    for lang in LANGS:
        phrases = {piece for other in LANGS if other != lang
                   for text in messages[other] for piece in _pieces(text)}
        out[lang] = sorted(p for p in phrases if p not in own[lang])
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("e2e-languages")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def _finished_table(server: ServerProcess, token: str) -> str:
    table = server.create_table(token, players=2, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "bot", "level": "basic"},
                                       {"kind": "bot", "level": "basic"}])
    tid = str(table["table_id"])
    deadline = time.monotonic() + 120
    while server.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' table did not finish"
        time.sleep(0.3)
    return tid


def _text(page: Any) -> str:
    page.wait_for_function("() => document.getAnimations().length === 0", timeout=10_000)
    return str(page.evaluate("() => document.body.innerText"))


def _check(page: Any, where: str, foreign: dict[str, list[str]], seen: list[str],
           ready: str = "") -> None:
    """The page in every language, picked in its menu: no other language's phrase.
    ``ready`` ({lang} in it) is what shows once the page has loaded that language's text."""
    for lang in LANGS:
        page.evaluate(PICK_LANG, lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        if ready:
            page.wait_for_selector(ready.format(lang=lang), timeout=30_000)
        text = _text(page)
        found = [phrase for phrase in foreign[lang] if phrase in text]
        seen.extend(f"{where} [{lang}]: {phrase!r}" for phrase in found)


def test_the_phrase_finder_sees_a_phrase_of_another_language() -> None:
    foreign = foreign_phrases()
    assert "Draw from the stock" in " ".join(foreign["it"])  # English on an Italian page
    assert not any("Draw from the stock" in p for p in foreign["en"])
    assert len(foreign["sl"]) > 300 and len(foreign["es"]) > 300


def test_the_club_pages_speak_each_language(server: ServerProcess, browser: Any,
                                            screenshots: Path) -> None:
    """The director's page, a table's phone page and the big screen, in each language
    (the club pages are the server's: their language is picked by their own switch, ?lang=)."""
    foreign = foreign_phrases(club=True)
    assert any("Both pairs agree" in p for p in foreign["it"])
    http = server.http
    made = http.post("/tournaments/", data={"name": "Serata – girone A", "schedule": "mitchell:2"})
    assert made.status_code == 303, made.text
    tid = made.headers["location"].split("/")[2]
    pairs = "\n".join(f"Coppia {k} / Socio {k}" for k in range(1, 7))
    assert http.post(f"/tournaments/{tid}/pairs", data={"pairs": pairs}).status_code == 303
    assert http.post(f"/tournaments/{tid}/rounds").status_code == 303
    links = http.get(f"/api/tournaments/{tid}/table-links").json()["tables"]
    phone = links[0]["ns"][links[0]["ns"].index("/tournaments/"):]
    http.post(phone, data={"ns_mp": "1250", "ew_mp": "640"})  # one pair has entered
    seen: list[str] = []
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    for path, where in [(f"/tournaments/{tid}/", "director"), (phone, "phone"),
                        (f"/tournaments/{tid}/screen", "big screen")]:
        for lang in LANGS:
            page.goto(f"{server.base}{path}?lang={lang}")
            page.wait_for_selector(f"html[lang={lang}]")
            text = str(page.evaluate("() => document.body.innerText"))
            seen.extend(f"{where} [{lang}]: {p!r}" for p in foreign[lang] if p in text)
            if where == "phone":
                page.screenshot(path=str(screenshots / f"languages-club-phone-{lang}.png"))
    context.close()
    assert not seen, "\n".join(seen)


def test_every_page_speaks_each_language(server: ServerProcess, browser: Any,
                                         screenshots: Path) -> None:
    foreign = foreign_phrases()
    seen: list[str] = []
    token = server.guest("Lingua")
    replay = _finished_table(server, token)
    account = server.http.post("/api/accounts", json={"username": "poliglotta",
                                                      "password": "una frase lunga 42"})
    assert account.status_code == 201, account.text
    server.http.cookies.clear()
    context = browser.new_context(**PHONE, locale="it-IT")
    page = context.new_page()
    # the lobby, a newcomer's first screen
    page.goto(server.base + "/")
    page.wait_for_selector("[data-testid=quick-play]")
    for lang in LANGS:
        page.evaluate(PICK_LANG, lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.screenshot(path=str(screenshots / f"languages-lobby-{lang}.png"))
    _check(page, "lobby", foreign, seen)
    # a table mid-hand against a bot, with a refusal above the hand
    page.select_option("select[name=quick-players]", "2")
    page.select_option("select[name=quick-pace]", "fast")
    page.click("[data-testid=quick-play]")
    page.wait_for_selector(".hand-card", timeout=30_000)
    wait_ready(page)
    page.click("button[data-action=draw]")
    page.wait_for_selector(".table-page[data-phase=play]")
    wait_ready(page)
    (cid, _), *_ = hand_cards(page)
    click_card(page, cid)
    page.click("button[data-action=meld]")
    page.wait_for_selector("[data-testid=reject]")
    refusals = {}
    for lang in LANGS:
        page.evaluate(PICK_LANG, lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        refusals[lang] = page.locator("[data-testid=reject]").text_content() or ""
        page.screenshot(path=str(screenshots / f"languages-table-{lang}.png"))
    # the engine's reason, in five different words
    assert len(set(refusals.values())) == len(LANGS), refusals
    _check(page, "table with a refusal", foreign, seen)
    for path, ready, where in [
            (f"/replay/{replay}", "[data-testid=commitment]", "replay"),
            ("/players/poliglotta", "[data-testid=to-lobby]", "profile"),
            ("/leaderboard", "[data-testid=to-lobby]", "leaderboard"),
            ("/pad", "[data-testid=pad-storage]", "score pad"),
            ("/help/", "article.rules", "rules")]:
        page.goto(server.base + path)
        page.wait_for_selector(ready, timeout=30_000)
        _check(page, where, foreign, seen,
               "article.rules[data-lang={lang}]" if where == "rules" else "")
    context.close()
    assert not seen, "\n".join(seen)
