"""Which engine build the tests run against: the pure-Python sources, or the mypyc-compiled
engine when CI points PYTHONPATH at it (``scripts/build-compiled tree``) and says so with
``BURRACO_EXPECT_COMPILED=1``; the same tests then hold for both."""

from __future__ import annotations

import os

import pytest

from burraco.bench.engine import engine_compiled
from burraco.engine import HandState, deal_seeded, legal_actions


def test_the_engine_build_is_the_one_asked_for() -> None:
    expected = os.environ.get("BURRACO_EXPECT_COMPILED") == "1"
    assert engine_compiled() == expected


def test_the_environment_hot_path_is_compiled_with_the_engine() -> None:
    """scripts/compiled-modules.txt lists the environment's masks and observations too."""
    pytest.importorskip("numpy")
    from burraco.env import masks, observation

    for module in (masks, observation):
        assert (module.__file__ or "").endswith(".py") != engine_compiled(), module.__name__


@pytest.mark.skipif(not engine_compiled(), reason="the pure-Python engine is in use")
def test_compiled_engine_plays_a_hand_like_the_sources() -> None:
    import random

    state = HandState.start(deal_seeded(3, players=4))
    rng = random.Random(3)
    while not state.is_over:
        state.apply_in_place(rng.choice(legal_actions(state)))
    assert state.end_reason in {"closed", "stock", "stall"}


@pytest.mark.skipif(engine_compiled(), reason="a compiled class has no __slots__ to compare")
def test_state_fields_list_every_slot() -> None:
    from burraco.engine.state import STATE_FIELDS

    assert tuple(HandState.__slots__) == STATE_FIELDS


def test_bench_compare_openspiel_runs_or_says_what_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import importlib.util
    import json

    from burraco.cli import main

    code = main(["bench", "engine", "--compare-openspiel", "--hands", "4", "--json"])
    out, err = capsys.readouterr()
    if importlib.util.find_spec("pyspiel") is None:
        assert code == 2 and "open_spiel is not importable" in err
        return
    assert code == 0, err
    result = json.loads(out)
    assert result["engine_compiled"] == engine_compiled()
    assert result["decisions_per_s"] > 0 and result["openspiel_gin_rummy_decisions_per_s"] > 0
    assert main(["bench", "engine", "--compare-openspiel", "--players", "2", "--players", "4"]) == 2
