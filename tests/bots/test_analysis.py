"""``burraco analyze``: the strongest level's marks on a seat's decisions, from that seat's
view only.  The proof: the same hand with every card the seat never saw permuted (other
hands, stock, pozzetti) replays to the same views for the seat, and gets the same marks."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from burraco.analysis.review import Settings, analyze, seat_decisions
from burraco.arena.runner import play_hand
from burraco.bots.base import make_bot
from burraco.cli import main
from burraco.engine.actions import parse_action
from burraco.engine.deal import deal_seeded
from burraco.engine.records import record_of, start_state
from burraco.engine.rules import Rules
from burraco.engine.state import HandState

BURRACO = str(Path(sys.executable).with_name("burraco"))
RULES = Rules.preset("fibur")
QUICK = Settings(level="expert:iterations=4", samples=4, seed=3)


def _record(seed: int, players: int = 2) -> dict[str, Any]:
    deal = deal_seeded(seed, players=players, rules=RULES)
    bots = [make_bot("basic" if s % 2 else "advanced", seed=s) for s in range(players)]
    return record_of(play_hand(HandState.start(deal, RULES), bots))


def _in_sight(state: HandState, seat: int) -> set[int]:
    """Physical cards in places ``seat`` looks at: its hand, a pozzetto it may look at, the
    melds and the pile (a card taken with the pile was seen there first)."""
    out = set(state.hands[seat]) | set(state.pile)
    if state.pending_seen[seat]:
        out |= set(state.pending[seat])
    for side in state.melds:
        for meld in side:
            out |= set(meld.cards)
    return out


def _never_seen_by(data: dict[str, Any], seat: int) -> set[int]:
    """Cards ``seat`` never sees before the hand is over."""
    state = start_state(data)
    seen: set[int] = set()
    for text in data["moves"]:
        seen |= _in_sight(state, seat)
        state.apply_in_place(parse_action(text))
    return set(state.deal.all_cards()) - seen


def _permuted(data: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """The record with the cards ``seat`` never saw shuffled among their places, if its moves
    still replay (a move naming a face picks a physical copy, so rarely they do not)."""
    hidden = sorted(_never_seen_by(data, seat))
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    deal = start_state(data).deal

    def moved(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(swap.get(c, c) for c in cards)

    other = replace(deal, hands=tuple(moved(h) for h in deal.hands),
                    pozzetti=tuple(moved(p) for p in deal.pozzetti), stock=moved(deal.stock),
                    seed=None)
    state = HandState.start(other, RULES)
    try:
        for text in data["moves"]:
            state.apply_in_place(parse_action(text))
    except ValueError:
        return None
    return record_of(state)


def _views(data: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [v.to_dict() for _, v, _, _, _ in seat_decisions(data, seat)]


@pytest.mark.parametrize(("seed", "seat"), [(10, 0), (4, 1)])
def test_permuting_the_cards_the_seat_never_saw_changes_no_mark(seed: int, seat: int) -> None:
    original = _record(seed)
    rng = random.Random(seed)
    permuted = None
    while permuted is None:
        permuted = _permuted(original, seat, rng)
    assert permuted["deal"]["card_ids"] != original["deal"]["card_ids"]
    assert _views(permuted, seat) == _views(original, seat)  # the seat cannot tell them apart
    first, second = analyze(original, seat, QUICK), analyze(permuted, seat, QUICK)
    assert first.decisions and first.to_dict() == second.to_dict()
    assert any(d.samples for d in first.decisions)  # the search ran on imagined deals


def test_the_marks_are_the_strongest_levels_move_and_a_loss_only_beyond_the_noise() -> None:
    result = analyze(_record(5), 1, QUICK)
    assert result.decisions
    assert result.total_loss == pytest.approx(sum(d.loss for d in result.decisions))
    for d in result.decisions:
        if d.played == d.best:
            assert d.loss == 0 and d.samples == 0
        elif d.loss > 0:
            assert d.loss == d.gain and d.gain > QUICK.z * d.se and d.gain > QUICK.margin
        else:
            assert d.gain <= QUICK.margin or d.gain <= QUICK.z * d.se
    assert any(d.played != d.best for d in result.decisions)  # basic errs somewhere


def test_play_writes_a_record_and_analyze_prints_the_documented_json(tmp_path: Path) -> None:
    record = tmp_path / "hand.json"
    done = subprocess.run([BURRACO, "play", "--players", "2", "--bots", "basic,advanced",
                           "--seed", "9", "--record", str(record)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"Record written to {record}" in done.stdout
    data = json.loads(record.read_text())
    assert data["seats"] == ["basic", "advanced"] and data["moves"]
    done = subprocess.run([BURRACO, "analyze", str(record), "--seat", "0", "--json",
                           "--level", "expert:iterations=4", "--samples", "4"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["seat"] == 0 and out["decisions"]
    assert set(out["decisions"][0]) >= {"index", "played", "best", "loss"}
    assert out["total_loss"] == pytest.approx(sum(d["loss"] for d in out["decisions"]), abs=1)
    indexes = [d["index"] for d in out["decisions"]]
    assert indexes == sorted(indexes) and all(0 <= i < len(data["moves"]) for i in indexes)


def test_play_match_writes_one_record_per_hand(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert main(["play", "--players", "2", "--bots", "basic", "--seed", "2", "--match",
                 "--target", "300", "--record", str(record)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written and written[0] == "game-1.json"
    assert all(json.loads((tmp_path / name).read_text())["moves"] for name in written)


@pytest.mark.parametrize(("argv", "message"), [
    (["--seat", "5"], "seat 5: the record has seats 0 to 1"),
    (["--samples", "1"], "--samples 1: give at least 2"),
    (["--level", "grandmaster"], "--level: unknown bot level 'grandmaster'"),
])
def test_analyze_usage_errors_name_what_was_wrong(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        message: str) -> None:
    record = tmp_path / "hand.json"
    record.write_text(json.dumps(_record(3)))
    assert main(["analyze", str(record), *argv]) == 2
    assert message in capsys.readouterr().err


def test_analyze_refuses_a_file_that_is_not_a_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["analyze", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    bad.write_text(json.dumps({"format": "something-else"}))
    assert main(["analyze", str(bad)]) == 2
    assert "format" in capsys.readouterr().err


def test_the_permutation_check_would_catch_an_analyser_that_peeks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same check against an analyser that plays out the real hidden cards: its marks
    change with them (so the test above can fail)."""
    import burraco.analysis.review as review

    original = _record(10)
    rng = random.Random(10)
    permuted = None
    while permuted is None:
        permuted = _permuted(original, 0, rng)

    def peeking(data: dict[str, Any]) -> Any:
        states = {}
        state = start_state(data)
        for k, text in enumerate(data["moves"]):
            states[k] = state.clone()
            state.apply_in_place(parse_action(text))
        return lambda seen, rng, **_: states[len(seen.moves)].clone()

    marks = []
    for data in (original, permuted):
        monkeypatch.setattr(review, "determinize", peeking(data))
        marks.append(analyze(data, 0, QUICK).to_dict())
    assert marks[0] != marks[1]
