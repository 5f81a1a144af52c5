"""The wall: the whole movement card, printable before round 1 (RULES.md §11.4).

The card drawn before round 1 is exactly what the model then seats round after round in
the fixed movements (Mitchell, round robin, a draw of the first-round order), and says "by
ranking" or "by draw" for the rounds seated when they start; once rounds are played it
shows them as they were, and after a withdrawal the next round as the model will seat it.
The page (the director's, in every language: EO in Italian), its PDF and its print layout
are read back from a real ``burraco serve`` and Debian's Chromium.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from typing import Any

import httpx
import pytest
from evening_harness import SIX, create, ok, play_round, state
from harness import ServerProcess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.locale import LANGUAGES
from burraco.tournament import changes
from burraco.tournament.errors import TournamentError
from burraco.tournament.model import SeatingOrder, Settings, Tournament
from burraco.tournament.schedule import Schedule
from burraco.tournament.wall import Wall, wall

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
WAIT = 30_000


def event(schedule: str, pairs: int, seating: SeatingOrder = "registration") -> Tournament:
    t = Tournament(Settings("Serata", schedule=Schedule.parse(schedule), seating=seating,
                            seed=7))
    for n in range(1, pairs + 1):
        t, _ = t.register(f"P{n}")
    return t


def play(t: Tournament) -> Tournament:
    """Start the next round and give every table a result (the scores vary by table)."""
    t = t.start_round()
    assert t.current is not None
    for table in t.current.tables:
        t = t.record(t.current.number, table.number, 300 + 50 * table.number, 400)
    return t


def seatings(card: Wall) -> dict[int, tuple[Any, ...]]:
    """Round → (tables, byes) of every round the card knows."""
    return {r.number: (r.tables, r.byes) for r in card.rounds if r.known}


# --- the card, from the model ---------------------------------------------------------------

@pytest.mark.parametrize(("schedule", "pairs", "seating"), [
    ("mitchell:3,danish:1", 7, "registration"),
    ("mitchell:4", 8, "draw"),
    ("roundrobin", 6, "registration"),
    ("roundrobin", 5, "draw"),
    ("mitchell:2@2,random:1,mitchell:1", 10, "registration"),
    ("danish-modified:1,roundrobin:3", 6, "registration"),
])
def test_the_card_before_round_1_is_what_the_model_seats(schedule: str, pairs: int,
                                                         seating: SeatingOrder) -> None:
    t = event(schedule, pairs, seating)
    card = wall(t)
    assert card.problem is None and card.current is None and not card.approximate
    assert [r.number for r in card.rounds] == list(range(1, t.total_rounds + 1))
    for r in card.rounds:
        fixed = r.movement in ("mitchell", "roundrobin")
        assert r.how == ("planned" if fixed else "draw" if r.movement == "random"
                         else "ranking"), r
    while not t.finished:
        t = play(t)
        played = t.rounds[-1]
        planned = card.rounds[played.number - 1]
        if planned.known:
            assert (played.tables, played.byes) == (planned.tables, planned.byes), played.number
        later = wall(t)  # once played, a round is shown as it was
        assert later.rounds[played.number - 1].how == "played"
        assert seatings(later)[played.number] == (played.tables, played.byes)
    assert seatings(wall(t)) == {r.number: (r.tables, r.byes) for r in t.rounds}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.integers(4, 13), segments=st.lists(
    st.sampled_from(["mitchell:1", "mitchell:2", "danish:1", "random:1", "roundrobin:1"]),
    min_size=1, max_size=4))
def test_every_fixed_round_of_any_schedule_is_known_before_round_1(
        pairs: int, segments: list[str]) -> None:
    try:
        t = event(",".join(segments), pairs)
        card = wall(t)
        t.next_seating()
    except TournamentError:
        return  # a schedule the field cannot play is refused before round 1 anyway
    while not t.finished:
        t = play(t)
        planned = card.rounds[len(t.rounds) - 1]
        if planned.known:
            assert (planned.tables, planned.byes) == (t.rounds[-1].tables, t.rounds[-1].byes)


@pytest.mark.parametrize("mode", ["byes", "reseat"])
def test_after_a_withdrawal_the_next_round_is_the_models(mode: str) -> None:
    t = play(event("mitchell:4", 9))
    t = changes.withdraw(t, 6, mode)
    card = wall(t)
    assert card.approximate, "rounds after the next are as things stand"
    _movement, seating = t.next_seating()
    assert (card.rounds[1].tables, card.rounds[1].byes) == (seating.tables, seating.byes)
    assert all(6 not in tb.pairs() for r in card.rounds[1:] for tb in r.tables)
    t = play(t)
    assert seatings(wall(t))[2] == (t.rounds[1].tables, t.rounds[1].byes)


def test_too_few_pairs_plan_nothing_and_say_why() -> None:
    card = wall(event("mitchell:3", 1))
    assert card.rounds == () and card.problem is not None
    assert str(card.problem) == "at least 2 pairs are needed, 1 registered"


# --- the page and the PDF, from a real server -------------------------------------------------

def cells(html: str, table_id: str) -> dict[str, list[str]]:
    """A grid of the wall page: each row's first cell → the round cells' text."""
    found = re.search(rf"<table class='wall' id='{table_id}'>(.*?)</table>", html, re.S)
    assert found, html[:2000]
    rows: dict[str, list[str]] = {}
    for row in re.findall(r"<tr data-\w+='\d+'>(.*?)</tr>", found.group(1), re.S):
        texts = [unescape(re.sub(r"<[^>]+>", "", c)).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows[texts[0]] = texts[1:]
    return rows


def test_the_wall_page_speaks_every_language(server: ServerProcess) -> None:
    tid = create(server, "Serata del muro", "mitchell:3,danish:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    english = server.http.get(f"/tournaments/{tid}/wall?lang=en")
    assert english.status_code == 200
    by_pair = cells(english.text, "wall-pairs")
    # NS 1 2 3 stay at tables 1 2 3; EW 4 5 6 move one table up each Mitchell round
    assert by_pair["1 Rossi / Bianchi"] == ["1 NS", "1 NS", "1 NS", "by ranking"]
    assert by_pair["4 Conti / Ferri"] == ["1 EW", "2 EW", "3 EW", "by ranking"]
    assert by_pair["6 Lodi / Pace"] == ["3 EW", "1 EW", "2 EW", "by ranking"]
    by_table = cells(english.text, "wall-tables")
    assert by_table == {"1": ["1 – 4", "1 – 6", "1 – 5", "by ranking"],
                        "2": ["2 – 5", "2 – 4", "2 – 6", "by ranking"],
                        "3": ["3 – 6", "3 – 5", "3 – 4", "by ranking"]}
    assert "Each cell: NS – EW." in english.text
    for lang in LANGUAGES:
        page = server.http.get(f"/tournaments/{tid}/wall", params={"lang": lang})
        assert page.status_code == 200 and f"<html lang='{lang}'>" in page.text
        assert cells(page.text, "wall-tables")["2"][:3] == ["2 – 5", "2 – 4", "2 – 6"]
    italian = server.http.get(f"/tournaments/{tid}/wall?lang=it").text
    ew_cells = cells(italian, "wall-pairs")["5 Sala / Riva"]
    assert ew_cells[:3] == ["2 EO", "3 EO", "1 EO"], "FIBur writes EO in Italian"
    assert "Turno 4" in italian and "danese" in italian
    director = server.http.get(f"/tournaments/{tid}/?lang=it").text
    assert f"href='/tournaments/{tid}/pdf/wall?lang=it' data-pdf='wall-it'" in director, \
        "the paper section lists the wall"


def test_played_rounds_and_a_withdrawal_on_the_wall(server: ServerProcess) -> None:
    tid = create(server, "Muro e ritiri", "mitchell:3")
    ok(server, tid, "pairs", pairs="\n".join([*SIX, "Neri / Bassi"]))
    ok(server, tid, "rounds")
    page = server.http.get(f"/tournaments/{tid}/wall?lang=en").text
    assert "in play" in page and "id='approximate'" not in page
    played = {(t["table"], t["ns"], t["ew"]) for t in state(server, tid)["round"]["tables"]}
    shown = {(int(k), *map(int, v[0].split(" – "))) for k, v in
             cells(page, "wall-tables").items() if v[0] != "no match"}
    assert shown == played
    play_round(server, tid, {})
    ok(server, tid, "withdraw", pair="2", mode="reseat")
    page = server.http.get(f"/tournaments/{tid}/wall?lang=en").text
    assert "id='approximate'" in page and "may still change" in page
    assert cells(page, "wall-pairs")["2 Verdi / Neri"][1:] == ["withdrawn", "withdrawn"]
    planned = cells(page, "wall-tables")
    ok(server, tid, "rounds")  # round 2 is seated as the wall said
    seated = {(t["table"], t["ns"], t["ew"]) for t in state(server, tid)["round"]["tables"]}
    assert {(int(k), *map(int, v[1].split(" – "))) for k, v in planned.items()
            if v[1] != "no match"} == seated


def test_the_wall_as_a_pdf(server: ServerProcess, tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (Debian's poppler-utils) is not installed")
    tid = create(server, "Muro di carta", "mitchell:3,danish:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    r = server.http.get(f"/tournaments/{tid}/pdf/wall", params={"lang": "it"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    (tmp_path / "wall.pdf").write_bytes(r.content)
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "wall.pdf"), "-"],
                          check=True, capture_output=True, text=True).stdout
    assert re.search(r"4 Conti / Ferri\s+1 EO\s+2 EO\s+3 EO\s", text)
    assert re.search(r"1 Rossi / Bianchi\s+1 NS\s+1 NS\s+1 NS\s", text)
    assert re.search(r"\n2\s+2 ?– ?5\s+2 ?– ?4\s+2 ?– ?6\s", text), "the table by table view"
    assert "Turno 4: danese" in text and not re.search(r"\bEW\b", text)


def test_the_wall_is_the_directors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BURRACO_DIRECTOR_KEY", "s3cret")
    keyed = ServerProcess(f"sqlite:///{tmp_path / 'keyed.db'}", tmp_path / "keyed.log")
    keyed.start()
    try:
        keyed.http.get("/tournaments/login?key=s3cret")
        tid = create(keyed, "Muro chiuso", "mitchell:2")
        ok(keyed, tid, "pairs", pairs="\n".join(SIX))
        assert keyed.http.get(f"/tournaments/{tid}/wall").status_code == 200
        assert keyed.http.get(f"/api/tournaments/{tid}/evening-links").status_code == 200
        with httpx.Client(base_url=keyed.base) as player:
            page = player.get(f"/tournaments/{tid}/wall?lang=en")
            assert page.status_code == 403
            assert "the director's pages are locked" in unescape(page.text)
            assert player.get(f"/api/tournaments/{tid}/evening-links").status_code == 403
            assert player.get(f"/tournaments/{tid}/pdf/wall").status_code == 403
    finally:
        keyed.stop()


def test_the_wall_in_the_browser_prints_each_view_on_its_own_page(server: ServerProcess,
                                                                  browser: Any) -> None:
    tid = create(server, "Muro stampato", "mitchell:3,danish:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server.base}/tournaments/{tid}/wall?lang=it")
    row = page.locator("#wall-tables tr[data-table='3'] td")
    assert [row.nth(k).inner_text() for k in range(4)] == ["3", "3 – 6", "3 – 5", "3 – 4"]
    assert page.locator("#wall-pdf").get_attribute("href") == \
        f"/tournaments/{tid}/pdf/wall?lang=it"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "wall-it.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.wall-second'))"
                         ".breakBefore") == "page"
    assert page.locator("header.top").is_hidden() and page.locator("nav").is_hidden()
    pdf = page.pdf()  # Chromium's own print of the page: each view on a page of its own
    assert pdf.startswith(b"%PDF-") and len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 2
    context.close()
