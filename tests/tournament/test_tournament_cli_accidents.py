"""The evening's accidents from ``burraco tournament`` (public commands, a real SQLite file):
a no-show removed, a round drawn by mistake taken back, a late pair, a rename, an arbitral
score and a match cut short by time (RULES.md §8.2, §11.4, §12), each in the director's log."""

from __future__ import annotations

from pathlib import Path

import pytest

from burraco.cli import main
from burraco.tournament.service import Director
from burraco.tournament.table_desk import Desk


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["tournament", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_accidents_from_the_command_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    assert run(capsys, "create", "Giovedì", "--db", db, "--schedule", "mitchell:3")[0] == 0
    names = [f"Coppia {n}" for n in range(1, 9)]
    assert run(capsys, "register", "--db", db, *names)[0] == 0
    code, out, _ = run(capsys, "remove", "--db", db, "Coppia 4")
    assert code == 0 and "removed" in out
    assert run(capsys, "start-round", "--db", db)[0] == 0
    code, out, _ = run(capsys, "undo-round", "--db", db)
    assert code == 0 and "round 1 taken back" in out
    code, _, err = run(capsys, "undo-round", "--db", db)
    assert code == 1 and "no round has been drawn" in err
    assert run(capsys, "start-round", "--db", db)[0] == 0
    director = Director.open(db)
    tables = [x.number for x in director.load(director.latest()).rounds[0].tables]
    director.close()
    assert len(tables) == 3  # 7 pairs: one sits out
    for table in tables:
        assert run(capsys, "result", "--db", db, str(table), "700", "300")[0] == 0
    code, out, _ = run(capsys, "late", "--db", db, "Ritardo: Anna, Bruno", "--mode", "bye")
    assert code == 0 and "plays from round 2" in out
    code, _, err = run(capsys, "late", "--db", db, "Ancora", "--mode", "bye")
    assert code == 1 and "no empty place" in err
    code, out, _ = run(capsys, "rename", "--db", db, "2", "--name", "Seconda")
    assert code == 0 and "Coppia 2 → Seconda" in out
    code, out, _ = run(capsys, "arbitral", "--db", db, "1", "1", "14", "6")
    assert code == 0 and "arbitral VP 14-6" in out
    code, _, err = run(capsys, "arbitral", "--db", db, "1", "1", "21", "6")
    assert code == 1 and "between 0 and 20" in err
    assert run(capsys, "start-round", "--db", db)[0] == 0
    code, out, _ = run(capsys, "result", "--db", db, "2", "900", "500", "--hands",
                       "400:200,500:300", "--timed-out")
    assert code == 0, out
    director = Director.open(db)
    tid = director.latest()
    t = director.load(tid)
    assert [p.name for p in t.pairs][:4] == ["Coppia 1", "Seconda", "Coppia 3", "Coppia 5"]
    assert t.pair(8).name == "Ritardo" and t.pair(8).players == ("Anna", "Bruno")
    assert t.result(1, 1).arbitral and len(t.result(2, 2).hands) == 2  # type: ignore[union-attr]
    logged = [e.what.split()[0] for e in Desk(director).history(tid)]
    assert {"remove", "undo", "late", "rename", "arbitral"} <= set(logged)
    director.close()
