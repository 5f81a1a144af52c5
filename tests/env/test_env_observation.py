"""The flat observation: its slices, its bounds, and that a
seat's observation never depends on cards the seat cannot see."""

from __future__ import annotations

import dataclasses
import doctest
import random
from pathlib import Path

import numpy as np
import pytest
from envplay import states_of_hand

from burraco.bots.determinize import determinize
from burraco.engine.cards import FACES, JOKER, card_face
from burraco.engine.deal import deal_seeded
from burraco.engine.rules import FIBUR, Rules
from burraco.engine.state import HandState
from burraco.engine.views import view
from burraco.env import observation
from burraco.env.burraco_v0 import raw_env, view_without_moves
from burraco.env.catalog import MAX_MELDS
from burraco.env.observation import MELD_FEATURES, OBS_SIZE, SLICES, Encoder, slice_of

DOC = Path(__file__).resolve().parents[2] / "docs" / "research-env.md"


def test_the_slices_tile_the_observation() -> None:
    stop = 0
    for s in SLICES.values():
        assert s.start == stop and s.stop > s.start
        stop = s.stop
    assert stop == OBS_SIZE == 2132
    assert SLICES["melds"].stop - SLICES["melds"].start == 2 * MAX_MELDS * len(MELD_FEATURES)


def test_the_doc_names_every_slice_and_meld_feature() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in (*SLICES, *MELD_FEATURES):
        assert f"`{name}`" in text, name
    assert f"OBS_SIZE = {OBS_SIZE}" in text


def _obs(encoder: Encoder, state: HandState, seat: int) -> np.ndarray:
    return encoder.encode(view_without_moves(state, seat))


@pytest.mark.parametrize(("players", "preset"), [
    (2, "fibur"), (3, "fibur"), (4, "fibur"), (4, "champion"), (5, "fibur"), (6, "fibur")])
def test_slices_agree_with_the_view_and_stay_in_bounds(players: int, preset: str) -> None:
    rules = Rules.preset(preset)
    env = raw_env(players, rules)
    space = env.observation_spaces["player_0"]["observation"]
    for policy in ("uniform", "melder"):
        for state in states_of_hand(3 + players, players, rules.for_players(players), policy):
            for seat in range(players):
                v = view(state, seat)
                obs = env.encoder.encode(v)
                assert space.contains(obs)
                assert np.array_equal(env.encoder.encode_state(state, seat), obs)
                lay = env.layout
                hand = np.bincount([card_face(c) for c in v.hand], minlength=FACES)
                assert (slice_of(obs, "hand", lay) == hand).all()
                assert slice_of(obs, "pile_count", lay)[0] == len(v.pile)
                assert slice_of(obs, "stock_count", lay)[0] == v.stock_count
                unseen = slice_of(obs, "unseen", lay)
                assert (unseen >= 0).all()
                if not state.is_over:
                    hidden = v.stock_count + sum(len(p) for p in state.pozzetti) \
                        + slice_of(obs, "hidden_counts", lay).sum()
                    assert unseen.sum() == hidden
                melds = slice_of(obs, "melds", lay)
                mine = v.melds[v.side_of[seat]]
                assert melds[0, :len(mine), :2].sum() == len(mine)
                assert melds[0, len(mine):].sum() == 0
                assert slice_of(obs, "table", lay)[0].sum() == sum(len(m.cards) for m in mine)
                assert melds.sum(axis=(1, 2)).astype(bool).sum() == sum(map(bool, v.melds))
                if state.turn == seat and not state.is_over:
                    assert slice_of(obs, "my_turn", lay)[0] == 1
                if players in (3, 5, 6):
                    partners = slice_of(obs, "partners", lay)
                    assert (partners.sum(axis=1) == [1] * players + [0] * (
                        lay.seats - players)).all()
                    for other in range(players):
                        rel = (other - seat) % players
                        same = v.side_of[other] == v.side_of[seat]
                        assert (partners[rel, 0] == 1) == same
            if state.is_over:
                break


def _swap_hidden(state: HandState, owner: int, rng: random.Random) -> HandState | None:
    """A copy where one card ``owner`` holds unknown to others trades places with a stock card
    of another face (None if there is no such pair)."""
    known = set(state.known[owner])
    mine = [c for c in state.hands[owner] if c not in known]
    rng.shuffle(mine)
    for card in mine:
        others = [c for c in state.stock if card_face(c) != card_face(card)]
        if others:
            other = rng.choice(others)
            copy = state.clone()
            hand = copy.hands[owner]
            hand[hand.index(card)] = other
            copy.stock[copy.stock.index(other)] = card
            return copy
    return None


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_seat_never_sees_a_change_of_hidden_cards(players: int) -> None:
    """Swap a card between another seat's hand and the stock, or resample every hidden card
    (the bots' determinization): the seat's observation and mask stay the same."""
    rng = random.Random(players)
    env = raw_env(players)
    env.reset(seed=0)
    checked = changed = 0
    for k, policy in enumerate(("uniform", "melder", "uniform")):
        for state in states_of_hand(20 + k, players, FIBUR.for_players(players), policy):
            if state.is_over:
                break
            for seat in range(players):
                real = env.encode(state, seat)
                sample = determinize(view(state, seat), rng, rules=env.rules)
                seen = env.encode(sample, seat)
                assert np.array_equal(real["observation"], seen["observation"])
                assert np.array_equal(real["action_mask"], seen["action_mask"])
                owner = (seat + 1 + rng.randrange(players - 1)) % players
                swapped = _swap_hidden(state, owner, rng)
                if swapped is None:
                    continue
                after = env.encode(swapped, seat)
                assert np.array_equal(real["observation"], after["observation"])
                assert np.array_equal(real["action_mask"], after["action_mask"])
                checked += 1
                changed += not np.array_equal(
                    _obs(env.encoder, state, owner), _obs(env.encoder, swapped, owner))
    assert checked > 500 and changed == checked  # the owner does see his card change


def test_a_pozzetto_taken_with_the_discard_stays_hidden_until_seen() -> None:
    """Resampling is the seat's own unseen pozzetto too: the observation stays the same."""
    rng = random.Random(4)
    env = raw_env(4)
    found = 0
    for seed in range(40):
        for state in states_of_hand(seed, 4, FIBUR, "melder"):
            if state.is_over:
                break
            for seat in range(4):
                if state.pending[seat] and not state.pending_seen[seat]:
                    found += 1
                    sample = determinize(view(state, seat), rng)
                    assert np.array_equal(env.encode(state, seat)["observation"],
                                          env.encode(sample, seat)["observation"])
        if found >= 20:
            break
    assert found >= 20


def test_the_view_without_moves_is_the_view_without_its_history() -> None:
    state = next(s for i, s in enumerate(states_of_hand(1, 4, FIBUR)) if i == 60)
    history = state.history
    quick = view_without_moves(state, 2)
    full = view(state, 2)
    assert state.history is history and quick.moves == () and full.moves
    assert quick == dataclasses.replace(full, moves=())  # fields, not __slots__: compiled too
    encoder = Encoder(FIBUR)
    assert np.array_equal(encoder.encode(quick), encoder.encode(full))


def test_the_joker_copies_and_deck_counts() -> None:
    encoder = Encoder(FIBUR)
    state = HandState.start(deal_seeded(2, players=2))
    obs = encoder.encode(view(state, 0))
    unseen = slice_of(obs, "unseen") + slice_of(obs, "hand") + slice_of(obs, "pile")
    assert unseen[JOKER] == 4 and (unseen[:JOKER] == 2).all()


def test_doctests() -> None:
    assert doctest.testmod(observation).failed == 0
