"""Tuning the club player's numbers (burraco.arena.tune): the knobs reach play, CMA-ES runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.arena.tune import KNOBS, default_params, params_of, score_population, spec_of, tune
from burraco.bots.advanced import Params
from burraco.bots.base import make_bot
from burraco.bots.expert import ExpertBot


def test_every_knob_starts_at_the_club_players_number() -> None:
    defaults = default_params()
    assert set(defaults) == {k.name for k in KNOBS}
    assert params_of([0.0] * len(KNOBS)) == {k: round(v, 4) for k, v in defaults.items()}
    for knob in KNOBS:
        assert knob.low <= knob.default <= knob.high
        assert knob.value(100.0) == knob.high and knob.value(-100.0) == knob.low


def test_the_defaults_spelled_out_play_exactly_as_the_club_player() -> None:
    spec = spec_of("advanced", default_params())
    assert score_population([spec], "advanced", players=2, matches=3, seed=5, jobs=1) == [0.0]


def test_the_evaluations_numbers_change_the_play() -> None:
    """The weights reach the judgement: a player who values burraco at nothing plays otherwise."""
    blind = spec_of("advanced", {"clean_hope": 0.0, "dirty_hope": 0.0, "wild_value": 0.0})
    scores = score_population([blind], "advanced", players=2, matches=4, seed=5, jobs=1)
    assert scores[0] != 0.0


def test_the_expert_plays_its_rollouts_with_its_numbers() -> None:
    bot = make_bot("expert:clean_hope=200,iterations=4", seed=1)
    assert isinstance(bot, ExpertBot)
    assert bot.policy.params == Params(clean_hope=200.0)
    with pytest.raises(ValueError, match="bad options"):
        make_bot("advanced:no_such_number=3", seed=1)


def test_cma_es_runs_generations_of_candidates_on_shared_deals() -> None:
    pytest.importorskip("cma")
    seen: list[int] = []
    log = tune(players=2, matches=2, generations=2, popsize=4, seed=3, jobs=1,
               report=lambda g: seen.append(g.number))
    assert seen == [1, 2] and len(log) == 2
    for generation in log:
        assert len(generation.scores) == 4
        for knob in KNOBS:
            assert knob.low <= generation.mean[knob.name] <= knob.high
    # the same seed replays the same search
    again = tune(players=2, matches=2, generations=1, popsize=4, seed=3, jobs=1)
    assert again[0].scores == log[0].scores


def test_a_named_set_of_numbers_is_a_bot_option_and_later_options_win() -> None:
    from burraco.bots.advanced import AdvancedBot
    from burraco.bots.tuned import NUMBER_SETS

    tuned = NUMBER_SETS["tuned"][2]
    assert set(tuned) == {k.name for k in KNOBS}
    bot = make_bot("advanced:numbers=tuned,danger_scale=1", seed=1)
    assert isinstance(bot, AdvancedBot)
    assert bot.numbered.at(2).params == Params(**{**tuned, "danger_scale": 1.0})
    # a player count the set has no numbers for plays with the club player's own (and overrides)
    assert bot.numbered.at(3).params == Params(danger_scale=1.0)
    expert = make_bot("expert:numbers=tuned,iterations=4", seed=1)
    assert isinstance(expert, ExpertBot) and expert.numbered.at(2).params == Params(**tuned)
    with pytest.raises(ValueError, match="unknown numbers 'best'"):
        make_bot("expert:numbers=best", seed=1)
    with pytest.raises(ValueError, match="bad options"):
        make_bot("advanced:numbers=tuned,no_such_number=2", seed=1)


def test_the_expert_plays_the_tuned_numbers_and_expert_2026_the_hand_set_ones() -> None:
    """docs/bots.md, "Tuned numbers": the expert's default is the tuned set (at 2 players; the
    club player's own elsewhere); the expert before it stays playable as ``expert-2026``."""
    from burraco.bots.tuned import NUMBER_SETS

    expert, before = make_bot("expert", seed=1), make_bot("expert-2026", seed=1)
    assert isinstance(expert, ExpertBot) and isinstance(before, ExpertBot)
    assert expert.name == "expert" and before.name == "expert-2026"
    assert expert.numbered.at(2).params == Params(**NUMBER_SETS["tuned"][2])
    assert before.numbered.at(2).params == Params()
    for players in (3, 4, 5, 6):
        assert expert.numbered.at(players).params == before.numbered.at(players).params == Params()
    # options still reach it, and its numbers may be named back
    assert make_bot("expert-2026:danger_scale=2", seed=1).numbered.at(2).params == Params(
        danger_scale=2.0)
    assert make_bot("expert:numbers=handset", seed=1).numbered.at(2).params == Params()
    with pytest.raises(ValueError, match="expert-2026"):
        make_bot("champion", seed=1)


def test_the_tuned_club_player_plays_its_numbers_at_the_table() -> None:
    """The set reaches play: the tuned club player does not play as the plain one at 2 players."""
    scores = score_population(["advanced:numbers=tuned"], "advanced", players=2, matches=4,
                              seed=5, jobs=1)
    assert scores[0] != 0.0


def test_the_script_logs_every_generation_and_validates_its_result(tmp_path: Path) -> None:
    pytest.importorskip("cma")
    out = tmp_path / "tune.json"
    script = Path(__file__).resolve().parents[2] / "scripts" / "tune_weights.py"
    done = subprocess.run(
        [sys.executable, str(script), "--players", "2", "--matches", "1", "--generations", "2",
         "--popsize", "2", "--jobs", "1", "--seed", "4", "--validate", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "generation 2:" in done.stdout and "result: advanced:" in done.stdout
    log = json.loads(out.read_text())
    assert [g["generation"] for g in log["generations"]] == [1, 2]
    assert log["validation"]["matches"] == 2 and log["result"] == log["generations"][-1]["mean"]
