"""Table cards: one page per table, the table number large, each line's pair and its QR code.

The QR code of a line opens the result-entry page of that line (:mod:`.links`).  A pair
with a bye has no table, hence no card: the assignments and "where do I sit" name it.
Printed before round 1 they are the evening's set (:func:`evening_cards`): a card per table
of the whole movement (:func:`burraco.tournament.wall.wall`), naming no pair, whose codes
open the table's round in play all evening; the pairs find their table on the wall.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.tournament.errors import TournamentError
from burraco.tournament.export import movement_word
from burraco.tournament.i18n import Text
from burraco.tournament.paper.document import Paper
from burraco.tournament.paper.links import EVENING, LinkBuilder
from burraco.tournament.paper.words import word
from burraco.tournament.wall import wall

if TYPE_CHECKING:
    from burraco.tournament.model import Round, Tournament

QR_SIZE = 62.0


def table_cards(t: Tournament, played: Round, links: LinkBuilder, lang: str) -> bytes:
    pdf = Paper(f"{word('table_cards', lang)} - {word('round', lang)} {played.number}",
                t.settings.name)
    for table in played.tables:
        pdf.add_page()
        pdf.set_font(pdf.sans, "B", 64)
        pdf.cell(0, 30, f"{word('table', lang)} {table.number}", align="C",
                 new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.sans, "", 16)
        pdf.cell(0, 9, f"{t.settings.name} - {word('round', lang)} {played.number} "
                       f"({movement_word(lang, played.movement)})", align="C", new_x="LMARGIN",
                 new_y="NEXT")
        pdf.ln(6)
        ns_url, ew_url = links(played.number, table.number)
        for line, pair, url in (("ns", table.ns, ns_url), ("ew", table.ew, ew_url)):
            _line(pdf, word(line, lang), f"{word('pair', lang)} {pair}: {t.pair(pair).name}",
                  url, lang)
    if not played.tables:
        pdf.add_page()
        pdf.text_line(word("no_round", lang))
    return pdf.bytes()


def _line(pdf: Paper, line: str, who: str, url: str, lang: str) -> None:
    """One line's box: its name, who sits in it (if known), the QR code and its link."""
    top = pdf.get_y()
    pdf.set_draw_color(150, 150, 150)
    pdf.rect(pdf.l_margin, top, pdf.epw, QR_SIZE + 14)
    pdf.set_xy(pdf.l_margin + 4, top + 4)
    pdf.set_font(pdf.sans, "B", 14)
    pdf.cell(100, 8, line, new_x="LEFT", new_y="NEXT")
    if who:
        pdf.set_font(pdf.sans, "B", 18)
        pdf.multi_cell(pdf.epw - QR_SIZE - 12, 9, who, new_x="LEFT", new_y="NEXT")
    pdf.set_font(pdf.sans, "", 11)
    pdf.multi_cell(pdf.epw - QR_SIZE - 12, 6, word("scan", lang), new_x="LEFT", new_y="NEXT")
    pdf.set_font(pdf.sans, "", 8)
    pdf.multi_cell(pdf.epw - QR_SIZE - 12, 4, url, new_x="LEFT", new_y="NEXT")
    pdf.qr(url, pdf.l_margin + pdf.epw - QR_SIZE - 4, top + 7, QR_SIZE)
    pdf.set_y(top + QR_SIZE + 20)


def evening_cards(t: Tournament, links: LinkBuilder, lang: str) -> bytes:
    """The evening's set: a card per table any round of the movement uses, each line's code
    opening that table's round in play (:data:`.links.EVENING`)."""
    numbers = wall(t).table_numbers()
    if not numbers:
        raise TournamentError(Text("error.cards_no_tables"))
    pdf = Paper(word("table_cards", lang), t.settings.name)
    for number in numbers:
        pdf.add_page()
        pdf.set_font(pdf.sans, "B", 64)
        pdf.cell(0, 30, f"{word('table', lang)} {number}", align="C", new_x="LMARGIN",
                 new_y="NEXT")
        pdf.set_font(pdf.sans, "", 16)
        pdf.cell(0, 9, t.settings.name, align="C", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.sans, "", 11)
        pdf.multi_cell(0, 6, word("evening_card", lang), align="C", new_x="LMARGIN",
                       new_y="NEXT")
        pdf.ln(3)
        ns_url, ew_url = links(EVENING, number)
        for line, url in (("ns", ns_url), ("ew", ew_url)):
            _line(pdf, word(line, lang), "", url, lang)
    return pdf.bytes()
