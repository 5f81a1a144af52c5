"""Views are the only window on a hand and never show a hidden card (RULES.md §6.4, STYLE §6).

A view's ids are labels, not physical cards, so these checks are by face
(``burraco.audit.faces``); which copy is where is tested by counterfactual worlds in
tests/audit/test_secrecy_audit.py.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from burraco.audit.faces import view_problems, visible_faces
from burraco.engine.actions import Discard
from burraco.engine.cards import CARD_FACE, parse_face
from burraco.engine.deal import deal_seeded
from burraco.engine.events import event_shown
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.engine.views import view


def _play(seed: int, players: int, steps: int | None = None) -> HandState:
    rng = random.Random(seed)
    state = HandState.start(deal_seeded(seed, players=players))
    n = 0
    while not state.is_over and (steps is None or n < steps):
        state.apply_in_place(rng.choice(legal_actions(state)))
        n += 1
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_ever_shows_a_hidden_card(players: int) -> None:
    """Every step of 60 random hands: each seat's and the spectator's view shows exactly the
    faces the seat may see (its hand, the table, the pile, the faces others are known to hold),
    and every event as the seat sees it names only faces it may see, by text, never by id."""
    for seed in range(60):
        rng = random.Random(seed)
        state = HandState.start(deal_seeded(seed, players=players))
        while True:
            for seat in [None, *range(players)]:
                problems = view_problems(state, seat)
                assert not problems, (seed, seat, problems)
            if state.is_over:
                break
            events = state.apply_in_place(rng.choice(legal_actions(state)))
            for seat in [None, *range(players)]:
                may = visible_faces(state, seat)
                for event in events:
                    shown = event_shown(event, seat)
                    if shown is None:
                        continue
                    assert "card" not in shown and "cards" not in shown, shown
                    faces = Counter(_faces_in(shown))
                    assert not faces - may, (seed, seat, shown)


def _faces_in(data: dict[str, object]) -> list[int]:
    out: list[int] = []
    for key in ("card_text", "cards_text"):
        value = data.get(key)
        if isinstance(value, str):
            out.append(parse_face(value))
        elif isinstance(value, list):
            out += [parse_face(v) for v in value if isinstance(v, str)]
    return out


def test_s6_4_pozzetto_with_the_discard_hidden_from_its_taker_until_partner_discards() -> None:
    """§6.4: a pozzetto taken con lo scarto is hidden from its taker until his partner's
    discard; its cards count in his hand size for everyone."""
    for seed in range(400):
        rng = random.Random(seed)
        state = HandState.start(deal_seeded(seed, players=4))
        while not state.is_over:
            action = rng.choice(legal_actions(state))
            seat = state.turn
            state.apply_in_place(action)
            if isinstance(action, Discard) and state.pending[seat] and not state.is_over:
                mine = view(state, seat)
                assert mine.pozzetto_seen == ()
                assert not view_problems(state, seat)
                assert mine.hand_counts[seat] == 11
                partner = (seat + 2) % 4
                while not state.is_over and state.turn != partner:
                    state.apply_in_place(rng.choice(legal_actions(state)))
                while not state.is_over and state.turn == partner:
                    state.apply_in_place(rng.choice(legal_actions(state)))
                if not state.is_over:
                    seen = view(state, seat).pozzetto_seen
                    assert [CARD_FACE[c] for c in seen] == [CARD_FACE[c] for c in state.pending[
                        seat]]
                    assert view(state, partner).pozzetto_seen == ()
                    assert not view_problems(state, partner)
                return
    pytest.fail("no pozzetto taken with the discard in 400 random hands")


def test_view_of_unknown_seat_is_refused() -> None:
    state = _play(1, 2, steps=3)
    with pytest.raises(ValueError, match="no seat 5"):
        view(state, 5)


def test_view_to_dict_names_cards_in_text() -> None:
    state = _play(3, 4, steps=10)
    data = view(state, 0).to_dict()
    assert data["hand"] and all(isinstance(c, str) for c in data["hand"])
    assert data["hand_counts"][0] == len(data["hand"])
    assert data["stock_count"] == len(state.stock)
