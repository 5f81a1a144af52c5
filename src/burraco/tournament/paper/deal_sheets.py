"""Deal sheets for duplicate events played with real cards ("carte preparate").

A board is one smazzata of one round: every table of the round plays it.  The deal is
the engine's, :func:`board_deal` (the one a simulated or bot-played duplicate event
uses, from the tournament's seed, the round and the smazzata), so the club's prepared
decks and the event's record agree.  The sheet lists, for each board, the dealer, each
seat's hand (sorted, to lay out quickly), the two pozzetti, the stock top card first and
the first up-card.  Seats: N (0) and S (2) are the NS line, E (1) and W (3) the EW line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.engine.cards import card_face, face_str, sort_key
from burraco.engine.deal import Deal
from burraco.engine.rules import Rules
from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text
from burraco.tournament.paper.document import Paper
from burraco.tournament.paper.words import word
from burraco.tournament.simulate import PLAYERS, TableJob, deal_for

if TYPE_CHECKING:
    from burraco.tournament.model import Settings, Tournament

SEATS = ("n", "e", "s", "w")
RULES = "fibur"


def board_deal(settings: Settings, round_number: int, smazzata: int) -> Deal:
    """The engine's deal of smazzata ``smazzata`` (from 1) of a duplicate round."""
    job = TableJob(round_number, 0, ("basic",) * PLAYERS, settings.hands, RULES,  # type: ignore[arg-type]
                   settings.seed, True)
    return deal_for(job, smazzata - 1, Rules.preset(RULES).for_players(PLAYERS))


def cards_text(cards: tuple[int, ...] | list[int], *, sort: bool = False) -> str:
    faces = [card_face(c) for c in cards]
    if sort:
        faces.sort(key=sort_key)
    return " ".join(face_str(f) for f in faces)


def deal_rounds(t: Tournament, round_number: int | None) -> list[int]:
    if not t.settings.duplicate:
        raise TournamentError(Text("error.deals_not_duplicate"))
    if round_number is not None:
        if not 1 <= round_number <= max(t.total_rounds, 1):
            raise TournamentError(Text("error.deals_round", round=round_number,
                                       rounds=t.total_rounds))
        return [round_number]
    if len(t.pairs) < 2:
        raise TournamentError(Text("error.deals_pairs"))
    return list(range(1, t.total_rounds + 1))


STOCK_ROW = 10
BOARD_HEIGHT = 120.0
"""Room a board needs: two boards share a page."""


def stock_rows(stock: tuple[int, ...]) -> list[str]:
    """The stock in rows of ten, each headed by its positions (``1-10:``), top card first."""
    rows = []
    for start in range(0, len(stock), STOCK_ROW):
        part = stock[start:start + STOCK_ROW]
        last = start + len(part)
        where = f"{start + 1}-{last}" if last > start + 1 else f"{last}"
        rows.append(f"{where:>5}: {cards_text(part)}")
    return rows


def deal_sheets(t: Tournament, round_number: int | None, lang: str) -> bytes:
    pdf = Paper(word("deal_sheets", lang), t.settings.name)
    pdf.add_page()
    pdf.text_line(word("deal_help", lang), 9)
    first = True
    for number in deal_rounds(t, round_number):
        for k in range(1, t.settings.hands + 1):
            deal = board_deal(t.settings, number, k)
            if not first and pdf.get_y() + BOARD_HEIGHT > pdf.h - pdf.b_margin:
                pdf.add_page()
            first = False
            pdf.ln(3)
            pdf.set_draw_color(120, 120, 120)
            pdf.line(pdf.l_margin, pdf.get_y(), pdf.l_margin + pdf.epw, pdf.get_y())
            pdf.ln(2)
            pdf.heading(f"{word('round', lang)} {number} - {word('board', lang)} {k}", 14)
            dealer = word(f"seat_{SEATS[deal.dealer]}", lang)
            pdf.text_line(f"{word('dealer', lang)}: {dealer}", 11, "B")
            pdf.ln(1)
            for seat, hand in enumerate(deal.hands):
                _pile(pdf, f"{word('hand', lang)} {word(f'seat_{SEATS[seat]}', lang)}",
                      cards_text(hand, sort=True))
            for n, pozzetto in enumerate(deal.pozzetti, start=1):
                _pile(pdf, f"{word('pozzetto', lang)} {n}", cards_text(pozzetto))
            pdf.text_line(f"{word('stock', lang)}:", 11)
            pdf.set_font(pdf.mono, "", 10.5)
            for row in stock_rows(deal.stock):
                pdf.set_x(pdf.l_margin + 6)
                pdf.cell(0, 5, row, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
            pdf.text_line(f"{word('upcard', lang)}: {cards_text(deal.pile)}", 11, "B")
    return pdf.bytes()


def _pile(pdf: Paper, label: str, cards: str) -> None:
    """One line: the pile's name, then its cards in a fixed-width font (easy to count)."""
    pdf.set_font(pdf.sans, "", 11)
    pdf.cell(32, 6, f"{label}:")
    pdf.set_font(pdf.mono, "", 10.5)
    pdf.cell(0, 6, cards, new_x="LMARGIN", new_y="NEXT")
