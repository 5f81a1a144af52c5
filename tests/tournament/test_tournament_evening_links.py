"""One set of table cards for the whole evening: each line's evening link opens its table's
round in play, whichever it is.

The cards printed before round 1 carry the evening links (one card per table of the whole
movement, read back with ``pdftotext``, and with the public URL when the server has one);
a link leads to the round being played, says between rounds that the next one has not
started (and reloads itself onto it, in Chromium, when it does), and opens only its own
table of its own tournament.  Against a real ``burraco serve``; the rounds' own links keep
working (tests/tournament/test_tournament_tables.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import httpx
import pytest
from evening_harness import SIX, create, ok, play_round, state
from harness import BURRACO, ServerProcess

with warnings.catch_warnings():  # starlette's notice about its httpx-based client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from burraco.tournament.address import PUBLIC_URL_ENV
from burraco.tournament.web import create_app

WAIT = 30_000
PUBLIC = "http://192.168.1.20:8000"


def evening_links(server: ServerProcess, tid: str) -> dict[int, dict[str, str]]:
    """Table → its two evening links (paths), as the director's API gives them."""
    answer = server.http.get(f"/api/tournaments/{tid}/evening-links",
                             params={"base_url": server.base})
    assert answer.status_code == 200, answer.text
    return {row["table"]: {side: row[side] for side in ("ns", "ew")}
            for row in answer.json()["tables"]}


def path(url: str) -> str:
    return url[url.index("/tournaments/"):]


def round_links(server: ServerProcess, tid: str) -> dict[int, dict[str, str]]:
    answer = server.http.get(f"/api/tournaments/{tid}/table-links")
    assert answer.status_code == 200, answer.text
    return {row["table"]: {side: path(row[side]) for side in ("ns", "ew")}
            for row in answer.json()["tables"]}


def said(answer: httpx.Response, element: str) -> str:
    found = re.search(rf"id='{element}'[^>]*>(.*?)</p>", answer.text, re.S)
    assert found, answer.text[:3000]
    return unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def pdf_text(pdf: bytes, folder: Path) -> str:
    (folder / "cards.pdf").write_bytes(pdf)
    return subprocess.run(["pdftotext", str(folder / "cards.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout


def test_the_evening_cards_lead_to_each_rounds_table(server: ServerProcess,
                                                     tmp_path: Path) -> None:
    tid = create(server, "Serata con cartellini", "mitchell:2")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    links = evening_links(server, tid)
    assert sorted(links) == [1, 2, 3]
    if shutil.which("pdftotext"):
        r = server.http.get(f"/tournaments/{tid}/pdf/table-cards",
                            params={"lang": "en"})
        assert r.status_code == 200, r.text
        text = pdf_text(r.content, tmp_path)
        flat = text.replace("\n", "").replace("-", "")
        for table, pair in links.items():
            assert f"Table {table}" in text
            for url in pair.values():
                assert url.startswith(f"{server.base}/tournaments/{tid}/evening/")
                assert url.replace("-", "") in flat
        assert "Rossi" not in text, "an evening's card names no pair: they move"
        assert text.count("One card for the whole evening") == 3
    table2_ew = path(links[2]["ew"])
    before = server.http.get(table2_ew + "?lang=en")
    assert before.status_code == 200
    assert "Round 1 has not started yet" in said(before, "waiting")
    assert "You are the EW pair" in said(before, "seat")
    assert "data-stamp=" in before.text and "/tournaments/clock.js" in before.text

    for number in (1, 2):
        ok(server, tid, "rounds")
        opened = server.http.get(table2_ew + "?lang=en", follow_redirects=False)
        assert opened.status_code == 303
        assert opened.headers["location"] == round_links(server, tid)[2]["ew"] + "?lang=en"
        phone = server.http.get(table2_ew + "?lang=en", follow_redirects=True)
        assert f"Table 2 · Round {number}" in phone.text
        ew = next(t["ew"] for t in state(server, tid)["round"]["tables"] if t["table"] == 2)
        assert f"data-side='ew'>{ew} " in phone.text, "this round's EW pair of table 2"
        for table, pair in links.items():  # every pair enters through its evening link
            for side in ("ns", "ew"):
                entered = server.http.post(
                    server.http.get(path(pair[side]), follow_redirects=False)
                    .headers["location"], data={"ns_mp": "900", "ew_mp": "600"})
                assert entered.status_code == 303, (table, side)
        assert len(state(server, tid)["results"]) == 3 * number
        between = server.http.get(table2_ew + "?lang=en")
        if number == 1:
            assert "Round 2 has not started yet" in said(between, "waiting")
    over = server.http.get(table2_ew + "?lang=en")
    assert "The tournament is over" in said(over, "waiting")
    assert "data-stamp" not in over.text


def test_a_table_without_a_match_this_round_says_so(server: ServerProcess) -> None:
    tid = create(server, "Tavolo zoppo", "mitchell:2")
    ok(server, tid, "pairs", pairs="\n".join(SIX[:5]))  # 3 tables: one NS pair sits out
    ok(server, tid, "rounds")
    idle = next(n for n in (1, 2, 3) if n not in
                {t["table"] for t in state(server, tid)["round"]["tables"]})
    page = server.http.get(path(evening_links(server, tid)[idle]["ns"]) + "?lang=en")
    assert page.status_code == 200
    assert f"Table {idle} has no match in round 1" in said(page, "waiting")
    italian = server.http.get(path(evening_links(server, tid)[idle]["ew"]) + "?lang=it")
    assert re.search(r"\bEO\b", said(italian, "seat")), "FIBur writes EO in Italian"


def test_an_evening_link_opens_only_its_own_table(server: ServerProcess) -> None:
    tid = create(server, "Cartellini sicuri", "mitchell:2")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    ok(server, tid, "rounds")
    links = {n: {s: path(u) for s, u in pair.items()}
             for n, pair in evening_links(server, tid).items()}
    base, token = links[2]["ns"].rsplit("/", 1)
    table, side, signature = token.split("-", 2)
    assert table == "2" and side == "ns"
    round_token = round_links(server, tid)[2]["ns"].rsplit("/", 1)[1]
    for forged in (f"3-ns-{signature}", f"2-ew-{signature}", f"2-ns-x{signature}",
                   f"02a-ns-{signature}", "2-ns", "nonsense", round_token):
        page = server.http.get(f"{base}/{forged}?lang=en", follow_redirects=False)
        assert page.status_code == 403, forged
        assert "This link is not a table link of this tournament" in said(page, "error")
    as_round = server.http.get(f"/tournaments/{tid}/table/{token}?lang=en")
    assert as_round.status_code == 403, "an evening token is no round's link"
    assert server.http.post(f"/tournaments/{tid}/table/{token}",
                            data={"ns_mp": "900", "ew_mp": "600"}).status_code == 403
    other = create(server, "Altra serata", "mitchell:2")
    ok(server, other, "pairs", pairs="\n".join(SIX))
    ok(server, other, "rounds")
    stolen = server.http.get(f"/tournaments/{other}/evening/{token}", follow_redirects=False)
    assert stolen.status_code == 403, "another tournament's card opens nothing here"
    assert server.http.get(f"/tournaments/nowhere/evening/{token}").status_code == 404
    assert state(server, tid)["results"] == [] and state(server, other)["results"] == []


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The director's pages opened on the club's computer, with a public URL set."""
    monkeypatch.setenv(PUBLIC_URL_ENV, PUBLIC)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'club.db'}"),
                    base_url="http://localhost:8123") as c:
        c.post("/tournaments/", data={"name": "Club", "schedule": "mitchell:1"})
        c.post("/tournaments/club/pairs", data={"pairs": "A\nB\nC\nD"})
        yield c


def test_the_evening_links_use_the_public_url(club: TestClient, tmp_path: Path) -> None:
    rows = club.get("/api/tournaments/club/evening-links").json()["tables"]
    links = [row[side] for row in rows for side in ("ns", "ew")]
    assert len(links) == 4
    assert all(link.startswith(f"{PUBLIC}/tournaments/club/evening/") for link in links)
    if shutil.which("pdftotext"):
        text = pdf_text(club.get("/tournaments/club/pdf/table-cards").content, tmp_path)
        assert "localhost" not in text
        flat = text.replace("\n", "").replace("-", "")
        assert all(link.replace("-", "") in flat for link in links)
    club.post("/tournaments/club/rounds")
    opened = club.get(links[0].removeprefix(PUBLIC), follow_redirects=False)
    assert opened.status_code == 303 and "/tournaments/club/table/1-1-ns-" in \
        opened.headers["location"]


def test_the_waiting_phone_opens_the_round_when_it_starts(server: ServerProcess,
                                                           browser: Any) -> None:
    tid = create(server, "Attesa al tavolo", "mitchell:1")
    ok(server, tid, "pairs", pairs="\n".join(SIX))
    link = evening_links(server, tid)[3]["ns"]
    phones = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                 has_touch=True)
    phone = phones.new_page()
    phone.goto(f"{link}?lang=it")
    assert "Tavolo 3" in phone.locator("h1").inner_text()
    assert phone.locator("#waiting").is_visible()
    ok(server, tid, "rounds")  # the page notices by itself (it polls) and opens the round
    phone.wait_for_url("**/table/1-3-ns-**", timeout=WAIT)
    assert "Tavolo 3 · Turno 1" in phone.locator("h1").inner_text()
    assert phone.locator("#entry").is_visible()
    play_round(server, tid, {})  # the only round: the evening is over
    phone.goto(link)
    assert phone.locator("#waiting a").get_attribute("href") == \
        f"/tournaments/{tid}/standings?lang=it"
    phones.close()


def test_the_evening_cards_and_the_wall_from_the_command_line(server: ServerProcess,
                                                               tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (Debian's poppler-utils) is not installed")
    tid = create(server, "Cartellini da terminale", "mitchell:2")
    ok(server, tid, "pairs", pairs="\n".join(SIX[:4]))
    texts = {}
    for kind in ("table-cards", "wall"):
        out = tmp_path / f"{kind}.pdf"
        done = subprocess.run([BURRACO, "tournament", "pdf", kind, "--db", server.db_url,
                               "-t", tid, "--out", str(out), "--lang", "en", "--base-url",
                               "https://club.example"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        texts[kind] = pdf_text(out.read_bytes(), tmp_path)
    flat = texts["table-cards"].replace("\n", "").replace("-", "")
    assert f"https://club.example/tournaments/{tid}/evening/".replace("-", "") in flat
    assert texts["table-cards"].count("One card for the whole evening") == 2
    assert "Movement card" in texts["wall"] and "2 EW" in texts["wall"]
