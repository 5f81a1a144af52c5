"""The big screen: a projector's or a TV's page of the round, the clock and the standings.

Large type (sized to the screen's width), the current round's tables with the finished
ones lit, the round clock (with its 5-minute warning and a beep, then the time-out rule once
the time is up: :mod:`.clock_view`), and the standings.
It reloads itself when the tournament changes (the script polls ``screen.json`` for a
stamp) and, without the script, every 30 seconds.  It shows only what players may see: a
duplicate round's scores stay hidden until every table has its result and every web table of
its deal group has finished (:mod:`.held`).
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any
from urllib.parse import quote

from burraco.tournament.clock import Clock
from burraco.tournament.clock_view import clock_html
from burraco.tournament.export import marks_html, ranked, shown_standings, sitting_out
from burraco.tournament.i18n import number
from burraco.tournament.model import Tournament
from burraco.tournament.pages import Lang, layout, tr
from burraco.tournament.standings import standings
from burraco.tournament.table_entry import SCRIPT_TAG

FALLBACK_REFRESH = 30
STYLE = ("<style>.screen .clock-warning { font-size: 2.6vw; margin: .6vw 0 0; }"
         "</style>")
"""The warning read across the room (the shared stylesheet sizes the time-out)."""


def standings_table(t: Tournament, lang: Lang) -> str:
    head = (f"<tr><th>{tr(lang, 'rank')}</th><th>#</th><th>{tr(lang, 'name')}</th>"
            f"<th>{tr(lang, 'vp')}</th><th>{tr(lang, 'mp_diff')}</th>"
            f"<th>{tr(lang, 'played')}</th></tr>")
    out, any_rank = sitting_out(t), ranked(t)
    rows = "".join(
        f"<tr data-pair='{s.pair}'><td class='num'>"
        f"{(str(s.rank) + ('=' if s.tied else '')) if any_rank else '–'}</td>"
        f"<td class='num'>{s.pair}</td><td>{escape(s.name)}{marks_html(s, out, lang)}</td>"
        f"<td class='num'><b>{number(lang, s.vp)}</b></td>"
        f"<td class='num'>{number(lang, s.mp_diff, signed=True)}</td>"
        f"<td class='num'>{s.played}</td></tr>"
        for s in shown_standings(t))
    return f"<table id='standings'>{head}{rows}</table>"


def screen_page(tid: str, t: Tournament, shown: Tournament, lang: Lang, *,
                clock: Clock | None, at: datetime, stamp: str) -> str:
    """``t`` says which tables have finished; ``shown`` is what may be seen of the scores."""
    base = f"/tournaments/{quote(tid)}"
    current = t.current
    parts: list[str] = []
    def state(number: int) -> str:
        return "done" if t.result(current.number, number) else "playing"  # type: ignore[union-attr]

    if current is None:
        parts.append(f"<h1>{escape(t.settings.name)}</h1><p id='no-round'>"
                     f"{tr(lang, 'no_round')}</p>")
    elif shown.finished:  # the final ranking alone, larger (not while the last round is held)
        title = tr(lang, "screen_final", name=t.settings.name)
        parts.append(f"<h1>{escape(title)}</h1><p class='ok' id='over'>{tr(lang, 'over')}</p>"
                     f"<section class='final'>{standings_table(shown, lang)}</section>")
    else:
        title = tr(lang, "screen_title", name=t.settings.name, n=current.number)
        parts.append(f"<h1>{escape(title)}</h1>")
        tiles = "".join(
            f"<li class='{state(tb.number)}' data-table='{tb.number}'><b>{tb.number}</b>"
            f"{tr(lang, 'finished' if state(tb.number) == 'done' else 'playing')}"
            f"<br><small>{'+'.join(map(str, tb.line(0)))} – {'+'.join(map(str, tb.line(1)))}"
            "</small></li>" for tb in current.tables)
        left = (f"<h2>{tr(lang, 'screen_tables')}</h2><ul class='tables' id='tables'>{tiles}"
                "</ul>")
        names = {p.number: p.name for p in t.pairs}
        left += "".join(
            f"<p class='bye' data-bye='{p}'>"
            f"{escape(tr(lang, 'sits_out', who=f'{p} {names[p]}'))}</p>"
            for p in current.byes)
        left += clock_html(lang, clock, at, beep=True)
        if shown is not t:
            left += f"<p class='meta' id='held'>{tr(lang, 'held')}</p>"
        right = (f"<h2>{tr(lang, 'standings')}</h2>"
                 f"{standings_table(shown, lang)}")
        parts.append(f"<div class='grid'><section>{left}</section><section>{right}</section>"
                     "</div>")
    body = (f"<div id='screen' data-stamp='{escape(stamp)}' "
            f"data-poll='{base}/screen.json'>{''.join(parts)}</div>")
    head = (f"{SCRIPT_TAG}{STYLE}<noscript><meta http-equiv='refresh' content='{FALLBACK_REFRESH}'>"
            "</noscript>")
    return layout(t.settings.name, body, lang=lang, path=f"{base}/screen",
                  body_class="screen", head=head)


def screen_json(t: Tournament, shown: Tournament, clock: Clock | None, at: datetime,
                stamp: str) -> dict[str, Any]:
    """What the big screen shows, as data (its script only compares the stamp)."""
    current = t.current
    return {
        "stamp": stamp,
        "round": None if current is None else current.number,
        "finished": shown.finished,
        "sits_out": [] if current is None or t.finished else list(current.byes),
        "ranked": ranked(shown),
        "tables": [] if current is None else [
            {"table": tb.number, "finished": t.result(current.number, tb.number) is not None}
            for tb in current.tables],
        "clock": None if clock is None else {
            "round": clock.round, "minutes": clock.minutes,
            "ends_at": clock.ends_at.isoformat(), "time_out": clock.expired(at),
            "warning": clock.warning(at)},
        "standings": [s.to_dict() for s in standings(shown)],
    }
