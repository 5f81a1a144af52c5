"""The players' rules page (``/help/``, ``/rules/``) in Chromium against ``burraco serve``.

The page used to show the developers' rules digest: its research notes (CONFLICT, UNVERIFIED,
open questions, the engine), its sources' addresses, raw backticks and a table of contents
numbered twice ("1. 0. Conventions"). Now, in English and in Italian, at a phone's 390×844 and
at 1280×800:

* the text is written for players: none of those words, no backtick, no link out of the site;
* the contents list the chapters 1 to 15 with their own numbers, each once;
* the melds are pictures of real cards, each named in words in the page's language, that
  fit the screen;
* a refusal's reference (``/help/#rule-3-1-4`` and the others the table cites) scrolls to a
  visible part of the page that carries that number.

Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("e2e")

LOCALES = {"en": "en-US", "it": "it-IT"}
BANNED = re.compile(r"CONFLICT|CONFLITTO|UNVERIFIED|NON VERIFICAT|open questions|domande aperte|"
                    r"\bengine\b|\bmotore\b|\bS00\d\b|https?://|www\.", re.IGNORECASE)
WORDS = {"en": " of hearts", "it": " di cuori"}

PAGE_FACTS = """() => {
  const main = document.querySelector("main");
  const links = [...document.querySelectorAll("a[href]")];
  const toc = document.querySelector("nav.toc");
  const tocList = toc.querySelector("ul, ol");
  const figures = [...document.querySelectorAll(".rules figure.meld-picture")];
  return {
    text: main.innerText,
    outside: links.filter((a) => new URL(a.href, location.href).origin !== location.origin)
      .map((a) => a.href),
    tocTag: tocList.tagName,
    tocMarker: getComputedStyle(tocList.querySelector("li")).listStyleType,
    toc: [...toc.querySelectorAll("li")].map((li) => li.innerText.trim()),
    overflow: document.documentElement.scrollWidth - innerWidth,
    figures: figures.map((f) => {
      const row = f.querySelector("[role=img]");
      const imgs = [...f.querySelectorAll("img")];
      const box = f.getBoundingClientRect();
      return {
        label: row ? row.getAttribute("aria-label") : null,
        cards: imgs.length,
        loaded: imgs.every((i) => i.complete && i.naturalWidth > 0
          && i.getAttribute("src").startsWith("/cards/")),
        height: Math.max(...imgs.map((i) => i.getBoundingClientRect().height)),
        right: box.right,
      };
    }),
  };
}"""


def open_rules(page: Any, url: str, lang: str) -> None:
    page.goto(url)
    page.wait_for_selector(f"article.rules[data-lang={lang}]", timeout=30_000)
    # the card images of the pictures
    page.wait_for_function("() => [...document.querySelectorAll('.rules img')]"
                           ".every((i) => i.complete && i.naturalWidth > 0)", timeout=30_000)


def marked(anchor: str) -> str:
    return f"() => document.getElementById('{anchor}')?.closest('.target') !== null"


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_rules_page_is_written_for_players(
        server: ServerProcess, browser: Any, screenshots: Path, lang: str, device: str) -> None:
    options: dict[str, Any] = dict(PHONE) if device == "phone" else {"viewport": DESKTOP}
    context = browser.new_context(locale=LOCALES[lang], **options)
    page = context.new_page()
    open_rules(page, server.base + "/help/", lang)
    facts = page.evaluate(PAGE_FACTS)
    text = facts["text"]

    bad = BANNED.findall(text)
    assert not bad, f"research notes or addresses on the players' page: {sorted(set(bad))}"
    assert "`" not in text, "a raw backtick on the page"
    assert not facts["outside"], f"links out of the site: {facts['outside'][:5]}"

    # the contents: chapters 1 to 15, each numbered once (by its title, not by the list too)
    assert facts["tocMarker"] == "none", \
        f"the contents' list numbers its entries too ({facts['tocTag']})"
    numbered = [entry for entry in facts["toc"] if re.match(r"^\d", entry)]
    assert [int(entry.split(".")[0]) for entry in numbered] == list(range(1, 16)), facts["toc"]
    for entry in facts["toc"]:
        assert not re.match(r"^\d+(\.\d+)*\.?\s+\d+\.", entry), f"numbered twice: {entry}"
    assert ("6. The pozzetto" if lang == "en" else "6. Il pozzetto") in facts["toc"]

    # pictures of melds: real cards, named in words, on screen
    figures = facts["figures"]
    assert len(figures) > 30
    for figure in figures:
        assert figure["cards"] >= 1 and figure["loaded"], figure
        assert figure["label"], f"a picture without words: {figure}"
        assert 30 <= figure["height"] <= 90, f"cards drawn {figure['height']} px high"
        assert figure["right"] <= page.viewport_size["width"], f"a picture overflows: {figure}"
    assert sum(WORDS[lang] in f["label"] for f in figures) >= 5
    assert facts["overflow"] <= 0, "the page scrolls sideways"

    page.screenshot(path=str(screenshots / f"rules-{lang}-{device}.png"))
    page.locator("#rule-5").scroll_into_view_if_needed()
    page.evaluate("() => scrollBy(0, -60)")
    page.screenshot(path=str(screenshots / f"rules-burraco-{lang}-{device}.png"))
    context.close()


# what a refusal cites (web/src/reasons.ts, the engine's messages) and what the page shows there
CITED = {
    "3-1-4": ("A pile of only one card", "Scarti di una sola carta"),
    "3-1": ("3.1 Drawing", "3.1 La pesca"),
    "4-2-3": ("One set of each rank", "Una combinazione per valore"),
    "7-1": ("7.1 When you may close", "7.1 Quando puoi chiudere"),
    "7-2": ("7.2 What is not a closing", "7.2 Che cosa non è una chiusura"),
    "13-2": ("13.2 Three players", "13.2 In tre"),
    "14-1": ("14.1 International Burraco", "14.1 Burraco internazionale"),
    "14-3": ("14.3 Burraco Champion", "14.3 Burraco Champion"),
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_cited_section_opens_its_part_of_the_page(
        server: ServerProcess, browser: Any, screenshots: Path, lang: str) -> None:
    context = browser.new_context(locale=LOCALES[lang], **PHONE)
    page = context.new_page()
    for ref, titles in CITED.items():
        anchor = f"rule-{ref}"
        open_rules(page, f"{server.base}/help/#{anchor}", lang)
        page.wait_for_function(marked(anchor))
        target = page.locator(f"#{anchor}")
        assert target.is_visible()
        assert target.text_content().startswith(titles[0 if lang == "en" else 1]), \
            (ref, target.text_content()[:80])
        assert page.evaluate(f"""() => {{
          const r = document.getElementById('{anchor}').getBoundingClientRect();
          return r.top >= 0 && r.top < innerHeight / 2;
        }}"""), f"#{anchor} is not in view"
        if ref == "3-1-4":
            page.screenshot(path=str(screenshots / f"rules-3-1-4-{lang}-phone.png"))
    # a block's second number (§2.10 shares a paragraph with §2.9), /rules/ as /help/, and an
    # item with no anchor of its own, which falls back to its chapter
    open_rules(page, f"{server.base}/help/#rule-2-10", lang)
    page.wait_for_function(marked("rule-2-10"))
    assert page.locator(".rules .target").get_attribute("id") == "rule-2-9"
    open_rules(page, f"{server.base}/rules/#rule-6-4", lang)
    page.wait_for_function(marked("rule-6-4"))
    open_rules(page, f"{server.base}/help/#rule-8-9", lang)  # no 8.9: its section, 8
    page.wait_for_function(marked("rule-8"))
    context.close()
