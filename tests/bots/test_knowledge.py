"""What a seat reads from the public history and the table, card tracking."""

from __future__ import annotations

from botplay import position, random_state

from burraco.bots.knowledge import (
    face_weights,
    hidden_hand_sizes,
    read_history,
    unseen_face_counts,
)
from burraco.engine.actions import parse_action
from burraco.engine.cards import parse_face
from burraco.engine.views import view


def _play(state, *texts: str):  # type: ignore[no-untyped-def]
    for text in texts:
        state.apply_in_place(parse_action(text))
    return state


def test_history_records_discards_declined_piles_and_pickups_per_seat() -> None:
    state = position(hands=["5H 9C KD", "7S 7D 2C QH"], pile="8C", phase="draw")
    _play(state, "draw", "discard 9C")
    assert read_history(view(state, 1)).declined[0] == [parse_face("8C")]
    _play(state, "pickup", "discard QH")
    history = read_history(view(state, 0))
    assert history.discards[0] == [parse_face("9C")]
    # once taken, the first up-card's face is no longer in any view or move text
    assert history.pickups[1] == [(-1, parse_face("9C"))]
    assert history.discards[1] == [parse_face("QH")]
    assert history.turns == [1, 1]


def test_live_cards_leave_out_everything_the_seat_can_locate() -> None:
    state = position(hands=["5H 5H 9C", "7S 7D"], melds={1: ["4S 5S 6S"]}, pile="9C")
    live = unseen_face_counts(view(state, 0), state.rules)
    assert live[parse_face("5H")] == 0  # both in its hand
    assert live[parse_face("9C")] == 0  # one held, one in the pile
    assert live[parse_face("5S")] == 1  # one on the table
    assert live[parse_face("7S")] == 2  # the opponent's cards are unseen


def test_hidden_hand_sizes_leave_out_known_cards() -> None:
    state = position(hands=["5H 9C KD", "7S 7D 2C QH"], known={1: "7S 7D"})
    assert hidden_hand_sizes(view(state, 0)) == [0, 2]


def test_a_discarded_rank_weighs_less_a_picked_up_top_more() -> None:
    state = random_state(21, 2, 80)
    seen = view(state, 0)
    history = read_history(seen)
    weights = face_weights(seen, 1)
    for face in history.discards[1]:
        if face != 52 and face % 13 != 1:
            assert weights[face] < 1.0
    assert weights[52] == 1.0  # wilds are never inferred
    assert all(w > 0 for w in weights)
