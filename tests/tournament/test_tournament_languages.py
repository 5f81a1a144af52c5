"""The club's pages and paper in the platform's languages, from the message catalogs.

An Italian director's page (with its notices, the paper's links, the evening's changes, a
penalty, the conflicts and the log), an Italian phone page with a refusal, the Italian
printable page and every Italian PDF carry none of the English of the catalogs'
``tournament.*`` messages; a Spanish browser is answered in Spanish and offered the five
languages by their own names; the PDFs print a tournament's dash, and the letters of every
language, as they were typed.  Against a real ``burraco serve``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from html import unescape
from pathlib import Path

import httpx
import pytest
from babel.messages.pofile import read_po
from evening_harness import SIX
from harness import ServerProcess

from burraco.locale import HERE as LOCALE
from burraco.locale import LANGUAGES, NATIVE_NAMES, catalog_path
from burraco.tournament.i18n import MESSAGES, PLURALS, Text, count, say, tr
from burraco.tournament.paper import KINDS
from burraco.tournament.paper.document import unicode_fonts

ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}


def read_catalog(path: Path) -> list[tuple[str | None, tuple[str, ...], tuple[str, ...]]]:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out.append((m.context, tuple(str(i) for i in ids), tuple(str(s or "") for s in strings)))
    return out


@cache
def english_patterns(lang: str = "it") -> tuple[tuple[str, re.Pattern[str]], ...]:
    """A pattern for every English message of the tournament's catalog entries that ``lang``
    says otherwise: its words in order, a placeholder's value between them."""
    plurals = {ids for ids in PLURALS.values()}
    said = {(context, ids): strings
            for context, ids, strings in read_catalog(catalog_path(lang))}
    found = []
    for context, ids, _ in read_catalog(LOCALE / "burraco.pot"):
        if not ((context or "").startswith("tournament.") or ids in plurals):
            continue
        translated = said.get((context, ids), ())
        for english in ids:
            if english in translated:
                continue
            parts = re.split(r"\{\w+\}", english)
            if sum(ch.isalpha() for ch in "".join(parts)) < 2:
                continue  # "{round}, {table}", "W": nothing English to see
            body = r".{0,80}?".join(re.escape(p) for p in parts)
            start = r"(?<!\w)" if english[0].isalnum() else ""
            end = r"(?!\w)" if english[-1].isalnum() else ""
            found.append((english, re.compile(start + body + end)))
    return tuple(found)


def english_in(text: str) -> list[str]:
    """The catalogs' English messages found in ``text`` (an Italian page's or PDF's)."""
    return [english for english, pattern in english_patterns() if pattern.search(text)]


def visible(page: str) -> str:
    """What a page shows: its text, without the tags, the attributes, the scripts and the
    ``<code>`` typed as it is (a schedule: ``mitchell:3,danish:1``)."""
    page = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


def pdf_text(pdf: bytes, folder: Path) -> str:
    path = folder / "paper.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def printed(text: str) -> str:
    """A PDF's words on one line, without the table cards' links (``/table/1-2-ns-…``): a
    link's signed token may wrap onto the next lines, which hold only its characters (with
    a digit, a '-' or a '_' among them: a random token can spell "-on-", no Italian word
    has one)."""
    link = r"https?://\S+(?:\n[A-Za-z0-9_-]*[0-9_-][A-Za-z0-9_-]*(?=\n|$))*"
    return re.sub(r"\s+", " ", re.sub(link, " ", text))


def needs_pdftotext() -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (Debian's poppler-utils) is not installed")


# --- the messages themselves -------------------------------------------------------------

def test_every_message_is_in_the_template_with_its_context() -> None:
    """Each key's ``N_`` names its own context (``tournament.<key>``) and its English."""
    template = {(context, ids[0]) for context, ids, _ in read_catalog(LOCALE / "burraco.pot")}
    wrong = [key for key, english in MESSAGES.items()
             if (f"tournament.{key}", english) not in template]
    assert wrong == []
    with pytest.raises(KeyError):
        Text("no.such.message")


def test_a_refusal_says_its_values_in_the_readers_language() -> None:
    what = Text("what.where_score", where=Text("where.table", round=1, table=2),
                line=Text("ew"))
    refusal = Text("error.not_multiple", what=what, value=-1234)
    assert str(refusal) == ("round 1, table 2: the EW score -1234 is not a multiple of 5 "
                            "(every Burraco score is)")
    assert say("it", refusal) == ("turno 1, tavolo 2: il punteggio EO -1234 non è un "
                                  "multiplo di 5 (ogni punteggio di Burraco lo è)")
    assert say("fr", refusal) == str(refusal), "an unknown language reads English"
    assert tr("it", "sent_waiting", ns=1650, ew=-150) == (
        "Ricevuto: 1650 – −150. Si attende l'inserimento dell'altra coppia.")
    assert [count("en", "pair", n) for n in (1, 6)] == ["1 pair", "6 pairs"]
    assert [count("it", "pair", n) for n in (1, 6)] == ["1 coppia", "6 coppie"]
    for lang in LANGUAGES:  # every catalog's plural forms format
        assert all(str(n) in count(lang, what, n) for what in PLURALS for n in (1, 2, 5))


# --- the pages ----------------------------------------------------------------------------

def italian_evening(server: ServerProcess) -> tuple[httpx.Client, str, dict[str, str]]:
    """An Italian director's evening: six pairs, NS/EW rankings and prizes, round 1 with a
    clock, one table entered alike by both pairs, one in disagreement, one by the director;
    a penalty and a withdrawal. The director's client (Italian), the id and table 1's links."""
    desk = httpx.Client(base_url=server.base, headers=ITALIAN)
    made = desk.post("/tournaments/", data={"name": "Serata – girone A",
                                            "schedule": "mitchell:2"})
    assert made.status_code == 303, made.text
    tid = made.headers["location"].split("/")[2]
    for action, form in (("pairs", {"pairs": "\n".join(SIX)}), ("line-rankings", {"on": "1"}),
                         ("prizes", {"prizes": "overall:2,EW:1"}), ("rounds", {}),
                         ("clock", {"minutes": "33"})):
        assert desk.post(f"/tournaments/{tid}/{action}", data=form).status_code == 303
    links = {row["table"]: row for row in
             desk.get(f"/api/tournaments/{tid}/table-links").json()["tables"]}
    for side, score in (("ns", ("1200", "900")), ("ew", ("1200", "900"))):
        desk.post(links[1][side], data={"ns_mp": score[0], "ew_mp": score[1]})
    desk.post(links[2]["ns"], data={"ns_mp": "800", "ew_mp": "700"})
    desk.post(links[2]["ew"], data={"ns_mp": "700", "ew_mp": "800"})  # to settle
    assert desk.post(f"/tournaments/{tid}/results", data={
        "round": "1", "table": "3", "ns_mp": "-150", "ew_mp": "1650"}).status_code == 303
    assert desk.post(f"/tournaments/{tid}/results", data={
        "round": "1", "table": "2", "ns_mp": "800", "ew_mp": "700"}).status_code == 303
    assert desk.post(f"/tournaments/{tid}/penalties", data={
        "pair": "2", "vp": "1", "mp": "50", "reason": "cellulare"}).status_code == 303
    assert desk.post(f"/tournaments/{tid}/withdraw", data={
        "pair": "6", "mode": "byes"}).status_code == 303
    assert desk.post(f"/tournaments/{tid}/rounds").status_code == 303
    return desk, tid, links[1]


def test_the_italian_directors_phones_and_printable_pages_are_italian(
        server: ServerProcess) -> None:
    desk, tid, _ = italian_evening(server)
    base = f"/tournaments/{tid}"
    links = desk.get(f"/api/tournaments/{tid}/table-links").json()["tables"]
    desk.post(links[0]["ns"], data={"ns_mp": "1000", "ew_mp": "600"})
    desk.post(links[0]["ew"], data={"ns_mp": "600", "ew_mp": "1000"})  # a conflict
    refused = desk.post(f"{base}/penalties", data={"pair": "1", "vp": "99", "reason": "x"})
    assert refused.status_code == 422
    director = refused.text
    assert "<html lang='it'>" in director
    assert "una penalità va da 0 a 20 VP" in unescape(director), "the refusal in Italian"
    for shown in ("Fogli da stampare", "Le modifiche della serata", "Classifica EO",
                  "Penalità:", "coppia 2: −1 VP, −50 punti, cellulare", "Da risolvere",
                  "Registro", "ha inserito punti −150 – 1650", "Cartellini dei tavoli"):
        assert shown in unescape(director), shown
    notice = desk.post(f"{base}/line-rankings", data={"on": "0"}, follow_redirects=True)
    assert "classifiche NS ed EO disattivate" in unescape(notice.text)
    pages = {"director": director, "notice": notice.text,
             "phone": desk.post(links[1]["ew"], data={"ns_mp": "1200", "ew_mp": "-1234"}).text,
             "print": desk.get(f"{base}/print").text,
             "players": desk.get(f"{base}/standings").text,
             "screen": desk.get(f"{base}/screen").text}
    assert "Non accettato:" in pages["phone"] and "il punteggio EO -1234 non è un multiplo" \
        in unescape(pages["phone"])
    assert "<html lang='it'>" in pages["print"] and "Classifica" in pages["print"]
    for name, page in pages.items():
        assert english_in(visible(page)) == [], name
        assert not re.search(r"\bEW\b", visible(page)), name
    desk.close()


def test_a_spanish_browser_is_answered_in_spanish_with_the_five_languages(
        server: ServerProcess) -> None:
    spanish = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"}
    with httpx.Client(base_url=server.base, headers=spanish) as visitor:
        page = visitor.get("/tournaments/")
        assert page.status_code == 200 and "<html lang='es'>" in page.text
        switch = re.search(r"<span class='lang'.*?</span>", page.text, re.S)
        assert switch is not None
        for lang in LANGUAGES:
            assert f"href='/tournaments/?lang={lang}' hreflang='{lang}' lang='{lang}'" \
                in switch.group(0)
            assert NATIVE_NAMES[lang] in switch.group(0)
        assert "lang='es' aria-current='true'" in switch.group(0)
        assert visitor.get("/tournaments/?lang=sl").text.startswith(
            "<!doctype html>\n<html lang='sl'>"), "?lang= any of the five"
        assert "<html lang='sl'>" in visitor.get("/tournaments/").text, "and remembered"
    ranked = {"Accept-Language": "fr-FR, ro;q=0.5, it;q=0.7"}
    assert "<html lang='it'>" in httpx.get(f"{server.base}/tournaments/", headers=ranked).text
    unknown = httpx.get(f"{server.base}/tournaments/?lang=xx", headers={"Accept-Language": "de"})
    assert "<html lang='en'>" in unknown.text


# --- the paper ----------------------------------------------------------------------------

def test_the_italian_paper_is_italian_and_prints_the_dash(server: ServerProcess,
                                                         tmp_path: Path) -> None:
    needs_pdftotext()
    desk, tid, _ = italian_evening(server)
    for kind in KINDS:
        if kind == "deals":
            continue  # this evening is not duplicate
        r = desk.get(f"/tournaments/{tid}/pdf/{kind}", params={"lang": "it", "round": "1"})
        assert r.status_code == 200, r.text
        text = pdf_text(r.content, tmp_path)
        assert "Serata – girone A" in text, kind
        assert english_in(printed(text)) == [], kind
        assert not re.search(r"\bEW\b", printed(text)), kind
    duplicate = desk.post("/tournaments/", data={"name": "Carte – uguali", "schedule":
                                                 "mitchell:1", "duplicate": "1"})
    dup = duplicate.headers["location"].split("/")[2]
    assert desk.post(f"/tournaments/{dup}/pairs", data={"pairs": "\n".join(SIX)}).status_code \
        == 303
    deals = pdf_text(desk.get(f"/tournaments/{dup}/pdf/deals", params={"lang": "it"}).content,
                     tmp_path)
    assert "Carte – uguali" in deals and english_in(printed(deals)) == []
    assert desk.get(f"/tournaments/{tid}/pdf/seats", params={"lang": "sl"}).status_code == 200
    refused = desk.get(f"/tournaments/{tid}/pdf/seats", params={"lang": "fr"})
    assert refused.status_code == 422 and "it, en, es, ro, sl" in refused.text
    desk.close()


def test_every_language_prints_its_own_letters(server: ServerProcess, tmp_path: Path) -> None:
    needs_pdftotext()
    if unicode_fonts() is None:
        pytest.skip("no DejaVu fonts (Debian's fonts-dejavu-core): only the dashes print")
    with httpx.Client(base_url=server.base) as desk:
        made = desk.post("/tournaments/", data={"name": "Cupa „Ștefan” — Čač", "schedule":
                                                "mitchell:1"})
        tid = made.headers["location"].split("/")[2]
        pairs = "Ștefănescu / Țicu\nČeh / Šuštar\nRossi / Bianchi\nNuñez / Peña"
        assert desk.post(f"/tournaments/{tid}/pairs", data={"pairs": pairs}).status_code == 303
        assert desk.post(f"/tournaments/{tid}/rounds").status_code == 303
        for lang in LANGUAGES:
            r = desk.get(f"/tournaments/{tid}/pdf/table-cards", params={"lang": lang})
            text = pdf_text(r.content, tmp_path)
            for typed in ("Cupa „Ștefan” — Čač", "Ștefănescu / Țicu", "Čeh / Šuštar",
                          "Nuñez / Peña"):
                assert typed in text, (lang, typed)
            assert "?" not in text.split("http")[0], lang
