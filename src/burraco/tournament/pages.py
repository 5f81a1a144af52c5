"""The tournament pages' shared layout, stylesheet, little script and languages.

The pages look like the lobby of the web client (its felt green, paper and gold, from
``web/src/style.css``) and speak every language of the platform (their words come from the
message catalogs, :mod:`.i18n`): ``?lang=`` (remembered in the ``burraco_lang`` cookie, the
lobby's too), else the browser's ``Accept-Language``, else English.  The stylesheet and the
script are served as files (``/tournaments/style.css``, ``/tournaments/clock.js``): the
server's Content-Security-Policy allows no inline script, and the pages work without it.
"""

from __future__ import annotations

from html import escape

from fastapi import Request

from burraco.locale import LANGUAGES, NATIVE_NAMES, negotiate
from burraco.tournament.i18n import Lang, language, tr

__all__ = ["CSS", "LANG_COOKIE", "SCRIPT", "Lang", "lang_of", "layout", "log_text", "tr"]

LANG_COOKIE = "burraco_lang"


def accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` left out)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        weight = 1.0
        for param in params:
            if param.startswith("q="):
                try:
                    weight = float(param[2:])
                except ValueError:
                    weight = 0.0
        if tag and weight > 0:
            ranked.append((-weight, index, tag))
    return [tag for _, _, tag in sorted(ranked)]


def lang_of(request: Request) -> Lang:
    """``?lang=``, else the remembered choice, else ``Accept-Language``, else English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    saved = request.cookies.get(LANG_COOKIE, "")
    if saved in LANGUAGES:
        return saved
    return negotiate(accepted(request.headers.get("accept-language", "")))


def switch(lang: Lang, path: str) -> str:
    """The language switch: every language by its own name, the page's marked."""
    links = []
    for code in LANGUAGES:
        current = " aria-current='true' class='on'" if code == lang else ""
        links.append(f"<a href='{escape(path)}?lang={code}' hreflang='{code}' lang='{code}'"
                     f"{current}>{escape(NATIVE_NAMES[code])}</a>")
    return (f"<span class='lang' role='group' aria-label='{escape(tr(lang, 'lang_switch'))}'>"
            f"{''.join(links)}</span>")


def layout(title: str, body: str, *, lang: Lang = "en", path: str = "",
           body_class: str = "", head: str = "") -> str:
    """A whole page in the app's look, with the header's brand and the language switch."""
    lang = language(lang)
    header = (f"<header class='top'><a class='brand' href='/'>Burraco</a>"
              f"<a class='crumb' href='/tournaments/'>{tr(lang, 'all')}</a>"
              f"<span class='top-middle'></span>{switch(lang, path) if path else ''}</header>")
    return (f"<!doctype html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title>"
            "<link rel='stylesheet' href='/tournaments/style.css'>"
            f"{head}</head>\n<body class='club {body_class}'>{header}\n<main>\n{body}\n"
            "</main></body></html>\n")


LOGGED = ("entry", "agreed", "disagree", "result", "correct", "clock", "time", "withdraw",
          "penalty", "prizes", "late", "absent", "remove", "undo", "rename", "arbitral")
"""The kinds of log lines (:class:`~.table_desk.LogEntry`) that have words of their own."""
FREE_TEXT = {"penalty": 4, "prizes": 0, "late": 3, "remove": 1, "rename": 1}
"""Kinds whose line ends in the director's own words, after that many numbers."""


def log_text(lang: Lang, who: str, table: int | None, round_number: int | None,
             what: str) -> tuple[str, str]:
    """A log line as (who, what) in ``lang`` (the log stores codes and numbers)."""
    kind, _, rest = what.partition(" ")
    numbers = rest.split()
    free = ""
    if kind in FREE_TEXT:
        numbers = rest.split(" ", FREE_TEXT[kind])
        free = numbers.pop() if len(numbers) > FREE_TEXT[kind] else ""
    values = dict(zip("abcdefgh", numbers, strict=False))
    person = tr(lang, f"who_{who}", t=table) if who in ("ns", "ew", "tables", "director") \
        else who
    if kind not in LOGGED:
        return person, what
    if kind in ("correct", "arbitral") and "e" in values:  # what it replaced
        kind = f"{kind}_was"
    if kind == "late":
        values["c"] = tr(lang, f"late.{values.get('c', 'bye')}")
    if kind == "withdraw":
        values["c"] = tr(lang, f"ok.withdrawn.{values.get('c', 'byes')}")
    if kind == "penalty" and values.get("c", "0") != "0":
        kind = "penalty_round"
    if kind == "prizes":  # categories in words: "overall:2, EW:1" → "assoluta:2, EO:1"
        free = ", ".join(_prize_words(lang, item.strip()) for item in free.split(",")
                         if item.strip())
    return person, tr(lang, f"log_{kind}", r=round_number, text=free.strip() or "–",
                      **{k: values.get(k, "") for k in "abcdefgh"})


def _prize_words(lang: Lang, item: str) -> str:
    category, colon, places = item.partition(":")
    named = {"overall": "prize.overall", "NS": "ns", "EW": "ew"}.get(category)
    return (tr(lang, named) if named else category) + colon + places


CSS = """
:root { --felt: #1f6b3a; --felt-dark: #14532d; --felt-light: #2f8a4f; --ink: #10231a;
  --paper: #fbfaf5; --gold: #f2c14e; --red: #c0392b; --blue: #2563eb;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--paper); background: var(--felt-dark); }
* { box-sizing: border-box; }
body.club { margin: 0; min-height: 100vh;
  background: radial-gradient(ellipse at center, var(--felt-light), var(--felt) 45%,
  var(--felt-dark)) fixed; }
a { color: var(--gold); }
header.top { display: flex; align-items: center; gap: .8em; padding: .45em .8em;
  background: #0004; position: sticky; top: 0; z-index: 5; flex-wrap: wrap; }
.brand { font-weight: 700; color: var(--paper); text-decoration: none; font-size: 1.05rem; }
.crumb { font-size: .92rem; }
.top-middle { flex: 1; }
.lang { display: flex; flex-wrap: wrap; gap: 2px; }
.lang a { padding: .2em .55em; border-radius: 6px; background: var(--paper); color: var(--ink);
  text-decoration: none; font-size: .8rem; font-weight: 600; }
.lang a.on { background: var(--gold); }
main { padding: .6em .8em 2em; max-width: 1200px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: .4em 0 .2em; } h2 { font-size: 1.15rem; margin-top: 1.3em; }
h3 { font-size: 1rem; }
p.meta, .meta { opacity: .85; margin-top: 0; font-size: .92rem; }
nav { display: flex; flex-wrap: wrap; gap: .4em .9em; margin: .5em 0; }
table { border-collapse: collapse; margin: .5em 0; background: #0003; border-radius: 8px; }
th, td { border: 1px solid #fff3; padding: .3em .6em; text-align: left; }
th { background: #0003; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.missing td { color: #fde68a; }
tr.done td:first-child { box-shadow: inset 4px 0 0 var(--gold); }
.error { background: #7f1d1dcc; border: 1px solid #fecaca; padding: .55em .7em; color: #fff;
  border-radius: 8px; font-weight: 600; }
.ok { background: #14532dcc; border: 1px solid var(--gold); padding: .55em .7em;
  border-radius: 8px; }
.warn { background: #78350fcc; border: 1px solid var(--gold); padding: .55em .7em;
  border-radius: 8px; font-weight: 600; }
button, .button { font: inherit; font-size: .95rem; padding: .45em .9em; border-radius: 8px;
  border: 1px solid #0003; background: var(--paper); color: var(--ink); cursor: pointer;
  min-height: 40px; text-decoration: none; display: inline-block; }
button[type=submit], .button.primary { background: var(--gold); font-weight: 600; }
input, select, textarea { font: inherit; padding: .35em .5em; border-radius: 6px;
  border: 1px solid #0004; min-height: 36px; max-width: 100%; }
form.inline { display: inline; } input[type=number] { width: 6.5em; }
small { opacity: .8; }
code { font-size: .88em; }
.panel { background: #0003; border: 1px solid #fff2; border-radius: 12px; padding: .7em .9em;
  margin: .8em 0; }
ul.links, ul.warn { list-style: none; padding-left: .7em; }
details.log summary { font-weight: 600; } ul.links li { margin: .3em 0; word-break: break-all; }

/* the phone page of a pair */
body.phone main { max-width: 30rem; }
.phone .seat { font-size: 1.05rem; }
.phone .pairs { display: grid; grid-template-columns: auto 1fr; gap: .2em .6em; }
.phone .pairs .mine { color: var(--gold); font-weight: 700; }
.phone label { display: flex; flex-direction: column; gap: .2em; margin: .5em 0;
  font-weight: 600; }
.phone input[type=number], .phone input[inputmode] { width: 100%; font-size: 1.4rem;
  min-height: 52px; }
.phone .hands { display: grid; grid-template-columns: auto 1fr 1fr; gap: .3em .5em;
  align-items: center; }
.phone .hands input { font-size: 1.05rem; min-height: 42px; width: 100%; }
.phone label.timed-out { flex-direction: row; align-items: center; gap: .6em;
  font-weight: 400; }
.phone label.timed-out input { width: 1.6em; height: 1.6em; flex: none; }
.phone button[type=submit] { width: 100%; font-size: 1.2rem; min-height: 56px; margin-top: .6em; }
details summary { cursor: pointer; margin: .6em 0; }

/* a phone's width (390 px): the tables shrink and wrap rather than scroll sideways */
@media (max-width: 600px) {
  main { padding: .5em .4em 2em; }
  body:not(.screen) table { font-size: .82rem; max-width: 100%; }
  body:not(.screen) th, body:not(.screen) td { padding: .25em .3em;
    overflow-wrap: anywhere; }
  body:not(.screen) th { hyphens: auto; }
}

/* the clock, on the phones and the big screen */
.clock { font-variant-numeric: tabular-nums; }
.clock .left { font-size: 2.2rem; font-weight: 700; color: var(--gold); }
.clock.out .left { color: #fecaca; }
.timeout { background: #7f1d1d; border: 2px solid var(--gold); border-radius: 10px;
  padding: .6em .8em; font-weight: 700; }

/* the big screen: readable across a room */
body.screen main { max-width: none; padding: 1vw 2vw; font-size: 1.6vw; }
.screen h1 { font-size: 3vw; margin: .2em 0; }
.screen h2 { font-size: 2.2vw; margin: .6em 0 .3em; }
.screen .grid { display: grid; grid-template-columns: 1fr 1.4fr; gap: 2vw; align-items: start; }
.screen .clock { display: flex; flex-direction: column; align-items: flex-start;
  margin-top: 1.5vw; background: #0003; border-radius: 1vw; padding: .8vw 1.2vw; }
.screen .clock .left { font-size: 7vw; line-height: 1.05; }
.screen .final table { font-size: 2.1vw; }
.screen .final tr[data-pair]:nth-child(2) td { color: var(--gold); font-weight: 700; }
.screen .final { max-width: 75vw; }
.screen table { width: 100%; font-size: 1.6vw; }
.screen .tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(9vw, 1fr));
  gap: .8vw; list-style: none; padding: 0; margin: 0; }
.screen .tables li { border-radius: 1vw; padding: .6vw; text-align: center; background: #0004;
  border: .25vw solid #fff3; }
.screen .tables li b { display: block; font-size: 2.6vw; }
.screen .tables li.done { border-color: var(--gold); background: #f2c14e33; }
.screen .timeout { font-size: 1.9vw; }

@media print { body.club { background: #fff; color: #000; } header.top, nav, form, .noprint
  { display: none; } table { background: none; } th, td { border-color: #999; }
  a { color: #000; } }
"""

SCRIPT = """
// The clock counts down from the server's end time; the big screen and a phone waiting for
// the other pair reload when the tournament changes (its stamp moves). Without this
// script the pages show the end time.
(function () {
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll("[data-ends]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-ends")) - Date.now())
        / 1000));
      var out = el.querySelector(".left");
      if (out) out.textContent = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
      if (left === 0 && !el.classList.contains("out")) {
        el.classList.add("out");
        var note = el.querySelector(".timeout");
        if (note) note.hidden = false;
      }
    });
  }
  document.querySelectorAll(".clock time[datetime]").forEach(function (el) {
    var at = new Date(el.getAttribute("datetime"));
    try {
      el.textContent = at.toLocaleTimeString(document.documentElement.lang,
        { hour: "2-digit", minute: "2-digit" });
    } catch (e) {
      el.textContent = pad(at.getHours()) + ":" + pad(at.getMinutes());
    }
  });
  tick();
  setInterval(tick, 1000);
  var watch = document.querySelector("[data-stamp]");
  if (watch) {
    var url = watch.getAttribute("data-poll");
    var stamp = watch.getAttribute("data-stamp");
    // a phone waiting for the other pair reloads too, unless the pair is typing again
    var typing = false;
    document.querySelectorAll("form").forEach(function (f) {
      f.addEventListener("input", function () { typing = true; });
    });
    setInterval(function () {
      if (typing) return;
      fetch(url, { cache: "no-store" }).then(function (r) { return r.json(); })
        .then(function (d) { if (d.stamp !== stamp && !typing) location.reload(); })
        .catch(function () {});
    }, 4000);
  }
})();
"""
