"""The phone page of one pair at one table: the table, the round, the clock, the result form.

What the page shows depends on the table's state: the form (nobody has entered yet, or
only this pair, or the two entries disagree), or the recorded result.  It shows only this
table: a pair sees its own entry and, once both are in, the other pair's too.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from urllib.parse import quote

from burraco.tournament.clock import Clock
from burraco.tournament.clock_view import clock_html as clock_html  # the pages' clock
from burraco.tournament.export import line_label
from burraco.tournament.model import Tournament
from burraco.tournament.pages import Lang, layout, tr
from burraco.tournament.table_desk import Entry, Seat, score_limit


def _value(entry: Entry | None, side: int) -> str:
    return "" if entry is None else str(entry.score[side])


def _typed(typed: dict[str, str], name: str) -> str:
    """What the pair typed in ``name`` (a refused form comes back as it was sent)."""
    return escape(typed.get(name, "")[:12].strip(), quote=True)


def phone_page(tid: str, t: Tournament, seat: Seat, token: str, lang: Lang, *,
               entries: dict[str, Entry], clock: Clock | None, at: datetime,
               ok: str | None = None, error: str | None = None,
               typed: dict[str, str] | None = None, stamp: str = "") -> str:
    """The pair's page; ``typed``: the refused form, kept so nothing is retyped; ``stamp``:
    the tournament's change stamp, polled while the pair waits for the other one."""
    table = t.round(seat.round).table(seat.table)
    side_name = tr(lang, seat.side)
    path = f"/tournaments/{quote(tid)}/table/{quote(token)}"
    rows = []
    for index, side in enumerate(("ns", "ew")):
        marked = " class='mine'" if side == seat.side else ""
        rows.append(f"<span{marked}>{tr(lang, side)}</span><span{marked} data-side='{side}'>"
                    f"{escape(line_label(t, table, index))}</span>")
    parts = [f"<h1>{tr(lang, 'table', n=seat.table)} · {tr(lang, 'round', n=seat.round)}</h1>",
             f"<p class='meta'>{escape(t.settings.name)}</p>",
             f"<p class='seat' id='seat'>{tr(lang, 'your_side', side=side_name)}</p>",
             f"<div class='pairs panel' id='pairs'>{''.join(rows)}</div>",
             clock_html(lang, clock, at)]
    if ok:
        parts.append(f"<p class='ok' role='status' id='notice'>{escape(ok)}</p>")
    if error:
        parts.append(f"<p class='error' role='alert' id='error'><b>{tr(lang, 'refused')}:</b> "
                     f"{escape(error)}</p>")
    done = t.result(seat.round, seat.table)
    mine, theirs = entries.get(seat.side), entries.get("ew" if seat.side == "ns" else "ns")
    if done is not None:
        text = tr(lang, "recorded", ns=done.mp[0], ew=done.mp[1], vns=done.vp[0],
                  vew=done.vp[1])
        parts.append(f"<p class='ok' id='result'>{text}</p>")
        return layout(t.settings.name, "\n".join(parts), lang=lang, path=path,
                      body_class="phone", head=SCRIPT_TAG)
    if mine and theirs and mine.score != theirs.score:
        ns, ew = entries["ns"], entries["ew"]
        text = tr(lang, "disagree", a=ns.ns_mp, b=ns.ew_mp, c=ew.ns_mp, d=ew.ew_mp)
        parts.append(f"<p class='warn' id='disagree' role='alert'>{text}</p>")
    elif mine:
        text = tr(lang, "your_entry", ns=mine.ns_mp, ew=mine.ew_mp)
        poll = (f" data-stamp='{escape(stamp)}' data-poll='/tournaments/{quote(tid)}/"
                "screen.json'" if stamp else "")
        parts.append(f"<p class='meta' id='mine'{poll}>{text} {tr(lang, 'other_waiting')}</p>")
    elif theirs:
        parts.append(f"<p class='meta' id='theirs'>{tr(lang, 'other_entered')}</p>")
    kept = typed or {}
    if typed is None and mine is not None:
        kept = {f"h{k}_{side}": str(h[i]) for k, h in enumerate(mine.hands, start=1)
                for i, side in enumerate(("ns", "ew"))}
        kept |= {"ns_mp": _value(mine, 0), "ew_mp": _value(mine, 1)}
    def attr(text: str) -> str:
        return escape(text, quote=True)

    hands = "".join(
        f"<span>{tr(lang, 'hand', n=k)}</span>"
        + "".join(
            f"<input name='h{k}_{side}' {_bounds(1, part=True)} "
            f"aria-label='{attr(tr(lang, 'hand', n=k) + ' ' + tr(lang, side))}' "
            f"placeholder='{attr(tr(lang, side))}' value='{_typed(kept, f'h{k}_{side}')}'>"
            for side in ("ns", "ew"))
        for k in range(1, t.settings.hands + 1))
    opened = " open" if any(_typed(kept, f"h{k}_{side}") for k in range(1, t.settings.hands + 1)
                            for side in ("ns", "ew")) else ""
    short = (mine is not None and typed is None and 0 < len(mine.hands) < t.settings.hands) \
        or (typed or {}).get("timed_out") == "1"
    timed_out = (f"<label class='timed-out'><input type='checkbox' name='timed_out' value='1'"
                 f"{' checked' if short else ''}> {tr(lang, 'timeout.short')}</label>")
    parts.append(
        f"<h2>{tr(lang, 'enter_title')}</h2><p class='meta'>{tr(lang, 'enter_hint')}</p>"
        f"<form method='post' id='entry' action='{escape(path)}'>"
        f"<input type='hidden' name='lang' value='{lang}'>"
        f"<label>{tr(lang, 'ns_mp')}<input name='ns_mp' {_bounds(t.settings.hands)} "
        f"required value='{_typed(kept, 'ns_mp')}'></label>"
        f"<label>{tr(lang, 'ew_mp')}<input name='ew_mp' {_bounds(t.settings.hands)} "
        f"required value='{_typed(kept, 'ew_mp')}'></label>"
        f"<details{opened}><summary>{tr(lang, 'by_hand')}</summary><div class='hands'>{hands}</div>"
        f"{timed_out}</details>"
        f"<button type='submit'>{tr(lang, 'send')}</button></form>")
    return layout(t.settings.name, "\n".join(parts), lang=lang, path=path,
                  body_class="phone", head=SCRIPT_TAG)


SCRIPT_TAG = "<script src='/tournaments/clock.js' defer></script>"


def _bounds(hands: int, *, part: bool = False) -> str:
    """A score field's attributes: negative scores allowed, absurd ones not.

    No ``inputmode='numeric'``: a phone's digits-only keypad has no minus sign.
    """
    limit = score_limit(hands, part=part)
    return f"type='number' step='5' min='-{limit}' max='{limit}'"

