"""A duplicate round's results stay with the director while a table of its deal group plays.

Every table of a duplicate round is dealt the same cards (RULES.md §11.4; "Duplicate" and
"Duplicate rounds online" in docs/tournaments.md), so a score of any table, hand by hand or
in total, and the VP and standings it moves, tell a table still playing about its cards.
Until every table of the round has its result and every web table of the round's deal group
has finished, nobody but the director sees any of the round's results: not in the JSON, the
players' page, the printable page, the CSV files, the standings PDF, the big screen and its
JSON, the evening's JSON nor a player's profile.  The director's views keep everything.

The first test runs the tournament pages in-process on a database that also holds a game
server's deal group (its rows written as the server writes them); the second plays the
audit's case on a real ``burraco serve`` with ``BURRACO_DIRECTOR_KEY`` set: three web tables
of a deal group over, the fourth still playing.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess
from sqlalchemy import insert, update

with warnings.catch_warnings():  # starlette's notice about its httpx-based client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from burraco.infra.db import make_engine
from burraco.infra.db import migrate as migrate_server
from burraco.server.storage.models import DealGroupRow, DealGroupTableRow, TableRow
from burraco.tournament.access import KEY_ENV, KEY_HEADER
from burraco.tournament.online import deal_group_id
from burraco.tournament.profiles import profile_tournaments
from burraco.tournament.service import Director
from burraco.tournament.storage import PairAccountRow
from burraco.tournament.web import create_app

KEY = "s3cret"
EIGHT = "\n".join(f"Pair {n}" for n in range(1, 9))
# the smazzate of tables 1-3 as their web tables scored them (distinctive numbers), and the
# totals the director enters by hand for table 4, whose web table still plays
HANDS = {1: [(1115, 235), (1335, 145), (1455, 265)],
         2: [(1565, 1675), (1785, 1895), (2015, 2125)],
         3: [(2235, 2345), (2455, 2565), (2675, 2785)]}
BY_HAND = (4115, 4225)


def secrets_of(hands: dict[int, list[tuple[int, int]]], *extra: tuple[int, int]) -> set[str]:
    """Every score a results page could show: each smazzata's and each table's total."""
    out = {str(v) for rows in hands.values() for row in rows for v in row}
    out |= {str(sum(row[side] for row in rows)) for rows in hands.values() for side in (0, 1)}
    return out | {str(v) for pair in extra for v in pair}


def pdf_text(pdf: bytes, folder: Path) -> str:
    assert pdf.startswith(b"%PDF-"), pdf[:200]
    path = folder / "standings.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


# --- in-process: the pages on a database holding the round's deal group ------------------------

@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[TestClient, Director]]:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    engine = make_engine(url)
    migrate_server(engine)  # the game server's tables, as in ``burraco serve``'s database
    engine.dispose()
    director = Director.open(url)
    with TestClient(create_app(url)) as client:
        yield client, director
    director.close()


def seen_by(client: TestClient, base: str, tid: str, folder: Path,
            headers: dict[str, str] | None = None) -> dict[str, str]:
    """Every page, file and JSON a visitor can fetch about the tournament, as text."""
    out = {}
    for path in (f"/api/tournaments/{tid}", f"/api/tournaments/{tid}/evening",
                 f"{base}/standings", f"{base}/print", f"{base}/standings.csv",
                 f"{base}/results.csv", f"{base}/screen", f"{base}/screen.json"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, (path, answer.text)
        out[path] = answer.text
    if shutil.which("pdftotext"):
        answer = client.get(f"{base}/pdf/standings", params={"lang": "en"}, headers=headers)
        if answer.status_code == 200:  # 403 to all but the director once a key is set
            out["standings.pdf"] = pdf_text(answer.content, folder)
    return out


def leaked(pages: dict[str, str], scores: set[str]) -> dict[str, list[str]]:
    return {path: sorted(s for s in scores if s in text) for path, text in pages.items()
            if any(s in text for s in scores)}


def test_a_round_stays_hidden_while_a_web_table_of_its_group_plays(
        club: tuple[TestClient, Director], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Duplicate (RULES.md §11.4, "duplicate" in docs/tournaments.md): the director enters
    table 4's result by hand while its web table still plays the round's deals; until that
    table has finished, no page, file or JSON shows anyone but the director a score of the
    round (hand by hand or in total), nor VP, standings or profile figures that include it."""
    client, director = club
    monkeypatch.delenv(KEY_ENV, raising=False)
    client.post("/tournaments/", data={"name": "Dup", "schedule": "mitchell:2",
                                       "duplicate": "1"})
    tid, base = "dup", "/tournaments/dup"
    client.post(f"{base}/pairs", data={"pairs": EIGHT})
    client.post(f"{base}/rounds")
    group = deal_group_id(tid, 1)
    with director.engine.begin() as conn:  # the round's deal group, as the game server keeps it
        conn.execute(insert(DealGroupRow).values(id=group, secret="0" * 64, settings={},
                                                 closed=True))
        for table in (1, 2, 3, 4):
            conn.execute(insert(TableRow).values(
                id=f"web{table}", creator=None, config={"players": 4}, public=False, version=9,
                status="finished" if table in HANDS else "playing"))
            conn.execute(insert(DealGroupTableRow).values(table_id=f"web{table}",
                                                          group_id=group))
        conn.execute(insert(PairAccountRow).values(tournament_id=tid, pair=1, player_id="ada",
                                                   username="ada"))
    for table in (1, 2, 3, 4):
        director.link_online(tid, 1, table, f"web{table}",
                             {"seats": [], "watch": f"/watch/web{table}?token=w{table}"})
    for table, hands in HANDS.items():  # as online.collect enters them
        director.record(tid, 1, table, sum(h[0] for h in hands), sum(h[1] for h in hands),
                        hands=hands, source="online")
    # the audit's case: three tables over, the fourth still playing
    assert leaked(seen_by(client, base, tid, tmp_path), secrets_of(HANDS)) == {}
    answer = client.post(f"{base}/results", data={"round": "1", "table": "4",
                                                  "ns_mp": str(BY_HAND[0]),
                                                  "ew_mp": str(BY_HAND[1])})
    assert answer.status_code == 200 and "VP" in answer.text
    scores = secrets_of(HANDS, BY_HAND)

    def profile() -> dict[str, Any]:
        with director.engine.connect() as conn:
            return profile_tournaments(conn, "ada")[0]

    # every table has a result, web table 4 still plays: nobody but the director sees any
    pages = seen_by(client, base, tid, tmp_path)
    assert leaked(pages, scores) == {}
    data = client.get(f"/api/tournaments/{tid}").json()
    assert data["results"] == [] and data["pending_rounds"] == [1]
    assert data["round"]["pending"] is True
    assert {s["vp"] for s in data["standings"]} == {0}
    assert {s["dup"] for s in data["standings"]} == {0}
    assert {s["vp"] for s in client.get(f"{base}/screen.json").json()["standings"]} == {0}
    players = client.get(f"{base}/standings").text
    assert "id='held'" in players and "/watch/" not in players
    assert "id='held'" in client.get(f"{base}/screen").text
    assert profile()["vp"] == 0
    director_page = client.get(f"{base}/").text  # no key set: the director's page is open
    assert all(s in director_page for s in ("3905", "645", str(BY_HAND[0])))
    assert "id='held'" in director_page and "/watch/web4" in director_page

    # a key set: a visitor without it (or with a wrong one) sees nothing more
    monkeypatch.setenv(KEY_ENV, KEY)
    for headers in (None, {KEY_HEADER: "guess"}):
        assert leaked(seen_by(client, base, tid, tmp_path, headers), scores) == {}
    # the director, by the key (header or cookie), sees every result, hand by hand
    everything = client.get(f"/api/tournaments/{tid}", headers={KEY_HEADER: KEY}).json()
    assert len(everything["results"]) == 4 and everything["pending_rounds"] == [1]
    assert [r["hands"] for r in everything["results"][:3]] == [
        [list(h) for h in HANDS[n]] for n in (1, 2, 3)]
    client.get(f"/tournaments/login?key={KEY}")
    mine = seen_by(client, base, tid, tmp_path)
    assert set(leaked(mine, scores)) >= {f"/api/tournaments/{tid}", f"{base}/print",
                                        f"{base}/results.csv"}
    assert "1115:235" in mine[f"{base}/results.csv"]
    if shutil.which("pdftotext"):
        assert "standings.pdf" in mine and mine["standings.pdf"] != pages["standings.pdf"]
    client.cookies.clear()
    monkeypatch.delenv(KEY_ENV)

    # web table 4 finishes: the round is shown to everyone
    with director.engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == "web4").values(status="finished"))
    data = client.get(f"/api/tournaments/{tid}").json()
    assert len(data["results"]) == 4 and data["pending_rounds"] == []
    assert data["round"]["pending"] is False and max(s["vp"] for s in data["standings"]) > 0
    players = client.get(f"{base}/standings").text
    assert "3905" in players and "/watch/web4" in players and "id='held'" not in players
    assert profile()["vp"] > 0

    # not duplicate: nothing is held, a result shows at once
    client.post("/tournaments/", data={"name": "Plain", "schedule": "mitchell:1"})
    client.post("/tournaments/plain/pairs", data={"pairs": EIGHT})
    client.post("/tournaments/plain/rounds")
    client.post("/tournaments/plain/results", data={"round": "1", "table": "1",
                                                    "ns_mp": "1115", "ew_mp": "235"})
    plain = client.get("/api/tournaments/plain").json()
    assert len(plain["results"]) == 1 and plain["pending_rounds"] == []


# --- a real server: the audit's case -----------------------------------------------------------

@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``burraco serve`` with the director's key set in its environment."""
    folder = tmp_path_factory.mktemp("held")
    process = ServerProcess(f"sqlite:///{folder / 'club.db'}", folder / "server.log")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(KEY_ENV, KEY)
        process.start()  # the process keeps the environment it started with
    yield process
    process.stop()


def wait_for(what: str, check: Any, server: ServerProcess, timeout: float = 300) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = check()
        if answer:
            return answer
        time.sleep(0.5)
    raise AssertionError(f"{what}: not after {timeout} s\n{server.log()}")


@pytest.mark.xdist_group("e2e")
def test_the_audits_case_three_tables_over_the_fourth_still_playing(
        keyed: ServerProcess) -> None:
    """Duplicate (RULES.md §11.4, "duplicate" in docs/tournaments.md): four web tables of one
    deal group, bots at three of them, the fourth waiting for its players.  Neither an
    anonymous request nor one with a wrong key sees a score of the three that are over (hand
    by hand or in total), before or after the director enters table 4's result by hand and
    starts the next round; the director sees everything."""
    director = keyed.http
    assert director.get(f"/tournaments/login?key={KEY}").status_code == 303
    form = {"name": "Audit", "schedule": "mitchell:2", "hands": "2", "duplicate": "1",
            "vp_table": "test two-hand:30,90,150,210,300,400,500,650,800,1000"}
    assert director.post("/tournaments/", data=form).status_code == 303
    tid, base = "audit", "/tournaments/audit"
    assert director.post(f"{base}/pairs", data={"pairs": EIGHT}).status_code == 303
    assert director.post(f"{base}/rounds").status_code == 303
    tables = director.get(f"/api/tournaments/{tid}").json()["round"]["tables"]
    assert tables[3] == {"table": 4, "ns": 4, "ew": 8}
    answer = director.post(f"{base}/online", data={"bots": "1,2,3,5,6,7", "level": "random",
                                                   "bot_delay": "0"})
    assert answer.status_code == 303, answer.text

    def three() -> list[dict[str, Any]] | None:
        found = director.get(f"/api/tournaments/{tid}").json()["results"]
        return list(found) if len(found) == 3 else None

    over = wait_for("three tables over", three, keyed)
    hands = {r["table"]: [tuple(h) for h in r["hands"]] for r in over}
    assert sorted(hands) == [1, 2, 3] and all(len(h) == 2 for h in hands.values())

    anonymous = httpx.Client(base_url=keyed.base, timeout=30)
    guessing = httpx.Client(base_url=keyed.base, timeout=30, headers={KEY_HEADER: "guess"})
    try:
        pending: list[Any] = []

        def check_hidden() -> None:
            for visitor in (anonymous, guessing):
                data = visitor.get(f"/api/tournaments/{tid}").json()
                assert data["results"] == []
                pending.append(data.get("pending_rounds"))
                assert {(s["vp"], s["mp"], s["mp_diff"], s["dup"])
                        for s in data["standings"]} == {(0, 0, 0, 0)}
                for path in ("/standings", "/print", "/standings.csv", "/results.csv",
                             "/screen.json"):
                    text = visitor.get(f"{base}{path}").text
                    shown = [f"{r['table']}: {h}" for r in over for h in r["hands"]
                             if f"{h[0]}:{h[1]}" in text]
                    assert not shown, (path, shown)
                    assert f"{over[0]['mp'][0]} – {over[0]['mp'][1]}" not in text, path
                players = visitor.get(f"{base}/standings").text
                assert "id='held'" in players and ">watch</a>" not in players
                screen = visitor.get(f"{base}/screen.json").json()
                assert {s["vp"] for s in screen["standings"]} == {0}
                evening = visitor.get(f"/api/tournaments/{tid}/evening")
                assert evening.status_code == 200

        check_hidden()  # the audit's case: the fourth table still plays
        # the director scores table 4 by hand while its web table still waits for its players
        answer = director.post(f"{base}/results", data={
            "round": "1", "table": "4", "ns_mp": str(BY_HAND[0]), "ew_mp": str(BY_HAND[1])})
        assert answer.status_code == 303, answer.text
        check_hidden()
        assert director.post(f"{base}/rounds").status_code == 303  # every table has a result
        check_hidden()
        assert pending == [[1]] * 4 + [[1, 2]] * 2  # the JSON says which rounds are held
    finally:
        anonymous.close()
        guessing.close()

    # the director sees every result, hand by hand, by the cookie or by the header
    with httpx.Client(base_url=keyed.base, timeout=30, headers={KEY_HEADER: KEY}) as script:
        for client in (director, script):
            data = client.get(f"/api/tournaments/{tid}").json()
            assert len(data["results"]) == 4 and data["pending_rounds"] == [1, 2]
            assert {r["table"]: [tuple(h) for h in r["hands"]]
                    for r in data["results"] if r["hands"]} == hands
    assert all(f"{h[0]}:{h[1]}" in director.get(f"{base}/results.csv").text
               for rows in hands.values() for h in rows)
