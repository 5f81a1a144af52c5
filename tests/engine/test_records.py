"""Records round-trip and replay to the same state; bad files are refused by name."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.records import RecordError, record_of, replay, start_state, state_summary
from burraco.engine.state import HandState


def _finished(seed: int, players: int) -> HandState:
    rng = random.Random(seed)
    state = HandState.start(deal_seeded(seed, players=players))
    while not state.is_over:
        state.apply_in_place(rng.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_every_finished_hand_replays_to_the_same_state(players: int) -> None:
    for seed in range(40):
        state = _finished(seed, players)
        data = json.loads(json.dumps(record_of(state, seats=["a", "b", "c", "d"][:players])))
        again = replay(data)
        assert again.ok, again.error
        assert again.state.all_cards() == state.all_cards()
        assert state_summary(again.state) == state_summary(state)
        assert record_of(again.state, seats=data["seats"]) == data


def test_record_without_card_ids_or_seed_replays_by_faces() -> None:
    state = _finished(5, 4)
    data = record_of(state)
    del data["deal"]["card_ids"]
    del data["deal"]["seed"]
    again = replay(data)
    assert again.ok
    assert state_summary(again.state) == state_summary(state)


def test_seed_only_record_replays() -> None:
    state = _finished(8, 2)
    data: dict[str, Any] = {"players": 2, "deal": {"seed": 8},
                            "moves": [str(a) for a in state.moves()]}
    assert state_summary(replay(data).state) == state_summary(state)


def test_first_illegal_move_is_reported_with_its_index() -> None:
    state = _finished(2, 4)
    data = record_of(state)
    data["moves"].insert(3, "discard 5H")
    result = replay(data)
    assert not result.ok
    assert result.error_index == 3
    assert result.moves_applied == 3
    assert "move 4" in (result.error or "")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="chess"), "format"),
        (lambda d: d.update(version=9), "version"),
        (lambda d: d.update(rules="nope"), "rules"),
        (lambda d: d.update(options={"no_such_option": 1}), "options"),
        (lambda d: d.update(players=3), "players"),
        (lambda d: d.update(dealer=7), "dealer"),
        (lambda d: d["deal"]["hands"][0].__setitem__(0, "ZZ"), "deal.hands"),
        (lambda d: d["deal"]["card_ids"]["hands"][0].__setitem__(0, 999), "deal"),
        (lambda d: d.update(moves="draw"), "moves"),
    ],
)
def test_malformed_records_name_the_field(change: Any, message: str) -> None:
    data = record_of(_finished(4, 4))
    change(data)
    with pytest.raises(RecordError, match=message):
        replay(data)


def test_explicit_deal_missing_a_card_is_refused() -> None:
    data = record_of(_finished(4, 4))
    del data["deal"]["card_ids"]
    data["deal"]["stock"].pop()
    with pytest.raises(RecordError, match="missing"):
        start_state(data)


def _position(hands: list[list[str]], melds: list[list[str]], pile: list[str],
              taker: list[int | None], pozzetti: int) -> dict[str, Any]:
    """A complete position: the cards not placed fill the pozzetti left and the stock."""
    from burraco.engine.cards import card_str, parse_face
    from burraco.engine.melds import parse_meld

    used: list[int] = [parse_face(c) for h in hands for c in h] + [parse_face(c) for c in pile]
    for side in melds:
        for text in side:
            used += [f for f in parse_meld(text).faces()]
    rest = [f % 54 if f % 54 < 52 else 52 for f in range(108)]
    for face in used:
        rest.remove(face)
    rest_text = [card_str(f) for f in rest]
    return {
        "players": 2, "dealer": 1,
        "position": {
            "hands": hands, "melds": melds,
            "pozzetti": [rest_text[11 * k: 11 * k + 11] for k in range(pozzetti)],
            "pozzetto_taker": taker,
            "stock": rest_text[11 * pozzetti:], "pile": pile, "turn": 0, "phase": "draw",
        },
        "moves": [],
    }


def test_position_record_starts_mid_hand_and_plays_on() -> None:
    """A position: melds per side, pozzetti taken, seat to act; moves continue from it."""
    data = _position(
        hands=[["8H", "9H", "KD", "3S"], ["3D", "9D", "9C"]],
        melds=[["4C 5C 6C 7C 8C 9C 10C", "KH KS KC"], ["JK(=5S) 6S 7S"]],
        pile=["10H"], taker=[0, None], pozzetti=1,
    )
    state = start_state(data)
    assert state.turn == 0 and state.phase == "draw"
    assert [str(m) for m in state.melds[0]] == ["4C 5C 6C 7C 8C 9C 10C", "KH KC KS"]
    data["moves"] = ["pickup", "attach 2 KD", "meld 8H 9H 10H"]
    result = replay(data)
    assert result.ok, result.error
    data["moves"].append("discard 3S")
    closed = replay(data)
    assert closed.ok and closed.state.is_over and closed.state.end_reason == "closed"
    sides = closed.result()
    assert sides is not None and sides.sides[0].closing == 100


def test_position_with_cards_missing_is_refused() -> None:
    data = _position(hands=[["8H"], ["3D"]], melds=[[], []], pile=[], taker=[None, None],
                     pozzetti=2)
    data["position"]["stock"].pop()
    with pytest.raises(RecordError, match="cards missing"):
        start_state(data)
