"""A tournament on paper: plain text for the terminal, CSV for spreadsheets, printable HTML.

The HTML page is self-contained (inline CSS, no scripts) and prints on A4: the
standings first, then every round's tables with their MP and VP.  The director
pages (:mod:`.web`) reuse its pieces.  The HTML speaks the reader's language (``lang``,
:mod:`.i18n`); the text and the CSV, for the terminal and for spreadsheets, stay English.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from html import escape

from burraco.tournament.duplicate import round_scores
from burraco.tournament.i18n import Lang, count, decimal, number, tr
from burraco.tournament.model import Result, Round, Tournament
from burraco.tournament.seating import Table
from burraco.tournament.standings import Standing, standings

STANDINGS_COLUMNS = ("rank", "pair", "name", "players", "vp", "mp_diff", "mp", "played", "byes",
                     "penalty_vp", "penalty_mp", "withdrawn", "absent")
"""``vp``, ``mp_diff`` and ``mp`` are net of the penalties (``penalty_vp``, ``penalty_mp``:
what was taken away); ``withdrawn``: ``yes`` for a pair that left the evening; ``absent``:
the rounds a late pair missed, each scored as an absence (the evening's ``absent`` score,
carried by ``vp`` and ``mp_diff``)."""
RESULTS_COLUMNS = ("round", "movement", "table", "ns", "ns_name", "ew", "ew_name", "mp_ns",
                   "mp_ew", "vp_ns", "vp_ew", "hands", "source")


def _rank(s: Standing) -> str:
    return f"{s.rank}=" if s.tied else str(s.rank)


def line_label(t: Tournament, table: Table, side: int) -> str:
    """``3 Rossi``, or in an individual event ``3 Rossi & 7 Verdi``."""
    return " & ".join(f"{n} {t.pair(n).name}" for n in table.line(side))


def line_numbers(table: Table, side: int) -> str:
    return "+".join(str(n) for n in table.line(side))


def headings(t: Tournament) -> tuple[str, str, str]:
    """Column titles of a round: a team event seats matches of a home and an away team."""
    return ("match", "home", "away") if t.settings.kind == "teams" else ("table", "NS", "EW")


def team_tables_note(t: Tournament) -> str:
    if t.settings.kind != "teams":
        return ""
    return ("match k is played at tables 2k−1 (home NS, away EW) and 2k (away NS, home EW); "
            "its score is the sum of the two tables")


def rooms_text(rooms: tuple[tuple[int, int], ...]) -> str:
    return " + ".join(f"{h}–{a}" for h, a in rooms)


# --- text -------------------------------------------------------------------------------------

def standings_text(t: Tournament) -> str:
    table = standings(t)
    width = max([len(s.name) for s in table] + [4])
    dup = t.settings.duplicate
    title = "Final ranking" if t.finished else f"Standings ({t.status})"
    what = t.settings.entrant
    lines = [f"{t.settings.name} — {title}",
             f"{'rank':>4}  {what:>6}  {'name':<{width}}  {'VP':>4}  {'MP diff':>8}"
             + (f"  {'dup':>8}" if dup else "") + f"  {'played':>6}"]
    for s in table:
        line = (f"{_rank(s):>4}  {s.pair:>6}  {s.name:<{width}}  {s.vp:>4}  "
                f"{s.mp_diff:>+8d}")
        if dup and s.dup is not None:
            line += f"  {float(s.dup):>+8.1f}"
        lines.append(line + f"  {s.played:>6}" + (f" (+{s.byes} bye)" if s.byes else ""))
    return "\n".join(lines)


def round_text(t: Tournament, played: Round) -> str:
    names = {p.number: p.name for p in t.pairs}
    labels = [(line_label(t, table, 0), line_label(t, table, 1)) for table in played.tables]
    width = max([len(a) for a, _ in labels] + [len(b) for _, b in labels] + [2])
    unit, home, away = headings(t)
    count = len(played.tables)
    seated = (f"{count} match(es) at {2 * count} tables" if t.settings.kind == "teams"
              else f"{count} table(s)")
    lines = [f"{t.settings.name} — round {played.number} of {t.total_rounds} "
             f"({played.movement}), {seated}, {t.settings.hands} smazzate"
             + (", duplicate deals" if t.settings.duplicate else ""),
             f"{unit:>5}  {home:<{width}}  {away:<{width}}  result"]
    for table, (ns_label, ew_label) in zip(played.tables, labels, strict=True):
        result = t.result(played.number, table.number)
        shown = (f"MP {result.mp[0]}–{result.mp[1]}  VP {result.vp[0]}–{result.vp[1]}"
                 if result else "—")
        if result and result.rooms:
            shown += f"  (tables {rooms_text(result.rooms)})"
        lines.append(f"{table.number:>5}  {ns_label:<{width}}  {ew_label:<{width}}  {shown}")
    for pair in played.byes:
        lines.append(f"  bye: {t.settings.entrant} {pair} {names[pair]} "
                     f"({t.settings.bye_vp} VP, {t.settings.bye_mp:+d} MP)")
    note = team_tables_note(t)
    if note:
        lines.append(f"  {note}")
    return "\n".join(lines)


# --- CSV --------------------------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting so is read as a formula by spreadsheets (CSV injection)."""


def csv_cell(value: object) -> object:
    """A cell as written: text that a spreadsheet would run as a formula gets a leading ``'``.

    Numbers are written as they are (a negative MP difference is a number, not a formula);
    names, entered by anyone, are the text that needs it.
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _SafeWriter:
    """``csv.writer`` whose every text cell goes through :func:`csv_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([csv_cell(v) for v in row])


def csv_text(columns: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    """A CSV file: the columns' names, then the rows, every text cell through
    :func:`csv_cell`."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


def standings_csv(t: Tournament) -> str:
    out = io.StringIO()
    columns: tuple[str, ...] = ((*STANDINGS_COLUMNS, "dup") if t.settings.duplicate
                                else STANDINGS_COLUMNS)
    writer = _SafeWriter(out)
    if t.settings.kind != "pairs":
        columns = tuple(t.settings.entrant if c == "pair" else c for c in columns)
    writer.writerow(columns)
    players = {p.number: " / ".join(p.players) for p in t.pairs}
    for s in standings(t):
        row: list[object] = [_rank(s), s.pair, s.name, players[s.pair], s.vp, s.mp_diff, s.mp,
                             s.played, s.byes, s.penalty_vp, s.penalty_mp,
                             "yes" if s.withdrawn else "", s.absent]
        if t.settings.duplicate:
            row.append(round(float(s.dup or 0), 1))
        writer.writerow(row)
    return out.getvalue()


def results_csv(t: Tournament) -> str:
    out = io.StringIO()
    writer = _SafeWriter(out)
    teams = t.settings.kind == "teams"
    writer.writerow((*RESULTS_COLUMNS, "rooms") if teams else RESULTS_COLUMNS)
    names = {p.number: p.name for p in t.pairs}
    absent_vp, absent_mp = t.evening.absent_score(t.settings.bye_vp, t.settings.bye_mp)
    for played in t.rounds:
        for table in played.tables:
            r = t.result(played.number, table.number)
            hands = " ".join(f"{a}:{b}" for a, b in r.hands) if r else ""
            line_names = [" & ".join(names[n] for n in table.line(side)) for side in (0, 1)]
            row: list[object] = [
                played.number, played.movement, table.number, line_numbers(table, 0),
                line_names[0], line_numbers(table, 1), line_names[1],
                *(r.mp if r else ("", "")), *(r.vp if r else ("", "")), hands,
                r.source if r else ""]
            if teams:
                row.append(" ".join(f"{h}:{a}" for h, a in r.rooms) if r else "")
            writer.writerow(row)
        for pair in played.byes:  # mp_ns: the MP difference a bye is credited with
            writer.writerow([played.number, played.movement, "bye", pair, names[pair], "", "",
                             t.settings.bye_mp, "", t.settings.bye_vp, "", "", "bye"])
        for late in t.evening.late:  # a round a late pair missed: scored as an absence
            if played.number < late.from_round:
                writer.writerow([played.number, played.movement, "absent", late.pair,
                                 names[late.pair], "", "", absent_mp, "", absent_vp, "", "",
                                 "absent"])
    return out.getvalue()


# --- HTML -------------------------------------------------------------------------------------

CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.2em; margin-top: 1.4em; }
p.meta { color: #444; margin-top: 0; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #999; padding: .25em .6em; }
th { background: #eee; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.missing td { color: #a00; }
.error { background: #fee; border: 1px solid #c00; padding: .5em; color: #900; }
.ok { background: #efe; border: 1px solid #393; padding: .5em; }
form.inline { display: inline; } input[type=number] { width: 6em; }
nav a { margin-right: 1em; }
@media print { nav, form, .noprint { display: none; } body { margin: 0; }
  h2 { page-break-after: avoid; } table { page-break-inside: auto; } }
"""


def page(title: str, body: str, lang: Lang = "en") -> str:
    return (f"<!doctype html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{CSS}</style></head>\n"
            f"<body>\n{body}\n</body></html>\n")


TIE_BREAK_WORDS = {"mp_diff": "MP difference", "h2h": "head-to-head", "lot": "draw",
                   "mp": "MP scored", "vp": "VP", "dup": "duplicate score"}
"""The tie-breaks in English words (the settings keep their codes; the pages say them in
their language, ``tie.<code>``)."""


def scale_title(name: str) -> str:
    """A VP table's name without its reference into RULES.md (for the pages people read)."""
    return re.sub(r"\s*\(RULES\.md[^)]*\)", "", name)


def tie_break_words(lang: Lang, keys: Iterable[str]) -> str:
    """The tie-breaks in ``lang``'s words, in order (``none`` for none)."""
    words = [tr(lang, f"tie.{k}") if k in TIE_BREAK_WORDS else k for k in keys]
    return ", ".join(words) or tr(lang, "tie.none")


def movement_word(lang: Lang, movement: str) -> str:
    """A round's movement in ``lang`` (``danish`` → ``danese``)."""
    key = f"movement.{movement}"
    return tr(lang, key) if movement in MOVEMENT_NAMES else movement


MOVEMENT_NAMES = ("mitchell", "danish", "danish-modified", "roundrobin", "random")


def status_text(lang: Lang, status: str) -> str:
    """A tournament's status (:attr:`~.model.Tournament.status`) in ``lang``."""
    found = re.fullmatch(r"round (\d+)( done)?", status)
    if found:
        return tr(lang, "status.round_done" if found[2] else "status.round", n=int(found[1]))
    return tr(lang, f"status.{status}") if status in ("registration", "finished") else status


def meta_html(t: Tournament, lang: Lang = "en") -> str:
    s = t.settings
    scale = s.vp_scale
    ties = tie_break_words(lang, s.tie_breaks)
    parts = [] if s.kind == "pairs" else [tr(lang, f"meta.{s.kind}")]
    parts.append(escape(count(lang, s.entrant, len(t.pairs))))
    parts.append(tr(lang, "meta.schedule", schedule=f"<code>{escape(str(s.schedule))}</code>",
                    rounds=count(lang, "round", t.total_rounds)))
    parts.append(tr(lang, "meta.hands_teams" if s.kind == "teams" else "meta.hands",
                    n=s.hands))
    parts.append(escape(tr(lang, "meta.scale" if scale.official else "meta.scale_own",
                           name=scale_title(scale.name))))
    if s.duplicate:
        parts.append(tr(lang, "meta.duplicate"))
    parts.append(tr(lang, "meta.bye", vp=s.bye_vp, mp=number(lang, s.bye_mp, signed=True)))
    parts.append(tr(lang, "meta.ties", ties=f"<span class='ties'>{escape(ties)}</span>"))
    parts.append(f"<span id='status'>{escape(status_text(lang, t.status))}</span>")
    return f"<p class='meta'>{' · '.join(parts)}</p>"


def ranked(t: Tournament) -> bool:
    """Whether the standings rank anybody yet: before the first result the order would only
    be the draw's (a bye's VP alone), so no rank is shown and the pairs go by number."""
    return bool(t.results)


def shown_standings(t: Tournament) -> list[Standing]:
    """The standings as the pages show them: by number, before the first result."""
    table = standings(t)
    return table if ranked(t) else sorted(table, key=lambda s: s.pair)


def sitting_out(t: Tournament) -> frozenset[int]:
    """Who sits out the round being played (its byes)."""
    current = t.current
    if current is None or t.finished:
        return frozenset()
    return frozenset(current.byes)


def taken(lang: Lang, vp: int, mp: int) -> str:
    """What penalties took: ``−1 VP, −50 MP`` (a nought left out)."""
    return ", ".join(f"{number(lang, -n)} {tr(lang, unit)}"
                     for n, unit in ((vp, "vp"), (mp, "mp")) if n)


def penalty_taken(lang: Lang, s: Standing) -> str:
    """What the penalties took from a pair: ``−1 VP, −50 MP``."""
    return taken(lang, s.penalty_vp, s.penalty_mp)


def marks_html(s: Standing, out: frozenset[int], lang: Lang = "en") -> str:
    """A pair's marks after its name: sitting out this round, withdrawn, penalised."""
    said = []
    if s.pair in out:
        said.append(("bye", tr(lang, "mark_bye")))
    if s.withdrawn:
        said.append(("withdrawn", tr(lang, "mark_withdrawn")))
    if s.penalty_vp or s.penalty_mp:
        said.append(("penalty", tr(lang, "mark_penalty", taken=penalty_taken(lang, s))))
    if s.absent:
        said.append(("absent", tr(lang, "absent.mark", n=s.absent)))
    return "".join(f" <small class='mark' data-mark='{key}'>({escape(text)})</small>"
                   for key, text in said)


def result_marks(t: Tournament, r: Result, lang: Lang = "en") -> str:
    """A result's marks: an arbitral score, a match cut short by the time-out."""
    said = []
    if r.arbitral:
        said.append(("arbitral", tr(lang, "arbitral.mark")))
    if r.hands and len(r.hands) < t.settings.hands:
        said.append(("timeout", tr(lang, "timeout.mark", n=len(r.hands),
                                   hands=t.settings.hands)))
    return "".join(f" <small class='mark' data-mark='{key}'>({escape(text)})</small>"
                   for key, text in said)


def standings_html(t: Tournament, lang: Lang = "en") -> str:
    dup = t.settings.duplicate
    head = (f"<tr><th>{tr(lang, 'rank')}</th><th>{tr(lang, 'entrant.' + t.settings.entrant)}"
            f"</th><th>{tr(lang, 'name')}</th><th>{tr(lang, 'vp')}</th>"
            f"<th>{tr(lang, 'mp_diff')}</th>") + (
        f"<th>{tr(lang, 'dup')}</th>" if dup else "") + (
        f"<th>{tr(lang, 'played')}</th><th>{tr(lang, 'byes')}</th></tr>")
    rows = []
    out = sitting_out(t)
    for s in shown_standings(t):
        rank = _rank(s) if ranked(t) else "–"
        cells = (f"<td class='num'>{rank}</td><td class='num'>{s.pair}</td>"
                 f"<td>{escape(s.name)}{marks_html(s, out, lang)}</td>"
                 f"<td class='num'>{number(lang, s.vp)}</td>"
                 f"<td class='num'>{number(lang, s.mp_diff, signed=True)}</td>")
        if dup:
            cells += f"<td class='num'>{decimal(lang, s.dup or 0)}</td>"
        cells += f"<td class='num'>{s.played}</td><td class='num'>{s.byes}</td>"
        rows.append(f"<tr data-pair='{s.pair}'>{cells}</tr>")
    return f"<table id='standings'>{head}{''.join(rows)}</table>"


def round_html(t: Tournament, played: Round, *, with_forms: bool = False,
               lang: Lang = "en") -> str:
    names = {p.number: p.name for p in t.pairs}
    dup = round_scores(t.round_results(played.number)) if t.settings.duplicate else {}
    teams = t.settings.kind == "teams"
    unit, home, away = ((tr(lang, "col.match"), tr(lang, "col.home"), tr(lang, "col.away"))
                        if teams else (tr(lang, "col.table"), tr(lang, "ns"), tr(lang, "ew")))
    head = (f"<tr><th>{unit}</th><th>{home}</th><th>{away}</th><th>{tr(lang, 'mp')}</th>"
            f"<th>{tr(lang, 'vp')}</th>"
            + (f"<th>{tr(lang, 'dup_ns')}</th>" if dup else "")
            + (f"<th class='noprint'>{tr(lang, 'col.enter')}</th>" if with_forms else "")
            + "</tr>")
    rows = []
    for table in played.tables:
        r = t.result(played.number, table.number)
        cells = (f"<td class='num'>{table.number}</td>"
                 f"<td>{escape(line_label(t, table, 0))}</td>"
                 f"<td>{escape(line_label(t, table, 1))}</td>")
        if r:
            rooms = f" <small>({escape(rooms_text(r.rooms))})</small>" if r.rooms else ""
            cells += (f"<td class='num'>{number(lang, r.mp[0])} – {number(lang, r.mp[1])}"
                      f"{rooms}{result_marks(t, r, lang)}</td>"
                      f"<td class='num'>{r.vp[0]} – {r.vp[1]}</td>")
        else:
            cells += "<td>—</td><td>—</td>"
        if dup:
            cells += f"<td class='num'>{decimal(lang, dup.get(table.ns, 0))}</td>"
        if with_forms:
            form = _result_form(played.number, table.number, r, teams, lang)
            cells += f"<td class='noprint'>{form}</td>"
        rows.append(f"<tr class='{'done' if r else 'missing'}' "
                    f"data-table='{table.number}'>{cells}</tr>")
    what = tr(lang, f"entrant.{t.settings.entrant}")
    byes = "".join(
        "<p>" + escape(tr(lang, "bye_line", what=what, number=p, name=names[p],
                          vp=t.settings.bye_vp,
                          mp=number(lang, t.settings.bye_mp, signed=True))) + "</p>"
        for p in played.byes)
    if teams:
        byes += f"<p class='meta'>{escape(tr(lang, 'team_tables'))}</p>"
    heading = tr(lang, "round_heading", n=played.number,
                 movement=movement_word(lang, played.movement))
    return (f"<h2>{escape(heading)}</h2>"
            f"<table class='round' id='round-{played.number}'>{head}{''.join(rows)}</table>"
            f"{byes}")


def _result_form(round_number: int, table: int, existing: object, teams: bool,
                 lang: Lang = "en") -> str:
    label = tr(lang, "form.correct" if existing else "form.save")

    def attr(key: str, **values: object) -> str:
        return escape(tr(lang, key, **values), quote=True)

    if teams:  # the score sheets of the match's two tables
        scores = "".join(
            f"<input type='number' name='r{k}_{who}' step='5' required "
            f"aria-label='{attr(f'form.room_{who}', k=k)}' "
            f"placeholder='{attr(f'form.room_{who}_short', k=k)}'> "
            for k in (1, 2) for who in ("home", "away"))
    else:
        scores = (f"<input type='number' name='ns_mp' step='5' required "
                  f"aria-label='{attr('form.ns_mp')}' placeholder='{attr('form.ns_mp')}'> "
                  f"<input type='number' name='ew_mp' step='5' required "
                  f"aria-label='{attr('form.ew_mp')}' placeholder='{attr('form.ew_mp')}'> ")
    return (f"<form class='inline' method='post' action='results'>"
            f"<input type='hidden' name='round' value='{round_number}'>"
            f"<input type='hidden' name='table' value='{table}'>"
            f"{scores}"
            + ("<input type='hidden' name='correct' value='1'>" if existing else "")
            + f"<button type='submit'>{escape(label)}</button></form>")


def printable_html(t: Tournament, lang: Lang = "en") -> str:
    """The whole event on one printable page."""
    title = tr(lang, "final" if t.finished else "standings")
    body = [f"<h1>{escape(t.settings.name)}</h1>", meta_html(t, lang), f"<h2>{title}</h2>",
            standings_html(t, lang)]
    body += [round_html(t, played, lang=lang) for played in t.rounds]
    return page(t.settings.name, "\n".join(body), lang)
