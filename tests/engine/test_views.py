"""Views are the only window on a hand and never show a hidden card (RULES.md §6.4, STYLE §6)."""

from __future__ import annotations

import random

import pytest

from burraco.engine.actions import Discard
from burraco.engine.deal import deal_seeded
from burraco.engine.events import event_for, event_to_dict
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.engine.views import hidden_from, view


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
    """Every step of 60 random hands: each seat's and the spectator's view shows no card the
    seat may not see (other hands, the stock, an untaken or unseen pozzetto)."""
    for seed in range(60):
        rng = random.Random(seed)
        state = HandState.start(deal_seeded(seed, players=players))
        while True:
            for seat in [None, *range(players)]:
                leaked = view(state, seat).visible_cards() & hidden_from(state, seat)
                assert not leaked, (seed, seat, leaked)
            if state.is_over:
                break
            before = state.clone()
            events = state.apply_in_place(rng.choice(legal_actions(state)))
            for seat in [None, *range(players)]:
                hidden = hidden_from(before, seat) & hidden_from(state, seat)
                for event in events:
                    shown = event_for(event, seat)
                    if shown is None:
                        continue
                    cards = _cards_in(event_to_dict(shown))
                    assert not cards & hidden, (seed, seat, shown)


def _cards_in(data: dict[str, object]) -> set[int]:
    out: set[int] = set()
    for key in ("card", "cards"):
        value = data.get(key)
        if isinstance(value, int) and value >= 0:
            out.add(value)
        elif isinstance(value, list):
            out.update(v for v in value if isinstance(v, int))
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
                assert not set(state.pending[seat]) & mine.visible_cards()
                assert mine.hand_counts[seat] == 11
                partner = (seat + 2) % 4
                while not state.is_over and state.turn != partner:
                    state.apply_in_place(rng.choice(legal_actions(state)))
                while not state.is_over and state.turn == partner:
                    state.apply_in_place(rng.choice(legal_actions(state)))
                if not state.is_over:
                    assert set(view(state, seat).pozzetto_seen) == set(state.pending[seat])
                    assert not set(state.pending[seat]) & view(state, partner).visible_cards()
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
