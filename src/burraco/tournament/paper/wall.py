"""The wall on paper: the movement card of :mod:`burraco.tournament.wall`, A4 landscape.

The first page(s): every entrant's table and line in every round; then, from a new page,
every table's two lines round by round (the sheet a director pins to the wall), with the
entrants' names under it.  A round seated when it starts says so ("by ranking", "by draw").
The columns take the width their words need, the type shrinking to fit a long movement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.tournament.export import movement_word
from burraco.tournament.i18n import tr
from burraco.tournament.paper.document import Paper
from burraco.tournament.paper.words import word
from burraco.tournament.wall import Wall, entrant_cell, side_words, table_cell, wall

if TYPE_CHECKING:
    from burraco.tournament.model import Tournament

SIZE = 10.0
SMALLEST = 6.0
LARGEST = 14.0
"""The type's size, in points: as large as the page's width allows, between these."""
FIRST_MOST = 75.0
"""The widest the first column (the names) may be, in mm."""


def _widths(pdf: Paper, headers: list[str], rows: list[list[str]], size: float) -> list[float]:
    pdf.set_font(pdf.sans, "B", size)
    widths = [pdf.get_string_width(h) + 2 * pdf.c_margin + 1 for h in headers]
    pdf.set_font(pdf.sans, "", size)
    for row in rows:
        for k, cell in enumerate(row):
            widths[k] = max(widths[k], pdf.get_string_width(cell) + 2 * pdf.c_margin + 1)
    widths[0] = min(widths[0], FIRST_MOST)
    return widths


def _grid(pdf: Paper, headers: list[str], rows: list[list[str]]) -> None:
    """A grid as wide as its words, in type as large as fits the page's width (a card read
    from a step away), smaller for a long movement."""
    widths = _widths(pdf, headers, rows, SIZE)
    size = min(LARGEST, max(SMALLEST, SIZE * pdf.epw / sum(widths)))
    widths = _widths(pdf, headers, rows, size)
    spare = pdf.epw - sum(widths)
    if spare > 0:  # the rounds share what is left, up to a comfortable width
        widths[1:] = [w + min(spare / max(1, len(widths) - 1), 12.0) for w in widths[1:]]
    pdf.grid(headers, rows, widths, size=size, height=size * 0.75,
             align=["L", *["C"] * (len(headers) - 1)])


def _rounds_line(card: Wall, lang: str) -> str:
    """Each round's movement, and how the later ones are seated."""
    said = []
    for r in card.rounds:
        text = f"{word('round', lang)} {r.number}: {movement_word(lang, r.movement)}"
        if r.number == card.current:
            text += f" ({tr(lang, 'wall.now')})"
        elif not r.known:
            text += f" ({tr(lang, 'wall.by_ranking' if r.how == 'ranking' else 'wall.by_draw')})"
        said.append(text)
    return " · ".join(said)


def wall_paper(t: Tournament, lang: str) -> bytes:
    card = wall(t)
    title = tr(lang, "wall.title")
    pdf = Paper(title, t.settings.name, landscape=True)
    pdf.add_page()
    pdf.heading(f"{title} - {t.settings.name}", 15)
    pdf.text_line(tr(lang, "wall.lead"), 9)
    if card.approximate:
        pdf.text_line(tr(lang, "wall.approximate"), 9, "B")
    if card.problem is not None:
        pdf.text_line(tr(lang, "wall.nothing", reason=card.problem), 10, "B")
    if not card.rounds or not t.pairs:
        return pdf.bytes()
    pdf.text_line(_rounds_line(card, lang), 9)
    pdf.ln(2)
    rounds = [f"{word('round', lang)} {r.number}" for r in card.rounds]
    teams = t.settings.kind == "teams"
    pdf.heading(tr(lang, "wall.by_entrant"), 12)
    pdf.text_line(tr(lang, "wall.cell_hint_teams" if teams else "wall.cell_hint"), 9)
    _grid(pdf, [tr(lang, f"entrant.{t.settings.entrant}").capitalize(), *rounds],
          [[f"{p.number} {p.name}", *(entrant_cell(t, r, p.number, lang) for r in card.rounds)]
           for p in t.pairs])
    pdf.add_page()
    pdf.heading(f"{tr(lang, 'wall.by_table')} - {t.settings.name}", 15)
    ns, ew = side_words(t, lang)
    pdf.text_line(tr(lang, "wall.table_hint", ns=ns, ew=ew), 9)
    pdf.ln(1)
    first = tr(lang, "col.match").capitalize() if teams else word("table", lang)
    _grid(pdf, [first, *rounds],
          [[str(n), *(table_cell(r, n, lang) for r in card.rounds)]
           for n in card.table_numbers()])
    pdf.ln(3)
    pdf.text_line("   ".join(f"{p.number} {p.name}" for p in t.pairs), 9)
    return pdf.bytes()
