"""The installed ``burraco`` console script, run as a real subprocess.

Checks what a referee's script sees: exit codes, one JSON line on stdout and
nothing else there, messages on stderr.  The executable is the one installed
next to the running Python (``pip install -e '.[dev]'`` creates it).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from burraco.engine import HandState, deal_seeded, legal_actions
from burraco.engine.records import record_of

BIN = Path(sys.executable).parent / ("burraco.exe" if sys.platform == "win32" else "burraco")


class Done:
    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    @property
    def json(self) -> Any:
        assert self.out.endswith("\n") and self.out.count("\n") == 1, self.out
        return json.loads(self.out)


def burraco(*argv: str, stdin: str | None = None) -> Done:
    assert BIN.exists(), f"{BIN} is missing: run `pip install -e '.[dev]'`"
    proc = subprocess.run(
        [str(BIN), *argv], input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )
    return Done(proc)


def played_record(seed: int, players: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = HandState.start(deal_seeded(seed, players=players))
    while not state.is_over:
        state.apply_in_place(rng.choice(legal_actions(state)))
    return record_of(state)


# --- meld -----------------------------------------------------------------------------------

def test_meld_valid() -> None:
    done = burraco("meld", "5H", "JK", "6H", "7H")
    assert (done.code, done.err) == (0, "")
    assert done.out == (
        '{"valid": true, "kind": "sequence", "arrangement": "JK(=4H) 5H 6H 7H", "wilds": 1, '
        '"burraco": null, "card_points": 45, "bonus": 0}\n'
    )


def test_meld_quoted_string_and_onto() -> None:
    assert burraco("meld", "5H JK 6H 7H").json["arrangement"] == "JK(=4H) 5H 6H 7H"
    done = burraco("meld", "--onto", "6C JK(=7C) 8C", "7C", "10C")
    assert done.code == 0
    assert done.json["arrangement"] == "6C 7C 8C JK(=9C) 10C"


def test_meld_invalid_exit_1() -> None:
    done = burraco("meld", "--onto", "6C JK(=7C) 8C", "10C")
    assert done.code == 1
    assert done.json["valid"] is False and done.json["reason"]
    table = burraco("meld", "--onto", "6C 7D 8C", "9C")
    assert table.code == 1 and "table meld" in table.json["reason"]


def test_meld_unparseable_exit_2() -> None:
    done = burraco("meld", "5H", "XX", "7H")
    assert (done.code, done.out) == (2, "")
    assert "'XX'" in done.err


# --- score ----------------------------------------------------------------------------------

def test_score_closing_side() -> None:
    done = burraco("score", "--melds", "4C 5C 6C 7C 8C 9C 10C / KD KH KS", "--hand", "3S 9D",
                   "--closed", "--pozzetto", "taken")
    assert done.code == 0
    data = done.json
    assert [data[k] for k in ("melds", "bonuses", "closing", "pozzetto", "hand", "total")] == [
        80, 200, 100, 0, -15, 365]


def test_score_errors() -> None:
    closed = burraco("score", "--melds", "3H 4H 5H", "--hand", "", "--closed",
                     "--pozzetto", "taken")
    assert (closed.code, closed.out) == (1, "") and "burraco" in closed.err
    bad = burraco("score", "--melds", "3H 4H 5Q", "--hand", "", "--pozzetto", "taken")
    assert (bad.code, bad.out) == (2, "") and "'5Q'" in bad.err


# --- vp -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("hands", "diff", "vp"), [("3", "55", [11, 9]), ("4", "2005", [20, 0])])
def test_vp(hands: str, diff: str, vp: list[int]) -> None:
    done = burraco("vp", "--hands", hands, diff)
    assert (done.code, done.err) == (0, "")
    assert done.out == json.dumps({"vp": vp}) + "\n"


def test_vp_errors() -> None:
    table = burraco("vp", "--hands", "5", "55")
    assert (table.code, table.out) == (1, "") and "5 smazzate" in table.err
    two = burraco("vp", "--hands", "2", "125")  # RULES.md §11.2 table C
    assert (two.code, two.out) == (0, json.dumps({"vp": [12, 8]}) + "\n")
    for diff, word in (("52", "multiple of 5"), ("-5", "negative")):
        done = burraco("vp", "--hands", "3", diff)
        assert (done.code, done.out) == (2, "") and word in done.err


# --- replay ---------------------------------------------------------------------------------

def test_replay_file_and_stdin(tmp_path: Path) -> None:
    record = played_record(1, 4)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = burraco("replay", str(path))
    assert (done.code, done.err) == (0, "")
    data = done.json
    assert (data["valid"], data["moves"]) == (True, len(record["moves"]))
    assert data["state"]["phase"] == "over" and data["result"]["sides"]
    piped = burraco("replay", "-", stdin=json.dumps(record))
    assert piped.code == 0 and piped.json == data


def test_replay_illegal_move_exit_1(tmp_path: Path) -> None:
    record = played_record(2, 2)
    record["moves"].insert(1, "pickup")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = burraco("replay", str(path))
    assert done.code == 1
    assert {k: done.json[k] for k in ("valid", "index", "move")} == {
        "valid": False, "index": 1, "move": "pickup"}


def test_replay_malformed_exit_2(tmp_path: Path) -> None:
    record = played_record(2, 2)
    record["deal"]["hands"][1][0] = "QX"
    bad_card = burraco("replay", "-", stdin=json.dumps(record))
    assert (bad_card.code, bad_card.out) == (2, "") and "deal.hands[1]" in bad_card.err
    not_json = burraco("replay", "-", stdin="{oops")
    assert (not_json.code, not_json.out) == (2, "") and "JSON" in not_json.err
    missing = burraco("replay", str(tmp_path / "none.json"))
    assert (missing.code, missing.out) == (2, "")


# --- rules and usage ------------------------------------------------------------------------

def test_rules_list_and_show() -> None:
    listing = burraco("rules", "list")
    assert listing.code == 0 and "fibur" in listing.out.splitlines()
    assert "fibur" in burraco("rules", "list", "--json").json
    show = burraco("rules", "show", "--json", "fibur")
    assert show.code == 0
    names = [o["name"] for o in show.json["options"]]
    assert "target" in names and all(o["section"] for o in show.json["options"])
    text = burraco("rules", "show", "--lang", "en")
    assert text.code == 0 and text.out.startswith("preset fibur: FIBur Italian code")
    italian = burraco("rules", "show", "--lang", "it")
    assert italian.out.startswith("regole fibur: Codice italiano FIBur")
    english_docs = {line.split("] ", 1)[1] for line in text.out.splitlines()[1:]}
    italian_docs = {line.split("] ", 1)[1] for line in italian.out.splitlines()[1:]}
    assert not english_docs & italian_docs, "every option described in Italian"
    assert burraco("rules", "show", "--json", "--lang", "it").json == show.json  # JSON: English


def test_usage_errors_exit_2() -> None:
    for argv in ([], ["nosuch"], ["meld", "--rules", "nope", "5H 6H 7H"], ["rules", "show", "x"]):
        done = burraco(*argv)
        assert (done.code, done.out) == (2, "")
        assert "usage:" in done.err
    assert burraco("--help").code == 0
