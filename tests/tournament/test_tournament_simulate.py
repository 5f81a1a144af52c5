"""``burraco tournament simulate``: a whole event with bots, end to end, tiny parameters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from burraco.cli import main
from burraco.engine.deal import Deal
from burraco.engine.rules import Rules
from burraco.tournament.model import Settings
from burraco.tournament.schedule import Schedule
from burraco.tournament.simulate import TableJob, deal_for, simulate


def test_simulated_event_through_the_public_command(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "event.json"
    db = f"sqlite:///{tmp_path / 'sim.db'}"
    code = main(["tournament", "simulate", "--pairs", "5", "--schedule", "mitchell:2,danish:1",
                 "--hands", "1", "--vp-table", "test table:30,90,150,210,300,400,500,650,800,1000",
                 "--bots", "random", "--jobs", "1", "--no-progress", "--json", str(out_file),
                 "--db", db])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Final ranking" in out
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert [row["rank"] for row in data["standings"]] == [1, 2, 3, 4, 5]
    assert {"rank", "pair", "vp", "mp_diff"} <= set(data["standings"][0])
    assert len(data["matches"]) == 3 * 2, "5 pairs: two matches and a bye per round"
    assert len(data["byes"]) == 3
    match = data["matches"][0]
    assert set(match) == {"round", "table", "ns", "ew", "mp", "vp"}
    assert sum(match["vp"]) == 20
    total_vp = sum(row["vp"] for row in data["standings"])
    assert total_vp == 6 * 20 + 3 * 14
    code = main(["tournament", "standings", "--db", db, "--json"])
    stored = json.loads(capsys.readouterr()[0])
    assert stored["status"] == "finished"
    assert [r["vp"] for r in stored["standings"]] == [r["vp"] for r in data["standings"]]


def test_simulation_is_the_same_with_one_or_two_processes() -> None:
    settings = Settings("sim", hands=3, schedule=Schedule.parse("mitchell:1,danish:1"),
                        duplicate=True, seed=4)
    one = simulate(settings, pairs=4, bots=["random"], jobs=1)
    two = simulate(settings, pairs=4, bots=["random"], jobs=2)
    assert one.results and sorted(one.results, key=lambda r: (r.round, r.table)) == sorted(
        two.results, key=lambda r: (r.round, r.table))
    assert one.finished


def test_duplicate_rounds_deal_the_same_cards_at_every_table() -> None:
    rules = Rules.preset("fibur").for_players(4)

    def deals(duplicate: bool, table: int, round_number: int = 1) -> list[Deal]:
        job = TableJob(round_number, table, ("random",) * 4, 3, "fibur", 9, duplicate)
        return [deal_for(job, k, rules) for k in range(3)]

    assert deals(True, 1) == deals(True, 2) == deals(True, 7)
    assert deals(True, 1) != deals(True, 1, round_number=2)
    assert deals(False, 1) != deals(False, 2)
    assert len({d.dealer for d in deals(True, 1)}) == 3, "the deal passes round the table"


def test_bad_simulation_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "simulate", "--pairs", "1", "--no-progress"]) == 2
    assert "--pairs must be at least 2" in capsys.readouterr()[1]
    assert main(["tournament", "simulate", "--pairs", "4", "--bots", "genius",
                 "--no-progress"]) == 2
    assert "unknown bot level 'genius'" in capsys.readouterr()[1]
    assert main(["tournament", "simulate", "--pairs", "4", "--schedule", "mitchell:3",
                 "--no-progress"]) == 1
    assert "at most 2 Mitchell rounds" in capsys.readouterr()[1]


def test_duplicate_simulation_ranks_by_the_duplicate_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "dup.json"
    code = main(["tournament", "simulate", "--pairs", "6", "--schedule", "mitchell:1,danish:1",
                 "--hands", "3", "--bots", "random,basic", "--duplicate", "--jobs", "2",
                 "--no-progress", "--json", str(out_file)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "dup" in out.splitlines()[1]
    data = json.loads(out_file.read_text(encoding="utf-8"))
    dups = [row["dup"] for row in data["standings"]]
    assert dups == sorted(dups, reverse=True)
    assert abs(sum(dups)) < 0.5, "duplicate scores of a field add up to zero"
    assert {row["name"].split("(")[1] for row in data["standings"]} == {"random)", "basic)"}
