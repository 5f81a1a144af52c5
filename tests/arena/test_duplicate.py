"""Duplicate matches: the same cards twice with the sides swapped; seeded; parallel-safe."""

from __future__ import annotations

from burraco.arena.duplicate import MatchSpec, play_match, run_matches, summarize
from burraco.arena.runner import IllegalBotAction, play_hand
from burraco.bots.base import make_bot
from burraco.engine.actions import DRAW
from burraco.engine.deal import deal_seeded
from burraco.engine.state import HandState


def _spec(a: str, b: str, index: int, *, players: int = 2, hands: int = 1) -> MatchSpec:
    return MatchSpec(a, b, players, "fibur", hands, 42, index)


def test_a_bot_against_itself_with_the_same_seeds_is_an_exact_tie() -> None:
    """Each deal is played twice with the sides swapped: a deterministic bot against itself
    plays both tables alike, so the two sides' match points are equal."""
    for index in range(3):
        result = play_match(_spec("basic", "basic", index, hands=2))
        assert result.hands == 4
        assert result.a_mp == result.b_mp  # basic is deterministic: same cards, same play


def test_matches_replay_exactly_and_do_not_depend_on_the_number_of_processes() -> None:
    specs = [_spec("random", "basic", i) for i in range(4)]
    one = run_matches(specs, jobs=1)
    two = run_matches(specs, jobs=2)
    assert [(r.index, r.a_mp, r.b_mp) for r in one] == [(r.index, r.a_mp, r.b_mp) for r in two]


def test_basic_beats_random_in_most_of_twenty_duplicate_matches() -> None:
    """A statistical smoke test, deterministic by seed (strength is measured by the arena)."""
    results = run_matches([_spec("basic", "random", i) for i in range(20)], jobs=2)
    summary = summarize("basic", "random", 2, results, 1.0)
    assert summary["win_rate"] >= 0.75
    assert summary["mp_diff_per_hand"] > 0


def test_summary_has_every_figure_from_a_side() -> None:
    results = run_matches([_spec("advanced", "basic", i, players=4) for i in range(2)])
    s = summarize("advanced", "basic", 4, results, 2.0)
    assert set(s) >= {"a", "b", "players", "matches", "win_rate", "win_rate_ci",
                      "mp_diff_per_hand", "mp_diff_ci", "hands_per_s", "latency_ms"}
    assert s["players"] == 4 and s["matches"] == 2 and s["hands"] == 4
    lo, hi = s["win_rate_ci"]
    assert 0 <= lo <= s["win_rate"] <= hi <= 1
    assert set(s["latency_ms"]) == {"advanced", "basic"}
    assert s["latency_ms"]["advanced"]["p50"] <= s["latency_ms"]["advanced"]["p95"]


def test_an_illegal_bot_action_is_reported_as_a_defect() -> None:
    class Cheater:
        name = "cheater"

        def act(self, view: object, legal: object) -> object:
            return DRAW if view.phase == "play" else legal[0]  # type: ignore[attr-defined,index]

    bots = [Cheater(), make_bot("basic", seed=1)]
    try:
        play_hand(HandState.start(deal_seeded(1, players=2)), bots)  # type: ignore[list-item]
    except IllegalBotAction as exc:
        assert "cheater" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an illegal action went through")
