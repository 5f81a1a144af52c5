"""The tournament pages' shared layout, stylesheet, little script and two languages.

The pages look like the lobby of the web client (its felt green, paper and gold, from
``web/src/style.css``) and speak Italian or English: ``?lang=it|en`` (remembered in a
cookie), else the browser's ``Accept-Language``, else English.  The stylesheet and the
script are served as files (``/tournaments/style.css``, ``/tournaments/clock.js``): the
server's Content-Security-Policy allows no inline script, and the pages work without it.
"""

from __future__ import annotations

import re
from html import escape
from typing import Literal

from fastapi import Request

Lang = Literal["en", "it"]
LANG_COOKIE = "burraco_lang"

EN: dict[str, str] = {
    "all": "All tournaments",
    "lobby": "Lobby",
    "round": "Round {n}",
    "table": "Table {n}",
    "ns": "NS",
    "ew": "EW",
    "pair": "pair {n}",
    "your_side": "You are the {side} pair",
    "enter_title": "Your table's result",
    "enter_hint": "Both pairs enter the match's total; when the two entries agree the result "
                  "is recorded.",
    "ns_mp": "NS match points",
    "ew_mp": "EW match points",
    "by_hand": "Smazzate one by one (optional)",
    "hand": "Smazzata {n}",
    "send": "Send the result",
    "sent_waiting": "Received: {ns} – {ew}. Waiting for the other pair's entry.",
    "sent_same": "This entry was already received ({ns} – {ew}); nothing changed.",
    "agreed": "Both pairs agree: the result is recorded — MP {ns} – {ew}, VP {vns}–{vew}.",
    "disagree": "The two entries disagree: NS entered {a} – {b}, EW entered {c} – {d}. Nothing "
                "is recorded: check the score sheet together and enter again, or call the "
                "director.",
    "recorded": "Result recorded: MP {ns} – {ew}, VP {vns}–{vew}.",
    "your_entry": "Your entry: {ns} – {ew}.",
    "other_entered": "The other pair has entered its score.",
    "other_waiting": "The other pair has not entered yet.",
    "refused": "Not accepted",
    "clock": "Time left",
    "clock_none": "The round's clock has not been started.",
    "clock_ends": "ends at {at}",
    "time_out": "Time! Last lap: the player on turn finishes his turn and every player plays "
                "one more turn. If nobody closes in it, the smazzata ends without the closing "
                "bonus (FIBur Art. 15).",
    "screen_title": "{name} — round {n}",
    "screen_final": "{name} — final ranking",
    "screen_tables": "Tables",
    "finished": "finished",
    "playing": "playing",
    "standings": "Standings",
    "final": "Final ranking",
    "rank": "rank",
    "name": "name",
    "vp": "VP",
    "mp_diff": "MP diff",
    "played": "played",
    "no_round": "The first round has not started yet.",
    "sits_out": "Sits out this round: {who}",
    "mark_bye": "sits out this round",
    "mark_withdrawn": "withdrawn",
    "mark_penalty": "penalty: {taken}",
    "over": "The tournament is over.",
    "held": "Duplicate deals: the round's scores are shown once every table has finished.",
    "desk": "The tables",
    "links": "Table links",
    "links_hint": "One link per pair, for the table cards (QR codes) or to send to the phones. "
                  "A link opens only its table of this round.",
    "loopback": "This page is open at {host}, an address only this computer answers to: the "
                "table links and the QR codes of the table cards lead there, and no phone can "
                "open them. Start the server with BURRACO_PUBLIC_URL (or --public-url) set to "
                "the address the phones use, e.g. http://192.168.1.20:8000.",
    "screen_link": "Big screen",
    "start_clock": "Start the clock",
    "restart_clock": "Restart the clock",
    "minutes": "Minutes",
    "minutes_hint": "default {n} ({per} a smazzata)",
    "call_time": "Call time now",
    "conflicts": "To settle",
    "conflict_row": "Table {t}: NS entered {a} – {b}, EW entered {c} – {d}",
    "settle": "Enter the right result in the table's form above.",
    "log": "Log",
    "log_empty": "Nothing yet.",
    "who_ns": "NS pair of table {t}",
    "who_ew": "EW pair of table {t}",
    "who_tables": "both pairs of table {t}",
    "who_director": "director",
    "log_entry": "entered {a} – {b}",
    "log_agreed": "agree: MP {a} – {b}, VP {c}–{d} recorded",
    "log_disagree": "disagree: NS entered {a} – {b}, EW {c} – {d}",
    "log_result": "entered MP {a} – {b}, VP {c}–{d}",
    "log_correct": "corrected to MP {a} – {b}, VP {c}–{d}",
    "log_clock": "started the clock of round {r}: {a} minutes",
    "log_time": "called time in round {r}",
    "entries_col": "from the tables",
    "when": "when",
    "who": "who",
    "what": "what",
    "lang_switch": "Language",
    "older": "Older changes ({n})",
    "link_bad": "This link is not a table link of this tournament: scan the QR code on your "
                "table card again, or ask the director.",
    "link_stale": "This link was for round {r}; round {n} is being played: use the table card "
                  "of this round.",
    "link_over": "This link was for round {r}; the tournament is over.",
}

IT: dict[str, str] = {
    "all": "Tutti i tornei",
    "lobby": "Sala",
    "round": "Turno {n}",
    "table": "Tavolo {n}",
    "ns": "NS",
    "ew": "EO",
    "pair": "coppia {n}",
    "your_side": "Siete la coppia {side}",
    "enter_title": "Il risultato del vostro tavolo",
    "enter_hint": "Entrambe le coppie inseriscono il totale dell'incontro; quando i due "
                  "inserimenti coincidono il risultato è registrato.",
    "ns_mp": "Punti NS",
    "ew_mp": "Punti EO",
    "by_hand": "Smazzata per smazzata (facoltativo)",
    "hand": "Smazzata {n}",
    "send": "Invia il risultato",
    "sent_waiting": "Ricevuto: {ns} – {ew}. Si attende l'inserimento dell'altra coppia.",
    "sent_same": "Questo inserimento era già arrivato ({ns} – {ew}); nulla è cambiato.",
    "agreed": "Le due coppie concordano: risultato registrato — punti {ns} – {ew}, VP "
              "{vns}–{vew}.",
    "disagree": "I due inserimenti non coincidono: NS ha inserito {a} – {b}, EO {c} – {d}. "
                "Nulla è registrato: controllate insieme lo score e reinserite, o chiamate "
                "l'arbitro.",
    "recorded": "Risultato registrato: punti {ns} – {ew}, VP {vns}–{vew}.",
    "your_entry": "Il vostro inserimento: {ns} – {ew}.",
    "other_entered": "L'altra coppia ha inserito il suo punteggio.",
    "other_waiting": "L'altra coppia non ha ancora inserito.",
    "refused": "Non accettato",
    "clock": "Tempo rimasto",
    "clock_none": "Il tempo del turno non è ancora partito.",
    "clock_ends": "termina alle {at}",
    "time_out": "Tempo! Ultimo giro: il giocatore di turno finisce il suo turno e ogni "
                "giocatore gioca ancora un turno. Se nessuno chiude, la smazzata termina senza "
                "il premio di chiusura (FIBur Art. 15).",
    "screen_title": "{name} — turno {n}",
    "screen_final": "{name} — classifica finale",
    "screen_tables": "Tavoli",
    "finished": "finito",
    "playing": "in gioco",
    "standings": "Classifica",
    "final": "Classifica finale",
    "rank": "pos.",
    "name": "nome",
    "vp": "VP",
    "mp_diff": "diff. punti",
    "played": "giocati",
    "no_round": "Il primo turno non è ancora iniziato.",
    "sits_out": "Riposa in questo turno: {who}",
    "mark_bye": "riposa in questo turno",
    "mark_withdrawn": "ritirata",
    "mark_penalty": "penalità: {taken}",
    "over": "Il torneo è finito.",
    "held": "Carte uguali: i punteggi del turno si vedono quando tutti i tavoli hanno finito.",
    "desk": "I tavoli",
    "links": "Link dei tavoli",
    "links_hint": "Un link per coppia, per i cartellini dei tavoli (QR) o da mandare ai "
                  "telefoni. Un link apre solo il suo tavolo di questo turno.",
    "loopback": "Questa pagina è aperta all'indirizzo {host}, al quale risponde solo questo "
                "computer: i link dei tavoli e i QR dei cartellini portano lì e nessun "
                "telefono li può aprire. Avviate il server con BURRACO_PUBLIC_URL (o "
                "--public-url) impostato all'indirizzo che usano i telefoni, ad es. "
                "http://192.168.1.20:8000.",
    "screen_link": "Maxischermo",
    "start_clock": "Avvia il tempo",
    "restart_clock": "Riavvia il tempo",
    "minutes": "Minuti",
    "minutes_hint": "predefinito {n} ({per} a smazzata)",
    "call_time": "Chiama il tempo ora",
    "conflicts": "Da risolvere",
    "conflict_row": "Tavolo {t}: NS ha inserito {a} – {b}, EO {c} – {d}",
    "settle": "Inserite il risultato giusto nel modulo del tavolo qui sopra.",
    "log": "Registro",
    "log_empty": "Ancora niente.",
    "who_ns": "coppia NS del tavolo {t}",
    "who_ew": "coppia EO del tavolo {t}",
    "who_tables": "le due coppie del tavolo {t}",
    "who_director": "arbitro",
    "log_entry": "ha inserito {a} – {b}",
    "log_agreed": "concordano: registrati punti {a} – {b}, VP {c}–{d}",
    "log_disagree": "non concordano: NS ha inserito {a} – {b}, EO {c} – {d}",
    "log_result": "ha inserito punti {a} – {b}, VP {c}–{d}",
    "log_correct": "ha corretto in punti {a} – {b}, VP {c}–{d}",
    "log_clock": "ha avviato il tempo del turno {r}: {a} minuti",
    "log_time": "ha chiamato il tempo nel turno {r}",
    "entries_col": "dai tavoli",
    "when": "quando",
    "who": "chi",
    "what": "cosa",
    "lang_switch": "Lingua",
    "older": "Modifiche precedenti ({n})",
    "link_bad": "Questo link non è un link di un tavolo di questo torneo: inquadrate di nuovo "
                "il QR del cartellino del tavolo, o chiedete all'arbitro.",
    "link_stale": "Questo link era per il turno {r}; si gioca il turno {n}: usate il "
                  "cartellino del tavolo di questo turno.",
    "link_over": "Questo link era per il turno {r}; il torneo è finito.",
}

TEXTS: dict[Lang, dict[str, str]] = {"en": EN, "it": IT}


def tr(lang: Lang, key: str, **params: object) -> str:
    """The text ``key`` in ``lang``; a negative number in it takes a true minus sign
    (``1650 – −150``, not ``1650 – -150``)."""
    shown = {name: "−" + str(value)[1:] if re.fullmatch(r"-\d+", str(value)) else value
             for name, value in params.items()}
    return TEXTS[lang][key].format(**shown)


def lang_of(request: Request) -> Lang:
    """``?lang=``, else the remembered choice, else ``Accept-Language``, else English."""
    asked = request.query_params.get("lang", "")
    if asked in ("it", "en"):
        return "it" if asked == "it" else "en"
    saved = request.cookies.get(LANG_COOKIE, "")
    if saved in ("it", "en"):
        return "it" if saved == "it" else "en"
    for part in request.headers.get("accept-language", "").split(","):
        base = part.split(";")[0].strip().lower().split("-")[0]
        if base in ("it", "en"):
            return "it" if base == "it" else "en"
    return "en"


def switch(lang: Lang, path: str) -> str:
    links = []
    for code, label in (("it", "IT"), ("en", "EN")):
        current = " aria-current='true' class='on'" if code == lang else ""
        links.append(f"<a href='{escape(path)}?lang={code}' hreflang='{code}' lang='{code}'"
                     f"{current}>{label}</a>")
    return (f"<span class='lang' role='group' aria-label='{tr(lang, 'lang_switch')}'>"
            f"{''.join(links)}</span>")


def layout(title: str, body: str, *, lang: Lang = "en", path: str = "",
           body_class: str = "", head: str = "") -> str:
    """A whole page in the app's look, with the header's brand and the language switch."""
    header = (f"<header class='top'><a class='brand' href='/'>Burraco</a>"
              f"<a class='crumb' href='/tournaments/'>{tr(lang, 'all')}</a>"
              f"<span class='top-middle'></span>{switch(lang, path) if path else ''}</header>")
    return (f"<!doctype html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title>"
            "<link rel='stylesheet' href='/tournaments/style.css'>"
            f"{head}</head>\n<body class='club {body_class}'>{header}\n<main>\n{body}\n"
            "</main></body></html>\n")


def log_text(lang: Lang, who: str, table: int | None, round_number: int | None,
             what: str) -> tuple[str, str]:
    """A log line as (who, what) in ``lang`` (the log stores codes and numbers)."""
    kind, *numbers = what.split()
    values = dict(zip("abcd", numbers, strict=False))
    person = tr(lang, f"who_{who}", t=table) if who in ("ns", "ew", "tables", "director") \
        else who
    key = f"log_{kind}"
    if key not in EN:
        return person, what
    return person, tr(lang, key, r=round_number, **{k: values.get(k, "") for k in "abcd"})


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
.lang { display: flex; gap: 2px; }
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
    el.textContent = pad(at.getHours()) + ":" + pad(at.getMinutes());
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


ITALIAN_MARKUP: tuple[tuple[str, str], ...] = (
    (r">All tournaments<", ">Tutti i tornei<"),
    (r">Players' page<", ">Pagina dei giocatori<"),
    (r">Big screen<", ">Maxischermo<"),
    (r">Printable page<", ">Pagina da stampare<"),
    (r">Standings CSV<", ">Classifica CSV<"),
    (r">Results CSV<", ">Risultati CSV<"),
    (r"<h2>Pairs \((\d+)\)</h2>", r"<h2>Coppie (\1)</h2>"),
    (r"<h2>Players \((\d+)\)</h2>", r"<h2>Giocatori (\1)</h2>"),
    (r"<h2>Teams \((\d+)\)</h2>", r"<h2>Squadre (\1)</h2>"),
    (r"Register pairs, one per line \(e\.g\. ", "Iscrivete le coppie, una per riga (es. "),
    (r">Register</button>", ">Iscrivi</button>"),
    (r">Start round (\d+)</button>", r">Avvia il turno \1</button>"),
    (r"<h2>Round (\d+) — ", r"<h2>Turno \1 — "),
    (r"<th>table</th><th>NS</th><th>EW</th>", "<th>tavolo</th><th>NS</th><th>EO</th>"),
    (r"<th class='noprint'>enter</th>", "<th class='noprint'>inserisci</th>"),
    (r">save</button>", ">salva</button>"),
    (r">correct</button>", ">correggi</button>"),
    (r"<h2>Final ranking</h2>", "<h2>Classifica finale</h2>"),
    (r"<h2>Standings</h2>", "<h2>Classifica</h2>"),
    (r"<th>rank</th><th>pair</th><th>name</th>", "<th>pos.</th><th>coppia</th><th>nome</th>"),
    (r"<th>MP diff</th>", "<th>diff. punti</th>"),
    (r"<th>played</th><th>byes</th>", "<th>giocati</th><th>riposi</th>"),
    (r"<p>Bye: pair ", "<p>Riposo: coppia "),
    (r"<i class='unawarded'>not awarded</i>", "<i class='unawarded'>non assegnato</i>"),
    (r"\(sits out this round\)</small>", "(riposa in questo turno)</small>"),
    (r"\(withdrawn\)</small>", "(ritirata)</small>"),
    (r"'>\(penalty: ", "'>(penalità: "),
    (r"Play the tables without a result online: ", "Giocate online i tavoli senza risultato: "),
    (r">Open web tables</button>", ">Apri i tavoli web</button>"),
    (r"pairs played by bots", "coppie giocate dai bot"),
    (r"bot level", "livello dei bot"),
    (r"placeholder='e\.g\. ", "placeholder='es. "),
    (r"(\d+) pairs · schedule <code>", r"\1 coppie · formula <code>"),
    (r"\((\d+) rounds\) · ", r"(\1 turni) · "),
    (r" smazzate per match", " smazzate per incontro"),
    (r" · VP table: ", " · tabella VP: "),
    (r" · duplicate deals", " · carte uguali"),
    (r" · bye (\d+) VP, ", r" · riposo \1 VP, "),
    (r" · tie-breaks: ", " · spareggi: "),
    (r"(<span class='ties'>[^<]*)MP difference", r"\1scarto"),
    (r"(<span class='ties'>[^<]*)head-to-head", r"\1scontro diretto"),
    (r"(<span class='ties'>[^<]*)draw", r"\1sorteggio"),
    (r"(<span class='ties'>[^<]*)MP scored", r"\1punti fatti"),
    (r"(<span class='ties'>[^<]*)duplicate score", r"\1punteggio duplicato"),
    (r"(<span class='ties'>)none<", r"\1nessuno<"),
    (r"<span id='status'>round (\d+) done</span>", r"<span id='status'>turno \1 finito</span>"),
    (r"<span id='status'>round (\d+)</span>", r"<span id='status'>turno \1</span>"),
    (r"<span id='status'>finished</span>", "<span id='status'>finito</span>"),
    (r"<span id='status'>registration</span>", "<span id='status'>iscrizioni</span>"),
)
"""The director's and players' pages in Italian: their English markup (from :mod:`.web` and
:mod:`.export`, which the CLI and the printable page share), replaced word for word."""


def localize(html: str, lang: Lang) -> str:
    """``html`` of the director's or the players' page in ``lang``."""
    if lang == "en":
        return html
    for pattern, replacement in ITALIAN_MARKUP:
        html = re.sub(pattern, replacement, html)
    return html
