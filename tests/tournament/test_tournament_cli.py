"""The director's evening through ``burraco tournament`` (public commands, a real SQLite file)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from burraco.cli import main
from burraco.tournament.service import Director


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'club.db'}"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["tournament", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _snapshot(db: str) -> object:
    director = Director.open(db)
    try:
        return director.load(director.latest())
    finally:
        director.close()


def test_an_evening_from_the_command_line(db: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "create", "Torneo di burraco a coppie", "--db", db,
                       "--schedule", "mitchell:3,danish:1")
    assert code == 0 and out.strip() == "torneo-di-burraco-a-coppie"
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("# evening list\nRossi / Bianchi\nVerdi & Neri\nGialli\nBlu\nRosa\n",
                     encoding="utf-8")
    code, out, _ = run(capsys, "register", "--db", db, "--file", str(pairs), "Viola / Ciano")
    assert code == 0
    assert out.splitlines()[0].split() == ["1", "Viola", "/", "Ciano"]
    assert len(out.splitlines()) == 6

    for number in (1, 2, 3, 4):
        code, out, _ = run(capsys, "start-round", "--db", db, "--json")
        assert code == 0
        seating = json.loads(out)
        assert seating["round"] == number
        assert seating["movement"] == ("danish" if number == 4 else "mitchell")
        for table in seating["tables"]:
            ns_mp = 900 + 100 * table["table"] + 5 * number
            code, out, err = run(capsys, "result", "--db", db, str(table["table"]), str(ns_mp),
                                 "700", "--pairs", str(table["ns"]), str(table["ew"]))
            assert code == 0, err
        assert "complete" in out
        code, out, _ = run(capsys, "standings", "--db", db)
        assert code == 0
        assert ("Final ranking" if number == 4 else f"Standings (round {number} done)") in out

    code, out, _ = run(capsys, "standings", "--db", db, "--json")
    data = json.loads(out)
    assert data["status"] == "finished"
    assert [row["rank"] for row in data["standings"]] == [1, 2, 3, 4, 5, 6]
    assert sum(row["vp"] for row in data["standings"]) == 4 * 3 * 20

    code, out, _ = run(capsys, "standings", "--db", db)
    assert out.startswith("Torneo di burraco a coppie — Final ranking")

    html = tmp_path / "print.html"
    results = tmp_path / "results.csv"
    code, out, _ = run(capsys, "export", "--db", db, "--csv", "-", "--html", str(html),
                       "--results-csv", str(results))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 6 and rows[0]["rank"] == "1"
    assert rows[0]["vp"] == str(data["standings"][0]["vp"])
    assert len(list(csv.DictReader(results.open(encoding="utf-8")))) == 12
    page = html.read_text(encoding="utf-8")
    assert "<h2>Final ranking</h2>" in page and "Round 4 — danish" in page

    code, out, _ = run(capsys, "list", "--db", db, "--json")
    assert json.loads(out)[0]["status"] == "finished"


def test_a_correction_replaces_the_result(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "create", "Club", "--db", db, "--schedule", "mitchell:1")
    run(capsys, "register", "--db", db, "A", "B", "C", "D")
    run(capsys, "start-round", "--db", db)
    assert run(capsys, "result", "--db", db, "1", "1200", "900")[0] == 0
    code, out, _ = run(capsys, "result", "--db", db, "1", "900", "1200", "--correct")
    assert code == 0 and "VP 7–13 (corrected)" in out
    code, out, _ = run(capsys, "show", "--db", db, "--json")
    assert json.loads(out)["tables"][0]["vp"] == [7, 13]


@pytest.mark.parametrize(("args", "message"), [
    (["result", "1", "1234", "900"], "the NS score 1234 is not a multiple of 5"),
    (["result", "1", "1200", "900", "--vp", "12", "8"],
     "VP 12–8 do not follow the table 'FIBur 3 smazzate (RULES.md §11.2 table A)': MP "
     "1200 – 900 (difference 300, band 255–350) give 13–7"),
    (["result", "1", "1200", "900", "--pairs", "31", "3"], "no pair 31 in this tournament"),
    (["result", "1", "1200", "900", "--pairs", "1", "4"], "so the EW pair is 3, not 4"),
    (["result", "7", "1200", "900"], "round 1 has no table 7 (tables: 1, 2)"),
    (["result", "1", "1200", "900", "--round", "2"], "round 2 has not started"),
    (["result", "1", "12OO", "900"], "the NS score must be a whole number, not '12OO'"),
    (["result", "1", "1200", "900", "--hands", "400:300,400:300"],
     "2 smazzate given, the matches have 3"),
    (["result", "1", "1200", "900", "--hands", "400-300,400:300,400:300"],
     "smazzata 1 '400-300': expected NS:EW"),
    (["result", "2", "500", "500", "--correct"], "has no result to correct"),
    (["start-round"], "round 1 is not over: no result yet at table(s) 1, 2"),
    (["register", "Late pair"], "registration closed when round 1 was drawn"),
    (["standings", "-t", "nope"], "no tournament 'nope' (known: club)"),
])
def test_bad_input_is_refused_with_a_clear_message_and_changes_nothing(
        db: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    run(capsys, "create", "Club", "--db", db, "--schedule", "mitchell:2")
    run(capsys, "register", "--db", db, "A", "B", "C", "D")
    run(capsys, "start-round", "--db", db)
    before = _snapshot(db)
    code, out, err = run(capsys, *args, "--db", db)
    assert code == 1
    assert out == ""
    assert message in err
    assert err.startswith(f"burraco tournament {args[0]}: ")
    assert _snapshot(db) == before


@pytest.mark.parametrize(("args", "message"), [
    (["--schedule", "mitchell:3,swiss:1"], "unknown movement 'swiss'"),
    (["--schedule", "mitchell"], "give the number of rounds"),
    (["--hands", "5"], "no official VP table is known for matches of 5 smazzate"),
    (["--hands", "2", "--vp-table", "club:1,2"], "needs 10 bounds"),
    (["--tie-breaks", "mp_diff,coin"], "unknown tie-break 'coin'"),
    (["--bye-mp", "354"], "multiple of 5"),
])
def test_bad_tournament_settings_create_nothing(db: str, capsys: pytest.CaptureFixture[str],
                                                args: list[str], message: str) -> None:
    code, _, err = run(capsys, "create", "Club", "--db", db, *args)
    assert code == 1 and message in err
    code, out, _ = run(capsys, "list", "--db", db)
    assert code == 0 and out == ""


def test_a_bad_name_in_a_list_registers_nobody(db: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "create", "Club", "--db", db)
    code, _, err = run(capsys, "register", "--db", db, "A", "B", "a")
    assert code == 1 and "a pair named 'a' is already registered" in err
    code, out, _ = run(capsys, "show", "--db", db)
    assert "0 pairs registered" in out


def test_two_hand_event_with_a_named_club_table(db: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "create", "Two", "--db", db, "--hands", "2", "--vp-table",
                       "Circolo 2 smazzate:30,90,150,210,300,400,500,650,800,1000")
    assert code == 0 and "VP table Circolo 2 smazzate" in err
    run(capsys, "register", "--db", db, "A", "B")
    code, _, err = run(capsys, "create", "Bad", "--db", db, "--schedule", "mitchell:1",
                       "--id", "Bad Id")
    assert code == 1 and "use lowercase letters, digits and dashes" in err


def test_concurrent_directors_do_not_lose_updates(db: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "create", "Club", "--db", db, "--schedule", "mitchell:1")
    run(capsys, "register", "--db", db, "A", "B", "C", "D")
    run(capsys, "start-round", "--db", db)
    one, two = Director.open(db), Director.open(db)
    tid = one.latest()
    one.record(tid, 1, 1, 1200, 900)
    two.record(tid, 1, 2, 500, 700)  # a second process, loaded after the first wrote
    t = one.load(tid)
    assert {(r.table, r.mp) for r in t.results} == {(1, (1200, 900)), (2, (500, 700))}
    one.close()
    two.close()
