"""The lists on the wall: where each player sits, the round's assignments, the standings.

"Where do I sit" lists every player alphabetically (a pair without players' names is
listed by its own name), so a player finds himself without knowing his pair's number.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from burraco.tournament.duplicate import as_points
from burraco.tournament.export import movement_word
from burraco.tournament.i18n import decimal
from burraco.tournament.paper.document import Paper
from burraco.tournament.paper.words import line_word, word
from burraco.tournament.prizes import prize_list
from burraco.tournament.standings import Standing, line_standings, standings

if TYPE_CHECKING:
    from burraco.tournament.model import Round, Tournament


def seat_rows(t: Tournament, played: Round, lang: str) -> list[tuple[str, str, str, str]]:
    """(player, pair, table, line) of everyone, alphabetical."""
    rows = []
    gone = t.evening.withdrawn(played.number)
    for pair in t.pairs:
        table = played.table_of(pair.number)
        if table is None:
            where = word("withdrawn" if pair.number in gone else "bye", lang)
            line = "-"
        else:
            where = str(table.number)
            line = line_word("NS" if pair.number in table.line(0) else "EW", lang)
        for person in pair.players or (pair.name,):
            rows.append((person, f"{pair.number} {pair.name}", where, line))
    return sorted(rows, key=lambda r: (r[0].casefold(), r[1]))


def where_do_i_sit(t: Tournament, played: Round, lang: str) -> bytes:
    pdf = Paper(f"{word('where', lang)} - {word('round', lang)} {played.number}",
                t.settings.name)
    pdf.add_page()
    pdf.heading(f"{word('where', lang)} - {word('round', lang)} {played.number}")
    pdf.grid([word("player", lang), word("pair", lang), word("table", lang), word("line", lang)],
             seat_rows(t, played, lang), [58, 82, 24, 22], size=12, height=8,
             align=["L", "L", "C", "C"])
    return pdf.bytes()


def assignments(t: Tournament, played: Round, lang: str) -> bytes:
    pdf = Paper(f"{word('assignments', lang)} - {word('round', lang)} {played.number}",
                t.settings.name)
    pdf.add_page()
    pdf.heading(f"{word('assignments', lang)} - {word('round', lang)} {played.number} "
                f"({movement_word(lang, played.movement)})")
    rows = [(str(table.number), f"{table.ns} {t.pair(table.ns).name}",
             f"{table.ew} {t.pair(table.ew).name}") for table in played.tables]
    rows += [("-", f"{p} {t.pair(p).name}", word("bye", lang)) for p in played.byes]
    pdf.grid([word("table", lang), word("ns", lang), word("ew", lang)], rows, [22, 82, 82],
             size=14, height=10, align=["C", "L", "L"])  # read from across the room
    return pdf.bytes()


def _ranking(pdf: Paper, t: Tournament, ranking: list[Standing], lang: str) -> None:
    dup = t.settings.duplicate
    headers = [word("rank", lang), word("pair", lang), word("vp", lang), word("diff", lang)]
    widths = [14.0, 90.0, 16.0, 22.0]
    if dup:
        headers.append(word("dup", lang))
        widths.append(22)
    headers.append(word("penalty", lang))
    widths.append(22)
    rows = []
    for s in ranking:
        name = f"{s.pair} {s.name}" + (f" ({word('withdrawn', lang)})" if s.withdrawn else "")
        row = [f"{s.rank}{'=' if s.tied else ''}", name, str(s.vp), f"{s.mp_diff:+d}"]
        if dup:  # the decimal separator of the language, and the minus every font has
            score = as_points(s.dup if s.dup is not None else Fraction(0))
            row.append(decimal(lang, score).replace("−", "-"))
        row.append(_taken(lang, s.penalty_vp, s.penalty_mp))
        rows.append(row)
    pdf.grid(headers, rows, widths, size=10,
             align=["C", "L", "R", "R", *(["R"] if dup else []), "L"])


def standings_paper(t: Tournament, lang: str) -> bytes:
    title = word("final" if t.finished else "standings", lang)
    pdf = Paper(title, t.settings.name)
    pdf.add_page()
    pdf.heading(title)
    _ranking(pdf, t, standings(t), lang)
    if t.evening.line_rankings:
        for line, key in (("NS", "ns_ranking"), ("EW", "ew_ranking")):
            pdf.ln(5)
            pdf.heading(word(key, lang), 13)
            _ranking(pdf, t, line_standings(t)[line], lang)
    if t.evening.penalties:
        pdf.ln(5)
        pdf.heading(word("penalty", lang), 13)
        for p in t.evening.penalties:
            amount = _taken(lang, p.vp, p.mp)
            when = f" ({word('round', lang)} {p.round})" if p.round else ""
            pdf.text_line(f"{word('pair', lang)} {p.pair} {t.pair(p.pair).name}: {amount}"
                          f"{when} - {p.reason}")
    awards = prize_list(t)
    if awards:
        pdf.ln(5)
        pdf.heading(word("prizes", lang), 13)
        rows = [(_category(a.category, lang), str(a.place),
                 f"{a.standing.pair} {a.standing.name}", str(a.standing.rank),
                 str(a.standing.vp)) if a.standing else
                (_category(a.category, lang), str(a.place), word("not_awarded", lang), "", "")
                for a in awards]
        pdf.grid([word("category", lang), word("place", lang), word("pair", lang),
                  word("rank", lang), word("vp", lang)], rows, [40, 18, 90, 18, 18], size=10,
                 align=["L", "C", "L", "C", "R"])
    return pdf.bytes()


def _taken(lang: str, vp: int, mp: int) -> str:
    """A penalty's VP and MP: ``-3 VP -50 MP`` (a nought left out)."""
    return " ".join(f"-{n} {word(unit, lang)}" for n, unit in ((vp, "vp"), (mp, "mp_short"))
                    if n)


def _category(category: str, lang: str) -> str:
    """A prize category: ``overall``, ``NS`` and ``EW`` in ``lang``, the others as named."""
    key = category.casefold()
    if key == "overall":
        return word("overall", lang)
    return line_word(key, lang) if key in ("ns", "ew") else category
