"""The wall as a printable page: every entrant's table and line in every round, and every
table's two lines round by round (:mod:`.wall`).  The director's (the route checks it);
printed, each view starts on a page of its own, in landscape.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from burraco.tournament.export import meta_html, movement_word
from burraco.tournament.i18n import Lang, tr
from burraco.tournament.model import Tournament
from burraco.tournament.pages import layout
from burraco.tournament.wall import (
    Wall,
    WallRound,
    entrant_cell,
    side_words,
    table_cell,
)

STYLE = """<style>
table.wall td, table.wall th { text-align: center; white-space: nowrap; }
table.wall td:first-child, table.wall th:first-child { text-align: left; }
table.wall th small { display: block; font-weight: 400; }
table.wall .now { box-shadow: inset 0 3px 0 var(--gold); }
table.wall .later { font-style: italic; opacity: .85; }
@media print {
  @page { size: A4 landscape; margin: 10mm; }
  body.club main { max-width: none; padding: 0; }
  .wall-second { break-before: page; }
  table.wall { font-size: 11pt; }
  table.wall .now { box-shadow: none; }
}
</style>"""


def _head(card: Wall, first: str, lang: Lang) -> str:
    cells = [f"<th>{escape(first)}</th>"]
    for r in card.rounds:
        notes = f"<small>{escape(movement_word(lang, r.movement))}</small>"
        if r.number == card.current:
            notes += f"<small>{tr(lang, 'wall.now')}</small>"
        cells.append(f"<th data-round='{r.number}'{_mark(r, card)}>"
                     f"{tr(lang, 'round', n=r.number)}{notes}</th>")
    return f"<tr>{''.join(cells)}</tr>"


def _mark(r: WallRound, card: Wall) -> str:
    classes = [c for c, on in (("now", r.number == card.current), ("later", not r.known)) if on]
    return f" class='{' '.join(classes)}'" if classes else ""


def wall_page(tid: str, t: Tournament, card: Wall, lang: Lang) -> str:
    base = f"/tournaments/{quote(tid)}"
    parts = [f"<nav class='noprint'><a href='{base}/?lang={lang}'>{escape(t.settings.name)}</a>"
             f"<a href='{base}/pdf/wall?lang={lang}' id='wall-pdf'>{tr(lang, 'wall.pdf')}</a>"
             "</nav>",
             f"<h1>{tr(lang, 'wall.title')} – {escape(t.settings.name)}</h1>",
             f"<p class='meta'>{tr(lang, 'wall.lead')}</p>", meta_html(t, lang)]
    if card.approximate:
        parts.append(f"<p class='warn' id='approximate'>{tr(lang, 'wall.approximate')}</p>")
    if card.problem is not None:
        parts.append(f"<p class='meta' id='wall-nothing'>"
                     f"{escape(tr(lang, 'wall.nothing', reason=card.problem))}</p>")
    if card.rounds and t.pairs:
        teams = t.settings.kind == "teams"
        hint = tr(lang, "wall.cell_hint_teams" if teams else "wall.cell_hint")
        rows = "".join(
            f"<tr data-pair='{p.number}'><td>{p.number} {escape(p.name)}</td>"
            + "".join(f"<td data-round='{r.number}'{_mark(r, card)}>"
                      f"{escape(entrant_cell(t, r, p.number, lang))}</td>" for r in card.rounds)
            + "</tr>" for p in t.pairs)
        parts.append(f"<section class='wall-first'><h2>{tr(lang, 'wall.by_entrant')}</h2>"
                     f"<p class='meta'>{hint}</p><table class='wall' id='wall-pairs'>"
                     f"{_head(card, tr(lang, f'entrant.{t.settings.entrant}'), lang)}"
                     f"{rows}</table></section>")
        ns, ew = side_words(t, lang)
        rows = "".join(
            f"<tr data-table='{n}'><td>{n}</td>"
            + "".join(f"<td data-round='{r.number}'{_mark(r, card)}>"
                      f"{escape(table_cell(r, n, lang))}</td>" for r in card.rounds)
            + "</tr>" for n in card.table_numbers())
        legend = "".join(f"<li value='{p.number}'>{escape(p.name)}</li>" for p in t.pairs)
        parts.append(f"<section class='wall-second'><h2>{tr(lang, 'wall.by_table')}</h2>"
                     f"<p class='meta'>{escape(tr(lang, 'wall.table_hint', ns=ns, ew=ew))}</p>"
                     f"<table class='wall' id='wall-tables'>"
                     f"{_head(card, tr(lang, 'col.match' if teams else 'col.table'), lang)}"
                     f"{rows}</table><ol class='meta' id='wall-legend'>{legend}</ol></section>")
    return layout(f"{tr(lang, 'wall.title')} – {t.settings.name}", "\n".join(parts), lang=lang,
                  path=f"{base}/wall", head=STYLE)
