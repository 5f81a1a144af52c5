"""The screen's colours at a fixed position, cell by cell: text and style together.

The deal and the bots are seeded and the terminal is 80×24, so the position is exact.  Not a
golden copy of the whole screen (any change anywhere would break it): the cells that carry a
meaning are checked for it.  A red card is red and a wild card gold wherever it is, also where
a click acts on it (Textual would paint every ``@click`` span in the theme's link colour and
underline it: the pile's Q♥ came out grey and underlined), a black card has the text's own
colour, and the header stands out with the scores in it.  Under the mouse a clickable card is
underlined and keeps its colour; another theme changes none of it.
"""

from __future__ import annotations

import asyncio

from pilot import choose, find_cells, play_by_keys, screen_text, wait_for
from rich.style import Style

from burraco.tui.app import BurracoApp
from burraco.tui.cards import RED, WILD
from burraco.tui.i18n import Words
from burraco.tui.keys import Settings
from burraco.tui.offline import OfflineDriver

Cells = list[tuple[str, Style]]


def colour(style: Style) -> str | None:
    return style.color.triplet.hex if style.color and style.color.triplet else None


def background(style: Style) -> str | None:
    return style.bgcolor.triplet.hex if style.bgcolor and style.bgcolor.triplet else None


def clickable(style: Style) -> bool:
    return "@click" in style.meta


def one_style(cells: Cells) -> Style:
    """The style all ``cells`` share (a card is drawn in one style)."""
    styles = {style for _, style in cells}
    assert len(styles) == 1, [(char, str(style)) for char, style in cells]
    return styles.pop()


def plain_card(cells: Cells, hue: str | None, *, link: bool) -> None:
    style = one_style(cells)
    assert colour(style) == hue, (hue, str(style))
    assert not style.underline and not style.reverse, str(style)
    assert clickable(style) == link, str(style)


def wild_card(cells: Cells, *, link: bool) -> None:
    plain_card(cells, WILD.lower(), link=link)
    assert one_style(cells).bold


def test_cards_keep_their_colours_where_they_are_clicked() -> None:
    words = Words("en")
    driver = OfflineDriver(players=4, bots=["basic"], seed=42, words=words, bot_delay=0)
    app = BurracoApp(driver, words=words, settings=Settings())
    red = RED.lower()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            played = 0
            while True:
                await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
                if played == 6:
                    break
                action = choose(app.last.legal)
                played += action.startswith("discard")
                await play_by_keys(pilot, app, action)
            await pilot.press("d", "right", "space")  # drawn, the cursor on a selected card
            await pilot.pause(0.2)
            lines = screen_text(app).splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)

            # the header: the scores, on a bar of its own colour, the title bold
            assert lines[0] == "Burraco · Hand 1 · You+South 0 · East+West 0 (to 2005)"
            title = one_style(find_cells(app, "Burraco", row=0))
            assert title.bold and background(title) != background(
                one_style(find_cells(app, "You+South", row=2)))
            plain_card(find_cells(app, "East+West 0", row=0), colour(title), link=False)

            # the pile, taken by a click: its top card red, not grey nor underlined
            pile = lines.index(next(line for line in lines if line.startswith("Stock 24")))
            assert "Pile 1: Q♥ ·" in lines[pile]
            top = find_cells(app, "Q♥", row=pile)
            plain_card(top, red, link=True)
            text = colour(one_style(find_cells(app, "Stock 24", row=pile)))
            assert text not in (red, WILD.lower(), None)

            # your side's melds take the selection by a click: K♥ red, K♠ the text's colour,
            # the 2♠ of a set and a joker gold; the other side's wild gold too, not clickable
            mine = lines.index(next(line for line in lines if line.startswith(" 1 K♥ K♥ K♠ 2♠")))
            plain_card(find_cells(app, "K♥", row=mine), red, link=True)
            plain_card(find_cells(app, "K♠", row=mine), text, link=True)
            wild_card(find_cells(app, "2♠", row=mine), link=True)
            wild_card(find_cells(app, "JK", row=mine + 1), link=True)
            wild_card(find_cells(app, "2♣(=10♠)"), link=False)
            plain_card(find_cells(app, "J♠ Q♠", row=mine + 3), text, link=False)

            # the hand: red cards red; the cursor's card reversed, red, bold and bracketed
            hand = len(lines) - 2
            assert lines[hand] == " 3♥  [8♥]  9♥   J♥"
            plain_card(find_cells(app, "3♥", row=hand), red, link=True)
            cursor = one_style(find_cells(app, "8♥", row=hand))
            assert cursor.reverse and cursor.bold and colour(cursor) == red

            # under the mouse a card is underlined and stays red
            await pilot.hover("#table", offset=(lines[pile].index("Q♥"), 0))
            await pilot.pause(0.1)
            hovered = one_style(find_cells(app, "Q♥", row=pile))
            assert hovered.underline and colour(hovered) == red

            # another theme has other link colours: the cards keep theirs
            await pilot.hover("#header", offset=(0, 0))
            app.theme = "textual-light"
            await pilot.pause(0.2)
            plain_card(find_cells(app, "Q♥", row=pile), red, link=True)
            wild_card(find_cells(app, "JK", row=mine + 1), link=True)
            light = colour(one_style(find_cells(app, "K♠", row=mine)))
            assert light not in (text, red) and light == colour(
                one_style(find_cells(app, "Stock 24", row=pile)))

    asyncio.run(main())
