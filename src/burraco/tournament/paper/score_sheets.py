"""Score sheets for the pairs to fill in by hand, one per table, in the federation's layout.

For each smazzata and each line: cards (melded less in hand), burraco, closing,
pozzetto and the smazzata's total (RULES.md §9); then the totals, the MP and VP
(§11.2) and the signatures (§11.7: one fills it in, an opponent countersigns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.tournament.paper.document import Paper
from burraco.tournament.paper.words import line_word, word

if TYPE_CHECKING:
    from burraco.tournament.model import Round, Tournament

COLUMNS = ("cards", "burraco", "closing", "pozzetto", "total")


def score_sheets(t: Tournament, played: Round, lang: str) -> bytes:
    pdf = Paper(f"{word('score_sheet', lang)} - {word('round', lang)} {played.number}",
                t.settings.name, landscape=True)
    for table in played.tables:
        pdf.add_page()
        pdf.heading(f"{word('score_sheet', lang)} - {word('round', lang)} {played.number} - "
                    f"{word('table', lang)} {table.number}", 15)
        pdf.set_font(pdf.sans, "", 11)
        for line, pair in (("ns", table.ns), ("ew", table.ew)):
            pdf.cell(0, 6, f"{word(line, lang)}: {word('pair', lang)} {pair} "
                           f"{t.pair(pair).name}", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
        first = 26.0
        col = (pdf.epw - first) / (2 * len(COLUMNS))
        pdf.set_font(pdf.sans, "B", 10)
        pdf.set_fill_color(230, 230, 230)
        pdf.cell(first, 7, "", border=1, fill=True)
        for line in ("NS", "EW"):
            pdf.cell(col * len(COLUMNS), 7, line_word(line, lang), border=1, align="C",
                     fill=True)
        pdf.ln(7)
        pdf.cell(first, 7, word("smazzata", lang), border=1, fill=True)
        pdf.set_font(pdf.sans, "B", 9)
        for _ in range(2):
            for key in COLUMNS:
                pdf.cell(col, 7, word(key, lang), border=1, align="C", fill=True)
        pdf.ln(7)
        pdf.set_font(pdf.sans, "", 11)
        for k in range(1, t.settings.hands + 1):
            pdf.cell(first, 12, str(k), border=1, align="C")
            for _ in range(2 * len(COLUMNS)):
                pdf.cell(col, 12, "", border=1)
            pdf.ln(12)
        pdf.set_font(pdf.sans, "B", 11)
        pdf.cell(first, 12, word("totals", lang), border=1, fill=True)
        for _ in range(2):
            pdf.cell(col * (len(COLUMNS) - 1), 12, "", border=1, fill=True)
            pdf.cell(col, 12, "", border=1)
        pdf.ln(16)
        pdf.set_font(pdf.sans, "B", 11)
        for line in ("NS", "EW"):
            pdf.cell(60, 10, f"{line_word(line, lang)}  {word('mp', lang)}:", border=0)
            pdf.cell(35, 10, "", border=1)
            pdf.cell(20, 10, f"  {word('vp', lang)}:", border=0)
            pdf.cell(25, 10, "", border=1)
            pdf.ln(12)
        pdf.ln(2)
        pdf.text_line(word("sheet_help", lang), 9)
        pdf.ln(3)
        pdf.text_line(word("signatures", lang), 11)
    return pdf.bytes()
