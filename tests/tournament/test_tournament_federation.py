"""The results for the federation (``burraco-federation-results/1``), from a real ``burraco
serve`` on a real SQLite file: a whole evening — nine pairs (a bye each round), three
Mitchell rounds and a Danish final, a penalty, a withdrawal, a late pair that missed round
1, members and cards — then the CSV and the JSON, checked against the standings: the
ranking is recomputed from the CSV alone.  standings.csv and results.csv carry the
penalties, the withdrawals, the byes' MP and the late pair's absence: the standings follow
from them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from evening_harness import ok, post, state
from harness import ServerProcess

from burraco.tournament.access import KEY_COOKIE, KEY_ENV
from burraco.tournament.federation import COLUMNS, FORMAT

PAIRS = ["Rossi / Bianchi", "Verdi / Neri", "Gialli / Blu", "Ferri / Conti", "Sala / Riva",
         "Lodi / Pace", "Carla / #12", "Greco / Russo", "Costa / Fontana"]
CARDS = {(1, 1): ("FB100001", "agonista"), (1, 2): ("FB100002", "ordinario"),
         (3, 2): ("RO7", ""), (9, 1): ("FB100009", "promozionale")}
KEY = "s3cret"

pytestmark = pytest.mark.xdist_group("e2e")


def score(round_number: int, table: int) -> tuple[int, int]:
    ns = 300 + 145 * ((round_number * 7 + table * 3) % 9)
    ew = 250 + 115 * ((round_number * 5 + table * 4) % 8)
    return ns - ns % 5, ew - ew % 5


def play(server: ServerProcess, tid: str) -> None:
    """Start the next round and enter every table's result."""
    ok(server, tid, "rounds")
    played = state(server, tid)["round"]
    for table in played["tables"]:
        ns, ew = score(played["number"], table["table"])
        ok(server, tid, "results", round=str(played["number"]), table=str(table["table"]),
           ns_mp=str(ns), ew_mp=str(ew))


def register_ok(server: ServerProcess, tid: str, action: str, **form: str) -> None:
    r = post(server, tid, f"register/{action}", **form)
    assert r.status_code == 303, r.text
    assert "/register?ok=" in r.headers["location"]


@pytest.fixture(scope="module")
def evening(server: ServerProcess) -> str:
    http = server.http
    assert http.post("/tournaments/members", data={"number": "12", "name": "Dino Neri",
                                                   "category": "Senior"}).status_code == 200
    made = http.post("/tournaments/", data={"name": "Torneo della Torre",
                                            "schedule": "mitchell:3,danish:1",
                                            "tie_breaks": "mp_diff,mp"})
    tid = made.headers["location"].split("/")[2]
    ok(server, tid, "pairs", pairs="\n".join(PAIRS))
    register_ok(server, tid, "card", member="#12", card="FB100012", type="agonista")
    register_ok(server, tid, "terms", fee="15,00", dinner_price="0",
                club="Il Molino della Catasta", date="2027-03-03", level="regional")
    form = {f"row-{p}-{k}": "1" for p in range(1, 10) for k in (1, 2)}
    form["member-7-2"] = "12"  # Dino Neri, registered as #12
    for (p, k), (number, kind) in CARDS.items():
        form[f"card-{p}-{k}"], form[f"type-{p}-{k}"] = number, kind
    register_ok(server, tid, "players", **form)
    play(server, tid)
    ok(server, tid, "penalties", pair="2", vp="1", mp="50", reason="ritardo", round="1")
    ok(server, tid, "withdraw", pair="5", mode="byes")
    ok(server, tid, "late", pair="Nuovi / Arrivati", mode="bye")  # pair 10, from round 2
    register_ok(server, tid, "players", **{"row-10-1": "1", "card-10-1": "FB100010",
                                           "type-10-1": "agonista", "paid-10-1": "1"})
    for _ in range(3):
        play(server, tid)
    assert state(server, tid)["status"] == "finished"
    return tid


def download(server: ServerProcess, tid: str, name: str) -> httpx.Response:
    r = server.http.get(f"/tournaments/{tid}/{name}")
    assert r.status_code == 200, r.text
    assert f"attachment; filename={tid}-" in r.headers["content-disposition"]
    return r


def test_the_ranking_recomputed_from_the_csv_alone_is_the_standings(server: ServerProcess,
                                                                    evening: str) -> None:
    r = download(server, evening, "federation.csv")
    assert r.headers["content-type"].startswith("text/csv")
    reader = csv.DictReader(io.StringIO(r.text))
    assert tuple(reader.fieldnames or ()) == COLUMNS
    rows = list(reader)
    assert len(rows) == 20 and {row["format"] for row in rows} == {FORMAT}
    assert {(row["club"], row["date"], row["event_id"], row["event"], row["level"],
             row["kind"], row["final"]) for row in rows} == {
        ("Il Molino della Catasta", "2027-03-03", evening, "Torneo della Torre", "regional",
         "pairs", "yes")}
    # the pairs' figures, from the CSV only (the same on each player's row)
    figures: dict[int, tuple[int, int, int]] = {}
    for row in rows:
        mine = (int(row["vp"]), int(row["mp_diff"]), int(row["mp"]))
        assert figures.setdefault(int(row["pair"]), mine) == mine
    # the event ranks by VP, then MP difference, then MP (tie_breaks mp_diff,mp)
    for row in rows:
        pair = int(row["pair"])
        better = sum(1 for other in figures.values() if other > figures[pair])
        level = [p for p, other in figures.items() if other == figures[pair]]
        assert int(row["rank"]) == better + 1, row
        assert (row["tied"] == "yes") == (len(level) > 1), row
    assert [int(row["rank"]) for row in rows] == sorted(int(row["rank"]) for row in rows)
    # … and it is the standings, penalties and withdrawals included
    api = state(server, evening)
    standings = {s["pair"]: s for s in api["standings"]}
    assert [int(rows[k]["pair"]) for k in range(0, 20, 2)] == [s["pair"] for s in
                                                               api["standings"]]
    for row in rows:
        s = standings[int(row["pair"])]
        assert (int(row["rank"]), int(row["vp"]), int(row["mp_diff"]), int(row["mp"]),
                int(row["played"]), int(row["byes"])) == (
            s["rank"], s["vp"], s["mp_diff"], s["mp"], s["played"], s["byes"])
        assert (int(row["penalty_vp"]), int(row["penalty_mp"]), int(row["absent"])) == (
            s.get("penalty_vp", 0), s.get("penalty_mp", 0), s.get("absent", 0))
        assert (row["withdrawn"] == "yes") == s.get("withdrawn", False)
        assert row["pair_name"] == s["name"] and row["dup"] == ""
    assert standings[2]["penalty_vp"] == 1 and standings[5]["withdrawn"]
    assert standings[10]["absent"] == 1  # the late pair's missed round
    # players, cards and lines
    players = {p["number"]: p["players"] for p in api["pairs"]}
    cards = {(int(row["pair"]), int(row["player"])): (row["card_number"], row["card_type"])
             for row in rows}
    assert {(int(row["pair"]), int(row["player"])): row["player_name"] for row in rows} == {
        (p, k): players[p][k - 1] for p in players for k in (1, 2)}
    assert cards[7, 2] == ("FB100012", "agonista")  # the member's card
    assert cards[7, 1] == ("", "") and cards[2, 1] == ("", "")
    for key, card in {**CARDS, (10, 1): ("FB100010", "agonista")}.items():
        assert cards[key] == card
    lines: dict[int, str] = {}  # the line of the first Mitchell match (a Mitchell bye: NS)
    for r in sorted(api["results"], key=lambda r: r["round"]):
        if r["round"] <= 3:
            lines.setdefault(r["ns"], "NS")
            lines.setdefault(r["ew"], "EW")
    assert lines[10] == "EW"  # the late pair took the empty EW place
    for row in rows:
        assert row["line"] == lines.get(int(row["pair"]), "NS"), row


def test_the_json_says_the_same(server: ServerProcess, evening: str) -> None:
    doc = download(server, evening, "federation.json").json()
    rows = list(csv.DictReader(io.StringIO(download(server, evening,
                                                    "federation.csv").text)))
    assert doc["format"] == FORMAT and doc["club"] == "Il Molino della Catasta"
    assert doc["date"] == "2027-03-03"
    event = doc["event"]
    assert (event["id"], event["name"], event["level"], event["kind"], event["final"]) == (
        evening, "Torneo della Torre", "regional", "pairs", True)
    assert (event["rounds"], event["rounds_played"], event["hands"], event["entrants"],
            event["players"]) == (4, 4, 3, 10, 20)
    assert event["ranked_by"] == ["vp", "mp_diff", "mp"] and event["vp_table_official"]
    assert event["vp_table"] == "FIBur 3 smazzate" and event["schedule"] == "mitchell:3,danish:1"
    flat = [(p["rank"], p["pair"], p["pair_name"], p["line"] or "", one["player"],
             one["name"], one["card_number"] or "", one["card_type"] or "", p["vp"],
             p["mp_diff"], p["mp"], p["absent"], p["penalty_vp"], p["penalty_mp"],
             p["withdrawn"])
            for p in doc["ranking"] for one in p["players"]]
    assert flat == [(int(r["rank"]), int(r["pair"]), r["pair_name"], r["line"],
                     int(r["player"]), r["player_name"], r["card_number"], r["card_type"],
                     int(r["vp"]), int(r["mp_diff"]), int(r["mp"]), int(r["absent"]),
                     int(r["penalty_vp"]), int(r["penalty_mp"]), r["withdrawn"] == "yes")
                    for r in rows]


def test_standings_and_results_csv_carry_penalties_withdrawals_and_byes(
        server: ServerProcess, evening: str) -> None:
    standings = list(csv.DictReader(io.StringIO(
        server.http.get(f"/tournaments/{evening}/standings.csv").text)))
    assert {"penalty_vp", "penalty_mp", "withdrawn"} <= set(standings[0])
    by_pair = {int(row["pair"]): row for row in standings}
    assert (by_pair[2]["penalty_vp"], by_pair[2]["penalty_mp"]) == ("1", "50")
    assert by_pair[5]["withdrawn"] == "yes" and by_pair[1]["withdrawn"] == ""
    results = list(csv.DictReader(io.StringIO(
        server.http.get(f"/tournaments/{evening}/results.csv").text)))
    byes = [row for row in results if row["source"] == "bye"]
    assert byes and all((row["table"], row["mp_ns"], row["vp_ns"]) == ("bye", "355", "14")
                        for row in byes)
    absences = [(row["round"], row["table"], row["ns"], row["mp_ns"], row["vp_ns"])
                for row in results if row["source"] == "absent"]
    assert absences == [("1", "absent", "10", "-355", "6")]  # 20 − the bye's VP, −its MP
    # every pair's VP and MP difference follow from results.csv and the penalties
    vp: dict[int, int] = dict.fromkeys(by_pair, 0)
    diff: dict[int, int] = dict.fromkeys(by_pair, 0)
    for row in results:
        if row["source"] in ("bye", "absent"):
            vp[int(row["ns"])] += int(row["vp_ns"])
            diff[int(row["ns"])] += int(row["mp_ns"])
            continue
        ns, ew, mp = int(row["ns"]), int(row["ew"]), int(row["mp_ns"]) - int(row["mp_ew"])
        vp[ns], vp[ew] = vp[ns] + int(row["vp_ns"]), vp[ew] + int(row["vp_ew"])
        diff[ns], diff[ew] = diff[ns] + mp, diff[ew] - mp
    for pair, row in by_pair.items():
        assert int(row["vp"]) == vp[pair] - int(row["penalty_vp"]), pair
        assert int(row["mp_diff"]) == diff[pair] - int(row["penalty_mp"]), pair


def test_a_held_duplicate_round_stays_out_without_the_key(server: ServerProcess) -> None:
    """No key set: whoever downloads may be a player still at a table (as with the PDFs)."""
    made = server.http.post("/tournaments/", data={"name": "Carte uguali",
                                                   "schedule": "mitchell:1", "duplicate": "1"})
    tid = made.headers["location"].split("/")[2]
    ok(server, tid, "pairs", pairs="A / B\nC / D\nE / F\nG / H")
    ok(server, tid, "rounds")
    ok(server, tid, "results", round="1", table="1", ns_mp="1200", ew_mp="900")
    doc = download(server, tid, "federation.json").json()
    assert {p["played"] for p in doc["ranking"]} == {0} and not doc["event"]["final"]
    ok(server, tid, "results", round="1", table="2", ns_mp="500", ew_mp="700")
    doc = download(server, tid, "federation.json").json()
    assert {p["played"] for p in doc["ranking"]} == {1} and doc["event"]["final"]
    assert {p["dup"] is not None for p in doc["ranking"]} == {True}
    assert server.http.get("/tournaments/no-such-evening/federation.csv").status_code == 404


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``burraco serve`` with the director's key set in its environment."""
    folder = tmp_path_factory.mktemp("federation-keyed")
    process = ServerProcess(f"sqlite:///{folder / 'club.db'}", folder / "server.log")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(KEY_ENV, KEY)
        process.start()
    yield process
    process.stop()


def test_only_the_director_gets_the_register_and_the_downloads(keyed: ServerProcess) -> None:
    director: dict[str, Any] = {"cookies": {KEY_COOKIE: KEY}}
    with httpx.Client(base_url=keyed.base, timeout=30, **director) as desk, \
            httpx.Client(base_url=keyed.base, timeout=30) as anyone:
        made = desk.post("/tournaments/", data={"name": "Serata", "schedule": "mitchell:1"})
        tid = made.headers["location"].split("/")[2]
        desk.post(f"/tournaments/{tid}/pairs", data={"pairs": "A / B\nC / D"})
        for path in ("register", "federation.csv", "federation.json"):
            assert anyone.get(f"/tournaments/{tid}/{path}").status_code == 403, path
            assert desk.get(f"/tournaments/{tid}/{path}").status_code == 200, path
        refused = anyone.post(f"/tournaments/{tid}/register/terms", data={"fee": "99"})
        assert refused.status_code == 403 and "99" not in refused.text
        page = desk.get(f"/tournaments/{tid}/register").text
        assert "name='fee' size='7' value='0.00'" in page  # nothing changed
