"""determinize(view, rng): a full state the seat cannot tell from the real one."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from botplay import random_state, states_of_hand

from burraco.bots.determinize import DeterminizeError, determinize
from burraco.bots.knowledge import seen_cards, unseen_cards
from burraco.engine.cards import card_face
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import view


def _deck(state: HandState) -> list[int]:
    return sorted(range(state.rules.packs * 54))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_sample_shows_the_seat_exactly_its_own_view(players: int) -> None:
    """At every step of bot-played hands, for every seat: view(sample) == view, cards conserved."""
    rng = random.Random(players)
    for seed in range(3):
        for state in states_of_hand(seed, players):
            if state.is_over:
                break
            for seat in range(players):
                seen = view(state, seat)
                sample = determinize(seen, rng)
                assert view(sample, seat) == seen, (seed, seat)
                assert sorted(sample.all_cards()) == _deck(state)


@pytest.mark.parametrize("preset", ["champion", "fibur-international"])
def test_other_rules_presets_are_sampled_consistently(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(5)
    for players in (2, 4):
        for state in states_of_hand(1, players, rules=rules):
            if state.is_over:
                break
            seen = view(state, state.turn)
            sample = determinize(seen, rng, rules=rules)
            assert view(sample, state.turn) == seen
            assert [str(a) for a in legal_actions(sample)] == [
                str(a) for a in legal_actions(state)]


def test_known_cards_sit_in_the_hand_of_the_seat_that_took_them() -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(6):
        for state in states_of_hand(seed, 4):
            if state.is_over or not any(state.known):
                continue
            seen = view(state, 0)
            sample = determinize(seen, rng)
            for seat in range(4):
                assert set(seen.known[seat]) <= set(sample.hands[seat])
                checked += len(seen.known[seat])
    assert checked > 50


def test_unseen_cards_are_exactly_the_complement_of_what_the_seat_sees() -> None:
    state = random_state(3, 4, 60)
    seen = view(state, 1)
    rules = state.rules
    unseen = unseen_cards(seen, rules)
    assert set(unseen) | seen_cards(seen) == set(_deck(state))
    assert not set(unseen) & seen_cards(seen)
    sample = determinize(seen, random.Random(0))
    placed = set(sample.stock)
    for pozzetto in sample.pozzetti:
        placed |= set(pozzetto)
    for seat in range(4):
        placed |= set(sample.pending[seat])
        if seat != 1:
            placed |= set(sample.hands[seat]) - set(seen.known[seat])
    assert placed == set(unseen)


def test_hidden_cards_really_vary_between_samples_and_the_seed_fixes_them() -> None:
    state = random_state(4, 2, 30)
    seen = view(state, 0)
    a = determinize(seen, random.Random(1))
    b = determinize(seen, random.Random(2))
    again = determinize(seen, random.Random(1))
    assert a.hands[1] != b.hands[1] or a.stock != b.stock
    assert a.hands == again.hands and a.stock == again.stock and a.pozzetti == again.pozzetti


def test_a_sample_plays_to_the_end_with_the_engine() -> None:
    rng = random.Random(9)
    for players in (2, 3, 4, 5, 6):
        state = random_state(players, players, 40)
        sample = determinize(view(state, state.turn), rng)
        while not sample.is_over:
            sample.apply_in_place(rng.choice(legal_actions(sample)))
        assert sorted(sample.all_cards()) == _deck(state)


def test_evidence_shifts_the_odds_but_never_breaks_consistency() -> None:
    """A seat that discarded a rank is less likely to be given that rank."""
    state = random_state(11, 2, 50)
    seen = view(state, 0)
    from burraco.bots.knowledge import read_history

    thrown = read_history(seen).discards[1]
    assert thrown
    ranks = {f % 13 for f in thrown if f != 52}
    weighted: Counter[str] = Counter()
    rng = random.Random(0)
    for _ in range(300):
        for evidence in (True, False):
            sample = determinize(seen, rng, evidence=evidence)
            hits = sum(1 for c in sample.hands[1]
                       if c not in seen.known[1] and card_face(c) != 52
                       and card_face(c) % 13 in ranks)
            weighted[str(evidence)] += hits
    assert weighted["True"] < weighted["False"]


def test_a_finished_hand_cannot_be_sampled() -> None:
    state = random_state(2, 2, 10_000)
    assert state.is_over
    with pytest.raises(DeterminizeError):
        determinize(view(state, 0), random.Random(0))
