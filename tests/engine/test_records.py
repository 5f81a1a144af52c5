"""Records round-trip and replay to the same state; bad files are refused by name."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from burraco.engine.actions import parse_action
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


# --- version 2: who discarded each pile card; a pozzetto taken with the discard --------------

def test_version_1_position_still_reads_and_a_lone_pile_card_is_the_up_card() -> None:
    data = _position(hands=[["KD", "5S", "4H"], ["3D", "9D"]], melds=[["8C 9C 10C"], []],
                     pile=["JC"], taker=[None, None], pozzetti=2)
    data.update(version=1, rules="fibur-international")
    state = start_state(data)
    assert state.pile_from == [-1]
    # the lone first up-card needs a new meld (§14.1): JC only attaches, so it is refused
    assert [str(a) for a in legal_actions(state)] == ["draw"]


def test_pile_from_says_a_lone_pile_card_was_discarded() -> None:
    data = _position(hands=[["KD", "5S", "4H"], ["3D", "9D"]], melds=[["8C 9C 10C"], []],
                     pile=["JC"], taker=[None, None], pozzetti=2)
    data.update(version=2, rules="fibur-international")
    data["position"]["pile_from"] = [1]
    state = start_state(data)
    assert state.pile_from == [1]
    # a real discard needs only a usable card (§14.1): JC attaches to 8C 9C 10C
    assert [str(a) for a in legal_actions(state)] == ["draw", "pickup"]
    data["moves"] = ["pickup", "attach 1 JC", "discard KD"]
    assert replay(data).ok


def _pending_position() -> dict[str, Any]:
    """2p: seat 0 went to the pozzetto with the discard (hand empty, pozzetto unseen)."""
    data = _position(hands=[[], ["3D", "9D", "9C"]], melds=[["4C 5C 6C 7C 8C 9C 10C"], []],
                     pile=["KS"], taker=[0, None], pozzetti=2)
    pos = data["position"]
    pos["pending_pozzetti"] = [pos["pozzetti"].pop(0), []]
    pos["pile_from"] = [0]
    pos["turn"] = 1
    return data


def test_position_with_a_pozzetto_taken_with_the_discard_not_yet_seen() -> None:
    from burraco.engine.events import PozzettoSeen
    from burraco.engine.views import view

    data = _pending_position()
    state = start_state(data)
    assert state.pending[0] and not state.pending_seen[0] and state.hands[0] == []
    # §6.4: hidden from its taker until the opponent's discard, counted as 11 cards
    seen = view(state, 0)
    assert seen.pozzetto_seen == () and seen.hand_counts[0] == 11
    state, events = state.apply(parse_action("draw"))
    state, events = state.apply(parse_action("discard 3D"))
    assert any(isinstance(e, PozzettoSeen) and e.seat == 0 for e in events)
    assert len(view(state, 0).pozzetto_seen) == 11
    state, _ = state.apply(parse_action("draw"))
    assert len(state.hands[0]) == 12


def test_pending_pozzetto_fields_are_checked() -> None:
    data = _pending_position()
    data["position"]["pozzetto_taker"] = [None, None]
    data["position"]["pozzetti"].append(["AH"])  # keep the count check from firing first
    with pytest.raises(RecordError, match="pending_pozzetti"):
        start_state(data)
    data = _pending_position()
    data["position"]["pending_seen"] = [False, True]
    with pytest.raises(RecordError, match="pending_seen"):
        start_state(data)
    data = _pending_position()
    data["position"]["pile_from"] = [0, 1]
    with pytest.raises(RecordError, match="pile_from"):
        start_state(data)
    data = _pending_position()
    data["version"] = 3
    with pytest.raises(RecordError, match="reads 1 and 2"):
        start_state(data)


@pytest.mark.parametrize("players", [2, 4])
def test_position_of_a_hand_in_progress_reads_back_the_same(players: int) -> None:
    from burraco.engine.records import position_of

    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = HandState.start(deal_seeded(seed, players=players))
        for _ in range(rng.randrange(5, 120)):
            if state.is_over:
                break
            state.apply_in_place(rng.choice(legal_actions(state)))
        if state.is_over:
            continue
        again = start_state(json.loads(json.dumps(position_of(state))))
        assert [str(a) for a in legal_actions(again)] == [str(a) for a in legal_actions(state)]
        assert state_summary(again)["hands"] == state_summary(state)["hands"]
        assert again.pile_from == state.pile_from and again.pending_seen == state.pending_seen
        assert [len(p) for p in again.pending] == [len(p) for p in state.pending]
        checked += 1
    assert checked > 10
