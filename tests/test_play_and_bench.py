"""The main job (`burraco play`) and the engine benchmark, run as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BURRACO = str(Path(sys.executable).with_name("burraco"))


def run(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    """The command as a terminal whose locale is ``lang`` runs it (English by default)."""
    env = {**os.environ, "LANG": lang, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run([BURRACO, *args], capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("players", ["2", "4"])
def test_play_shows_a_whole_hand_with_its_score_sheet(players: str) -> None:
    done = run("play", "--players", players, "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "Hand over:" in done.stdout
    assert " draw" in done.stdout and " discard " in done.stdout
    assert done.stdout.count(" = ") == 2  # one score line per side


def test_play_speaks_the_terminals_language() -> None:
    italian = run("play", "--players", "2", "--seed", "3", lang="it_IT.UTF-8")
    assert italian.returncode == 0, italian.stderr
    assert italian.stdout.startswith("Burraco, 2 giocatori, regole fibur")
    assert "Smazzata finita: chiusura" in italian.stdout and "Hand over" not in italian.stdout
    assert " draw" in italian.stdout  # the actions stay in the record's notation
    spanish = run("play", "--players", "2", "--seed", "3", "--lang", "es", lang="it_IT.UTF-8")
    assert "Mano 1" in spanish.stdout and "Smazzata 1" not in spanish.stdout


def test_play_is_replayable_by_seed() -> None:
    assert run("play", "--seed", "11").stdout == run("play", "--seed", "11").stdout


def test_play_match_reaches_the_target() -> None:
    done = run("play", "--players", "2", "--seed", "2", "--match", "--target", "505")
    assert done.returncode == 0, done.stderr
    assert "win the match" in done.stdout


def test_play_rejects_a_wrong_bot_list() -> None:
    done = run("play", "--players", "4", "--bots", "basic,random")
    assert done.returncode == 2
    assert "--bots" in done.stderr


def test_bench_engine_json_has_every_figure() -> None:
    done = run("bench", "engine", "--hands", "3", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for label in ("2p", "4p"):
        assert set(figures[label]) >= {
            "hands_per_s", "decisions_per_s", "decisions_per_hand", "legal_actions_us",
            "apply_us", "clone_us", "peak_mb"}
        assert figures[label]["decisions_per_hand"] > 10


def test_bench_pool_seats_a_crowd_and_refuses_a_lone_cluster() -> None:
    done = run("bench", "pool", "--players", "120", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["players"] == 120 and figures["store"] == "memory"
    assert figures["tables"] > 30 and figures["tables_per_cpu_s"] > 0
    alone = run("bench", "pool", "--processes", "2")
    assert alone.returncode == 2 and "--redis" in alone.stderr


def test_bench_events_times_an_arena_and_a_swiss() -> None:
    done = run("bench", "events", "--players", "24", "--rounds", "3", "--minutes", "10",
               "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["arena"]["bench"] == "arena" and figures["swiss"]["bench"] == "swiss"
    assert run("bench", "events", "--players", "2").returncode == 2
    short = run("bench", "events", "--minutes", "0")
    assert short.returncode == 2 and "--minutes at least 1" in short.stderr
    long = run("bench", "events", "--minutes", "721")
    assert long.returncode == 2 and "an arena has 1 to 720 minutes" in long.stderr
