"""The arena at every player count (2 to 6): who sits where at each table of a deal, how a
match is scored when partnerships change during the hand (3 and 5 players, RULES.md §13.2,
§13.3) or there are three pairs (6 players, §13.4)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from burraco.arena.duplicate import MatchSpec, play_match, run_matches, summarize, tables_of
from burraco.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot_protocol_example.py"
MISBEHAVING = Path(__file__).resolve().parents[1] / "bots" / "outside" / "misbehaving.py"


def test_two_sides_swap_once_and_more_units_take_turns_alone_both_ways() -> None:
    assert tables_of(2) == [{0}, {1}]
    assert tables_of(4) == [{0, 2}, {1, 3}]
    three = tables_of(3)
    assert three[:3] == [{0}, {1}, {2}] and three[3:] == [{1, 2}, {0, 2}, {0, 1}]
    assert len(tables_of(5)) == 10 and tables_of(5)[5] == {1, 2, 3, 4}
    assert tables_of(6) == [{0, 3}, {1, 4}, {2, 5}, {1, 2, 4, 5}, {0, 2, 3, 5}, {0, 1, 3, 4}]
    for players in (3, 5, 6):  # every seat is played by A as often as by B
        tables = tables_of(players)
        for seat in range(players):
            assert sum(seat in a for a in tables) * 2 == len(tables)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_a_deterministic_bot_against_itself_ties_exactly(players: int) -> None:
    """The scoring is symmetric: same cards, same play, so the same match points for both."""
    result = play_match(MatchSpec("basic", "basic", players, "fibur", 1, 7, 0))
    assert result.hands == len(tables_of(players))
    assert result.a_mp == result.b_mp


@pytest.mark.parametrize("players", [3, 5, 6])
def test_basic_beats_random_at_every_player_count(players: int) -> None:
    results = run_matches([MatchSpec("basic", "random", players, "fibur", 1, 3, i)
                           for i in range(4)])
    summary = summarize("basic", "random", players, results, 1.0)
    assert summary["hands"] == 4 * len(tables_of(players))
    assert summary["win_rate"] == 1.0 and summary["mp_diff_per_hand"] > 100


def test_an_outside_bot_plays_a_three_player_arena(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    code = main(["arena", f"cmd:{sys.executable} {EXAMPLE}", "basic", "--players", "3",
                 "--matches", "1", "--json", str(out), "--no-progress"])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["hands"] == 6 and data["faults"] == {} and data["marked_matches"] == []
    assert "MARKED" not in capsys.readouterr().out


def test_a_lying_outside_bot_marks_the_match_and_the_arena_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    liar = f"cmd:{sys.executable} {MISBEHAVING} liar 4"
    code = main(["arena", liar, "basic", "--matches", "2", "--json", str(out),
                 "--no-progress"])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["marked_matches"] == [0, 1] and data["faults"][liar] > 0
    assert f"MARKED: {liar} lost {data['faults'][liar]} decision(s)" in capsys.readouterr().out
