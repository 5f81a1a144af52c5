"""Playing the app with keys, as a person would: the helpers the pilot tests share.

:func:`play_turn_by_keys` picks a move the way a simple player does (draw, the
longest meld on offer, else the first attachment, then a discard) and plays it
with the app's keys only: the arrows to reach each card, space to select it,
``m``, ``a`` and the meld's number, ``x``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from rich.style import Style
from textual.pilot import Pilot

from burraco.engine.cards import card_face, parse_face
from burraco.tui.app import BurracoApp


def screen_text(app: BurracoApp) -> str:
    """The screen as plain text, one line per row (what a terminal would show)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


def screen_cells(app: BurracoApp) -> list[list[tuple[str, Style]]]:
    """The screen character by character: each row's (character, style), as a terminal draws
    it (the table's characters are one cell wide each)."""
    return [[(char, segment.style or Style()) for segment in strip for char in segment.text]
            for strip in app.screen._compositor.render_strips()]


def find_cells(app: BurracoApp, text: str, *, row: int | None = None,
               last: bool = False) -> list[tuple[str, Style]]:
    """The cells of ``text``'s first (``last``: last) appearance on the screen (in ``row``)."""
    rows = screen_cells(app)
    found = []
    for y, cells in enumerate(rows):
        line = "".join(char for char, _ in cells)
        if row is not None and y != row:
            continue
        at = line.find(text)
        while at >= 0:
            found.append(cells[at:at + len(text)])
            at = line.find(text, at + 1)
    assert found, f"{text!r} is not on the screen:\n{screen_text(app)}"
    return found[-1] if last else found[0]


async def wait_for(pilot: Pilot[int], check: Callable[[], bool], timeout: float = 20,
                   what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            app = pilot.app
            assert isinstance(app, BurracoApp)
            raise AssertionError(f"timed out waiting for {what}:\n{screen_text(app)}")
        await pilot.pause(0.02)


def choose(legal: tuple[str, ...], app: BurracoApp | None = None) -> str:
    if "draw" in legal:
        return "draw"
    melds = [a for a in legal if a.startswith("meld ")]
    if melds:
        return max(melds, key=len)
    attaches = [a for a in legal if a.startswith("attach ")]
    if attaches:
        return attaches[0]
    if app is not None:
        return nearest_discard(app, legal)
    return [a for a in legal if a.startswith("discard ")][-1]


async def select_faces(pilot: Pilot[int], app: BurracoApp, faces: list[int]) -> None:
    """Move the cursor to a card of each face and select it with space."""
    wanted = list(faces)
    for face in wanted:
        order = app.hand_order()
        targets = [c for c in order if card_face(c) == face and c not in app.selected]
        assert targets, (f"no free {face} in {order}, selected {app.selected}, "
                         f"legal {app.last.legal}")
        here = app.cursor_index(order)
        target = min(targets, key=lambda c: _distance(here, order.index(c), len(order)))
        steps = (order.index(target) - here) % len(order)
        keys = ["right"] * steps if steps <= len(order) - steps else \
            ["left"] * (len(order) - steps)
        await pilot.press(*keys, "space")
        assert app.cursor_card == target
        assert target in app.selected


def _distance(a: int, b: int, n: int) -> int:
    return min((a - b) % n, (b - a) % n)


def nearest_discard(app: BurracoApp, legal: tuple[str, ...]) -> str:
    """The legal discard closest to the cursor (fewest key presses)."""
    order = app.hand_order()
    here = app.cursor_index(order)
    discards = [a for a in legal if a.startswith("discard ")]

    def cost(action: str) -> int:
        face = parse_face(action.split()[1])
        return min(_distance(here, i, len(order)) for i, c in enumerate(order)
                   if card_face(c) == face)

    return min(discards, key=cost)


async def play_by_keys(pilot: Pilot[int], app: BurracoApp, action: str) -> None:
    verb, _, rest = action.partition(" ")
    if verb == "draw":
        await pilot.press("d")
    elif verb == "pickup":
        await pilot.press("p")
    elif verb == "meld":
        await select_faces(pilot, app, [parse_face(t) for t in rest.split()])
        await pilot.press("m")
    elif verb == "attach":
        number, _, cards = rest.partition(" ")
        await select_faces(pilot, app, [parse_face(t) for t in cards.split()])
        await pilot.press("a", *number)
        if app.attach_digits is not None:
            await pilot.press("enter")
    elif verb == "discard":
        assert not app.selected
        await select_faces(pilot, app, [parse_face(rest)])
        await pilot.press("x")
    await pilot.pause()


async def settle() -> None:
    await asyncio.sleep(0)
