"""The card images as the server serves them, looked at in Chromium.

The ace of spades of the card set used to carry the designer's web address (two lines of text
under the spade) and a QR code drawn in white inside the spade. The build takes both out
(``web/scripts/render-cards.mjs``): the served ``/cards/AS.svg`` has no text, no address and
no white drawing over its spade, and the spade's middle, where the QR code was, is plain ink.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess

pytestmark = pytest.mark.xdist_group("e2e")

NAMESPACES = re.compile(r'xmlns(?::\w+)?="[^"]*"')

# Draw the card at its own size (240×336) and count the light pixels in the middle of the big
# spade, the square (108…132, 140…170) the QR code filled; the spade itself is solid black there.
LIGHT_IN_SPADE = """async (src) => {
  const img = new Image();
  img.src = src;
  await img.decode();
  const canvas = document.createElementNS("http://www.w3.org/1999/xhtml", "canvas");
  canvas.width = 240;
  canvas.height = 336;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0, 240, 336);
  const { data } = g.getImageData(108, 140, 24, 30);
  let light = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] + data[i + 1] + data[i + 2] > 384) light += 1;
  }
  return light;
}"""


def test_the_ace_of_spades_has_no_address_and_no_qr_code(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    answer = server.http.get("/cards/AS.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    svg = answer.text
    assert "<svg" in svg
    text = NAMESPACES.sub("", svg)  # the XML namespaces are names, not addresses shown
    assert not re.search(r"https?:|www\.|me\.uk|/cards/", text), "the A♠ carries an address"
    assert "<text" not in svg, "the A♠ writes text on the card"
    assert not re.search(r'fill="#fff(?:fff)?"\s+d=', svg), "the A♠ draws in white over its spade"

    context = browser.new_context(viewport={"width": 600, "height": 400})
    page = context.new_page()
    page.goto(server.base + "/cards/AS.svg")
    assert page.evaluate("() => document.querySelectorAll('text').length") == 0
    assert page.evaluate(LIGHT_IN_SPADE, server.base + "/cards/AS.svg") == 0, \
        "light dots inside the spade: the QR code is still drawn"
    # a picture of it beside the A♥ (set_content needs an HTML document, not the SVG's)
    page.goto(server.base + "/healthz")
    cards = "".join(f'<img src="{server.base}/cards/{face}.svg" style="height:336px">'
                    for face in ("AS", "AH"))
    page.set_content(f'<body style="margin:0;background:#1f6b3a">{cards}')
    page.wait_for_function("() => [...document.images].every((i) => i.complete && i.naturalWidth)")
    page.screenshot(path=str(screenshots / "ace-of-spades.png"))
    context.close()


@pytest.mark.parametrize("face", ["AS", "AH", "KS", "JK1"])
def test_the_cards_are_served_as_svg(server: ServerProcess, face: str) -> None:
    answer = server.http.get(f"/cards/{face}.svg")
    assert answer.status_code == 200 and "<svg" in answer.text
