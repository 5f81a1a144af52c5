"""The club's paper, fetched from a real ``burraco serve`` and read back with ``pdftotext``.

Table cards (with each line's result link), "where do I sit" in alphabetical order,
score sheets in the federation's layout (RULES.md §9: cards, burraco, closing, pozzetto,
totals), the round's assignments, the standings with penalties and prizes, in Italian
and English; and the deal sheets of a duplicate event ("carte preparate"), parsed back
into cards, are the very deals the engine uses for each board (§11.4).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from evening_harness import SIX, create, ok, play_round, state
from harness import BURRACO, ServerProcess

from burraco.engine.cards import card_face, parse_face
from burraco.tournament.model import Settings
from burraco.tournament.paper.deal_sheets import board_deal
from burraco.tournament.paper.document import MARGIN
from burraco.tournament.paper.table_cards import QR_SIZE
from burraco.tournament.schedule import Schedule

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (Debian's poppler-utils) is not installed")


def text_of(pdf: bytes, folder: Path, *, layout: bool = False) -> str:
    assert pdf.startswith(b"%PDF-"), pdf[:200]
    path = folder / "paper.pdf"
    path.write_bytes(pdf)
    args = ["pdftotext", *(["-layout"] if layout else []), str(path), "-"]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def fetch(server: ServerProcess, tid: str, kind: str, folder: Path, *, layout: bool = False,
          **query: str) -> str:
    r = server.http.get(f"/tournaments/{tid}/pdf/{kind}", params=query)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    return text_of(r.content, folder, layout=layout)


def unwrapped(text: str) -> str:
    """A long link wraps under its QR code, at a hyphen that pdftotext may drop."""
    return text.replace("\n", "").replace("-", "")


def table_links(server: ServerProcess, tid: str) -> list[dict[str, Any]]:
    """The current round's phone links, as the director's API gives them."""
    r = server.http.get(f"/api/tournaments/{tid}/table-links", params={"base_url": server.base})
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()["tables"]
    return tables


def test_table_cards_seats_sheets_and_assignments(server: ServerProcess,
                                                  tmp_path: Path) -> None:
    tid = create(server, "Torneo della Torre")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    r = server.http.get(f"/tournaments/{tid}/pdf/seats")  # (the table cards: the evening's)
    assert r.status_code == 422 and "no round has started" in r.text
    ok(server, tid, "rounds")
    cards = fetch(server, tid, "table-cards", tmp_path, lang="it")
    links = {row["table"]: row for row in table_links(server, tid)}
    for table, ns, ew in ((1, "Rossi / Bianchi", "Conti / Ferri"),
                          (3, "Gialli / Blu", "Lodi / Pace")):
        assert f"Tavolo {table}" in cards
        assert ns in cards and ew in cards
        for line in ("ns", "ew"):
            assert unwrapped(links[table][line]) in unwrapped(cards)
    assert "Nord-Sud (NS)" in cards and "Est-Ovest (EO)" in cards and "(EW)" not in cards
    assert "Table 2" in fetch(server, tid, "table-cards", tmp_path, lang="en")

    seats = fetch(server, tid, "seats", tmp_path, layout=True, lang="en")
    rows = [line.split() for line in seats.splitlines()
            if re.match(r"^\s*[A-Z][a-z]+\s+\d\s", line)]
    players = [row[0] for row in rows]
    assert players == sorted(p for pair in SIX for p in pair.split(" / "))
    conti = next(row for row in rows if row[0] == "Conti")
    assert conti[-2:] == ["1", "EW"]  # pair 4 sits EW at table 1

    sheets = fetch(server, tid, "score-sheets", tmp_path, lang="it")
    for word in ("Foglio segnapunti", "Smazzata", "Carte", "Burraco", "Chiusura", "Pozzetto",
                 "Totale", "Totali", "Tavolo 3"):
        assert word in sheets
    english = fetch(server, tid, "score-sheets", tmp_path, lang="en")
    for word in ("Score sheet", "Cards", "Closing", "Pozzetto", "Total", "countersigned"):
        assert word in english

    assignments = fetch(server, tid, "round", tmp_path, layout=True, lang="en")
    assert re.search(r"1\s+1 Rossi / Bianchi\s+4 Conti / Ferri", assignments)
    assert re.search(r"3\s+3 Gialli / Blu\s+6 Lodi / Pace", assignments)

    for bad, expect in (("menu", "no paper 'menu'"), ("deals", "not one")):
        r = server.http.get(f"/tournaments/{tid}/pdf/{bad}")
        assert r.status_code == 422 and expect in r.text.replace("&#x27;", "'"), r.text
    r = server.http.get(f"/tournaments/{tid}/pdf/seats", params={"lang": "fr"})
    assert r.status_code == 422 and "it, en, es, ro, sl, not" in r.text
    r = server.http.get(f"/tournaments/{tid}/pdf/seats", params={"round": "x"})
    assert r.status_code == 422 and "whole number" in r.text
    r = server.http.get(f"/tournaments/{tid}/pdf/seats", params={"round": "3"})
    assert r.status_code == 422 and "round 3 has not started" in r.text
    assert server.http.get("/tournaments/nowhere/pdf/seats").status_code == 404


def test_final_standings_with_penalties_and_prizes(server: ServerProcess,
                                                   tmp_path: Path) -> None:
    tid = create(server, "Finale", "mitchell:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    ok(server, tid, "line-rankings", on="1")
    ok(server, tid, "prizes", prizes="overall:2,EW:1")
    ok(server, tid, "rounds")
    play_round(server, tid, {1: (1200, 300), 2: (500, 600), 3: (400, 900)})
    ok(server, tid, "penalties", pair="1", vp="3", reason="cellulare al tavolo")
    final = fetch(server, tid, "standings", tmp_path, layout=True, lang="it")
    assert "Classifica finale" in final
    assert "Classifica Nord-Sud" in final and "Classifica Est-Ovest" in final
    assert "-3 VP" in final and "cellulare al tavolo" in final
    standings = state(server, tid)["standings"]
    first, second = standings[0], standings[1]
    assert re.search(rf"assoluta\s+1\s+{first['pair']} {re.escape(first['name'])}", final)
    assert re.search(rf"assoluta\s+2\s+{second['pair']} {re.escape(second['name'])}", final)
    prizes = state(server, tid)["evening"]["prize_list"]
    ew = next(a for a in prizes if a["category"] == "EW")
    assert re.search(rf"EO\s+1\s+{ew['pair']} {re.escape(ew['name'])}", final), "EW is EO"
    assert "Final standings" in fetch(server, tid, "standings", tmp_path, lang="en")


STOCK_ROW = re.compile(r"^\d+(?:\s*-\s*\d+)?\s*:\s*(.*)$")
LABELS = re.compile(r"^(Hand [NESW]|Pozzetto \d|Stock \(top first\)|First up-card):\s*(.*)$")


def parse_deal_sheets(text: str) -> dict[tuple[int, int], dict[str, list[int]]]:
    """Board (round, smazzata) → each pile's faces, as printed (hands sorted)."""
    boards: dict[tuple[int, int], dict[str, list[int]]] = {}
    current: dict[str, list[int]] | None = None
    label = ""
    for line in text.splitlines():
        line = line.strip()
        heading = re.fullmatch(r"Round (\d+) - Board (\d+)", line)
        if heading:
            current = boards.setdefault((int(heading[1]), int(heading[2])), {})
            label = ""
            continue
        found = LABELS.match(line)
        if found and current is not None:
            label = found[1]
            current[label] = [parse_face(tok) for tok in found[2].split()]
        elif label and current is not None and (row := STOCK_ROW.match(line)):
            current[label] += [parse_face(tok) for tok in row[1].split()]  # "11-20: ..."
        else:
            label = ""
    return boards


def test_deal_sheets_read_back_are_the_engines_deals(server: ServerProcess,
                                                     tmp_path: Path) -> None:
    tid = create(server, "Carte preparate", "mitchell:2", duplicate="1", seed="41")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    text = fetch(server, tid, "deals", tmp_path, layout=True, lang="en")
    boards = parse_deal_sheets(text)
    assert sorted(boards) == [(r, k) for r in (1, 2) for k in (1, 2, 3)]
    settings = Settings("Carte preparate", schedule=Schedule.parse("mitchell:2"),
                        duplicate=True, seed=41)
    for (number, k), piles in boards.items():
        deal = board_deal(settings, number, k)
        for seat, name in enumerate("NESW"):
            assert Counter(piles[f"Hand {name}"]) == Counter(map(card_face, deal.hands[seat]))
        for n, pozzetto in enumerate(deal.pozzetti, start=1):
            assert piles[f"Pozzetto {n}"] == [card_face(c) for c in pozzetto]
        assert piles["Stock (top first)"] == [card_face(c) for c in deal.stock]
        assert piles["First up-card"] == [card_face(c) for c in deal.pile]
        total = sum(len(p) for p in piles.values())
        assert total == 108
    # every table of round 1 is dealt board 1 alike, and rounds differ
    assert boards[1, 1] != boards[2, 1]
    italian = fetch(server, tid, "deals", tmp_path, lang="it", round="2")
    assert "Turno 2 - Smazzata 1" in italian and "Turno 1" not in italian
    assert "Tallone (dall'alto)" in italian


def test_the_paper_from_the_command_line(server: ServerProcess, tmp_path: Path) -> None:
    tid = create(server, "Da terminale", "mitchell:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX[:4]))
    ok(server, tid, "rounds")
    out = tmp_path / "cards.pdf"
    done = subprocess.run([BURRACO, "tournament", "pdf", "table-cards", "--db", server.db_url,
                           "-t", tid, "--out", str(out), "--lang", "en", "--base-url",
                           "https://club.example"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    text = text_of(out.read_bytes(), tmp_path)
    listed = subprocess.run([BURRACO, "tournament", "table-links", "--db", server.db_url, "-t", tid,
                             "--json", "--base-url", "https://club.example"],
                            capture_output=True, text=True, timeout=300, check=True)
    first = json.loads(listed.stdout)["tables"][0]
    assert first["ns"].startswith("https://club.example/tournaments/")
    assert "Table 1" in text
    assert unwrapped(first["ns"]) in unwrapped(text) and unwrapped(first["ew"]) in unwrapped(text)
    bad = subprocess.run([BURRACO, "tournament", "pdf", "deals", "--db", server.db_url,
                          "-t", tid, "--out", str(tmp_path / "d.pdf")], capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 1 and "duplicate events" in bad.stderr
    assert not (tmp_path / "d.pdf").exists()


def test_the_evenings_changes_from_the_command_line(server: ServerProcess) -> None:
    tid = create(server, "Cambi da terminale", "mitchell:2")
    ok(server, tid, "pairs", pairs="\n".join(SIX[:4]))
    ok(server, tid, "rounds")
    play_round(server, tid, {})

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([BURRACO, "tournament", *args, "--db", server.db_url, "-t", tid],
                              capture_output=True, text=True, timeout=300)

    bad = run("penalty", "2", "--vp", "-1", "--reason", "ritardo")
    assert bad.returncode == 1 and "0 to 20 VP" in bad.stderr
    done = run("penalty", "Verdi / Neri", "--vp", "2", "--reason", "ritardo")
    assert done.returncode == 0, done.stderr
    done = run("withdraw", "4", "--mode", "byes")
    assert done.returncode == 0 and "from round 2" in done.stdout, done.stderr
    shown = run("evening", "--json")
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["penalties"] == [{"pair": 2, "vp": 2, "mp": 0, "reason": "ritardo",
                                  "round": None}]
    assert data["withdrawals"] == [{"pair": 4, "from_round": 2, "mode": "byes"}]
    pair2 = next(s for s in state(server, tid)["standings"] if s["pair"] == 2)
    assert pair2["penalty_vp"] == 2


def test_a_table_cards_qr_code_is_the_lines_link(server: ServerProcess, tmp_path: Path) -> None:
    """The NS code of table 1, rasterised by pdftoppm, has every module of the link's code."""
    import segno

    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    tid = create(server, "Codici QR", "mitchell:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX[:4]))
    ok(server, tid, "rounds")
    r = server.http.get(f"/tournaments/{tid}/pdf/table-cards", params={"lang": "en"})
    assert r.status_code == 200
    (tmp_path / "cards.pdf").write_bytes(r.content)
    subprocess.run(["pdftoppm", "-r", "200", "-gray", "-f", "1", "-l", "1", "-singlefile",
                    str(tmp_path / "cards.pdf"), str(tmp_path / "page")], check=True)
    raw = (tmp_path / "page.pgm").read_bytes()
    magic, width, height, _depth, pixels = raw.split(maxsplit=4)
    assert magic == b"P5"
    w, h = int(width), int(height)

    def dark(x: int, y: int) -> bool:
        return pixels[y * w + x] < 100

    # The NS code's own square on the A4 page, in mm: right of the text column (which ends
    # at 128 mm, so a long link wrapped there is not taken for modules), below the title.
    qr_left = 210 - MARGIN - 4 - QR_SIZE
    xs = range(int(w * (qr_left - 1) / 210), int(w * (qr_left + QR_SIZE + 1) / 210))
    ys = range(int(h * 58 / 297), int(h * 135 / 297))
    box = [(x, y) for y in ys for x in xs if dark(x, y)]
    left, right = min(x for x, _ in box), max(x for x, _ in box)
    top, bottom = min(y for _, y in box), max(y for _, y in box)
    link = table_links(server, tid)[0]["ns"]
    expected = [list(row) for row in segno.make(link, error="m").matrix]
    n = len(expected)
    step_x, step_y = (right - left + 1) / n, (bottom - top + 1) / n
    seen = [[dark(int(left + (c + 0.5) * step_x), int(top + (r + 0.5) * step_y))
             for c in range(n)] for r in range(n)]
    assert seen == [[bool(v) for v in row] for row in expected]


def test_a_column_is_as_wide_as_its_header_in_any_language() -> None:
    """A language's longer header ("Penalización", "Penalizare") widens its column, taken from
    the widest one, so no header runs over its border; the page's width stays."""
    from burraco.tournament.paper.document import Paper

    pdf = Paper("Clasificación", "Giovedì – girone A")
    pdf.add_page()
    headers = ["Pos.", "Pareja", "PV", "Dif. PP", "Penalización"]
    given = [14.0, 90.0, 16.0, 22.0, 22.0]
    used = pdf.grid(headers, [["1", "3 Ionescu / Popescu", "20", "+1005", ""]], given)
    pdf.set_font(pdf.sans, "B", 10)
    for header, width in zip(headers, used, strict=True):
        assert pdf.get_string_width(header) + 2 * pdf.c_margin <= width, header
    assert used[4] > given[4] and used[1] < given[1]
    assert abs(sum(used) - sum(given)) < 0.01
