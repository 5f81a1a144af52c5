"""A tournament on paper: plain text for the terminal, CSV for spreadsheets, printable HTML.

The HTML page is self-contained (inline CSS, no scripts) and prints on A4: the
standings first, then every round's tables with their MP and VP.  The director
pages (:mod:`.web`) reuse its pieces.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from html import escape

from burraco.tournament.duplicate import round_scores
from burraco.tournament.model import Round, Tournament
from burraco.tournament.seating import Table
from burraco.tournament.standings import Standing, standings

STANDINGS_COLUMNS = ("rank", "pair", "name", "players", "vp", "mp_diff", "mp", "played", "byes",
                     "penalty_vp", "penalty_mp", "withdrawn")
"""``vp``, ``mp_diff`` and ``mp`` are net of the penalties (``penalty_vp``, ``penalty_mp``:
what was taken away); ``withdrawn``: ``yes`` for a pair that left the evening."""
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
                             "yes" if s.withdrawn else ""]
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


def page(title: str, body: str) -> str:
    return (f"<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{CSS}</style></head>\n"
            f"<body>\n{body}\n</body></html>\n")


TIE_BREAK_WORDS = {"mp_diff": "MP difference", "h2h": "head-to-head", "lot": "draw",
                   "mp": "MP scored", "vp": "VP", "dup": "duplicate score"}
"""The tie-breaks in words, for the pages people read (the settings keep their codes)."""


def minus(value: object) -> str:
    """A number as read on a page: a negative one with a true minus sign, ``−150``, so that
    ``1650 – −150`` does not read as a range (``1650 – -150``)."""
    text = str(value)
    return "−" + text[1:] if re.fullmatch(r"-\d+", text) else text


def scale_title(name: str) -> str:
    """A VP table's name without its reference into RULES.md (for the pages people read)."""
    return re.sub(r"\s*\(RULES\.md[^)]*\)", "", name)


def meta_html(t: Tournament) -> str:
    s = t.settings
    scale = s.vp_scale
    ties = ", ".join(TIE_BREAK_WORDS.get(k, k) for k in s.tie_breaks) or "none"
    kind = "" if s.kind == "pairs" else f"{s.kind} event · "
    return (f"<p class='meta'>{kind}{len(t.pairs)} {s.entrant}s · schedule "
            f"<code>{escape(str(s.schedule))}</code> ({t.total_rounds} rounds) · "
            f"{s.hands} smazzate per match{' at each table' if s.kind == 'teams' else ''} · "
            "VP table: "
            f"{escape(scale_title(scale.name))}"
            f"{'' if scale.official else ' (configured by the director)'}"
            f"{' · duplicate deals' if s.duplicate else ''} · bye {s.bye_vp} VP, "
            f"{s.bye_mp:+d} MP · tie-breaks: <span class='ties'>{escape(ties)}</span> · "
            f"<span id='status'>{escape(t.status)}</span></p>")


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


def marks_html(s: Standing, out: frozenset[int]) -> str:
    """A pair's marks after its name: sitting out this round, withdrawn, penalised."""
    marks = []
    if s.pair in out:
        marks.append("<small class='mark' data-mark='bye'>(sits out this round)</small>")
    if s.withdrawn:
        marks.append("<small class='mark' data-mark='withdrawn'>(withdrawn)</small>")
    if s.penalty_vp or s.penalty_mp:
        taken = ", ".join(f"−{n} {unit}" for n, unit in ((s.penalty_vp, "VP"),
                                                        (s.penalty_mp, "MP")) if n)
        marks.append(f"<small class='mark' data-mark='penalty'>(penalty: {taken})</small>")
    return "".join(f" {m}" for m in marks)


def standings_html(t: Tournament) -> str:
    dup = t.settings.duplicate
    head = (f"<tr><th>rank</th><th>{t.settings.entrant}</th><th>name</th><th>VP</th>"
            "<th>MP diff</th>") + (
        "<th>dup</th>" if dup else "") + "<th>played</th><th>byes</th></tr>"
    rows = []
    out = sitting_out(t)
    for s in shown_standings(t):
        rank = _rank(s) if ranked(t) else "–"
        cells = (f"<td class='num'>{rank}</td><td class='num'>{s.pair}</td>"
                 f"<td>{escape(s.name)}{marks_html(s, out)}</td><td class='num'>{s.vp}</td>"
                 f"<td class='num'>{s.mp_diff:+d}</td>")
        if dup:
            cells += f"<td class='num'>{float(s.dup or 0):+.1f}</td>"
        cells += f"<td class='num'>{s.played}</td><td class='num'>{s.byes}</td>"
        rows.append(f"<tr data-pair='{s.pair}'>{cells}</tr>")
    return f"<table id='standings'>{head}{''.join(rows)}</table>"


def round_html(t: Tournament, played: Round, *, with_forms: bool = False) -> str:
    names = {p.number: p.name for p in t.pairs}
    dup = round_scores(t.round_results(played.number)) if t.settings.duplicate else {}
    unit, home, away = headings(t)
    head = (f"<tr><th>{unit}</th><th>{home}</th><th>{away}</th><th>MP</th><th>VP</th>"
            + ("<th>dup NS</th>" if dup else "") + ("<th class='noprint'>enter</th>"
                                                    if with_forms else "") + "</tr>")
    rows = []
    for table in played.tables:
        r = t.result(played.number, table.number)
        cells = (f"<td class='num'>{table.number}</td>"
                 f"<td>{escape(line_label(t, table, 0))}</td>"
                 f"<td>{escape(line_label(t, table, 1))}</td>")
        if r:
            rooms = f" <small>({escape(rooms_text(r.rooms))})</small>" if r.rooms else ""
            cells += (f"<td class='num'>{minus(r.mp[0])} – {minus(r.mp[1])}{rooms}</td>"
                      f"<td class='num'>{r.vp[0]} – {r.vp[1]}</td>")
        else:
            cells += "<td>—</td><td>—</td>"
        if dup:
            cells += f"<td class='num'>{float(dup.get(table.ns, 0)):+.1f}</td>"
        if with_forms:
            form = _result_form(played.number, table.number, r, t.settings.kind == "teams")
            cells += f"<td class='noprint'>{form}</td>"
        rows.append(f"<tr class='{'done' if r else 'missing'}' "
                    f"data-table='{table.number}'>{cells}</tr>")
    byes = "".join(f"<p>Bye: {t.settings.entrant} {p} {escape(names[p])} "
                   f"({t.settings.bye_vp} VP, {t.settings.bye_mp:+d} MP)</p>"
                   for p in played.byes)
    note = team_tables_note(t)
    if note:
        byes += f"<p class='meta'>{escape(note)}</p>"
    return (f"<h2>Round {played.number} — {escape(played.movement)}</h2>"
            f"<table class='round' id='round-{played.number}'>{head}{''.join(rows)}</table>"
            f"{byes}")


def _result_form(round_number: int, table: int, existing: object, teams: bool) -> str:
    label = "correct" if existing else "save"
    if teams:  # the score sheets of the match's two tables
        scores = "".join(
            f"<input type='number' name='r{k}_{who}' step='5' required "
            f"aria-label='table {k} {who} MP' placeholder='T{k} {who}'> "
            for k in (1, 2) for who in ("home", "away"))
    else:
        scores = ("<input type='number' name='ns_mp' step='5' required aria-label='NS MP' "
                  "placeholder='NS MP'> "
                  "<input type='number' name='ew_mp' step='5' required aria-label='EW MP' "
                  "placeholder='EW MP'> ")
    return (f"<form class='inline' method='post' action='results'>"
            f"<input type='hidden' name='round' value='{round_number}'>"
            f"<input type='hidden' name='table' value='{table}'>"
            f"{scores}"
            + ("<input type='hidden' name='correct' value='1'>" if existing else "")
            + f"<button type='submit'>{label}</button></form>")


def printable_html(t: Tournament) -> str:
    """The whole event on one printable page."""
    title = "Final ranking" if t.finished else "Standings"
    body = [f"<h1>{escape(t.settings.name)}</h1>", meta_html(t), f"<h2>{title}</h2>",
            standings_html(t)]
    body += [round_html(t, played) for played in t.rounds]
    return page(t.settings.name, "\n".join(body))
